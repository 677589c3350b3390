"""A running crawl's figures written into its run's row every few seconds, so that the web view
(`topiccrawler serve`) shows a crawl as it goes with no process or port of the crawl's own.

Only a few figures are written (pages fetched, η, failures by cause, when): what the view
cannot count from the stored pages themselves. Each worker of a shared crawl writes its own
entry; the view adds them up.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import UTC, datetime

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from sqlalchemy.exc import SQLAlchemyError
from twisted.internet import task

from topiccrawler.signals import crawl_run_opened
from topiccrawler.storage.browse import LIVE_KEY
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.db import Database
from topiccrawler.storage.models import CrawlRun

logger = logging.getLogger(__name__)

_STATUS = "downloader/response_status_count/"
_EXCEPTION = "downloader/exception_type_count/"


class LiveRunStats:
    """Every CRAWL_RUN_LIVE_INTERVAL seconds, this process's figures into the run's stats."""

    def __init__(self, crawler: Crawler, database: Database, interval: float):
        self.crawler = crawler
        self.database = database
        self.interval = interval
        self.run_id: int | None = None
        self.worker = f"{socket.gethostname()}:{os.getpid()}"
        self.loop: task.LoopingCall | None = None
        self.failed_writes = 0
        crawler.signals.connect(self.run_opened, signal=crawl_run_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> LiveRunStats:
        interval = crawler.settings.getfloat("CRAWL_RUN_LIVE_INTERVAL")
        if interval <= 0:
            raise NotConfigured("CRAWL_RUN_LIVE_INTERVAL is 0")
        return cls(crawler, database_for(crawler), interval)

    def run_opened(self, run_id: int | None) -> None:
        if run_id is None:
            return
        self.run_id = run_id
        self.loop = task.LoopingCall(self.write)
        self.loop.start(self.interval, now=False)

    def spider_closed(self, spider: Spider) -> None:
        if self.loop is not None and self.loop.running:
            self.loop.stop()

    def figures(self) -> dict:
        """What this process adds to the view: fetches, η, failures by cause, and when."""
        stats = self.crawler.stats.get_stats()
        failures: dict[str, int] = {}
        for key, value in stats.items():
            if key.startswith(_STATUS) and not key[len(_STATUS) :].startswith(("2", "3")):
                failures[f"HTTP {key[len(_STATUS) :]}"] = value
            elif key.startswith(_EXCEPTION):
                failures[key[len(_EXCEPTION) :].rsplit(".", 1)[-1]] = value
        threshold = stats.get("topiccrawler/relevance/threshold")
        if isinstance(threshold, dict):
            threshold = threshold.get("threshold")
        return {
            "fetched": stats.get("response_received_count", 0),
            "threshold": threshold if isinstance(threshold, int | float) else None,
            "failures": failures,
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
        }

    def write(self) -> None:
        try:
            with self.database.session() as session, session.begin():
                run = session.get(CrawlRun, self.run_id)
                if run is None or run.finished_at is not None:
                    return
                stats = dict(run.stats or {})
                stats[LIVE_KEY] = {**stats.get(LIVE_KEY, {}), self.worker: self.figures()}
                run.stats = stats
        except SQLAlchemyError as exc:  # the view misses a refresh; the crawl goes on
            self.failed_writes += 1
            if self.failed_writes == 1:
                logger.warning("Live figures of crawl run %s not written: %s", self.run_id, exc)
