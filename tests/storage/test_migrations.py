"""The Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from topiccrawler.storage import Database
from topiccrawler.storage.db import current_revision, head_revision
from topiccrawler.storage.models import Base


def test_migrations_match_models(database_url):
    db = Database(database_url)
    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        differences = compare_metadata(context, Base.metadata)
    db.dispose()
    assert differences == []


def test_upgrade_twice_is_a_no_op(sqlite_url):
    db = Database(sqlite_url)
    db.upgrade()
    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    db.dispose()
