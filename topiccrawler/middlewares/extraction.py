"""Spider middleware: extraction, once, as pages leave the spider (SPEC §3–§5): title, body,
metadata, comments, forum posts and thread lists. Everything after it (the relevance judge, the
frontier, the pipelines) reads what it found.

It sits between the spider and the relevance judge because a page must be read before it is
judged, and judged before its links are scheduled. Extraction never loses a page: one that does
not parse, or on which a step fails, is kept with what could be read, and the reason and the
page's size go into its `relevance_detail` under "extraction" (the JSON of reasons stored with
every page), e.g. `{"extraction": {"error": "no element in document", "raw_bytes": 1234}}`.
Search-result items pass through it too: hit titles and snippets are crawled text, made inert.

With EXTRACT_PROCESSES, pages are read in worker processes (extraction_workers.py) on another core
while the crawl goes on; the page waits for its fields here, before it is judged, so nothing
after it changes. A page that finds the workers full waits its turn (pages keep the order they
came in, so their links are queued in it too), for a while; one they cannot take (still full,
or a worker died) is read here.
"""

from __future__ import annotations

import logging
import os
import resource
from collections import deque
from collections.abc import AsyncIterator
from concurrent.futures import CancelledError, Future
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings
from scrapy.statscollectors import StatsCollector
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred

from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.dedup.simhash import remember as remember_simhash
from topiccrawler.extract.records.comments import RecordOptions
from topiccrawler.extract.records.forum import ForumOptions
from topiccrawler.extraction_workers import (
    ExtractedFields,
    ExtractionPool,
    LaterStages,
    read_page,
)
from topiccrawler.guard.text import SKIPPED_FIELDS, drop_html_controls, make_inert
from topiccrawler.items import PageItem, SearchResultsItem
from topiccrawler.pipelines.briefing import briefing_options
from topiccrawler.signals import extraction_pool_changed
from topiccrawler.topics.files import threshold_override

logger = logging.getLogger(__name__)

# Pages handed to each worker at once when EXTRACT_IN_FLIGHT is 0: with two, a quarter of a
# testbed crawl's pages were still read in the crawl's process; with eight, all but two.
IN_FLIGHT_PER_PROCESS = 8
# A page that finds the workers full waits for one to answer, in steps of ROOM_WAIT_STEP seconds,
# at most ROOM_WAIT_MAX in all; then it is read in the crawl's process.
ROOM_WAIT_STEP = 0.5
ROOM_WAIT_MAX = 2.0


