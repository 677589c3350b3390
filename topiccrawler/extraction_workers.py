"""Extraction in worker processes: a page's fields read on another core while the crawl goes on.

The crawl is CPU-bound on one core (docs/benchmarks.md, Throughput): extraction is the largest
piece of per-page work that depends on nothing but the page, so it can run beside the crawl.
A worker is started once, forked from the crawl's process when that has no other thread (it
starts at once with the extractors loaded; a fork beside other threads could inherit a lock one
of them held), else spawned (a clean interpreter that imports them, about a second of CPU). It
warms the extractors on a small page, then receives (HTML, URL, fetch time) and returns
`ExtractedFields`: plain strings, numbers, dates and records, small to pickle (the lxml trees
stay in the worker). A worker also does the later stages' per-page work for them
(`LaterStages`, read_ahead.py: the relevance score, the scripted-page check, the briefing, the
spider's links), so
that the crawl's process, which limits the crawl's rate, does less per page.

`read_page` is the one function both ways run, so a page extracted in a worker and in the crawl's
process gets the same fields. The pool never loses a page: when it is full (`in_flight` pages
submitted and not back), the caller extracts in its own process; when a worker dies, the pool is
broken for good and every page is extracted in-process from then on (`broken` says why).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import datetime

from topiccrawler.briefing import BriefingOptions, brief_page
from topiccrawler.dedup.simhash import simhash
from topiccrawler.extract.links import page_links, rebuilt_response
from topiccrawler.extract.page import extract_page
from topiccrawler.extract.records.comments import RecordOptions
from topiccrawler.guard.text import make_inert
from topiccrawler.items import CommentRecord, PostRecord, ThreadRecord
from topiccrawler.read_ahead import BRIEFING, LINKS, SCORE, SCRIPT_NEED, Ahead, put
from topiccrawler.relevance.judge import PageScore, blocks_texts, judged_blocks
from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.scorer import RelevanceScorer
from topiccrawler.relevance.tokenizer import Tokenizer
from topiccrawler.render.detect import script_check_key, script_need

logger = logging.getLogger(__name__)


@dataclass
class ExtractedFields:
    """What extraction fills in a PageItem, crawled text made inert; what a worker sends back."""

    title: str | None
    body: str
    published: str | None
    published_at: datetime | None
    author: str | None
    source: str | None
    link_density: float
    blocks: dict[str, str] = field(default_factory=dict)
    comments: list[CommentRecord] = field(default_factory=list)
    posts: list[PostRecord] = field(default_factory=list)
    threads: list[ThreadRecord] = field(default_factory=list)
    error: str | None = None
    body_hash: int = 0  # simhash of the body (dedup/simhash.py), computed with it
    # Later stages' work done here (read_ahead.py), by stage, when they were named.
    ahead: dict[str, Ahead] = field(default_factory=dict)


@dataclass
class LaterStages:
    """What the crawl's later stages do per page that a worker can do for them (read_ahead.py),
    with what they need: the topic library and block weights to score against (and whether
    the page classifier's features are wanted), whether to check for scripts, the briefing's
    options, whether the spider follows the page's links. Sent to each worker once.

    `stored_from`: the lowest score of a page whose text is stored, where that is known before
    the crawl (η a number and dropped pages' text not kept): only those pages are briefed.
    None: every page with a word of the library is (an automatic η keeps the text of pages
    whose verdict waits, and the classifier may keep a page the score alone would not)."""

    library: ConceptLibrary | None = None
    impact: dict[str, float] | None = None
    features: bool = False
    script_check: bool = False
    briefing: BriefingOptions | None = None
    links: bool = False
    stored_from: float | None = None

    def work(self) -> StageWork:
        """The stages' tools, built once in the worker."""
        return StageWork(
            RelevanceScorer(self.library, impact=self.impact) if self.library else None,
            self.features,
            self.script_check,
            self.briefing,
            Tokenizer(self.briefing.topic_words) if self.briefing else None,
            self.links,
            self.stored_from,
        )


@dataclass
class StageWork:
    """The later stages' tools in a worker (`LaterStages.work`), and the work itself."""

    scorer: RelevanceScorer | None
    features: bool
    script_check: bool
    briefing: BriefingOptions | None
    briefing_tokenizer: Tokenizer | None
    links: bool = False
    stored_from: float | None = None

    def run(
        self, fields: ExtractedFields, html: str, url: str, encoding: str | None = None
    ) -> dict[str, Ahead]:
        """Each stage's result for the page, keyed by the text the stage will read."""
        ahead: dict[str, Ahead] = {}
        if self.links:
            links = page_links(rebuilt_response(html, url, encoding))
            put(ahead, LINKS, links, html, url, encoding)
        score = None
        if self.scorer is not None:
            blocks = judged_blocks(
                fields.title, fields.body, fields.blocks, (t.title for t in fields.threads)
            )
            score = PageScore.of(self.scorer, blocks, self.features)
            put(ahead, SCORE, score, *blocks_texts(blocks))
        if self.script_check:
            found = len(fields.comments) + len(fields.posts)
            need = script_need(html, url, found, len(fields.body))
            put(ahead, SCRIPT_NEED, need, *script_check_key(html, url, found, len(fields.body)))
        # The briefing is for pages whose text is stored, most of them relevant: a page without
        # a word of the topic's library seldom is (with η a number, one under it never is), and
        # is briefed where it is stored if so.
        unlikely = score is not None and (
            score.relevance.score <= 0
            or (self.stored_from is not None and score.relevance.score < self.stored_from)
        )
        if self.briefing is not None and fields.body.strip() and not unlikely:
            briefing = brief_page(fields.title, fields.body, self.briefing, self.briefing_tokenizer)
            put(ahead, BRIEFING, briefing, fields.title, fields.body)
        return ahead


def read_page(
    html: str,
    url: str,
    fetched_at: datetime | None,
    records: RecordOptions | None,
    stages: StageWork | None = None,
    encoding: str | None = None,
) -> ExtractedFields:
    """A page's extracted fields (`extract_page`), crawled text made inert, and its body's
    SimHash (dedup's, per page CPU work of the body alone); with `stages`, the later stages'
    work on it too. Never raises. `html` is the page's source with control characters already
    dropped, `encoding` the one it was decoded from."""
    content = extract_page(html, url, fetched_at=fetched_at, records=records)
    fields = make_inert(
        ExtractedFields(
            title=content.title,
            body=content.body,
            published=content.published,
            published_at=content.published_at,
            author=content.author,
            source=content.source,
            link_density=content.link_density,
            blocks=content.blocks,
            comments=content.records.comments,
            posts=content.records.posts,
            threads=content.records.threads,
            error=content.error,
        )
    )
    fields.body_hash = simhash(fields.body)
    if stages is not None:
        try:
            fields.ahead = stages.run(fields, html, url, encoding)
        except Exception:  # noqa: BLE001 (the stages do their own work then, and log it)
            logger.exception("Later stages' work on %s failed in a worker", url)
            fields.ahead = {}
    return fields


# The record options and later stages' tools of this worker process, set once when it starts.
_worker_records: RecordOptions | None = None
_worker_stages: StageWork | None = None

# A page that takes every path once when a worker starts (parser, dates, records, body), so that
# the first real page does not pay for first calls.
WARM_UP_PAGE = (
    "<html><head><title>预热 warm-up</title><meta name='author' content='A'></head><body>"
    "<nav><a href='/'>首页</a></nav><h1>预热 warm-up</h1><p>2024-05-21 11:04 来源：本站</p><article>"
    + "<p>正文 text of the page, long enough to be read as its body.</p>" * 8
    + "</article><ul>"
    + "".join(
        f"<li class='c'><span>user{i}</span> <time>2024-05-2{i} 10:00</time>"
        f"<p>comment number {i} says something.</p></li>"
        for i in range(6)
    )
    + "</ul></body></html>"
)


# Seconds between a worker's looks at whether the crawl's process is still there.
PARENT_CHECK_INTERVAL = 1.0


def _start_worker(records: RecordOptions | None, stages: LaterStages | None, crawl: int) -> None:
    """A worker's start: it ignores Ctrl-C (the crawl decides when it ends), ends on SIGTERM
    (not through the crawl's handlers a fork inherits) and when the crawl's process (`crawl`,
    its pid) is gone (killed: nobody would ever send it a page or close it), keeps the record
    options, builds the later stages' tools and warms the extractors. The crawl's pid comes
    from the crawl: a spawned worker imports for seconds, and a crawl killed meanwhile has
    left it another parent by the time it could ask for its own."""
    global _worker_records, _worker_stages
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    threading.Thread(target=_end_with, args=(crawl,), daemon=True, name="end-with-crawl").start()
    _worker_records = records
    _worker_stages = stages.work() if stages is not None else None
    read_page(WARM_UP_PAGE, "http://warm-up.invalid/", None, records, _worker_stages)


def _end_with(parent: int) -> None:
    """End this worker once its parent process is gone (it is then another's child)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_INTERVAL)
    os._exit(0)


def _read_in_worker(
    html: str, url: str, fetched_at: datetime | None, encoding: str | None
) -> ExtractedFields:
    return read_page(html, url, fetched_at, _worker_records, _worker_stages, encoding)


def start_method() -> str:
    """The start method: fork where it is safe (this process has no other thread), else spawn."""
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"


class ExtractionPool:
    """`processes` worker processes reading pages (and doing the later `stages`' work); at most
    `in_flight` pages handed to them at once (past that `submit` returns None and the caller
    reads the page itself)."""

    def __init__(
        self,
        processes: int,
        records: RecordOptions | None,
        in_flight: int,
        stages: LaterStages | None = None,
    ):
        if processes < 1 or in_flight < 1:
            raise ValueError("an extraction pool needs a process and room for a page")
        self.in_flight = in_flight
        self.pending = 0  # pages handed to the workers and not back (their answers come on
        self._lock = threading.Lock()  # the pool's own thread: counted under a lock)
        self.waiting = 0  # pages the crawl holds for the workers until one has room
        self.broken: str | None = None  # why the pool no longer takes pages
        self.start_method = start_method()
        self.executor: ProcessPoolExecutor | None = ProcessPoolExecutor(
            max_workers=processes,
            mp_context=multiprocessing.get_context(self.start_method),
            initializer=_start_worker,
            initargs=(records, stages, os.getpid()),
        )
        # The workers start now (else on first use): warm before the first page. This first
        # task ends once a worker has started and warmed up (its initializer ran).
        self._started = self.executor.submit(int)

    @property
    def ready(self) -> bool:
        """A worker has started: until then a page is read sooner in the crawl's process
        (a spawned worker imports for seconds, a forked one loads its tools)."""
        return self._started.done()

    def wait_started(self, timeout: float | None = None) -> None:
        """Block until a worker has started (a test that wants its pages in the worker)."""
        self._started.result(timeout)

    def submit(
        self, html: str, url: str, fetched_at: datetime | None, encoding: str | None = None
    ) -> Future | None:
        """The page handed to a worker; None when the pool is full, broken or closed."""
        if self.executor is None or self.broken or self.pending >= self.in_flight:
            return None
        try:
            future = self.executor.submit(_read_in_worker, html, url, fetched_at, encoding)
        except (BrokenProcessPool, RuntimeError) as exc:  # RuntimeError: shut down meanwhile
            self.fail(f"{exc.__class__.__name__}: {exc}")
            return None
        with self._lock:
            self.pending += 1
        future.add_done_callback(self._done)
        return future

    def _done(self, future: Future) -> None:
        with self._lock:
            self.pending -= 1

    def fail(self, reason: str) -> None:
        """No more pages to the workers (one died, or its answer could not be read)."""
        if self.broken is None:
            self.broken = reason
            self.close(wait=False)

    def close(self, wait: bool = True) -> None:
        """Stop the workers; pages still queued are cancelled (their callers read them
        themselves). Idempotent."""
        executor, self.executor = self.executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)
