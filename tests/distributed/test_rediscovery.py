"""Rediscovery in a shared crawl (distributed/rediscovery.py), on the loopback Redis: a queued
URL found again through a better link is raised in place and keeps what it was queued as; a
request in flight, or one taken back from a dead worker, is never queued a second time."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from scrapy import Request, Spider
from scrapy.utils.request import RequestFingerprinter
from scrapy.utils.test import get_crawler

from tests.distributed.conftest import shared_frontier
from topiccrawler.distributed.bloom import BloomDupeFilter
from topiccrawler.distributed.frontier import OVER_BUDGET, QUEUED, SEEN
from topiccrawler.distributed.rediscovery import RAISED, SharedRediscovery, raised
from topiccrawler.distributed.scheduler import DistributedScheduler
from topiccrawler.distributed.state import SharedCrawl
from topiccrawler.meta import (
    AUTHORITY_SITE,
    ENGINE,
    ENTRANCE,
    FRONTIER,
    HIT_TITLE,
    HOP_LIMIT,
    HOPS,
    LEASE,
    LINK_BLOCK,
    LINK_TEXT,
    PAGER_HOPS,
    QUERY,
    SITE_BUDGET,
    TUNNEL,
)

pytestmark = pytest.mark.redis

URL = "http://fund.test/report/2026.html"
SITE = "fund.test"


class Topical(Spider):
    name = "topical"

    def parse(self, response):
        return None

    def on_error(self, failure):
        return None


def features(text: float) -> dict:
    return {
        "features": {"text": text, "context": 0.5, "url": 0.0, "block": 1.0, "learned": 0.5},
        "hops": 0,
        "offset": 0,
    }


def first_link(spider: Topical, priority: int = 300) -> Request:
    """A link as the spider and the frontier queue it first, with a session's and an add-on's
    keys besides (whatever a request carries is its own)."""
    return Request(
        URL,
        callback=spider.parse,
        errback=spider.on_error,
        priority=priority,
        meta={
            ENTRANCE: "authority", AUTHORITY_SITE: "基金网", "download_slot": SITE,
            SITE_BUDGET: (SITE, 10), HOP_LIMIT: 4, HOPS: 3, PAGER_HOPS: 1, "depth": 3,
            LINK_TEXT: "体育新闻", LINK_BLOCK: "navigation", TUNNEL: 1, FRONTIER: features(0.0),
            "cookiejar": SITE, "custom_key": {"kept": [1, 2]},
        },
    )  # fmt: skip


def better_link(spider: Topical, priority: int = 500, hops: int = 1) -> Request:
    """The same URL found from another entrance, site and slot, on a relevant page."""
    return Request(
        URL,
        callback=spider.parse,
        priority=priority,
        meta={
            ENTRANCE: "link", AUTHORITY_SITE: "财经门户", "download_slot": SITE,
            SITE_BUDGET: ("portal.test", 5), HOP_LIMIT: 8, HOPS: hops, "depth": hops,
            LINK_TEXT: "基金年度报告", LINK_BLOCK: "content", TUNNEL: 0, FRONTIER: features(0.9),
        },
    )  # fmt: skip


def site_of(request: Request) -> str:
    return request.meta.get("download_slot") or request.url.split("/")[2]


class Worker:
    """One worker's view: its frontier, the shared filter and the rediscovery index."""

    def __init__(self, crawl: SharedCrawl, spider: Topical, band: int, gain: int = 50):
        self.crawl = crawl
        self.fingerprinter = RequestFingerprinter()
        self.queue = shared_frontier(crawl, spider, site_of, (0.0, 10), band)
        self.seen = BloomDupeFilter(crawl, self.fingerprinter, capacity=1000, error=1e-3)
        self.rediscovery = SharedRediscovery(self.queue, self.fingerprinter.fingerprint, gain)

    def push(self, request: Request) -> int:
        fingerprint = self.fingerprinter.fingerprint(request)
        offsets = self.seen.offsets(request, fingerprint)
        budget = request.meta.get(SITE_BUDGET)
        return self.rediscovery.push_new(request, fingerprint, offsets, budget)

    def pop(self, lease: str) -> Request | None:
        popped = self.queue.pop(lease=lease)
        if popped is None:
            return None
        self.rediscovery.taken(popped[0])
        return popped[0]


