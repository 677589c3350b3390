"""Scrapy's scheduler with one more public method, `rescore`: after the link classifier has
learnt something new, every queued request is scored again and queued at its new place (memory
and disk queues alike). The frontier (middlewares/frontier.py) calls it; the shared Redis
frontier's scheduler (distributed/scheduler.py) has the same method, so the frontier asks either
the same way and never walks a scheduler's queues itself. It also counts the pages being read
in extraction workers as requests in flight (`next_request`)."""

from __future__ import annotations

from collections.abc import Callable

from scrapy import Request
from scrapy.core.scheduler import Scheduler

from topiccrawler.extraction_workers import pages_being_read


class FrontierScheduler(Scheduler):
    def next_request(self) -> Request | None:
        """The best queued request; none while the pages being read in extraction workers,
        counted as requests still in flight, fill the crawl's concurrency: their links may
        outrank what is queued (read in the crawl's own process, a page's links are queued
        before the next request is taken)."""
        pages = pages_being_read(self.crawler) if self.crawler is not None else 0
        if pages:
            downloader = self.crawler.engine.downloader
            if 0 < downloader.total_concurrency <= len(downloader.active) + pages:
                return None
        return super().next_request()

    def rescore(self, score: Callable[[Request], int | None], limit: int) -> int:
        """Queued requests scored again, in each queue of at most `limit` requests (past that
        the refresh on pop does it lazily); how many moved."""
        moved = 0
        for queue in (self.mqs, getattr(self, "dqs", None)):
            rescore = getattr(queue, "rescore", None)
            if rescore is not None and len(queue) <= limit:
                moved += rescore(score)
        return moved
