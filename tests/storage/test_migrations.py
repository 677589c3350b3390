"""The Alembic migrations build exactly the schema the models describe."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from topiccrawler.storage import Database
from topiccrawler.storage.db import current_revision, head_revision, upgrade
from topiccrawler.storage.models import Base
from topiccrawler.storage.search_index import outside_models


def test_migrations_match_models(database_url):
    db = Database(database_url)
    db.upgrade()
    assert current_revision(db.engine) == head_revision()
    with db.engine.connect() as connection:
        context = MigrationContext.configure(
            connection, opts={"compare_type": True, "include_object": outside_models}
        )
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


def test_stored_body_fingerprints_are_computed_anew(database_url):
    """Fingerprints stored by the BLAKE2b SimHash (before 0010) cannot be compared with
    today's: each is computed again from the stored body, or cleared where no body was kept."""
    from topiccrawler.dedup.simhash import from_signed, simhash

    body = "税务局周一表示，小企业新规五月起施行，此前申报的按旧规办理。" * 12
    db = Database(database_url)
    upgrade(db.engine, "0009")
    with db.engine.begin() as connection:
        for n, kept in enumerate([body, None, "太短"]):
            connection.execute(
                text(
                    "insert into pages (topic, url, url_hash, canonical_url, site, status, "
                    "first_seen_at, fetched_at, body, body_hash) values ('tax', :u, :h, :u, "
                    "'a.example', 200, :t, :t, :b, 12345)"
                ),
                {"u": f"http://a.example/{n}", "h": str(n) * 40, "t": "2026-01-01 00:00:00",
                 "b": kept},
            )  # fmt: skip
        connection.execute(
            text(
                "insert into pages (topic, url, url_hash, canonical_url, site, status, "
                "first_seen_at, fetched_at, body) values ('tax', 'http://a.example/3', :h, "
                "'http://a.example/3', 'a.example', 200, :t, :t, :b)"
            ),
            {"h": "3" * 40, "t": "2026-01-01 00:00:00", "b": body},
        )
    db.upgrade()
    with db.engine.connect() as connection:
        rows = connection.execute(text("select body_hash from pages order by url")).all()
    db.dispose()
    assert [from_signed(r[0]) if r[0] is not None else None for r in rows] == [
        simhash(body),  # computed from the kept body
        None,  # no body kept: unknown
        None,  # a body too short to tell: unknown, as the writer stores it
        None,  # none stored: none computed
    ]
