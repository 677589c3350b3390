"""What storage knows of feeds and sitemaps (their validators, for conditional GET) and of the
pages their entries name (when each was last fetched), for discovery/."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from topiccrawler.storage.known_urls import as_utc
from topiccrawler.storage.models import CrawlRun, DiscoverySource, Page
from topiccrawler.urls import url_hash

_INSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}
CHUNK = 500  # URL hashes per IN (...) lookup


@dataclass(frozen=True)
class KnownSource:
    site: str
    kind: str
    url: str
    depth: int
    etag: str | None
    last_modified: str | None
    fetched_at: datetime | None
    lastmod: datetime | None  # as its index listed it when it was last read
    status: int | None  # of its last answer


def _known(row: DiscoverySource) -> KnownSource:
    return KnownSource(
        row.site, row.kind, row.url, row.depth, row.etag, row.last_modified,
        as_utc(row.fetched_at), as_utc(row.lastmod), row.status,
    )  # fmt: skip


def last_run_complete(session: Session, topic: str) -> bool:
    """Whether the topic's last finished crawl ran to its end ("finished"): one killed, stopped
    or cut short may have left entries of a feed it read unfetched, so the feed is read whole
    again rather than asked conditionally."""
    reason = session.scalar(
        select(CrawlRun.finish_reason)
        .where(CrawlRun.topic == topic, CrawlRun.finished_at.is_not(None))
        .order_by(CrawlRun.started_at.desc(), CrawlRun.id.desc())
        .limit(1)
    )
    return reason in (None, "finished")


def known_sources(session: Session, topic: str, max_depth: int = 0) -> list[KnownSource]:
    """The topic's feeds and sitemaps found directly (depth ≤ `max_depth`), oldest first."""
    rows = session.scalars(
        select(DiscoverySource)
        .where(DiscoverySource.topic == topic, DiscoverySource.depth <= max_depth)
        .order_by(DiscoverySource.id)
    )
    return [_known(row) for row in rows]


def sources_by_url(session: Session, topic: str, urls: Iterable[str]) -> dict[str, KnownSource]:
    """The stored sources among `urls`, by URL."""
    wanted = _hashes(urls)
    found: dict[str, KnownSource] = {}
    keys = list(wanted)
    for start in range(0, len(keys), CHUNK):
        rows = session.scalars(
            select(DiscoverySource).where(
                DiscoverySource.topic == topic,
                DiscoverySource.url_hash.in_(keys[start : start + CHUNK]),
            )
        )
        for row in rows:
            found[wanted[row.url_hash]] = _known(row)
    return found


def _hashes(urls: Iterable[str]) -> dict[str, str]:
    """URL hash → URL, leaving out what cannot be canonicalised (a hostile list's junk)."""
    hashes = {}
    for url in urls:
        try:
            hashes[url_hash(url)] = url
        except ValueError:
            continue
    return hashes


def record_source(
    session: Session,
    topic: str,
    site: str,
    kind: str,
    url: str,
    depth: int,
    status: int,
    now: datetime,
    etag: str | None = None,
    last_modified: str | None = None,
    entries: int | None = None,
    lastmod: datetime | None = None,
) -> None:
    """Remember a feed's or sitemap's answer: a 200 replaces its validators and entry count, a
    304 only marks it polled. Caller commits."""
    table = DiscoverySource.__table__
    row = {
        "topic": topic, "site": site, "kind": kind, "url": url, "url_hash": url_hash(url),
        "depth": depth, "status": status, "etag": (etag or "")[:255] or None,
        "last_modified": (last_modified or "")[:64] or None, "entries": entries,
        "lastmod": lastmod, "first_seen_at": now, "fetched_at": now, "changed_at": now if status == 200 else None,
    }  # fmt: skip
    if status == 200:
        update = ["site", "kind", "depth", "status", "etag", "last_modified", "entries",
                  "lastmod", "fetched_at", "changed_at"]  # fmt: skip
    else:
        update = ["status", "fetched_at", "lastmod"]
    dialect = session.get_bind().dialect.name
    if dialect in _INSERTS:
        statement = _INSERTS[dialect](table).values(**row)
        statement = statement.on_conflict_do_update(
            index_elements=["topic", "url_hash"],
            set_={column: statement.excluded[column] for column in update},
        )
        session.execute(statement)
        return
    existing = session.scalar(
        select(DiscoverySource.id).where(
            DiscoverySource.topic == topic, DiscoverySource.url_hash == row["url_hash"]
        )
    )
    if existing is None:
        session.execute(table.insert().values(**row))
    else:
        values = {column: row[column] for column in update}
        session.execute(table.update().where(table.c.id == existing).values(**values))


def stored_fetch_times(session: Session, topic: str, urls: Iterable[str]) -> dict[str, datetime]:
    """When each of `urls` that the topic has stored was last fetched, by URL."""
    wanted = _hashes(urls)
    found: dict[str, datetime] = {}
    keys = list(wanted)
    for start in range(0, len(keys), CHUNK):
        rows = session.execute(
            select(Page.url_hash, Page.fetched_at).where(
                Page.topic == topic, Page.url_hash.in_(keys[start : start + CHUNK])
            )
        )
        for key, fetched_at in rows:
            if fetched_at is not None:
                found[wanted[key]] = as_utc(fetched_at)  # type: ignore[assignment]
    return found
