"""Idempotent writes of crawled pages and what hangs off them.

A page is keyed by (topic, url_hash): crawling it again updates its row. Comments and posts are
keyed by (page, content_hash): seeing one again adds nothing. Threads are keyed by (topic,
url_hash) and updated, since their reply and view counts change. On SQLite and PostgreSQL this
is one `INSERT … ON CONFLICT` per row, safe with several crawler processes on one database.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any
from urllib.parse import urljoin

from sqlalchemy import Table, bindparam, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from topiccrawler.dedup.simhash import to_signed
from topiccrawler.items import (
    CommentRecord,
    LinkFailureItem,
    PageCheckedItem,
    PageItem,
    PostRecord,
    SearchResultsItem,
)
from topiccrawler.storage.models import (
    Comment,
    CrawlRun,
    DeadLink,
    ForumPost,
    ForumThread,
    Page,
    SearchQuery,
    SearchResult,
)
from topiccrawler.storage.search_index import forget_changed_pages, index_pages
from topiccrawler.urls import canonical_url, site_of, url_hash

Storable = PageItem | SearchResultsItem | LinkFailureItem | PageCheckedItem

_INSERTS = {"sqlite": sqlite.insert, "postgresql": postgresql.insert}

# Page columns a re-crawl overwrites; first_seen_at and a known duplicate_of_id are kept.
_PAGE_UPDATED = (
    "url", "canonical_url", "site", "status", "content_type", "encoding", "title", "title_key", "body_hash", "body", "link_density",
    "published_at", "published_text", "author", "source", "entrance", "depth", "referrer",
    "relevance", "relevance_detail", "is_relevant", "fetched_at", "crawl_run_id",
    "keywords", "summary", "entities", "etag", "last_modified",
)  # fmt: skip


@dataclass
class WriteCounts:
    """How many rows a batch added or updated, for the crawl's stats."""

    pages: int = 0
    comments: int = 0
    posts: int = 0
    threads: int = 0
    queries: int = 0
    results: int = 0
    failures: int = 0
    checked: int = 0  # pages that answered 304 Not Modified

    def add(self, other: WriteCounts) -> None:
        self.pages += other.pages
        self.comments += other.comments
        self.posts += other.posts
        self.threads += other.threads
        self.queries += other.queries
        self.results += other.results
        self.failures += other.failures
        self.checked += other.checked


def content_hash(*parts: str | None) -> str:
    """SHA-1 over the parts joined by a separator that text does not contain."""
    return hashlib.sha1("\x1f".join(p or "" for p in parts).encode("utf-8")).hexdigest()


def _upsert(
    session: Session, table: Table, row: dict, keys: tuple[str, ...], update: Iterable[str] | None
) -> int | None:
    """Insert `row`, or on a key conflict update `update` columns (None: leave the row alone).

    Returns the row's id when it was inserted or updated, None when an existing row was left.
    """
    dialect = session.get_bind().dialect.name
    if dialect in _INSERTS:
        statement = _upsert_statement(
            dialect, table, keys, None if update is None else tuple(update)
        )
        return session.execute(statement, row).scalar_one_or_none()
    # Other dialects: look up, then insert or update (not safe across processes).
    where = [table.c[k] == row[k] for k in keys]
    existing = session.execute(select(table.c.id).where(*where)).scalar_one_or_none()
    if existing is None:
        return session.execute(table.insert().values(**row).returning(table.c.id)).scalar_one()
    if update is None:
        return None
    session.execute(
        table.update().where(table.c.id == existing).values(**{c: row[c] for c in update})
    )
    return existing


@lru_cache(maxsize=64)
def _upsert_statement(
    dialect: str, table: Table, keys: tuple[str, ...], update: tuple[str, ...] | None
):
    """`INSERT … ON CONFLICT … RETURNING id` for a table, built once: the row comes as bound
    parameters. Built per row with the values in it, the statement cost SQLAlchemy ten times
    what the database took (its cache key covers every value)."""
    statement = _INSERTS[dialect](table)
    if update is None:
        statement = statement.on_conflict_do_nothing(index_elements=list(keys))
    else:
        columns = {c: statement.excluded[c] for c in update}
        statement = statement.on_conflict_do_update(index_elements=list(keys), set_=columns)
    return statement.returning(table.c.id)


def store_page(
    session: Session,
    item: PageItem,
    crawl_run_id: int | None = None,
    now: datetime | None = None,
    index: bool = True,
) -> WriteCounts:
    """Write one page with its comments, posts and listed threads, and (`index`) make them
    searchable in the same transaction; caller commits."""
    return store_batch(session, [item], crawl_run_id, now=now, index=index)


