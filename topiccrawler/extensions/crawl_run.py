"""Record each crawl as a `crawl_runs` row: start, end, how it finished, and its stats."""

from __future__ import annotations

import logging
import os
import socket
from datetime import UTC, date, datetime
from typing import Any

from scrapy import Spider, signals
from scrapy.crawler import Crawler

from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.db import Database
from topiccrawler.storage.models import CrawlRun

logger = logging.getLogger(__name__)


class CrawlRunRecorder:
    """Opens a crawl-run row when the spider opens and completes it when the spider closes."""

    def __init__(self, crawler: Crawler, database: Database):
        self.crawler = crawler
        self.database = database
        self.run_id: int | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlRunRecorder:
        return cls(crawler, database_for(crawler))

    def spider_opened(self, spider: Spider) -> None:
        run = CrawlRun(
            topic=str(getattr(spider, "topic_name", "")),
            spider=spider.name,
            started_at=datetime.now(UTC),
            host=socket.gethostname(),
            pid=os.getpid(),
        )
        with self.database.session() as session, session.begin():
            session.add(run)
            session.flush()
            self.run_id = run.id
        logger.info("Crawl run %d started", self.run_id)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        if self.run_id is None:
            return
        stats = _json_safe(self.crawler.stats.get_stats())
        with self.database.session() as session, session.begin():
            run = session.get(CrawlRun, self.run_id)
            if run is not None:
                run.finished_at = datetime.now(UTC)
                run.finish_reason = reason
                run.stats = stats
        logger.info("Crawl run %d finished (%s)", self.run_id, reason)


def _json_safe(stats: dict[str, Any]) -> dict[str, Any]:
    """Scrapy stats with datetimes as ISO strings, so they fit a JSON column."""
    return {
        key: value.isoformat() if isinstance(value, datetime | date) else value
        for key, value in stats.items()
    }
