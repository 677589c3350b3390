"""Rescoring on pop: the one implementation, used by the one-process queue (frontier/queue.py)
and the shared Redis frontier's scheduler (distributed/scheduler.py) alike.

Priorities are set when a request is queued, but what they rest on changes while it waits: a
query whose first hits proved irrelevant, a section that turned out empty. So a request is
scored again when it comes up (the frontier's `refresh_priority`, middlewares/frontier.py), and
one whose priority fell by more than REFRESH_MARGIN goes back into the queue at its new place: a
lazy update, no re-sorting. At most REFRESH_LIMIT requests go back per pop; the next one is handed
out as it is. A request whose URL came up from a better place already (the frontier's
`superseded`) is dropped when it comes up. A rescoring that fails (a request whose meta a
component did not expect) is logged and the request handed out as it is: the queue has already
given it out, and a request neither handed out nor put back would be lost with its lease.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from scrapy import Request
from scrapy.crawler import Crawler

from topiccrawler.signals import frontier_opened

logger = logging.getLogger(__name__)

REFRESH_MARGIN = 10  # a request whose priority fell by more than this is queued again
REFRESH_LIMIT = 100  # requests queued again per pop at most

# What a queue hands out: a request and whatever the queue needs to put it back (a lease).
Popped = tuple[Request, Any]


class PopRefresh:
    """Asks the frontier, once it says it is open, about every request a queue pops."""

    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.frontier = None  # the frontier component, once open
        crawler.signals.connect(self.frontier_opened, signal=frontier_opened)

    def frontier_opened(self, frontier) -> None:
        self.frontier = frontier

    def pop(
        self,
        take: Callable[[], Popped | None],
        requeue: Callable[[Request, Any], None],
        discard: Callable[[Request, Any], None] = lambda request, token: None,
    ) -> Popped | None:
        """The next request to hand out, from `take`; those whose priority fell go back through
        `requeue` (their priority lowered first), superseded ones are dropped through `discard`."""
        frontier = self.frontier
        refreshed = 0
        while True:
            popped = take()
            if popped is None:
                return None
            request, token = popped
            if frontier is None:
                return popped
            if frontier.superseded(request):
                self.crawler.stats.inc_value("topiccrawler/frontier/superseded")
                discard(request, token)
                continue  # its URL came up from a better place already
            if refreshed < REFRESH_LIMIT:
                priority = self._refreshed(frontier, request)
                if priority is not None and priority < request.priority - REFRESH_MARGIN:
                    refreshed += 1
                    request.priority = priority
                    self.crawler.stats.inc_value("topiccrawler/frontier/requeued")
                    requeue(request, token)
                    continue
            frontier.taken_up(request)
            return popped

    def _refreshed(self, frontier, request: Request) -> int | None:
        """The request's priority now, or None (keep it) when it cannot be computed."""
        try:
            return frontier.refresh_priority(request)
        except Exception:
            self.crawler.stats.inc_value("topiccrawler/frontier/refresh_errors")
            logger.exception("Could not score %s again; handed out as queued", request.url)
            return None
