"""The frontier as a component of its own: best-first without the relevance judge, and the
schedulers told of it by a signal rather than looking it up."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse
from scrapy.settings import Settings

from tests.crawl import make_crawler
from tests.middlewares.test_relevance import SPORTS_PAGE
from topiccrawler.frontier.queue import BestFirstPriorityQueue
from topiccrawler.frontier.scheduler import FrontierScheduler
from topiccrawler.items import PageItem
from topiccrawler.meta import LINK_TEXT, TUNNEL
from topiccrawler.middlewares.extraction import ExtractionMiddleware
from topiccrawler.middlewares.frontier import FrontierMiddleware
from topiccrawler.middlewares.relevance import RelevanceMiddleware
from topiccrawler.signals import frontier_opened
from topiccrawler.spiders.topic import TopicSpider


def test_best_first_stays_on_without_the_relevance_judge(seeds_file):
    crawler = make_crawler({"STORAGE_ENABLED": False, "RELEVANCE_ENABLED": False})
    spider = TopicSpider.from_crawler(crawler, topic="tax", seeds=str(seeds_file()))
    crawler.spider = spider
    with pytest.raises(NotConfigured):
        RelevanceMiddleware.from_crawler(crawler)
    told = []

    def remember(frontier):
        told.append(frontier)

    crawler.signals.connect(remember, signal=frontier_opened, weak=False)
    extraction = ExtractionMiddleware.from_crawler(crawler)
    frontier = FrontierMiddleware.from_crawler(crawler)
    frontier.spider_opened(spider)
    assert told == [frontier]  # whoever needs the frontier (the hop limit) is told
    request = Request("http://site.test/page", meta={TUNNEL: 5})
    response = HtmlResponse(request.url, body=SPORTS_PAGE.encode(), encoding="utf-8",
                            request=request)  # fmt: skip
    page = PageItem(url=request.url, topic="tax", status=200, fetched_at=datetime.now(UTC),
                    html=SPORTS_PAGE)  # fmt: skip
    on_topic = Request("http://site.test/a", meta={LINK_TEXT: "税务机关查处偷税案件"})
    off_topic = Request("http://site.test/b", meta={LINK_TEXT: "体育新闻"})
    out = list(
        frontier.process_spider_output(
            response, map(extraction.process, [page, on_topic, off_topic])
        )
    )
    judged, first, second = out
    assert judged.is_relevant is None  # nobody judged it ...
    assert first.meta[TUNNEL] == second.meta[TUNNEL] == 0  # ... so nothing is deferred
    assert first.priority > second.priority >= 0  # and links are still ranked best-first


def test_the_scheduler_rescores_its_own_queues():
    class Queue(BestFirstPriorityQueue):
        """What the scheduler reads of its best-first queue: its length, its rescoring."""

        def __init__(self, requests):
            self.requests = requests

        def __len__(self):
            return len(self.requests)

        def rescore(self, score):
            return sum(score(r) is not None for r in self.requests)

    scheduler = FrontierScheduler.__new__(FrontierScheduler)
    scheduler.mqs = Queue([Request("http://a.test/1"), Request("http://a.test/2")])
    scheduler.dqs = None
    assert scheduler.rescore(lambda request: 1, limit=10) == 2
    assert scheduler.rescore(lambda request: 1, limit=1) == 0  # too many: the pop does it


def _scheduler_with_pool(
    monkeypatch, active: int, concurrency: int = 4, settled: bool = True, settings=None
):
    """A FrontierScheduler over a crawl whose downloader has `active` downloads and whose
    extraction pool is registered; Scrapy's own next_request gives "the best queued request".
    `settled`: as after many takes that were not regretted (none held back for that)."""
    from types import SimpleNamespace

    from scrapy.core.scheduler import Scheduler

    class Crawler:  # a crawl's engine and settings, as the scheduler sees them
        engine = SimpleNamespace(
            downloader=SimpleNamespace(total_concurrency=concurrency, active=set(range(active)))
        )
        settings = Settings({"CONCURRENT_REQUESTS": concurrency, "RELEVANCE_ENABLED": True})

    crawler = Crawler()
    crawler.settings.setdict(settings or {})
    downloader = crawler.engine.downloader
    pool = SimpleNamespace(pending=0, waiting=0)
    scheduler = FrontierScheduler.__new__(FrontierScheduler)
    scheduler.crawler = crawler
    scheduler.extraction_pool_changed(pool)  # as the extraction middleware tells it
    taken = itertools.count()
    monkeypatch.setattr(
        Scheduler, "next_request", lambda self: Request(f"http://a.test/{next(taken)}")
    )
    if settled:
        scheduler._outranking().regret = 0.0
    return scheduler, pool, downloader


def test_pages_in_extraction_workers_count_as_requests_in_flight(monkeypatch):
    """Read in a worker, a page's links come back later than read in the crawl's process: until
    they do, the page holds its place in the crawl's concurrency, so the next request is taken
    with its links queued (without, a worker's testbed far@100 fell 0.734 -> 0.710)."""
    scheduler, pool, downloader = _scheduler_with_pool(monkeypatch, active=2)
    pool.pending = 2
    assert scheduler.next_request() is None  # two downloading and two being read: four
    pool.pending = 1
    assert scheduler.next_request() is not None
    pool.pending = 0
    downloader.active = {1, 2, 3, 4}  # full without pages in workers: the engine's call
    assert scheduler.next_request() is not None
    scheduler.extraction_pool_changed(None)
    pool.pending = 3
    assert scheduler.next_request() is not None  # no pool: nothing held back


def test_pages_waiting_for_a_worker_count_while_their_links_are_expected_to_outrank(monkeypatch):
    """Pages waiting for room in the workers count as in flight too while the links of the
    pages not yet read are expected to outrank what would be taken (early in a crawl, each
    page's links reorder a short queue); once few new links outrank the queue's best, the
    crawl goes on fetching while the workers catch up."""
    scheduler, pool, downloader = _scheduler_with_pool(monkeypatch, active=2)
    pool.pending, pool.waiting = 1, 1
    assert scheduler.next_request() is not None  # nothing measured yet: the waiting one free
    for _ in range(8):  # every request taken is followed by two links that outrank it
        scheduler._outranking().queued(10_000)
        scheduler._outranking().queued(10_000)
        scheduler._outranking().handed_out(0)
    assert scheduler.outranking.expected(2) >= 1
    assert scheduler.next_request() is None  # 2 downloading + 1 being read + 1 waiting
    for _ in range(40):  # then none outranks what is taken
        scheduler._outranking().handed_out(0)
    assert scheduler.outranking.expected(2) < 1
    assert scheduler.next_request() is not None


def test_no_request_is_taken_while_pages_are_read_until_taking_early_proves_harmless(monkeypatch):
    """Before any verdict the crawl takes nothing while pages are being read (their links first,
    as the crawl's own process reads them: a worker's first hundred pages of the large sandbox
    were 0.82-0.86 relevant against 0.88 in process); takes that prove worth it lift that, and
    takes regretted (outranked by a link read just after, and irrelevant) bring it back."""

    def page_of(request, redirected_to=None):
        """The response the engine gives for the request (after a redirect: another URL)."""
        if redirected_to is None:
            return HtmlResponse(request.url, request=request)
        moved = request.replace(url=redirected_to, meta={"redirect_urls": [request.url]})
        return HtmlResponse(redirected_to, request=moved)

    scheduler, pool, downloader = _scheduler_with_pool(monkeypatch, active=0, settled=False)
    pool.pending = 1
    assert scheduler.next_request() is None  # a free slot, but a page is being read
    pool.pending = 0
    taken = [scheduler.next_request() for _ in range(4)]  # nothing being read: taken
    for n, request in enumerate(taken):  # (a redirected page counts for the URL taken)
        moved = f"https://a.test/{n}" if n % 2 else None
        scheduler.page_judged(response=page_of(request, moved), relevant=True)
    pool.pending = 2
    assert scheduler.outranking.regretted(2) < 1
    assert scheduler.next_request() is not None  # 2 being read + 1 taken: room for one more
    pool.pending = 1
    for _ in range(6):  # each take outranked by a link read after it, and proved irrelevant
        request = scheduler.next_request()
        scheduler.outranking.queued(10_000)
        scheduler.page_judged(response=page_of(request), relevant=False)
    pool.pending = 2
    assert scheduler.outranking.regretted(2) >= 1
    assert scheduler.next_request() is None


def test_a_crawl_whose_pages_are_not_judged_holds_nothing_back_for_regret(monkeypatch):
    scheduler, pool, _ = _scheduler_with_pool(
        monkeypatch, active=0, settled=False, settings={"RELEVANCE_ENABLED": False}
    )
    pool.pending = 2
    assert scheduler._outranking().regretted(2) == 0
    assert scheduler.next_request() is not None


def test_a_take_is_regretted_when_outranked_and_irrelevant():
    from topiccrawler.frontier.scheduler import OutrankingRate

    rate = OutrankingRate(horizon=2)
    assert rate.regretted(1) == 1  # before any verdict
    first, second, third = (f"http://a.test/{n}" for n in range(3))
    rate.handed_out(300, first)
    rate.queued(400)  # outranks the first take
    rate.handed_out(500, second)
    rate.queued(100)  # outranks nothing
    rate.handed_out(50, third)
    rate.judged(first, relevant=True)  # outranked, but worth taking: no regret
    assert rate.regret == 0.5
    rate.judged(second, relevant=False)  # irrelevant, but nothing better came: no regret
    assert rate.regret == 0.25
    rate.queued(60)  # (the last take, judged before the next: what came so far)
    rate.judged(third, relevant=False)
    assert rate.regret == 0.625
    rate.judged("http://a.test/elsewhere", relevant=False)  # not taken here
    rate.judged(first, relevant=False)  # (judged once)
    assert rate.regret == 0.625


def test_the_outranking_rate_counts_new_requests_above_the_last_taken():
    from topiccrawler.frontier.scheduler import OutrankingRate

    rate = OutrankingRate(horizon=2)
    rate.queued(500)  # before anything was taken: nothing to outrank
    rate.handed_out(300)
    assert rate.rate == 0
    rate.queued(400)
    rate.queued(200)
    rate.queued(301)
    rate.handed_out(100)  # two of three outranked 300: the average moves half way to 2
    assert rate.rate == 1.0 and rate.expected(3) == 3.0
    rate.handed_out(100)
    assert rate.rate == 0.5
