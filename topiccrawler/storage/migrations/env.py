"""Alembic environment: runs on the engine handed over by `storage.db.alembic_config`."""

from alembic import context
from sqlalchemy import create_engine

from topiccrawler.storage.models import Base
from topiccrawler.storage.search_index import outside_models

engine = context.config.attributes.get("engine")
if engine is None:  # run from the alembic CLI with sqlalchemy.url set
    engine = create_engine(context.config.get_main_option("sqlalchemy.url"))

with engine.begin() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite can't ALTER most things
        compare_type=True,
        include_object=outside_models,  # the full-text index is the store's own
    )
    with context.begin_transaction():
        context.run_migrations()