class ExtractionMiddleware:
    """Fills the extracted fields of every PageItem; a page extraction fell short on is kept,
    with the reason."""

    def __init__(
        self,
        stats: StatsCollector,
        records: RecordOptions | None,
        processes: int = 0,
        in_flight: int = 0,
        crawler: Crawler | None = None,
    ):
        self.crawler = crawler
        self.stats = stats
        self.records = records
        self.processes = processes
        self.in_flight = in_flight or IN_FLIGHT_PER_PROCESS * processes
        self.pool: ExtractionPool | None = None
        self._waiting: deque[Deferred] = deque()  # pages waiting for room in the workers

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionMiddleware:
        settings = crawler.settings
        processes = extract_processes(settings)
        middleware = cls(
            crawler.stats,
            record_options(settings),
            processes,
            max(0, settings.getint("EXTRACT_IN_FLIGHT")),
            crawler,
        )
        if processes:
            crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
            crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def spider_opened(self, spider=None) -> None:
        """The workers start with the crawl (their imports overlap its start-up)."""
        stages = self._later_stages(spider)
        self.pool = ExtractionPool(self.processes, self.records, self.in_flight, stages)
        if self.crawler is not None:
            # the scheduler counts its pages in flight
            self.crawler.signals.send_catch_log(extraction_pool_changed, pool=self.pool)
        logger.info("Extraction: %d worker process(es) (%s), %d pages in flight at most",
                    self.processes, self.pool.start_method, self.in_flight)  # fmt: skip

    def _later_stages(self, spider) -> LaterStages | None:
        """The later stages' work the workers do for them (read_ahead.py): the relevance score
        (against the judge's own library: crawl/topic.py), the scripted-page
        check, the briefing, each where its stage is on, and the spider's links. None for a
        spider without a topic."""
        if self.crawler is None:
            return None
        held = crawl_topic(self.crawler)
        topic = held.topic
        if topic is None:
            return None
        settings = self.crawler.settings
        stages = LaterStages(script_check=self.records is not None, links=True)
        if settings.getbool("RELEVANCE_ENABLED"):
            scorer = held.scorer
            stages.library, stages.impact = scorer.library, scorer.impact
            stages.features = settings.getbool("RELEVANCE_CLASSIFIER")
            if not settings.getbool("RELEVANCE_STORE_DROPPED_TEXT"):
                stages.stored_from = _fixed_threshold(settings, topic.keywords.threshold)
        if settings.getbool("BRIEFING_ENABLED"):
            stages.briefing = briefing_options(self.crawler)
        return stages

    def spider_closed(self, spider=None, reason: str | None = None) -> None:
        """The workers end with the crawl, whatever ended it; their CPU time is counted (the
        crawl's process's own is what limits its rate while they have a core of their own)."""
        if self.pool is not None:
            before = _children_cpu()
            self.pool.close()
            self.pool = None
            if self.crawler is not None:
                self.crawler.signals.send_catch_log(extraction_pool_changed, pool=None)
            while self._waiting:
                self._make_room()
            self.stats.set_value("topiccrawler/extraction/workers_cpu_s",
                                 round(_children_cpu() - before, 3))  # fmt: skip

    # Async only: a page waits for its worker without holding up the rest of the crawl.
    async def process_spider_output(self, response, result: AsyncIterator[Any], spider=None):
        async for output in result:
            if isinstance(output, PageItem) and not output.extracted:
                await self.read(output)
            yield self.process(output)

    def process(self, output: Any) -> Any:
        """An output read here, in this process (search results made inert)."""
        if isinstance(output, SearchResultsItem):
            return make_inert(output)
        if isinstance(output, PageItem) and not output.extracted:
            extract_into(output, self.records)
            self._count(output)
        return output

    async def read(self, item: PageItem) -> None:
        """Fill the page's fields, in a worker when one can take it, else here."""
        item.html = drop_html_controls(item.html)
        future = await self._submit(item)
        fields = await self._answer(future) if future is not None else None
        if self.pool is not None and self.pool.broken:
            self._give_up(item.url)
        if fields is None:
            fields = read_page(item.html, item.url, item.fetched_at, self.records)
        else:
            self.stats.inc_value("topiccrawler/extraction/in_worker")
        fill(item, fields)
        self._count(item)

    async def _submit(self, item: PageItem) -> Future | None:
        """The page handed to a worker; while they are full, it waits its turn for one (a
        page read here meanwhile would have its links queued before pages that came earlier
        and are still in a worker), at most ROOM_WAIT_MAX seconds. None: read it here."""
        from twisted.internet import reactor

        if self.pool is not None and not self.pool.ready:
            self.stats.inc_value("topiccrawler/extraction/before_workers_started")
            return None
        turns, held_for = 0, None  # held_for: the pool that counts this page as waiting
        try:
            while self.pool is not None and not self.pool.broken:
                future = self.pool.submit(item.html, item.url, item.fetched_at, item.encoding)
                if future is not None or turns * ROOM_WAIT_STEP >= ROOM_WAIT_MAX:
                    return future
                if held_for is None:
                    held_for = self.pool
                    held_for.waiting += 1  # the scheduler may count it in flight
                room: Deferred = Deferred()
                # A page that waited already goes first when room is made.
                (self._waiting.appendleft if turns else self._waiting.append)(room)
                timeout = reactor.callLater(ROOM_WAIT_STEP, self._make_room, room)
                await maybe_deferred_to_future(room)
                if timeout.active():
                    timeout.cancel()
                turns += 1
            return None
        finally:
            if held_for is not None:
                held_for.waiting -= 1

    def _make_room(self, room: Deferred | None = None) -> None:
        """Wake the page waiting longest for a worker (or `room`, whose wait is up)."""
        if room is None:
            room = self._waiting.popleft() if self._waiting else None
        elif room in self._waiting:
            self._waiting.remove(room)
        else:
            return  # already woken
        if room is not None:
            room.callback(None)

    async def _answer(self, future: Future) -> ExtractedFields | None:
        """The worker's fields for the page; None (read here) when the pool was closed
        meanwhile, or a worker died or its answer could not be read (the pool is then broken)."""
        from twisted.internet import reactor

        answered: Deferred = Deferred()
        future.add_done_callback(lambda done: reactor.callFromThread(answered.callback, done))
        done = await maybe_deferred_to_future(answered)
        self._make_room()  # its worker can take the next page
        try:
            return done.result()
        except CancelledError:
            return None
        except Exception as exc:  # noqa: BLE001 (a dead worker, an answer that did not unpickle)
            if self.pool is not None:
                self.pool.fail(f"{exc.__class__.__name__}: {exc}"[:300])
            return None

    def _give_up(self, url: str) -> None:
        """The workers are given up for the rest of the crawl, with the reason logged."""
        reason = self.pool.broken
        logger.warning(
            "Extraction workers given up at %s (%s): pages are read in the crawl's process "
            "from now on", url, reason,
        )  # fmt: skip
        self.stats.set_value("topiccrawler/extraction/workers_given_up", reason)
        self.pool.close(wait=False)
        self.pool = None
        if self.crawler is not None:
            self.crawler.signals.send_catch_log(extraction_pool_changed, pool=None)
        while self._waiting:
            self._make_room()  # pages waiting for room are read here

    def _count(self, item: PageItem) -> None:
        if item.extraction_error:
            self.stats.inc_value("topiccrawler/extraction/failed")
            logger.info("Extraction fell short on %s: %s", item.url, item.extraction_error)
            raw = item.raw_size if item.raw_size is not None else len(item.html.encode("utf-8"))
            item.relevance_detail = {
                **(item.relevance_detail or {}),
                "extraction": {"error": item.extraction_error, "raw_bytes": raw},
            }
        self.stats.inc_value("topiccrawler/extraction/pages")
        self.stats.inc_value("topiccrawler/extraction/comments", len(item.comments))
        self.stats.inc_value("topiccrawler/extraction/posts", len(item.posts))
        self.stats.inc_value("topiccrawler/extraction/threads", len(item.threads))


