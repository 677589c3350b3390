"""Scrapy's scheduler with one more public method, `rescore`: after the link classifier has
learnt something new, every queued request is scored again and queued at its new place (memory
and disk queues alike). The frontier (middlewares/frontier.py) calls it; the shared Redis
frontier's scheduler (distributed/scheduler.py) has the same method, so the frontier asks either
the same way and never walks a scheduler's queues itself.

It also holds requests back while pages are being read in extraction workers (`next_request`):
read in the crawl's own process, a page's links are queued before the next request is taken;
read in a worker, they come later, and may outrank requests taken meanwhile. How much that costs
is measured in the crawl itself (`OutrankingRate`), from the verdicts of the requests it took.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

from scrapy import Request
from scrapy.core.scheduler import Scheduler
from scrapy.http import Response

from topiccrawler.extraction_workers import ExtractionPool
from topiccrawler.frontier.queue import BestFirstPriorityQueue
from topiccrawler.frontier.seen import ForgettingDupeFilter
from topiccrawler.signals import extraction_pool_changed, page_judged, queue_rescore_wanted

# Requests queued between two looks at the queue's length (FRONTIER_MAX_QUEUED): a look sums
# over every site's queue, so it is not taken at every push.
TRIM_EVERY = 1000


class FrontierScheduler(Scheduler):
    # The extraction workers' pool, while the crawl has one (`extraction_pool_changed`).
    extraction_pool: ExtractionPool | None = None
    max_queued = 0  # FRONTIER_MAX_QUEUED: requests held in the memory queue at most (0: no cap)
    pushed = 0

    def open(self, spider):
        if self.crawler is not None:
            self.crawler.signals.connect(self.page_judged, signal=page_judged)
            self.crawler.signals.connect(self.rescore, signal=queue_rescore_wanted)
            self.crawler.signals.connect(
                self.extraction_pool_changed, signal=extraction_pool_changed
            )
            self.max_queued = self.crawler.settings.getint("FRONTIER_MAX_QUEUED")
        return super().open(spider)

    def extraction_pool_changed(self, pool: ExtractionPool | None = None) -> None:
        self.extraction_pool = pool

    def page_judged(self, response: Response | None = None, relevant: bool = False, **kwargs):
        """A page was judged: if this scheduler handed out its request (the URL taken, before
        any redirect), whether taking it then was regretted (`OutrankingRate.judged`)."""
        if response is None or response.request is None:
            return  # (a response made by hand, not a request's)
        taken = (response.meta.get("redirect_urls") or [response.url])[0]
        self._outranking().judged(taken, bool(relevant))

    def enqueue_request(self, request: Request) -> bool:
        queued = super().enqueue_request(request)
        if queued:
            self._outranking().queued(request.priority)
            self.pushed += 1
            if self.max_queued and self.pushed % TRIM_EVERY == 0:
                self.drop_worst()
        return queued

    def drop_worst(self) -> int:
        """Past FRONTIER_MAX_QUEUED queued requests, the worst are dropped and forgotten: out
        of the seen filter (frontier/seen.py) and rediscovery's bookkeeping, so a link to one
        found later queues it again at that link's priority. Only the memory queue is capped
        (a JOBDIR queue is on disk)."""
        if not isinstance(self.mqs, BestFirstPriorityQueue):
            return 0  # (SCHEDULER_PRIORITY_QUEUE set to another queue: nothing to drop by)
        dropped = self.mqs.drop_worst(self.max_queued)
        seen = self.df if isinstance(self.df, ForgettingDupeFilter) else None
        frontier = self.mqs.refresh.frontier
        for request in dropped:
            gone = frontier.left_queue(request) if frontier is not None else True
            if gone and seen is not None:
                seen.forget(request)
        if dropped and self.stats is not None:
            self.stats.inc_value("topiccrawler/frontier/dropped_worst", len(dropped))
        return len(dropped)

    def next_request(self) -> Request | None:
        """The best queued request, or none while the pages being read count as requests in
        flight that fill the crawl's concurrency. Pages in the workers always count; pages
        waiting for room in them count too while the pages not yet read are expected to bring
        at least one link that outranks what would be taken now (OutrankingRate): early in a
        crawl, when every page's links reorder a short queue, the crawl then waits for them
        as it does reading in its own process; later, when few new links outrank the queue's
        best, it goes on fetching while the workers catch up. And no request is taken at all
        while as many takes as there are pages being read are expected to hold one that is
        regretted (taken, outranked by a link read just after, and found irrelevant): at the
        start, before any verdict, and wherever taking early keeps proving a mistake."""
        pool = self.extraction_pool
        if self.crawler is not None and pool is not None:
            reading, waiting = pool.pending, pool.waiting
            if reading or waiting:
                outranking = self._outranking()
                if outranking.regretted(reading + waiting) >= 1:
                    return None  # their links first, as the crawl's own process reads them
                if outranking.expected(reading + waiting) >= 1:
                    reading += waiting
                downloader = self.crawler.engine.downloader
                if 0 < downloader.total_concurrency <= len(downloader.active) + reading:
                    return None
        request = super().next_request()
        if request is not None:
            self._outranking().handed_out(request.priority, request.url)
        return request

    def _outranking(self) -> OutrankingRate:
        outranking = getattr(self, "outranking", None)
        if outranking is None:
            settings = self.crawler.settings if self.crawler else None
            concurrency = settings.getint("CONCURRENT_REQUESTS") if settings else 0
            # (a crawl whose pages are never judged holds nothing back for regret)
            judged = settings.getbool("RELEVANCE_ENABLED") if settings else False
            outranking = self.outranking = OutrankingRate(concurrency, regret=float(judged))
        return outranking

    def rescore(self, score: Callable[[Request], int | None], limit: int) -> int:
        """Queued requests scored again, in each queue of at most `limit` requests (past that
        the refresh on pop does it lazily); how many moved."""
        moved = 0
        for queue in (self.mqs, getattr(self, "dqs", None)):
            if isinstance(queue, BestFirstPriorityQueue) and len(queue) <= limit:
                moved += queue.rescore(score)
        return moved


class OutrankingRate:
    """New requests that outrank the request taken just before them, per request taken: a
    moving average over the last `horizon` requests taken (the crawl's concurrency: about the
    pages whose links are still to come). Measured in the crawl, so what a page not yet read
    is expected to reorder sets itself: many new links a page early on, few once the queue
    holds the web's best. Beside it, the share of takes regretted (`judged`), from the verdicts
    of the pages taken."""

    def __init__(self, horizon: int, regret: float = 1.0):
        self.horizon = max(1, horizon)
        self.rate = 0.0
        self.last: int | None = None  # priority of the request taken last
        self.since = 0  # requests queued since then that outrank it
        # The share of takes regretted: a request taken that was outranked by a request queued
        # before the next take, and whose page proved irrelevant (one that proved relevant was
        # worth taking whatever came after it). Before any verdict nothing says taking early is
        # harmless, so the crawl starts as if every take were regretted; its verdicts set it.
        self.regret = regret
        # Whether each recent take was outranked, by the URL taken: a verdict comes once the
        # page is fetched and read, a few times the concurrency later at most (older ones go).
        self._outranked: OrderedDict[str, bool] = OrderedDict()
        self._remembered = 8 * self.horizon
        self._last_url: str | None = None

    def queued(self, priority: int) -> None:
        if self.last is not None and priority > self.last:
            self.since += 1

    def handed_out(self, priority: int, url: str | None = None) -> None:
        self.rate += (self.since - self.rate) / self.horizon
        if self._last_url is not None:
            self._outranked[self._last_url] = self.since > 0
            if len(self._outranked) > self._remembered:
                self._outranked.popitem(last=False)
        self._last_url = url
        self.last, self.since = priority, 0

    def judged(self, url: str, relevant: bool) -> None:
        """The page of the request taken for `url` was judged (a URL not taken here: nothing)."""
        if url == self._last_url:
            outranked = self.since > 0
            self._last_url = None
        else:
            outranked = self._outranked.pop(url, None)
            if outranked is None:
                return
        regretted = outranked and not relevant
        self.regret += (regretted - self.regret) / self.horizon

    def expected(self, pages: int) -> float:
        """Outranking requests the links of `pages` pages not yet read are expected to bring."""
        return pages * self.rate

    def regretted(self, pages: int) -> float:
        """Regretted takes expected among as many takes as `pages`."""
        return pages * self.regret
