"""Scrapy's scheduler with one more public method, `rescore`: after the link classifier has
learnt something new, every queued request is scored again and queued at its new place (memory
and disk queues alike). The frontier (middlewares/frontier.py) calls it; the shared Redis
frontier's scheduler (distributed/scheduler.py) has the same method, so the frontier asks either
the same way and never walks a scheduler's queues itself."""

from __future__ import annotations

from collections.abc import Callable

from scrapy import Request
from scrapy.core.scheduler import Scheduler


class FrontierScheduler(Scheduler):
    def rescore(self, score: Callable[[Request], int | None], limit: int) -> int:
        """Queued requests scored again, in each queue of at most `limit` requests (past that
        the refresh on pop does it lazily); how many moved."""
        moved = 0
        for queue in (self.mqs, getattr(self, "dqs", None)):
            rescore = getattr(queue, "rescore", None)
            if rescore is not None and len(queue) <= limit:
                moved += rescore(score)
        return moved
