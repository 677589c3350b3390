"""Dead links and revisits: the policy, and two crawls of the fixture site in a row."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.statscollectors import MemoryStatsCollector
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.crawl import crawl
from topiccrawler.discovery.meta import CHANGED
from topiccrawler.items import PageItem
from topiccrawler.meta import ENTRANCE, HOPS
from topiccrawler.middlewares.known_urls import KnownUrlsMiddleware, RevisitPolicy
from topiccrawler.storage.db import Database
from topiccrawler.storage.known_urls import KnownUrl
from topiccrawler.storage.models import DeadLink, Page
from topiccrawler.storage.writer import store_page

NOW = datetime(2026, 6, 1, tzinfo=UTC)
POLICY = RevisitPolicy(
    articles=timedelta(days=7),
    hubs=timedelta(hours=1),
    discussions=timedelta(days=1),
    hub_link_density=0.5,
    dead_retry=timedelta(days=30),
)


def ago(**delta) -> datetime:
    return NOW - timedelta(**delta)


def test_revisit_intervals_by_kind_of_page():
    assert POLICY.due(KnownUrl(), NOW)  # never fetched
    assert not POLICY.due(KnownUrl(fetched_at=ago(days=6), link_density=0.1), NOW)
    assert POLICY.due(KnownUrl(fetched_at=ago(days=8), link_density=0.1), NOW)
    assert POLICY.due(KnownUrl(fetched_at=ago(hours=2), link_density=0.8), NOW)  # a hub
    assert not POLICY.due(KnownUrl(fetched_at=ago(hours=2), has_discussion=True), NOW)
    assert POLICY.due(KnownUrl(fetched_at=ago(hours=25), has_discussion=True), NOW)


def test_dead_links_are_retried_after_a_while():
    assert POLICY.dead(KnownUrl(dead=True, last_failed_at=ago(days=1)), NOW)
    assert not POLICY.dead(KnownUrl(dead=True, last_failed_at=ago(days=31)), NOW)
    assert not POLICY.dead(KnownUrl(dead=False, last_failed_at=ago(days=1)), NOW)


def _dead_links(url: str) -> dict[str, DeadLink]:
    engine = create_engine(url)
    with Session(engine) as session:
        links = {d.url.split("/", 3)[3]: d for d in session.scalars(select(DeadLink))}
    engine.dispose()
    return links


@deferred_f_from_coro_f
async def test_second_run_skips_dead_links_and_fresh_pages(site, seeds_file, sqlite_url):
    seeds = str(seeds_file())
    await crawl({"DATABASE_URL": sqlite_url}, topic="tax", seeds=seeds)
    dead = _dead_links(sqlite_url)
    assert dead["missing.html"].dead and dead["missing.html"].reason == "HTTP 404"
    hits_before = dict(site.hits)

    second = await crawl({"DATABASE_URL": sqlite_url}, topic="tax", seeds=seeds)
    stats = second.stats.get_stats()
    assert stats["topiccrawler/known_urls/dead_skipped"] == 1
    assert site.hits["/missing.html"] == hits_before["/missing.html"]
    assert site.hits["/news/vat-reform.html"] == hits_before["/news/vat-reform.html"]  # an article
    assert site.hits["/index.html"] == hits_before["/index.html"] + 1  # the start URL, always
    assert stats["topiccrawler/known_urls/fresh_skipped"] >= 3

    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        assert len(session.scalars(select(Page)).all()) == 6  # the same rows, none added
    engine.dispose()


def test_discussions_are_revisited_as_often_as_they_grow():
    """Replies yesterday: again tomorrow; replies an hour ago: in six hours (a quarter of a
    day, the floor); silent for a month: after a week (REVISIT_AFTER, the ceiling)."""
    now = datetime(2026, 3, 10, 12, tzinfo=UTC)

    def interval(last_activity):
        known = KnownUrl(fetched_at=now, has_discussion=True, last_activity_at=last_activity)
        return POLICY.interval(known, now)

    assert interval(now - timedelta(days=1)) == timedelta(days=1)
    assert interval(now - timedelta(hours=1)) == timedelta(hours=6)
    assert interval(now - timedelta(days=30)) == timedelta(days=7)
    assert interval(None) == timedelta(days=1)  # comments without times
    article = KnownUrl(fetched_at=now - timedelta(days=2))
    assert not POLICY.due(article, now) and POLICY.interval(article, now) == timedelta(days=7)


def test_a_page_its_feed_dates_anew_is_fetched_before_its_revisit_is_due(tmp_path):
    database = Database(f"sqlite:///{tmp_path / 'db.sqlite'}")
    database.upgrade()
    url = "http://a.test/article.html"
    with database.session() as session, session.begin():
        fetched = datetime.now(UTC) - timedelta(hours=1)
        store_page(session, PageItem(url=url, topic="tax", status=200, fetched_at=fetched))
    stats = MemoryStatsCollector(get_crawler())
    middleware = KnownUrlsMiddleware(database, stats, POLICY, lambda: "tax")
    with pytest.raises(IgnoreRequest):  # fetched an hour ago: not due
        middleware.process_request(Request(url, meta={ENTRANCE: "authority", HOPS: 1}))
    dated_anew = Request(url, meta={ENTRANCE: "authority", HOPS: 1, CHANGED: True})
    assert middleware.process_request(dated_anew) is None
