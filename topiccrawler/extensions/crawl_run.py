"""Record each crawl as a `crawl_runs` row: start, end, how it finished, and its stats."""

from __future__ import annotations

import logging
import os
import socket
import time
from datetime import UTC, date, datetime
from typing import Any

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError

from topiccrawler.crawl.stores import crawl_stores
from topiccrawler.extensions.progress import INTERRUPTED_REASON
from topiccrawler.redact import redact
from topiccrawler.signals import crawl_interrupted, crawl_run_opened
from topiccrawler.storage.access import driver_error
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.db import Database
from topiccrawler.storage.models import CrawlRun
from topiccrawler.storage.runs import CHANGES_KEY, SUMMARY_KEY, previous_run, run_changes

logger = logging.getLogger(__name__)

INTERRUPTED = "interrupted"  # the finish reason stored for a crawl stopped by Ctrl-C or SIGTERM
RUN_OPEN_WAIT = 10  # seconds a joining worker waits for the first one to open the run row
WORKERS_KEY = "topiccrawler/workers"  # a shared crawl's stats: each worker's own, by name


class CrawlRunRecorder:
    """Opens a crawl-run row when the spider opens and completes it when the spider closes."""

    def __init__(self, crawler: Crawler, database: Database):
        self.crawler = crawler
        self.database = database
        self.run_id: int | None = None
        crawler.signals.connect(self.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(self.crawl_interrupted, signal=crawl_interrupted)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlRunRecorder:
        return cls(crawler, database_for(crawler))

    def spider_opened(self, spider: Spider) -> None:
        shared = crawl_stores(self.crawler).shared
        if shared is not None:
            self.run_id = self._join_shared_run(shared, spider)
        else:
            self.run_id = self._start_run(spider)
            logger.info("Crawl run %d started", self.run_id)
        self.crawler.signals.send_catch_log(crawl_run_opened, run_id=self.run_id)

    def _start_run(self, spider: Spider) -> int:
        run = CrawlRun(
            topic=str(getattr(spider, "topic_name", "")),
            spider=spider.name,
            started_at=datetime.now(UTC),
            host=socket.gethostname(),
            pid=os.getpid(),
        )
        with self.database.session() as session, session.begin():
            for killed in close_killed_runs(session, run.topic, run.host, run.started_at):
                logger.warning(
                    "Crawl run %d (pid %s, started %s) ended without closing: recorded as killed",
                    killed.id, killed.pid, f"{killed.started_at:%Y-%m-%d %H:%M}",
                )  # fmt: skip
            session.add(run)
            session.flush()
            return run.id

    def _join_shared_run(self, shared, spider: Spider) -> int:
        """One run row per shared crawl: the first worker opens it, the others join it."""
        key = shared.key("run")
        if shared.server.set(key, "opening", nx=True, ex=RUN_OPEN_WAIT):
            run_id = self._start_run(spider)
            shared.server.set(key, run_id)
            logger.info("Crawl run %d started (shared crawl %r)", run_id, shared.name)
            return run_id
        deadline = time.monotonic() + RUN_OPEN_WAIT
        while time.monotonic() < deadline:
            value = shared.server.get(key)
            if value is None:  # the opener died: open it here
                return self._join_shared_run(shared, spider)
            if value.isdigit():
                logger.info("Joined crawl run %s (shared crawl %r)", value.decode(), shared.name)
                return int(value)
            time.sleep(0.1)
        raise RuntimeError(f"no crawl run row appeared for shared crawl {shared.name!r}")

    def crawl_interrupted(self, count: int) -> None:
        """A second signal: the reactor stops before the spider closes, so the run is closed
        now, as interrupted (its summary is not written; its stats so far are)."""
        if count > 1:
            self.spider_closed(self.crawler.spider, INTERRUPTED_REASON)

    def spider_closed(self, spider: Spider, reason: str) -> None:
        if self.run_id is None:
            return
        if reason == INTERRUPTED_REASON:
            reason = INTERRUPTED
        try:
            self._finish_run(reason)
        except SQLAlchemyError as exc:  # the database is away (the crawl may stop for that)
            logger.error(
                "Crawl run %d (%s) could not be recorded: %s; the next run closes it as killed",
                self.run_id, reason, str(driver_error(exc)).splitlines()[0],
            )  # fmt: skip

    def _finish_run(self, reason: str) -> None:
        shared = crawl_stores(self.crawler).shared
        stats = _json_safe(self.crawler.stats.get_stats())
        with self.database.session() as session, session.begin():
            run = session.get(CrawlRun, self.run_id, with_for_update=True)
            if run is not None and shared is not None:
                # Each worker's stats under its name; the sums once the last one leaves.
                workers = {**(run.stats or {}).get(WORKERS_KEY, {}), shared.worker: stats}
                run.stats = {**(run.stats or {}), WORKERS_KEY: workers}
                if not shared.last_out:
                    logger.info("Crawl run %d: this worker's stats recorded", self.run_id)
                    return
                stats = {**_sum_workers(workers), WORKERS_KEY: workers}
            if run is not None:
                summary = self.crawler.stats.get_value(SUMMARY_KEY) or {}
                changes = run_changes(session, run, summary, previous_run(session, run))
                self.crawler.stats.set_value(CHANGES_KEY, changes)
                stats[CHANGES_KEY] = changes
                run.finished_at = datetime.now(UTC)
                run.finish_reason = reason
                run.stats = stats
                logger.info(
                    "Crawl run %d: %d new pages%s, %d new comments, %d new posts%s",
                    self.run_id, changes["new_pages"],
                    f" ({found_by_text(changes)})" if found_by_text(changes) else "",
                    changes["new_comments"], changes["new_posts"], _site_changes(changes),
                )  # fmt: skip
        logger.info("Crawl run %d finished (%s)", self.run_id, reason)


def close_killed_runs(session, topic: str, host: str, now: datetime) -> list[CrawlRun]:
    """Earlier runs of the topic on this host that never closed and whose process is gone
    (killed with -9, the machine lost power): closed now as "killed", their end unknown but
    before now. A run on another host, or whose process still lives, is left alone."""
    open_runs = session.scalars(
        select(CrawlRun).where(
            CrawlRun.topic == topic, CrawlRun.host == host, CrawlRun.finished_at.is_(None)
        )
    ).all()
    killed = [run for run in open_runs if run.pid is not None and not _alive(run.pid)]
    for run in killed:
        run.finished_at = now
        run.finish_reason = "killed"
    return killed


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def found_by_text(changes: dict) -> str:
    """How the run's new pages were found: "start 3, link 10, search 4, feed 3, sitemap 2"."""
    ways = changes.get("new_pages_by") or {}
    return ", ".join(f"{way} {n}" for way, n in ways.items() if n)


def _site_changes(changes: dict) -> str:
    parts = [
        f"{label}: {', '.join(changes[key])}"
        for key, label in (("sites_silent", "silent since the last run"),
                           ("sites_started_blocking", "started blocking"))
        if changes[key]
    ]  # fmt: skip
    return "; " + "; ".join(parts) if parts else ""


def _sum_workers(workers: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The stats of a shared crawl: numbers added up over its workers, anything else as the
    last worker (the one closing the run) had it."""
    total: dict[str, Any] = {}
    for stats in workers.values():
        for key, value in stats.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                total[key] = total.get(key, 0) + value if key in total else value
            else:
                total[key] = value
    return total


def _json_safe(stats: dict[str, Any]) -> dict[str, Any]:
    """Scrapy stats with datetimes as ISO strings, so they fit a JSON column, and any secret
    (a password in a URL, a known credential) masked."""
    return redact(
        {
            key: value.isoformat() if isinstance(value, datetime | date) else value
            for key, value in stats.items()
        }
    )