def test_a_better_link_raises_the_queued_request_in_place_and_it_keeps_its_identity(workers, band):
    spider = Topical()
    worker = Worker(workers[0], spider, band)
    assert worker.push(first_link(spider)) == QUEUED
    assert worker.push(first_link(spider, priority=340)) == SEEN  # under the gain: as it was
    assert worker.push(better_link(spider)) == RAISED
    assert worker.queue.size() == 1  # raised, not queued twice
    budget = workers[0].server.hgetall(workers[0].key("budget"))
    assert budget == {SITE.encode(): b"1"}  # counted once, against the first link's site

    request = worker.pop("w0:1")
    first, better = first_link(spider), better_link(spider)
    assert request.priority == 500 and request.url == URL
    assert request.callback == spider.parse and request.errback == spider.on_error
    for key in (ENTRANCE, AUTHORITY_SITE, "download_slot", SITE_BUDGET, HOP_LIMIT, "cookiejar",
                "custom_key", HOPS, PAGER_HOPS, "depth"):  # fmt: skip
        assert request.meta[key] == first.meta[key], key  # fewer hops, but from elsewhere
    for key in (LINK_TEXT, LINK_BLOCK, TUNNEL):  # what its priority was computed from
        assert request.meta[key] == better.meta[key], key
    assert request.meta[FRONTIER]["features"]["text"] == pytest.approx(0.9, abs=1e-5)
    assert request.meta[LEASE] == "w0:1"
    assert worker.queue.pop(lease="w0:2") is None
    worker.rediscovery.flush()
    assert worker.rediscovery.size() == 0  # its index entry went with it


def test_a_ranked_link_over_its_sites_budget_is_not_marked_seen(workers, band):
    spider = Topical()
    worker = Worker(workers[0], spider, band)
    over = first_link(spider)
    over.meta[SITE_BUDGET] = ("portal.test", 0)  # its site's budget spent
    assert worker.push(over) == OVER_BUDGET
    hit = first_link(spider)
    hit.meta[SITE_BUDGET] = None  # the same URL as a search hit: counted against no budget
    assert worker.push(hit) == QUEUED
    assert worker.queue.size() == 1


def test_hops_are_taken_only_when_fewer_from_the_same_entrance_and_site():
    spider = Topical()
    first = first_link(spider)
    same_place = {ENTRANCE: "authority", AUTHORITY_SITE: "基金网"}
    nearer = better_link(spider, hops=1)
    nearer.meta.update(same_place)
    request = raised(first, nearer)
    assert (request.meta[HOPS], request.meta["depth"]) == (1, 1) and PAGER_HOPS not in request.meta
    assert request.meta[HOP_LIMIT] == 4 and request.meta[SITE_BUDGET] == (SITE, 10)
    farther = better_link(spider, hops=5)
    farther.meta.update(same_place)
    request = raised(first, farther)
    assert (request.meta[HOPS], request.meta[PAGER_HOPS], request.meta["depth"]) == (3, 1, 3)
    assert request.priority == 500 and request.meta[LINK_TEXT] == "基金年度报告"


def test_a_link_and_a_search_hit_raise_each_other_but_stay_what_they_are():
    """A search hit has 0 hops and its query; a link raised by a hit must not pass for a hit
    without a query (the frontier reads a hit's query when it scores it again), nor the hit
    take a link's anchor."""
    spider = Topical()
    link = first_link(spider)
    link.meta.update({ENTRANCE: "search", HOPS: 2})
    hit = Request(
        URL,
        callback=spider.parse,
        priority=600,
        meta={ENTRANCE: "search", HOPS: 0, ENGINE: "bing", QUERY: "基金 报告",
              HIT_TITLE: "基金年度报告", FRONTIER: features(0.9)},
    )  # fmt: skip
    request = raised(link, hit)
    assert request.priority == 600 and request.meta[HOPS] == 2
    assert ENGINE not in request.meta and QUERY not in request.meta
    assert request.meta[LINK_TEXT] == "体育新闻"
    assert request.meta[FRONTIER]["features"]["text"] == pytest.approx(0.9)
    back = raised(hit, better_link(spider, priority=900))
    assert back.meta[HOPS] == 0 and back.meta[QUERY] == "基金 报告"
    assert LINK_TEXT not in back.meta


def test_a_request_in_flight_is_not_queued_again_and_comes_back_once(workers, band):
    spider = Topical()
    worker, other = Worker(workers[0], spider, band), Worker(workers[1], spider, band)
    worker.push(first_link(spider))
    taken = worker.pop("w0:1")  # in flight; its index entry not yet forgotten (no flush)
    assert taken is not None
    assert other.push(better_link(spider)) == SEEN  # nothing queued to raise: dropped
    assert worker.queue.size() == 0
    # The worker dies: its request goes back as it was, once; a better link raises that entry.
    workers[0].server.delete(workers[0].key("alive", workers[0].worker))
    assert workers[1].reclaim_dead() == 1
    assert other.queue.size() == 1
    assert other.push(better_link(spider, priority=600)) == RAISED
    assert other.queue.size() == 1
    again = other.pop("w1:1")
    assert again.priority == 600 and again.meta[ENTRANCE] == "authority"
    assert other.queue.pop(lease="w1:2") is None


