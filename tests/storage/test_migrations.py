"""The Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from topiccrawler.storage import Database
from topiccrawler.storage.db import current_revision, head_revision, upgrade
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


def test_upgrading_an_old_database_keeps_its_rows(database_url):
    db = Database(database_url)
    upgrade(db.engine, "0001")
    with db.engine.begin() as connection:
        connection.execute(
            text(
                "insert into pages (topic, url, url_hash, canonical_url, site, status, "
                "first_seen_at, fetched_at) values ('tax', 'http://a.example/', :h, "
                "'http://a.example/', 'a.example', 200, :t, :t)"
            ),
            {"h": "a" * 40, "t": "2026-01-01 00:00:00"},
        )
    db.upgrade()
    with db.engine.connect() as connection:
        row = connection.execute(text("select url, link_density from pages")).one()
    db.dispose()
    assert current_revision(db.engine) == head_revision()
    assert tuple(row) == ("http://a.example/", None)
