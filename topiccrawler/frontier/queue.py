"""The scheduler's priority queue for a focused crawl: best-first across sites, polite per site.

Scrapy's default, DownloaderAwarePriorityQueue, keeps one priority queue per download slot (per
site) and serves the site with the fewest active downloads: fair, but blind to priorities
across sites, so a shop with nothing on the topic gets as many fetches as the tax authority.
A global priority queue is the opposite: best-first, but when the best links all point to one
site, every other site waits behind that site's download delay.

This queue keeps the per-site queues and serves, among the sites that still have room
(fewer active downloads than their slot's concurrency), the one whose best request has the
highest priority. Only when every site with queued requests is full does it fall back to the
fewest active downloads. Persistence (JOBDIR) is the parent's: the same files, the same resume.

Priorities are set when a request is queued, but what they rest on changes while it waits, so
a request is scored again when it comes up and one whose priority fell goes back into the queue
at its new place (frontier/refresh.py, shared with the Redis scheduler). That lazy update only
ever lowers; when the online link classifier has learnt something new (a
refit), the frontier asks the scheduler to `rescore` (frontier/scheduler.py): every queued
request scored again and queued at its new place, up or down.
"""

from __future__ import annotations

from collections.abc import Callable

from scrapy import Request
from scrapy.pqueues import DownloaderAwarePriorityQueue

from topiccrawler.frontier.refresh import PopRefresh


class BestFirstPriorityQueue(DownloaderAwarePriorityQueue):
    def __init__(self, crawler, *args, **kwargs):
        super().__init__(crawler, *args, **kwargs)
        self.refresh = PopRefresh(crawler)

    def pop(self) -> Request | None:
        popped = self.refresh.pop(self._take, self._requeue)
        return popped[0] if popped is not None else None

    def _take(self) -> tuple[Request, None] | None:
        request = super().pop()
        return (request, None) if request is not None else None

    def _requeue(self, request: Request, token: None) -> None:
        self.push(request)

    def rescore(self, score: Callable[[Request], int | None]) -> int:
        """Every queued request scored again (None: keeps its priority) and queued at its new
        place; returns how many moved. Works the same on memory and disk (JOBDIR) queues."""
        requests: list[Request] = []
        for slot in list(self.pqueues):
            queue = self.pqueues.pop(slot)
            while (request := queue.pop()) is not None:
                requests.append(request)
            queue.close()
        moved = 0
        for request in requests:
            priority = score(request)
            if priority is not None and priority != request.priority:
                request.priority = priority
                moved += 1
            self.push(request)
        return moved

    def drop_worst(self, keep: int) -> list[Request]:
        """Take out the lowest-priority requests past the best `keep` (those a best-first crawl
        fetches last) and return them: FRONTIER_MAX_QUEUED holds a long crawl's queue at a
        bounded size (frontier/scheduler.py)."""
        excess = len(self) - keep
        if excess <= 0:
            return []
        dropped: list[Request] = []
        # ScrapyPriorityQueue files requests under -priority: the largest keys are the worst.
        levels = sorted(
            ((key, slot) for slot, queue in self.pqueues.items() for key in queue.queues),
            reverse=True,
        )
        for key, slot in levels:
            queue = self.pqueues[slot]
            level = queue.queues[key]
            while len(dropped) < excess and len(level):
                dropped.append(level.pop())
            if not len(level):
                del queue.queues[key]  # (a pop past a level gone finds the next one itself)
                level.close()
            if not len(queue):
                del self.pqueues[slot]
                queue.close()
            if len(dropped) >= excess:
                break
        return dropped

    def _capacity(self, slot: str) -> int:
        downloader = self._downloader_interface.downloader
        if slot in downloader.slots:
            return downloader.slots[slot].concurrency
        return self.crawler.settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN") or 1

    def _next_slot(self, stats: list[tuple[int, str]], *, update_state: bool) -> str:
        open_slots = [
            (self.pqueues[slot].curprio, active, slot)
            for active, slot in stats
            if active < self._capacity(slot) and self.pqueues[slot].curprio is not None
        ]
        if not open_slots:
            return super()._next_slot(stats, update_state=update_state)
        # curprio is the negated priority of the slot's best request: smallest is best.
        _, _, slot = min(open_slots)
        if update_state:
            self._last_selected_slot = slot
        return slot