def test_a_request_taken_between_the_look_up_and_the_raise_is_not_queued_again(workers, band):
    spider = Topical()
    worker, other = Worker(workers[0], spider, band), Worker(workers[1], spider, band)
    worker.push(first_link(spider))
    decode = other.queue.from_stored

    def taken_meanwhile(data, site):  # another worker pops the entry the look-up found
        assert worker.pop("w0:1") is not None
        return decode(data, site)

    other.queue.from_stored = taken_meanwhile
    assert other.push(better_link(spider)) == SEEN
    assert worker.queue.size() == 0 and workers[0].leases_in_flight() == 1


def test_the_index_follows_rescoring_and_requeueing(workers, band):
    spider = Topical()
    worker = Worker(workers[0], spider, band)
    worker.push(first_link(spider))
    assert worker.queue.rescore(lambda request: 200) == 1  # a refit: the entry moves down
    assert worker.push(better_link(spider, priority=260)) == RAISED  # 260 ≥ 200 + 50
    # Popped and queued back lower (the rescoring on pop): still raised where it is now.
    request = worker.pop("w0:1")
    request.priority = 100
    worker.queue.push(request)
    workers[0].release("w0:1")
    worker.rediscovery.flush()  # the pop's forget leaves the queued-back entry's place
    assert worker.rediscovery.size() == 1
    assert worker.push(better_link(spider, priority=170)) == RAISED
    assert worker.pop("w0:2").priority == 170


def test_only_links_the_frontier_ranked_are_indexed(workers, band):
    spider = Topical()
    worker = Worker(workers[0], spider, band)
    start = Request("http://fund.test/", callback=spider.parse, priority=100)
    assert not worker.rediscovery.tracked(start)
    assert worker.queue.push_new(start, worker.seen.offsets(start), None) == QUEUED
    assert worker.push(first_link(spider)) == QUEUED
    assert worker.rediscovery.size() == 1


def scheduler_for(crawl: SharedCrawl, spider: Topical, band: int) -> DistributedScheduler:
    """A worker's scheduler over `crawl`, as `open` sets it up (without its loops)."""
    crawler = get_crawler(
        Topical,
        {"FRONTIER_ENABLED": True, "FRONTIER_REDISCOVERY_GAIN": 50, "STORAGE_ENABLED": False},
    )
    crawler.spider = spider
    crawler.engine = SimpleNamespace(_slot=SimpleNamespace(inprogress=set()))
    scheduler = DistributedScheduler(crawler)
    scheduler.crawl = crawl
    scheduler.df = BloomDupeFilter(crawl, crawler.request_fingerprinter, 1000, 1e-3)
    scheduler.queue = shared_frontier(crawl, spider, site_of, (0.0, 10), band)
    scheduler.rediscovery = SharedRediscovery(scheduler.queue, scheduler.df.fingerprint, 50)
    return scheduler


def test_the_scheduler_sends_a_repeat_to_redis_only_when_it_may_raise(workers, band):
    spider = Topical()
    scheduler = scheduler_for(workers[0], spider, band)
    stats = scheduler.stats
    assert scheduler.enqueue_request(first_link(spider))
    assert not scheduler.enqueue_request(first_link(spider, priority=340))
    assert stats.get_value("scheduler/seen/local") == 1  # under the gain: not asked
    assert not scheduler.enqueue_request(better_link(spider))  # raised: nothing new queued
    assert stats.get_value("topiccrawler/frontier/rediscovered_higher") == 1
    assert not scheduler.enqueue_request(better_link(spider, priority=520))
    assert stats.get_value("scheduler/seen/local") == 2
    assert scheduler.queue.size() == 1
    assert scheduler.next_request().priority == 500


def test_a_request_held_back_keeps_its_lease_until_it_is_crawled_again(workers, band):
    spider = Topical()
    scheduler = scheduler_for(workers[0], spider, band)
    scheduler.enqueue_request(first_link(spider))
    request = scheduler.next_request()
    scheduler.request_held(request)  # the session middleware waits for its login
    scheduler.items_stored()  # its download is over (out of the engine), and a commit passes
    assert workers[0].leases_in_flight() == 1  # still leased: a worker killed now loses nothing
    assert scheduler.queue.size() == 0
    assert scheduler.enqueue_request(request.replace(dont_filter=True))  # logged in: again
    assert workers[0].leases_in_flight() == 0 and scheduler.queue.size() == 1
    assert scheduler.leased == {} and scheduler.held == set()
