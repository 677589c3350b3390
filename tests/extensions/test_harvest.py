"""The harvest rate: its curve and per-site counts in the crawl's stats, and the two stops."""

from __future__ import annotations

from types import SimpleNamespace

from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session
from twisted.internet.defer import succeed

from tests.crawl import crawl
from topiccrawler.extensions.harvest import HarvestMonitor
from topiccrawler.storage.models import CrawlRun


@deferred_f_from_coro_f
async def test_page_limit_stops_the_crawl_and_the_run_keeps_the_curve(site, seeds_file, sqlite_url):
    crawler = await crawl(
        {"DATABASE_URL": sqlite_url, "CRAWL_MAX_PAGES": 2, "HARVEST_CURVE_EVERY": 1,
         "CONCURRENT_REQUESTS": 1},
        topic="tax", seeds=str(seeds_file()),
    )  # fmt: skip
    stats = crawler.stats.get_stats()
    assert stats["finish_reason"] == "page_limit"
    curve = stats["topiccrawler/harvest/curve"]
    assert [point[0] for point in curve][:2] == [1, 2] and stats["topiccrawler/harvest/judged"] >= 2
    host = site.url.split("//")[1].split(":")[0]
    assert stats[f"topiccrawler/harvest/site/{host}/judged"] == stats["topiccrawler/harvest/judged"]
    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        run = session.scalars(select(CrawlRun)).one()
    engine.dispose()
    assert run.finish_reason == "page_limit" and run.stats["topiccrawler/harvest/curve"] == curve


@deferred_f_from_coro_f
async def test_requests_waiting_for_a_slow_site_are_not_sent_after_the_page_limit(
    site, seeds_file, sqlite_url
):
    """A site's slot sends one request a delay; at the page limit those still waiting in it
    are dropped, not sent one a delay while the crawl keeps closing."""
    crawler = await crawl(
        {"DATABASE_URL": sqlite_url, "CRAWL_MAX_PAGES": 2, "DOWNLOAD_DELAY": 1,
         "DOWNLOAD_DELAY_JITTER": 0, "CONCURRENT_REQUESTS_PER_DOMAIN": 8},
        topic="tax", seeds=str(seeds_file()),
    )  # fmt: skip
    stats = crawler.stats.get_stats()
    assert stats["finish_reason"] == "page_limit"
    assert stats["topiccrawler/harvest/unsent_at_stop"] > 0
    # robots.txt, the start page, the page that reached the limit and at most the one being
    # downloaded then: the rest of the index page's links were never sent
    assert stats["response_received_count"] <= 4


def test_a_falling_harvest_rate_stops_the_crawl_once_with_a_reason(caplog):
    crawler = get_crawler(
        settings_dict={"RELEVANCE_ENABLED": True, "HARVEST_WINDOW": 4, "HARVEST_STOP_BELOW": 0.5}
    )
    closed = []

    def close_spider_async(reason):
        closed.append(reason)
        return succeed(None)

    crawler.engine = SimpleNamespace(
        close_spider_async=close_spider_async, downloader=SimpleNamespace(slots={})
    )
    monitor = HarvestMonitor.from_crawler(crawler)
    crawler.stats.open_spider()
    page = SimpleNamespace(url="http://a.test/1.html")
    for relevant in (True, True, False, False):
        monitor.page_judged(page, relevant)
    assert closed == []  # 2 of 4: not below 0.5
    monitor.page_judged(page, False)
    monitor.page_judged(page, False)
    assert closed == ["harvest_rate_low"]
    assert (
        "harvest rate over the last 4 pages is 0.25, below HARVEST_STOP_BELOW = 0.5" in caplog.text
    )
    assert caplog.text.count("Stopping the crawl") == 1
