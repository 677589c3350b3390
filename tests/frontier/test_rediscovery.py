"""A page found again through a better link is queued again there and still fetched once."""

from __future__ import annotations

from types import SimpleNamespace

from scrapy import Request
from scrapy.settings import Settings
from scrapy.signalmanager import SignalManager
from scrapy.squeues import FifoMemoryQueue
from scrapy.statscollectors import MemoryStatsCollector

from tests.frontier.test_queue import Downloader
from topiccrawler.frontier.queue import BestFirstPriorityQueue
from topiccrawler.frontier.rediscovery import Rediscoveries
from topiccrawler.meta import (
    AUTHORITY_SITE,
    ENTRANCE,
    FRONTIER_RAISED,
    HOP_LIMIT,
    HOPS,
    LINK_TEXT,
    PAGER_HOPS,
)
from topiccrawler.signals import frontier_opened


class Frontier:
    """The frontier's public face as the queue sees it, over its rediscoveries alone."""

    def __init__(self, rediscoveries: Rediscoveries):
        self.rediscoveries = rediscoveries

    def refresh_priority(self, request: Request) -> None:
        return None

    def superseded(self, request: Request) -> bool:
        return self.rediscoveries.superseded(request)

    def taken_up(self, request: Request) -> None:
        self.rediscoveries.taken_up(request)


def make_queue(rediscoveries: Rediscoveries) -> BestFirstPriorityQueue:
    crawler = SimpleNamespace(
        engine=SimpleNamespace(downloader=Downloader()),
        settings=Settings({"CONCURRENT_REQUESTS_PER_DOMAIN": 2, "CONCURRENT_REQUESTS_PER_IP": 0}),
        signals=SignalManager(),
    )
    crawler.stats = MemoryStatsCollector(crawler)
    queue = BestFirstPriorityQueue(crawler, FifoMemoryQueue, "")
    crawler.signals.send_catch_log(frontier_opened, frontier=Frontier(rediscoveries))
    return queue


def queued(queue: BestFirstPriorityQueue, rediscoveries: Rediscoveries, request: Request) -> bool:
    """What the scheduler does with a request: the dupefilter refuses a URL seen before unless
    the request is `dont_filter`."""
    raised = rediscoveries.track(request)
    rediscoveries.scheduled(request)  # request_scheduled: it reaches the scheduler
    if request.url in queued.seen and not request.dont_filter:
        rediscoveries.dropped(request)
        return False
    queued.seen.add(request.url)
    queue.push(request)
    return raised


def test_a_better_link_moves_the_page_up_and_it_is_fetched_once():
    queued.seen = set()
    rediscoveries = Rediscoveries(gain=50)
    queue = make_queue(rediscoveries)
    fund = "http://news.test/fund.shtml"
    queued(queue, rediscoveries, Request(fund, priority=400))  # a hit whose snippet said little
    queued(queue, rediscoveries, Request("http://news.test/sports.shtml", priority=500))
    assert not queued(queue, rediscoveries, Request(fund, priority=430))  # not enough better
    better = Request(fund, priority=700)  # a finance list names it
    assert queued(queue, rediscoveries, better) and better.meta[FRONTIER_RAISED]
    assert len(queue) == 3

    first = queue.pop()
    assert first is better
    assert queue.pop().url == "http://news.test/sports.shtml"
    assert queue.pop() is None  # the entry at 400 was dropped: the page came up already
    assert queue.crawler.stats.get_value("topiccrawler/frontier/superseded") == 1
    assert rediscoveries.entries == {} and rediscoveries.taken == set()
    # Found once more after it was fetched: the dupefilter refuses it, nothing is kept.
    assert not queued(queue, rediscoveries, Request(fund, priority=900))
    assert rediscoveries.best == {}


def test_a_url_the_scheduler_refused_is_not_raised_later():
    """A start URL (or a page a repost named canonical) was fetched without a link: the first
    link to it is refused, and a better one later must not sneak it past the dupefilter."""
    queued.seen = {"http://news.test/"}
    rediscoveries = Rediscoveries(gain=50)
    queue = make_queue(rediscoveries)
    assert not queued(queue, rediscoveries, Request("http://news.test/", priority=100))
    assert not queued(queue, rediscoveries, Request("http://news.test/", priority=900))
    assert len(queue) == 0


def test_copies_that_come_up_first_leave_the_later_ones_to_be_dropped():
    queued.seen = set()
    rediscoveries = Rediscoveries(gain=50)
    queue = make_queue(rediscoveries)
    url = "http://news.test/a.shtml"
    for priority in (100, 200, 300):
        queued(queue, rediscoveries, Request(url, priority=priority))
    assert [request.priority for request in iter(queue.pop, None)] == [300]
    assert queue.crawler.stats.get_value("topiccrawler/frontier/superseded") == 2
    assert rediscoveries.entries == {} and rediscoveries.taken == set()