def _children_cpu() -> float:
    """User + system CPU seconds of this process's ended (and waited for) child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _fixed_threshold(settings: BaseSettings, topic_threshold: float | None) -> float | None:
    """η when it is a number (RELEVANCE_THRESHOLD, else the topic file's); None when it is
    estimated while crawling, or not valid (the relevance middleware says why)."""
    try:
        return threshold_override(settings.get("RELEVANCE_THRESHOLD"), topic_threshold)
    except ValueError:
        return None


def record_options(settings: BaseSettings) -> RecordOptions | None:
    """Comment and forum detection parameters from the settings; None when RECORDS_ENABLED is
    False."""
    if not settings.getbool("RECORDS_ENABLED"):
        return None
    return RecordOptions(
        measure=settings.get("COMMENT_MEASURE"),
        similarity=settings.getfloat("COMMENT_SIMILARITY"),
        level=settings.getint("COMMENT_LEVEL"),
        min_blocks=settings.getint("COMMENT_MIN_BLOCKS"),
        min_blocks_with_evidence=settings.getint("COMMENT_MIN_BLOCKS_WITH_EVIDENCE"),
        forum=ForumOptions(
            similarity=settings.getfloat("FORUM_SIMILARITY"),
            weights=tuple(float(w) for w in settings.getlist("FORUM_WEIGHTS")),
            min_blocks=settings.getint("FORUM_MIN_BLOCKS"),
        ),
    )


def extract_processes(settings: BaseSettings) -> int:
    """EXTRACT_PROCESSES, checked: worker processes that read pages (0: the crawl's process;
    "auto": one where this process may run on two cores or more)."""
    value = settings.get("EXTRACT_PROCESSES")
    if str(value).strip().lower() == "auto":
        return 1 if usable_cpus() >= 2 else 0
    try:
        processes = settings.getint("EXTRACT_PROCESSES")
    except ValueError:
        processes = -1
    if processes < 0:
        raise ValueError(
            f"EXTRACT_PROCESSES must be 'auto' or a whole number, 0 or more, not {value!r}"
        )
    return processes


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells, as in a
    container limited to some cores), else the machine's."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def extract_into(item: PageItem, records: RecordOptions | None = RecordOptions()) -> None:
    """Fill a page's extracted fields from its HTML, once, in this process; never raises
    (`extraction_error` says what fell short)."""
    if item.extracted:
        return
    # Control characters in the source are dropped first (lxml refuses them in text it sets),
    # and again from what extraction gives (character references such as &#27; make them).
    item.html = drop_html_controls(item.html)
    fill(item, read_page(item.html, item.url, item.fetched_at, records))


# The PageItem fields `fill` sets from ExtractedFields (made inert as they were read), and
# with them the fields `make_inert` leaves alone anyway.
READ_FIELDS = frozenset((
    "title", "body", "published", "published_at", "author", "source", "link_density", "blocks",
    "comments", "posts", "threads", "extraction_error",
))  # fmt: skip
_LEFT_AS_READ = SKIPPED_FIELDS | READ_FIELDS


def fill(item: PageItem, fields: ExtractedFields) -> None:
    """The page's extracted fields set from what extraction (here or in a worker) read."""
    item.title = fields.title
    item.body = fields.body
    item.published = fields.published
    item.published_at = fields.published_at
    item.author = fields.author
    item.source = fields.source
    item.link_density = fields.link_density
    item.blocks = fields.blocks
    item.comments = fields.comments
    item.posts = fields.posts
    item.threads = fields.threads
    item.extraction_error = fields.error
    # Crawled text is data: no control characters in anything stored (what was read from the
    # page was made inert as it was read, `read_page`).
    make_inert(item, skip=_LEFT_AS_READ)
    item.extracted = True
    if fields.body_hash and item.body == fields.body:
        remember_simhash(item.body, fields.body_hash)  # dedup takes it without hashing again
    item.read_ahead = fields.ahead
