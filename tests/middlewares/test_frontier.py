"""The frontier as a component of its own: best-first without the relevance judge, and the
schedulers told of it by a signal rather than looking it up."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse

from tests.crawl import make_crawler
from tests.middlewares.test_relevance import SPORTS_PAGE
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
    class Queue(list):
        def rescore(self, score):
            return sum(score(r) is not None for r in self)

    scheduler = FrontierScheduler.__new__(FrontierScheduler)
    scheduler.mqs = Queue([Request("http://a.test/1"), Request("http://a.test/2")])
    scheduler.dqs = None
    assert scheduler.rescore(lambda request: 1, limit=10) == 2
    assert scheduler.rescore(lambda request: 1, limit=1) == 0  # too many: the pop does it


def test_pages_in_extraction_workers_count_as_requests_in_flight(monkeypatch):
    """Read in a worker, a page's links come back later than read in the crawl's process: until
    they do, the page holds its place in the crawl's concurrency, so the next request is taken
    with its links queued (without, a worker's testbed far@100 fell 0.734 -> 0.710)."""
    from types import SimpleNamespace

    from scrapy.core.scheduler import Scheduler

    from topiccrawler.extraction_workers import register_pool

    class Crawler:  # a crawl's engine, as the scheduler sees it
        engine = SimpleNamespace(downloader=SimpleNamespace(total_concurrency=4, active={1, 2}))

    pool = SimpleNamespace(pending=2)
    crawler = Crawler()
    downloader = crawler.engine.downloader
    register_pool(crawler, pool)
    scheduler = FrontierScheduler.__new__(FrontierScheduler)
    scheduler.crawler = crawler
    monkeypatch.setattr(Scheduler, "next_request", lambda self: "the best queued request")
    assert scheduler.next_request() is None  # two downloading and two being read: four
    pool.pending = 1
    assert scheduler.next_request() == "the best queued request"
    pool.pending = 0
    downloader.active = {1, 2, 3, 4}  # full without pages in workers: the engine's call
    assert scheduler.next_request() == "the best queued request"
    register_pool(crawler, None)
    pool.pending = 3
    assert scheduler.next_request() == "the best queued request"  # no pool: nothing held back