def test_a_better_link_at_the_depth_limit_does_not_move_a_nearer_entry():
    """Fetched through a link at its site's depth limit the page's links would not be followed
    (and it would be fetched again when the nearer entry is found): the nearer entry stays."""
    queued.seen = set()
    rediscoveries = Rediscoveries(gain=50)
    queue = make_queue(rediscoveries)
    url = "http://news.test/a.shtml"
    near = Request(url, priority=100, meta={HOPS: 2, HOP_LIMIT: 6})
    queued(queue, rediscoveries, near)
    deep = Request(url, priority=900, meta={HOPS: 6, HOP_LIMIT: 6})
    assert not queued(queue, rediscoveries, deep) and not deep.dont_filter
    paged = Request(url, priority=900, meta={HOPS: 6, PAGER_HOPS: 1, HOP_LIMIT: 6})
    assert queued(queue, rediscoveries, paged)  # a thread's later pages do not count
    assert [request.priority for request in iter(queue.pop, None)] == [900]


def test_a_copy_keeps_how_the_page_was_found_first():
    """The entrance, site and download slot a page is recorded and budgeted under are those of
    the link that found it first, as without the copy."""
    queued.seen = set()
    rediscoveries = Rediscoveries(gain=50)
    queue = make_queue(rediscoveries)
    url = "http://news.test/a.shtml"
    first = {ENTRANCE: "authority", AUTHORITY_SITE: "news", HOPS: 2}
    queued(queue, rediscoveries, Request(url, priority=100, meta=first))
    hit = Request(url, priority=800, meta={ENTRANCE: "search", AUTHORITY_SITE: None, HOPS: 0})
    assert queued(queue, rediscoveries, hit)
    assert hit.meta[ENTRANCE] == "authority" and hit.meta[AUTHORITY_SITE] == "news"
    assert hit.meta[HOPS] == 0


def test_a_better_link_raises_a_first_link_not_yet_scheduled_in_place():
    """Links are gated before they reach the scheduler, and other pages' links are gated in
    between: a link to a page fetched long ago is gated as a first discovery, then a better
    one. No copy is queued over the first (the scheduler refuses it a moment later, and a copy
    would fetch the page again): the first takes the better link's priority and place."""
    queued.seen = set()
    rediscoveries = Rediscoveries(gain=50)
    queue = make_queue(rediscoveries)
    url = "http://news.test/a.shtml"
    queued(queue, rediscoveries, Request(url, priority=100))
    assert queue.pop().url == url  # fetched
    late = Request(url, priority=200, meta={HOPS: 3})
    assert not rediscoveries.track(late)  # gated, waiting with its page's other outputs
    better = Request(url, priority=600, meta={HOPS: 1, LINK_TEXT: "基金"})
    assert not rediscoveries.track(better) and not better.dont_filter
    assert late.priority == 600 and late.meta[HOPS] == 1 and late.meta[FRONTIER_RAISED]
    for request in (better, late):  # both reach the scheduler, which refuses both
        rediscoveries.scheduled(request)
        rediscoveries.dropped(request)
    assert queue.pop() is None and rediscoveries.best == {} and rediscoveries.pending == {}

    queued.seen = set()  # a page not fetched yet: queued once, at the better priority
    first = Request("http://news.test/b.shtml", priority=200)
    assert not rediscoveries.track(first)
    assert not rediscoveries.track(Request("http://news.test/b.shtml", priority=700))
    rediscoveries.scheduled(first)
    queued.seen.add(first.url)
    queue.push(first)
    assert [request.priority for request in iter(queue.pop, None)] == [700]


def test_a_copy_raised_over_a_link_the_scheduler_then_refuses_is_not_fetched_again():
    """Should a copy be queued over a first link the scheduler then refuses (the first was
    scheduled, so not raised in place), the copy is dropped when it comes up."""
    queued.seen = set()
    rediscoveries = Rediscoveries(gain=50)
    queue = make_queue(rediscoveries)
    url = "http://news.test/a.shtml"
    queued(queue, rediscoveries, Request(url, priority=100))
    assert queue.pop().url == url  # fetched
    late = Request(url, priority=200)
    assert not rediscoveries.track(late)
    rediscoveries.scheduled(late)  # in the scheduler's hands, refused just after
    better = Request(url, priority=600)
    assert rediscoveries.track(better) and better.dont_filter  # raised over `late`
    assert url in queued.seen and rediscoveries.dropped(late)  # the dupefilter refuses `late`
    queue.push(better)  # past the dupefilter
    assert queue.pop() is None  # dropped when it comes up: the page was fetched already
    assert rediscoveries.entries == {} and rediscoveries.taken == set()


def test_an_entry_dropped_from_the_queue_leaves_the_others_valid():
    """FRONTIER_MAX_QUEUED drops the worst entries: a URL raised by a better link keeps its
    better copy (not superseded), and a URL whose only entry went is forgotten."""
    from scrapy import Request

    from topiccrawler.frontier.rediscovery import Rediscoveries

    found = Rediscoveries(gain=50)
    first = Request("http://a.test/1", priority=10)
    assert not found.track(first)
    found.scheduled(first)
    better = Request("http://a.test/1", priority=200)
    assert found.track(better)  # queued again as a copy
    assert not found.left_queue(first)  # the copy is still queued
    assert not found.superseded(better)  # and is fetched when it comes up
    lone = Request("http://a.test/2", priority=5)
    found.track(lone)
    found.scheduled(lone)
    assert found.left_queue(lone) and "http://a.test/2" not in found.best
