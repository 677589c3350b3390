"""A running crawl's figures in its run's row: what the web view reads while the crawl runs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from scrapy.exceptions import NotConfigured

from tests.crawl import make_crawler
from topiccrawler.extensions.live_stats import LiveRunStats
from topiccrawler.storage.browse import LIVE_KEY
from topiccrawler.storage.models import CrawlRun


def test_the_figures_of_a_running_crawl_are_written_beside_its_stats(database):
    crawler = make_crawler({"DATABASE_URL": database.url})
    live = LiveRunStats.from_crawler(crawler)
    with database.session() as session, session.begin():
        run = CrawlRun(topic="tax", spider="topic", started_at=datetime.now(UTC),
                       stats={"kept": "as it was"})  # fmt: skip
        session.add(run)
        session.flush()
        live.run_id = run.id
    stats = crawler.stats
    stats.set_value("response_received_count", 12)
    stats.set_value("downloader/response_status_count/200", 9)
    stats.set_value("downloader/response_status_count/404", 2)
    stats.set_value("downloader/response_status_count/301", 1)
    stats.set_value("downloader/exception_type_count/twisted.internet.error.TimeoutError", 3)
    stats.set_value("topiccrawler/relevance/threshold", {"threshold": 0.05, "mode": "auto"})
    live.write()
    stats.set_value("response_received_count", 20)
    live.write()
    with database.session() as session:
        stored = session.get(CrawlRun, live.run_id).stats
    assert stored["kept"] == "as it was"
    (figures,) = stored[LIVE_KEY].values()
    assert figures["fetched"] == 20 and figures["threshold"] == 0.05
    assert figures["failures"] == {"HTTP 404": 2, "TimeoutError": 3}


def test_a_finished_run_is_left_alone(database):
    crawler = make_crawler({"DATABASE_URL": database.url})
    live = LiveRunStats.from_crawler(crawler)
    with database.session() as session, session.begin():
        run = CrawlRun(topic="tax", spider="topic", started_at=datetime.now(UTC),
                       finished_at=datetime.now(UTC), stats={"final": 1})  # fmt: skip
        session.add(run)
        session.flush()
        live.run_id = run.id
    live.write()
    with database.session() as session:
        assert session.get(CrawlRun, live.run_id).stats == {"final": 1}


def test_an_interval_of_zero_turns_it_off():
    with pytest.raises(NotConfigured):
        LiveRunStats.from_crawler(make_crawler({"CRAWL_RUN_LIVE_INTERVAL": 0}))
