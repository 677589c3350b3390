"""Relevance verdicts changed after a page was stored: the provisional verdicts of a crawl made
final at its end, and `topiccrawler rejudge` over everything stored.

A page that stays or becomes irrelevant loses its text, comments, posts and listed threads, as the
relevance pipeline would have dropped them (unless RELEVANCE_STORE_DROPPED_TEXT); one that becomes
relevant keeps what was stored of it (provisional pages kept their text for this).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import delete, select

from topiccrawler.storage.db import Database
from topiccrawler.storage.models import Comment, ForumPost, ForumThread, Page
from topiccrawler.storage.search_index import forget_entries, index_pages
from topiccrawler.urls import url_hash

# relevance_detail key of a page that became relevant after it was stored without its text:
# `scrapy crawl topic -a refetch=yes` fetches it again (cleared when it is stored again).
REFETCH = "refetch"


def apply_verdict(
    session,
    page: Page,
    relevant: bool,
    probability: float | None,
    threshold: float | None,
    keep_text: bool,
    score: float | None = None,
    index: bool = True,
) -> bool:
    """Give a stored page its verdict; True when the verdict changed. `index=False`: the
    caller brings the search index up to date (index_pages) before it commits."""
    changed = bool(page.is_relevant) != relevant
    detail = dict(page.relevance_detail or {})
    detail["verdict"] = "final"
    detail["threshold"] = threshold
    if probability is not None:
        detail["probability"] = round(probability, 4)
    if score is not None:
        page.relevance = score
        detail["score"] = round(score, 6)
    page.relevance_detail = detail
    page.is_relevant = relevant
    if not relevant and not keep_text:
        # Out of the search index while its text, comments and posts are still stored.
        forget_entries(session.connection(), page.id)
        page.body = None
        session.execute(delete(Comment).where(Comment.page_id == page.id))
        session.execute(delete(ForumPost).where(ForumPost.page_id == page.id))
        session.execute(delete(ForumThread).where(ForumThread.list_page_id == page.id))
    session.flush()
    if index:
        index_pages(session.connection(), [page.id])  # the search index says the same
    return changed


def stored_texts(
    database: Database, topic: str, urls: list[str], batch: int = 500
) -> dict[str, tuple[str | None, str | None]]:
    """(title, body) of stored pages by URL, for verdicts made final after the crawl."""
    texts: dict[str, tuple[str | None, str | None]] = {}
    with database.session() as session:
        for start in range(0, len(urls), batch):
            by_hash = {url_hash(url): url for url in urls[start : start + batch]}
            rows = session.execute(
                select(Page.url_hash, Page.title, Page.body).where(
                    Page.topic == topic, Page.url_hash.in_(list(by_hash))
                )
            )
            for key, title, body in rows:
                texts[by_hash[key]] = (title, body)
    return texts


def settle_verdicts(
    database: Database,
    topic: str,
    verdicts: Mapping[str, tuple[bool, float | None]],
    threshold: float | None,
    keep_text: bool,
    batch: int = 500,
) -> dict[str, bool]:
    """Final verdicts (URL → (relevant, probability)) for pages stored with provisional ones;
    the pages whose verdict changed, URL → new verdict."""
    changed: dict[str, bool] = {}
    urls = list(verdicts)
    with database.session() as session:
        for start in range(0, len(urls), batch):
            by_hash = {url_hash(url): url for url in urls[start : start + batch]}
            pages = session.scalars(
                select(Page).where(Page.topic == topic, Page.url_hash.in_(list(by_hash)))
            ).all()
            for page in pages:
                url = by_hash[page.url_hash]
                relevant, probability = verdicts[url]
                if apply_verdict(
                    session, page, relevant, probability, threshold, keep_text, index=False
                ):
                    changed[url] = relevant
            index_pages(session.connection(), [page.id for page in pages])  # as they now say
            session.commit()
    return changed


def marked_for_refetch(session, topic: str) -> list[tuple[str, str | None]]:
    """(URL, entrance) of the pages marked REFETCH: relevant, stored without their text."""
    rows = session.execute(
        select(Page.url, Page.entrance, Page.relevance_detail).where(
            Page.topic == topic, Page.is_relevant.is_(True), Page.body.is_(None)
        )
    )
    return [(url, entrance) for url, entrance, detail in rows if (detail or {}).get(REFETCH)]
