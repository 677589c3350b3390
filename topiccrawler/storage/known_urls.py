"""What storage knows about a URL before it is fetched: is it dead, when was it last fetched,
is it a hub, does it carry a discussion."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from topiccrawler.storage.models import Comment, DeadLink, ForumPost, Page
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


def known_url(session: Session, topic: str, url: str) -> KnownUrl:
    key = url_hash(url)
    dead = session.execute(
        select(DeadLink.dead, DeadLink.reason, DeadLink.last_failed_at).where(
            DeadLink.url_hash == key
        )
    ).first()
    discussion = exists().where(Comment.page_id == Page.id) | exists().where(
        ForumPost.page_id == Page.id
    )
    page = session.execute(
        select(Page.fetched_at, Page.link_density, discussion).where(
            Page.topic == topic, Page.url_hash == key
        )
    ).first()
    return KnownUrl(
        dead=bool(dead and dead.dead),
        dead_reason=dead.reason if dead else None,
        last_failed_at=as_utc(dead.last_failed_at) if dead else None,
        fetched_at=as_utc(page[0]) if page else None,
        link_density=page[1] if page else None,
        has_discussion=bool(page[2]) if page else False,
    )
