"""Each crawl run compared with the one before it: what is new (pages, comments, posts), which
sites went silent (fetched last time, nothing this time) and which started blocking. Stored in
the run's stats (`topiccrawler/changes`) and shown by `topiccrawler runs TOPIC`."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from topiccrawler.items import FOUND_BY_WAYS as WAYS
from topiccrawler.storage.models import Comment, CrawlRun, ForumPost, Page

CHANGES_KEY = "topiccrawler/changes"
SUMMARY_KEY = "topiccrawler/summary"


def previous_run(session: Session, run: CrawlRun) -> CrawlRun | None:
    """The latest run of the same topic that started before this one and finished."""
    return session.scalars(
        select(CrawlRun)
        .where(
            CrawlRun.topic == run.topic,
            CrawlRun.id != run.id,
            CrawlRun.started_at <= run.started_at,
            CrawlRun.finished_at.is_not(None),
        )
        .order_by(CrawlRun.started_at.desc(), CrawlRun.id.desc())
        .limit(1)
    ).first()


def run_changes(session: Session, run: CrawlRun, summary: dict, previous: CrawlRun | None) -> dict:
    """What this run added and how its sites behaved, beside the run before it."""
    since: datetime = run.started_at
    new_pages = session.scalar(
        select(func.count()).select_from(Page).where(
            Page.topic == run.topic, Page.first_seen_at >= since
        )
    )  # fmt: skip
    found_by = dict(
        session.execute(
            select(Page.found_by, func.count())
            .where(Page.topic == run.topic, Page.first_seen_at >= since)
            .group_by(Page.found_by)
        ).all()
    )
    counts = {}
    for name, table in (("comments", Comment), ("posts", ForumPost)):
        counts[name] = session.scalar(
            select(func.count())
            .select_from(table)
            .join(Page, Page.id == table.page_id)
            .where(Page.topic == run.topic, table.first_seen_at >= since)
        )
    sites = {s for s, c in (summary.get("sites") or {}).items() if c.get("fetched")}
    blocked = set(summary.get("blocked_sites") or [])
    before = ((previous.stats or {}).get(SUMMARY_KEY) or {}) if previous else {}
    sites_before = {s for s, c in (before.get("sites") or {}).items() if c.get("fetched")}
    blocked_before = set(before.get("blocked_sites") or [])
    return {
        "previous_run": previous.id if previous else None,
        "new_pages": new_pages or 0,
        "new_comments": counts["comments"] or 0,
        "new_posts": counts["posts"] or 0,
        # New pages by how they were found: start, link, search, feed, sitemap (None: unknown)
        "new_pages_by": {
            str(way or "unknown"): found_by[way]
            for way in sorted(found_by, key=lambda w: WAYS.index(w) if w in WAYS else len(WAYS))
        },
        "sites_fetched": len(sites),
        "sites_silent": sorted(sites_before - sites) if previous else [],
        "sites_new": sorted(sites - sites_before) if previous else [],
        "sites_started_blocking": sorted(blocked - blocked_before),
        "sites_stopped_blocking": sorted(blocked_before - blocked) if previous else [],
    }


def recent_runs(session: Session, topic: str, limit: int = 20) -> list[CrawlRun]:
    return list(
        session.scalars(
            select(CrawlRun)
            .where(CrawlRun.topic == topic)
            .order_by(CrawlRun.started_at.desc(), CrawlRun.id.desc())
            .limit(limit)
        )
    )