def store_batch(
    session: Session,
    items: Iterable[Storable],
    crawl_run_id: int | None = None,
    *,
    now: datetime | None = None,
    index: bool = True,
    max_failures: int = 3,
) -> WriteCounts:
    """Write items of any kind in their order, in the caller's transaction; the pages' entries
    in the search index (`index`) are written once for all of them, before the caller commits,
    so that a page is searchable exactly when it is stored. `max_failures`: failed fetches
    before a link is dead (store_failure)."""
    items = list(items)
    now = now or datetime.now(UTC)
    pages = [item for item in items if isinstance(item, PageItem)]
    if index and pages:  # a changed text leaves the index while the old one is still stored
        forget_changed_pages(
            session.connection(),
            [(page.topic, url_hash(page.url), page.title, page.body, page.published_at)
             for page in pages],
        )  # fmt: skip
    counts, page_ids = WriteCounts(), []
    for item in items:
        if isinstance(item, PageItem):
            page_counts, page_id = _write_page(session, item, crawl_run_id, now)
            counts.add(page_counts)
            page_ids.append(page_id)
        elif isinstance(item, SearchResultsItem):
            counts.add(store_search(session, item, crawl_run_id))
        elif isinstance(item, LinkFailureItem):
            counts.add(store_failure(session, item, max_failures, now))
        elif isinstance(item, PageCheckedItem):
            counts.add(store_check(session, item))
        else:
            raise TypeError(f"not a storable item: {type(item).__name__}")
    if index and page_ids:
        index_pages(session.connection(), page_ids)
    return counts


def _write_page(
    session: Session, item: PageItem, crawl_run_id: int | None, now: datetime
) -> tuple[WriteCounts, int]:
    """One page's rows (the page, its new comments and posts, its listed threads) and its id."""
    counts = WriteCounts()
    page_table: Table = Page.__table__  # type: ignore[assignment]
    row: dict[str, Any] = {
        "topic": item.topic,
        "url": item.url,
        "url_hash": url_hash(item.url),
        "canonical_url": canonical_url(item.canonical_url or item.url),
        "site": site_of(item.url),
        "status": item.status,
        "content_type": item.content_type,
        "encoding": item.encoding,
        "title": item.title,
        "title_key": item.title_key,
        "body_hash": to_signed(item.body_hash) if item.body_hash else None,
        "body": item.body,
        "published_at": item.published_at,
        "published_text": item.published,
        "author": item.author,
        "source": item.source,
        "link_density": item.link_density,
        "entrance": item.entrance,
        "found_by": item.found_by,  # set when first stored, kept on re-crawls
        "depth": item.depth,
        "referrer": item.referrer,
        "relevance": item.relevance,
        "relevance_detail": item.relevance_detail,
        "is_relevant": item.is_relevant,
        "etag": (item.etag or "")[:255] or None,
        "last_modified": (item.last_modified or "")[:64] or None,
        "keywords": [list(pair) for pair in item.keywords] or None,
        "summary": item.summary,
        "entities": item.entities or None,
        "duplicate_of_id": _page_id(session, item.topic, item.duplicate_of),
        "first_seen_at": now,
        "fetched_at": item.fetched_at,
        "crawl_run_id": crawl_run_id,
    }
    update = list(_PAGE_UPDATED)
    if row["duplicate_of_id"] is not None:
        update.append("duplicate_of_id")
    page_id = _upsert(session, page_table, row, ("topic", "url_hash"), update)
    assert page_id is not None  # an update always returns the row
    forget_failures(session, item.url)
    counts.pages = 1
    counts.comments = _store_records(
        session, Comment.__table__, page_id, item.url, item.comments, now
    )
    counts.posts = _store_records(session, ForumPost.__table__, page_id, item.url, item.posts, now)
    thread_table: Table = ForumThread.__table__  # type: ignore[assignment]
    for thread in item.threads:
        thread_row = {
            "topic": item.topic,
            "list_page_id": page_id,
            "url": thread.url,
            "url_hash": url_hash(thread.url),
            "title": thread.title,
            "author": thread.author,
            "published_text": thread.time,
            "published_at": thread.published_at,
            "replies": thread.replies,
            "views": thread.views,
            "updated_at": now,
        }
        updated = (
            "title",
            "author",
            "published_text",
            "published_at",
            "replies",
            "views",
            "updated_at",
        )
        _upsert(session, thread_table, thread_row, ("topic", "url_hash"), updated)
        counts.threads += 1
    return counts, page_id


