"""What the database holds, counted: pages, kept pages, duplicates, comments, posts and forum
threads per topic and site (`topiccrawler stats`), and the topics anything is stored under."""

from __future__ import annotations

from sqlalchemy import Integer, func, select, union
from sqlalchemy.orm import Session

from topiccrawler.storage.models import Comment, CrawlRun, ForumPost, ForumThread, Page


def site_counts(session: Session, topic: str | None = None) -> list[tuple]:
    """(topic, site, pages, kept, duplicates, comments, posts, threads) rows, each topic's
    busiest sites first."""

    def per_page(model, column):
        return (
            select(model.page_id.label("page_id"), func.count().label(column))
            .group_by(model.page_id)
            .subquery()
        )

    comments, posts = per_page(Comment, "n"), per_page(ForumPost, "n")
    threads = (
        select(ForumThread.list_page_id.label("page_id"), func.count().label("n"))
        .group_by(ForumThread.list_page_id)
        .subquery()
    )
    query = (
        select(
            Page.topic,
            Page.site,
            func.count(Page.id),
            func.coalesce(func.sum(func.cast(Page.is_relevant, Integer)), 0),
            func.count(Page.duplicate_of_id),
            func.coalesce(func.sum(comments.c.n), 0),
            func.coalesce(func.sum(posts.c.n), 0),
            func.coalesce(func.sum(threads.c.n), 0),
        )
        .outerjoin(comments, comments.c.page_id == Page.id)
        .outerjoin(posts, posts.c.page_id == Page.id)
        .outerjoin(threads, threads.c.page_id == Page.id)
        .group_by(Page.topic, Page.site)
        .order_by(Page.topic, func.count(Page.id).desc(), Page.site)
    )
    if topic:
        query = query.where(Page.topic == topic)
    return [tuple(row) for row in session.execute(query)]


def stored_topics(session: Session) -> list[str]:
    """The topics with a page or a crawl run stored, by name."""
    names = union(select(Page.topic).distinct(), select(CrawlRun.topic).distinct()).subquery()
    return sorted(session.scalars(select(names.c.topic)).all())
