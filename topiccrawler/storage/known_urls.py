"""What storage knows about a URL before it is fetched: is it dead, when was it last fetched,
is it a hub, does it carry a discussion and when did that last grow, what validators (ETag,
Last-Modified) to send when it is fetched again."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import bindparam, exists, func, select
from sqlalchemy.orm import Session

from topiccrawler.storage.models import Comment, CrawlRun, DeadLink, ForumPost, Page
from topiccrawler.urls import url_hash


def as_utc(moment: datetime | None) -> datetime | None:
    """SQLite gives naive datetimes back; everything stored is UTC."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class KnownUrl:
    dead: bool = False
    dead_reason: str | None = None
    last_failed_at: datetime | None = None
    fetched_at: datetime | None = None
    link_density: float | None = None
    has_discussion: bool = False
    last_activity_at: datetime | None = None  # newest comment or post stored on the page
    etag: str | None = None
    last_modified: str | None = None
    # Last fetched by a run that was killed (kill -9, power loss): the links it found there may
    # have died with it in its queue, so the page is fetched again to find them.
    interrupted: bool = False


def known_url(session: Session, topic: str, url: str) -> KnownUrl:
    key = url_hash(url)
    dead = session.execute(_DEAD, {"key": key}).first()
    page = session.execute(_PAGE, {"topic": topic, "key": key}).first()
    has_discussion = False
    last_activity = None
    if page is not None:
        times = [as_utc(t) for t in page[2:4] if t is not None]
        has_discussion = bool(times) or bool(session.scalar(_RECORDS, {"topic": topic, "key": key}))
        last_activity = max(times) if times else None
    return KnownUrl(
        dead=bool(dead and dead.dead),
        dead_reason=dead.reason if dead else None,
        last_failed_at=as_utc(dead.last_failed_at) if dead else None,
        fetched_at=as_utc(page[0]) if page else None,
        link_density=page[1] if page else None,
        has_discussion=has_discussion,
        last_activity_at=last_activity,
        etag=page[4] if page else None,
        last_modified=page[5] if page else None,
        interrupted=bool(page and page[6] == "killed"),
    )


# The statements, built once with the URL (and topic) as parameters: every request asks, and
# building a statement with its values inside cost SQLAlchemy more than the query took.
_DEAD = select(DeadLink.dead, DeadLink.reason, DeadLink.last_failed_at).where(
    DeadLink.url_hash == bindparam("key")
)
_NEWEST = [
    select(func.max(table.published_at)).where(table.page_id == Page.id).scalar_subquery()
    for table in (Comment, ForumPost)
]
_RUN_REASON = (
    select(CrawlRun.finish_reason).where(CrawlRun.id == Page.crawl_run_id).scalar_subquery()
)
_PAGE = select(
    Page.fetched_at, Page.link_density, *_NEWEST, Page.etag, Page.last_modified, _RUN_REASON
).where(Page.topic == bindparam("topic"), Page.url_hash == bindparam("key"))
# Comments or posts without a time still make the page a discussion.
_RECORDS = (
    select(
        exists().where(Comment.page_id == Page.id) | exists().where(ForumPost.page_id == Page.id)
    )
    .where(Page.topic == bindparam("topic"), Page.url_hash == bindparam("key"))
    .limit(1)
)
