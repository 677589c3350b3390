"""The scheduler of a worker in a shared crawl (SCHEDULER when REDIS_URL is set).

Requests go to the shared frontier through the shared Bloom filter; the downloader asks for the
next one when it has room, and gets the best request of a site that is free over all workers,
leased to this worker. A lease ends once the request's response has been through the spider and
the pipelines and the storage pipeline has committed what came of it (`items_stored`): a worker
killed before that point loses nothing, since its leases go back into the frontier.

A worker with nothing to do stays while others still have requests in flight (they may find new
links) for at most REDIS_IDLE_TIMEOUT seconds; when the frontier is empty and nothing is in flight
anywhere, the crawl is finished and every worker closes. The last worker to leave deletes the
crawl's keys when it finished (a crawl stopped early is kept, and resumes when workers start
again, as with JOBDIR).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import time
from typing import Any

from scrapy import Request, signals
from scrapy.core.scheduler import BaseScheduler
from scrapy.crawler import Crawler
from scrapy.exceptions import DontCloseSpider, NotConfigured
from twisted.internet import reactor, task

from topiccrawler.distributed.bands import BandedFrontier, crawl_band
from topiccrawler.distributed.bloom import BloomDupeFilter
from topiccrawler.distributed.frontier import OVER_BUDGET, SEEN, SharedFrontier
from topiccrawler.distributed.rediscovery import RAISED, SharedRediscovery
from topiccrawler.distributed.state import SEEDS_PUSHED, Heartbeat, SharedCrawl, shared_crawl_for
from topiccrawler.frontier.refresh import PopRefresh
from topiccrawler.meta import LEASE, SITE_BUDGET
from topiccrawler.signals import (
    items_stored,
    queue_rescore_wanted,
    request_held,
    seeds_queued,
    seeds_wanted,
    storage_flush_requested,
)

logger = logging.getLogger(__name__)

RESCORE_EVERY_PAGES = 250  # pages judged over all workers between two rescorings of the frontier
RESCORE_LOCK_MS = 60_000  # one worker rescores at a time (a dead one's turn ends after this)
# The frontier is due a rescoring when RESCORE_EVERY_PAGES pages were judged since the last one
# (KEYS: pages judged, pages at the last rescoring; ARGV: the interval): due is marked taken.
RESCORE_DUE = """
local judged = tonumber(redis.call('GET', KEYS[1]) or '0')
local last = redis.call('GET', KEYS[2])
if last and judged - tonumber(last) < tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[2], judged)
return 1
"""
SWEEP_INTERVAL = 0.1  # seconds between looks for leased requests the engine is done with
WAKE_INTERVAL = 0.2  # seconds between looks for work other workers queued or sites they freed


class DistributedScheduler(BaseScheduler):
    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        settings = crawler.settings
        self.idle_timeout = settings.getfloat("REDIS_IDLE_TIMEOUT")
        self.flush_on_start = settings.getbool("REDIS_FLUSH_ON_START")
        self.crawl: SharedCrawl
        self.df: BloomDupeFilter
        self.queue: SharedFrontier
        self.leased: dict[str, Request] = {}  # lease → request the engine has not finished
        self.done: list[str] = []  # leases whose items wait for the storage pipeline's commit
        # Whether items are stored (then a lease is released only once they are committed).
        self.stores = crawler.settings.getbool("STORAGE_ENABLED")
        self.idle_since: float | None = None
        self.loops: list[Any] = []
        self.heartbeat: Heartbeat | None = None
        self.refresh = PopRefresh(crawler)  # rescoring on pop (frontier/refresh.py)
        self._leases = 0
        self._wake_call: Any = None
        self.local: list[tuple[int, int, Request]] = []  # requests no other worker could run
        self._local_order = itertools.count()
        self.joined_seeded_crawl = False  # the spider pushes no seeds when True
        # Fingerprints this worker has sent to the shared filter: a page's navigation and
        # related links come back on every page, and most links a spider finds are repeats.
        # A repeat is known seen without pickling it or asking Redis. Bounded; forgotten
        # when full (Redis still knows them). With rediscovery, the best priority sent of a
        # link the frontier ranked: a repeat goes to Redis only when it may raise the URL.
        self.known: dict[bytes, int | None] = {}
        self.gain = (
            settings.getint("FRONTIER_REDISCOVERY_GAIN")
            if settings.getbool("FRONTIER_ENABLED")
            else 0
        )
        self.rediscovery: SharedRediscovery | None = None  # distributed/rediscovery.py
        self.known_max = settings.getint("REDIS_LOCAL_SEEN_MAX")
        self.freed: set[str] = set()  # leases freed when their download ended
        # Leases of requests a component holds back to crawl them again (a login under way):
        # kept until they are, whatever the engine says of them meanwhile.
        self.held: set[str] = set()
        self.to_free: list[str] = []  # ... sent with the next pop or sweep (one round trip)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DistributedScheduler:
        return cls(crawler)

    # --- opening and closing ------------------------------------------------------------------------

    def open(self, spider) -> None:
        crawl = shared_crawl_for(self.crawler)
        if crawl is None:
            raise NotConfigured("DistributedScheduler needs REDIS_URL")
        self.crawl = crawl
        settings = self.crawler.settings
        if self.flush_on_start and not crawl.alive_workers():
            logger.info(
                "REDIS_FLUSH_ON_START: %d keys of crawl %r deleted", crawl.clear(), crawl.name
            )
        crawl.beat()
        # Seeds (queries, authority start pages) are pushed once, by the crawl's first worker.
        self.joined_seeded_crawl = not crawl.server.set(crawl.key("seeded"), crawl.worker, nx=True)
        self.df = BloomDupeFilter(
            crawl,
            self.crawler.request_fingerprinter,
            settings.getint("REDIS_BLOOM_CAPACITY"),
            settings.getfloat("REDIS_BLOOM_ERROR"),
            debug=settings.getbool("DUPEFILTER_DEBUG"),
        )
        self._rescore_due = crawl.server.register_script(RESCORE_DUE)
        frontier_args = (
            crawl,
            spider,
            self.crawler.engine.downloader.get_slot_key,
            (
                settings.getfloat("DOWNLOAD_DELAY"),
                settings.getint("CONCURRENT_REQUESTS_PER_DOMAIN"),
            ),
        )
        band = crawl_band(crawl, settings.getint("REDIS_FRONTIER_BAND"))
        if band > 0:  # lists per priority band (bands.py)
            self.queue = BandedFrontier(*frontier_args, band=band)
        else:  # sorted sets (frontier.py)
            self.queue = SharedFrontier(*frontier_args)
        if self.gain > 0:
            self.rediscovery = SharedRediscovery(self.queue, self.df.fingerprint, self.gain)
        reclaimed = crawl.reclaim_dead()
        self.stats.inc_value("topiccrawler/workers/reclaimed", reclaimed)
        queued = len(self.queue)
        logger.info(
            "Worker %s joined crawl %r (%d workers alive; %d sites queued%s)",
            crawl.worker, crawl.name, len(crawl.alive_workers()), queued,
            ", resuming" if queued else "",
        )  # fmt: skip
        self.stats.set_value("topiccrawler/workers/worker", crawl.worker)
        beat_every = max(0.2, crawl.worker_timeout / 3)
        self.heartbeat = Heartbeat(
            crawl,
            beat_every,
            max(crawl.worker_timeout, settings.getfloat("REDIS_WORKER_STALL_TIMEOUT")),
        )
        self.heartbeat.start()
        for handler, signal in (
            (self.rescore, queue_rescore_wanted),
            (self.may_push_seeds, seeds_wanted),
            (self.seeds_pushed, seeds_queued),
        ):
            self.crawler.signals.connect(handler, signal=signal)
        for call, interval in (
            (self._beat, beat_every),
            (self._sweep, SWEEP_INTERVAL),
            (self._wake_if_queued, WAKE_INTERVAL),
        ):
            loop = task.LoopingCall(call)
            loop.start(interval, now=False)
            self.loops.append(loop)
        signals_ = self.crawler.signals
        signals_.connect(self.items_stored, signal=items_stored)
        signals_.connect(self.request_held, signal=request_held)
        signals_.connect(self.request_left_downloader, signal=signals.request_left_downloader)
        signals_.connect(self.spider_idle, signal=signals.spider_idle)

    def close(self, reason: str) -> None:
        if self.heartbeat is not None:
            self.heartbeat.stop()
        for loop in self.loops:
            if loop.running:
                loop.stop()
        if self._wake_call is not None and self._wake_call.active():
            self._wake_call.cancel()
        crawl = self.crawl
        self._send_frees()
        # Requests taken but never finished (a crawl stopped early) go back for later.
        unfinished = [lease for lease in self.leased if crawl.requeue(lease, crawl.worker)]
        crawl.release(*self.done)
        if self.rediscovery is not None:
            self.rediscovery.flush()
        self.leased.clear()
        self.held.clear()
        self.freed.clear()
        self.done.clear()
        others = crawl.leave()
        finished = crawl.finished()  # (asked after leaving: what those who left first released)
        self.stats.set_value("topiccrawler/workers/requeued_on_close", len(unfinished))
        if others:
            logger.info(
                "Worker %s left crawl %r; %d workers go on", crawl.worker, crawl.name, len(others)
            )
            return
        crawl.last_out = True
        if finished:
            urls = self.df.count()
            crawl.clear()
            logger.info(
                "Crawl %r finished (%d URLs seen): its Redis keys are deleted", crawl.name, urls
            )
        else:
            crawl.server.delete(crawl.key("run"))  # a resumed crawl is a new crawl run
            logger.info(
                "Crawl %r stopped with %d sites queued: kept in Redis; workers started again resume it",
                crawl.name, len(self.queue),
            )  # fmt: skip

    # --- requests -------------------------------------------------------------------------------------

    def has_pending_requests(self) -> bool:
        return bool(self.local) or len(self.queue) > 0

    def __len__(self) -> int:
        return len(self.local) + len(self.queue)

    def enqueue_request(self, request: Request) -> bool:
        """Seen-URL filter, the site's budget over all workers (new URLs only: each worker's
        spider only knows the URLs it found itself) and the queue, in one round trip; none for
        a URL this worker has sent before, unless the link may raise it (rediscovery)."""
        lease = request.meta.get(LEASE)
        if lease in self.held:  # held back, crawled again: queued, then its lease ends
            queued = self._enqueue(request)
            self.held.discard(lease)
            self.leased.pop(lease, None)
            self.freed.discard(lease)
            self.crawl.release(lease)
            return queued
        return self._enqueue(request)

    def _enqueue(self, request: Request) -> bool:
        fresh = not request.dont_filter
        fingerprint = self.df.fingerprint(request) if fresh else b""
        tracked = self.rediscovery is not None and self.rediscovery.tracked(request)
        if fresh and fingerprint in self.known:
            best = self.known[fingerprint]
            if best is None or not tracked or request.priority < best + self.gain:
                self.stats.inc_value("scheduler/seen/local")
                self.df.log(request, self.crawler.spider)
                return False
        try:
            offsets = self.df.offsets(request, fingerprint) if fresh else []
            budget = request.meta.get(SITE_BUDGET) if fresh else None
            if tracked:
                outcome = self.rediscovery.push_new(request, fingerprint, offsets, budget)
            else:
                outcome = self.queue.push_new(request, offsets, budget)
        except ValueError:  # a callback that is no method of the spider: it stays here
            if fresh and self.df.request_seen(request):
                return False
            heapq.heappush(self.local, (-request.priority, next(self._local_order), request))
            self.stats.inc_value("scheduler/enqueued/local")
            return True
        if fresh and outcome != OVER_BUDGET:
            if len(self.known) >= self.known_max:
                self.known.clear()
            self.known[fingerprint] = request.priority if tracked else None
        if outcome == RAISED:  # the queued request has this link's priority now
            self.stats.inc_value("topiccrawler/frontier/rediscovered_higher")
            return False
        if outcome == SEEN:
            self.df.log(request, self.crawler.spider)
            return False
        if outcome == OVER_BUDGET:
            self.stats.inc_value("topiccrawler/links/over_site_budget")
            return False
        self.stats.inc_value("scheduler/enqueued/redis")
        return True

    def may_push_seeds(self) -> bool:
        """`seeds_wanted`: False when another worker queued the crawl's seeds already."""
        return not self.joined_seeded_crawl

    def seeds_pushed(self) -> None:
        """The spider has queued its seeds: an idle worker may now take an empty frontier for
        a finished crawl (before, it may only be waiting for the first worker's seeds)."""
        self.crawl.server.set(self.crawl.key("seeded"), SEEDS_PUSHED)

    def next_request(self) -> Request | None:
        if self.local:  # requests only this worker can run (Scrapy's internal ones) first
            self.stats.inc_value("scheduler/dequeued/local")
            return heapq.heappop(self.local)[2]
        popped = self.refresh.pop(self._take, self._requeue, self._drop)
        if popped is None:
            return None
        request, lease = popped
        self.leased[lease] = request
        self.idle_since = None
        self.stats.inc_value("scheduler/dequeued/redis")
        return request

    def _take(self) -> tuple[Request, str] | None:
        """The best request of a free site, leased to this worker (with the frees due)."""
        self._leases += 1
        free, self.to_free = self.to_free, []
        try:
            popped = self.queue.pop(lease=f"{self.crawl.worker}:{self._leases}", free=free)
        except Exception:
            self.to_free = free + self.to_free  # freed by the next try or the sweep
            raise
        if popped is None and self.queue.next_free is not None:
            self._wake_in(self.queue.next_free)  # a site frees up then: ask again at once
        elif popped is not None and self.rediscovery is not None:
            self.rediscovery.taken(popped[0])
        return popped

    def _requeue(self, request: Request, lease: str) -> None:
        """Back into the shared frontier at its new priority; its lease ends."""
        self.queue.push(request)
        self.crawl.release(lease)

    def _drop(self, request: Request, lease: str) -> None:
        """Dropped (superseded): only its lease ends."""
        self.crawl.release(lease)

    def rescore(self, score, limit: int) -> int:
        """After a classifier refit: queued requests of the shared frontier scored again, by
        one worker at a time and once per RESCORE_EVERY_PAGES pages judged over all workers
        (every worker's classifier has the shared model; one rescoring serves them all). Counted
        in pages, not seconds: a crawl of more workers is rescored as often per page as one of
        one worker, not less."""
        server, crawl = self.crawl.server, self.crawl
        gate = crawl.key("rescoring")
        if not server.set(gate, crawl.worker, nx=True, px=RESCORE_LOCK_MS):
            self.stats.inc_value("topiccrawler/frontier/rescore_skipped")
            return 0
        try:
            keys = [crawl.key("classifier", "pages"), crawl.key("rescored_at")]
            if not self._rescore_due(keys=keys, args=[RESCORE_EVERY_PAGES]):
                self.stats.inc_value("topiccrawler/frontier/rescore_skipped")
                return 0
            return self.queue.rescore(score, limit)
        finally:
            if server.get(gate) == crawl.worker.encode():
                server.delete(gate)

    # --- leases -----------------------------------------------------------------------------------------

    def _sweep(self) -> None:
        """Leased requests the engine is done with (response scraped, or failed): released now
        without storage, else after the storage pipeline's next commit."""
        slot = self._engine_slot()
        if slot is None:
            return
        in_progress = slot.inprogress
        self._send_frees()
        if self.rediscovery is not None:
            self.rediscovery.flush()
        for lease, request in list(self.leased.items()):
            if request not in in_progress:
                if lease in self.held:  # not done: back in the engine later; its site is free
                    if lease not in self.freed:
                        self.freed.add(lease)
                        self.crawl.free(lease)
                    continue
                del self.leased[lease]
                if lease in self.freed:
                    self.freed.discard(lease)
                else:  # never reached the downloader (dropped on the way)
                    self.crawl.free(lease)
                if self.stores:
                    self.done.append(lease)
                else:
                    self.crawl.release(lease)

    def request_held(self, request: Request) -> None:
        """A component holds a leased request back, to crawl it again (middlewares/sessions.py
        while it logs in): its lease stays until then (`enqueue_request`), or until the worker
        closes (it goes back into the frontier), or dies (another worker puts it back)."""
        lease = request.meta.get(LEASE)
        if lease in self.leased:
            self.held.add(lease)

    def request_left_downloader(self, request: Request) -> None:
        """A download is over: its site may take the next request (politeness). Sent with this
        worker's next pop, which the engine asks for at once, or with the sweep."""
        lease = request.meta.get(LEASE)
        if lease in self.leased and lease not in self.freed:
            self.to_free.append(lease)
            self.freed.add(lease)

    def _send_frees(self) -> None:
        if self.to_free:
            pipe = self.crawl.server.pipeline(transaction=False)
            for lease in self.to_free:
                self.crawl.free(lease, client=pipe)
            pipe.execute()
            self.to_free = []

    def items_stored(self, pending: int = 0) -> None:
        """The storage pipeline committed: every response finished before is safe, unless
        items still wait in the pipeline for a database that went away (`pending`): then the
        leases stay, and a worker killed meanwhile has its requests fetched again."""
        self._sweep()
        if pending:
            return
        done, self.done = self.done, []
        self.crawl.release(*done)

    def _beat(self) -> None:
        self.heartbeat.tick()  # the beat itself is the heartbeat thread's
        reclaimed = self.crawl.reclaim_dead()
        if reclaimed:
            self.stats.inc_value("topiccrawler/workers/reclaimed", reclaimed)
            self._wake()

    def _publish_policies(self) -> None:
        """This worker's per-site delay and concurrency, for every worker's pops."""
        downloader = self.crawler.engine.downloader
        for key, slot in list(downloader.slots.items()):
            self.queue.set_policy(key, slot.delay, slot.concurrency)
        default_delay, default_concurrency = self.queue.default_policy
        for key, conf in downloader.per_slot_settings.items():
            if key not in downloader.slots:
                delay = conf.get("delay", default_delay)
                self.queue.set_policy(key, delay, conf.get("concurrency", default_concurrency))

    # --- waking and idling ------------------------------------------------------------------------------

    def _engine_slot(self):
        """Scrapy's engine slot, None before the spider opens or after it closes. Private in
        Scrapy, and there is no public way to it: the scheduler needs the requests in progress
        (a lease ends when its request leaves them) and the engine's next call (to wake an engine
        that sleeps while other workers' requests may arrive)."""
        return self.crawler.engine._slot

    def _wake(self) -> None:
        slot = self._engine_slot()
        if slot is not None and self.crawler.engine.running:
            slot.nextcall.schedule()

    def _wake_in(self, seconds: float) -> None:
        call = self._wake_call
        if call is not None and call.active():
            if call.getTime() <= time.time() + seconds:  # reactor time is wall-clock time
                return
            call.cancel()
        self._wake_call = reactor.callLater(seconds + 0.001, self._wake)

    def _wake_if_queued(self) -> None:
        self._publish_policies()  # a block's back-off reaches the other workers within 0.2 s
        if len(self.queue):
            self._wake()

    def spider_idle(self) -> None:
        """Stay while other workers have requests in flight (they may queue more), for at most
        REDIS_IDLE_TIMEOUT seconds; close once nothing is queued or in flight anywhere."""
        self._flush_storage()
        self._sweep()
        if self.crawl.finished():
            return
        now = time.monotonic()
        if self.idle_since is None:
            self.idle_since = now
        if now - self.idle_since < self.idle_timeout:
            raise DontCloseSpider
        logger.info(
            "Worker %s idle for %.0f s while %d requests are in flight elsewhere: stopping",
            self.crawl.worker, now - self.idle_since, self.crawl.leases_in_flight(),
        )  # fmt: skip

    def _flush_storage(self) -> None:
        """Items of fetched requests into the database now (the storage pipeline answers with
        `items_stored`, which frees their leases)."""
        self.crawler.signals.send_catch_log(storage_flush_requested)
