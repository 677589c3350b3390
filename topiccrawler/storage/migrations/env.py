"""Alembic environment: runs on the engine handed over by `storage.db.alembic_config`."""

from alembic import context
from sqlalchemy import create_engine

from topiccrawler.storage.models import Base

engine = context.config.attributes.get("engine")
if engine is None:  # run from the alembic CLI with sqlalchemy.url set
    engine = create_engine(context.config.get_main_option("sqlalchemy.url"))

with engine.begin() as connection:
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # SQLite can't ALTER most things
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