def _store_records(
    session: Session,
    table: Any,
    page_id: int,
    page_url: str,
    records: list[CommentRecord] | list[PostRecord],
    now: datetime,
) -> int:
    """Add the comments or posts not stored yet (one statement for them all); returns how
    many were new."""
    rows = []
    for position, record in enumerate(records):
        row = {
            "page_id": page_id,
            "content_hash": content_hash(record.author, record.time, record.text),
            "position": position,
            "text": record.text,
            "author": record.author[:255] if record.author else None,
            "author_url": urljoin(page_url, record.author_url) if record.author_url else None,
            "published_text": record.time[:255] if record.time else None,
            "published_at": record.published_at,
            "first_seen_at": now,
        }
        if isinstance(record, CommentRecord):
            row["reply_to"] = record.reply_to
        else:
            row["accepted"] = record.accepted
            row["votes"] = record.votes
        rows.append(row)
    if not rows:
        return 0
    dialect = session.get_bind().dialect.name
    if dialect not in _INSERTS:
        keys = ("page_id", "content_hash")
        return sum(_upsert(session, table, row, keys, None) is not None for row in rows)
    statement = _upsert_statement(dialect, table, ("page_id", "content_hash"), None)
    return len(session.execute(statement, rows).all())


def _page_id(session: Session, topic: str, url: str | None) -> int | None:
    if not url:
        return None
    return session.execute(_PAGE_ID, {"topic": topic, "key": url_hash(url)}).scalar_one_or_none()


_PAGE_ID = select(Page.id).where(
    Page.topic == bindparam("topic"), Page.url_hash == bindparam("key")
)


def store_search(
    session: Session, item: SearchResultsItem, crawl_run_id: int | None = None
) -> WriteCounts:
    """Write one answered query page and its ranked results; caller commits."""
    query = SearchQuery(
        topic=item.topic,
        engine=item.engine,
        query=item.query,
        page=item.page,
        status=item.status,
        result_count=len(item.hits),
        submitted_at=item.submitted_at,
        crawl_run_id=crawl_run_id,
    )
    session.add(query)
    session.flush()
    for hit in item.hits:
        session.add(
            SearchResult(
                query_id=query.id,
                rank=hit.rank,
                url=hit.url,
                url_hash=url_hash(hit.url),
                title=hit.title or None,
                snippet=hit.snippet or None,
            )
        )
    return WriteCounts(queries=1, results=len(item.hits))


def answered_queries(session: Session, topic: str, since: datetime) -> set[tuple[str, str, int]]:
    """(engine, query, page) answered with results since `since`: not worth asking again yet.
    A query a killed run asked is asked again: its hits may have died in that run's queue."""
    rows = session.execute(
        select(SearchQuery.engine, SearchQuery.query, SearchQuery.page)
        .outerjoin(CrawlRun, CrawlRun.id == SearchQuery.crawl_run_id)
        .where(
            SearchQuery.topic == topic,
            SearchQuery.status == "ok",
            SearchQuery.submitted_at >= since,
            or_(CrawlRun.finish_reason.is_(None), CrawlRun.finish_reason != "killed"),
        )
    )
    return {(engine, query, page) for engine, query, page in rows}


def store_check(session: Session, item: PageCheckedItem) -> WriteCounts:
    """A page that answered 304: it was checked now (its next revisit counts from here)."""
    session.execute(
        update(Page)
        .where(Page.topic == item.topic, Page.url_hash == url_hash(item.url))
        .values(fetched_at=item.checked_at)
    )
    forget_failures(session, item.url)
    return WriteCounts(checked=1)


def store_failure(
    session: Session, item: LinkFailureItem, max_failures: int, now: datetime | None = None
) -> WriteCounts:
    """Count a failed fetch; a URL is dead at once on 404/410, else after `max_failures`."""
    now = now or datetime.now(UTC)
    key = url_hash(item.url)
    link = session.execute(select(DeadLink).where(DeadLink.url_hash == key)).scalar_one_or_none()
    if link is None:
        link = DeadLink(url_hash=key, url=item.url, failures=0, first_failed_at=now, dead=False)
        session.add(link)
    link.failures += 1
    link.reason = item.reason[:255]
    link.last_failed_at = now
    link.dead = item.permanent or link.failures >= max_failures
    return WriteCounts(failures=1)


def forget_failures(session: Session, url: str) -> None:
    """A URL that answered again is not dead."""
    session.execute(_FORGET_FAILURES, {"key": url_hash(url)})


# Built once (a statement with its value inside costs SQLAlchemy more than the delete itself).
_FORGET_FAILURES = DeadLink.__table__.delete().where(DeadLink.url_hash == bindparam("key"))
