"""The shared frontier in priority bands (distributed/bands.py) on the loopback Redis: what the
layout does that the sorted sets do not (the behaviour both share is tested over both layouts in
test_frontier.py and test_rediscovery.py)."""

from __future__ import annotations

import pytest
from scrapy import Request, Spider
from scrapy.utils.request import RequestFingerprinter

from topiccrawler.distributed.bands import BandedFrontier, crawl_band
from topiccrawler.distributed.bloom import BloomDupeFilter
from topiccrawler.distributed.frontier import QUEUED
from topiccrawler.distributed.rediscovery import RAISED, SharedRediscovery
from topiccrawler.meta import FRONTIER

pytestmark = pytest.mark.redis


class Crawl(Spider):
    name = "crawl"

    def parse(self, response):
        return None


def site_of(request: Request) -> str:
    return request.meta.get("download_slot") or request.url.split("/")[2]


def banded(crawl, band: int = 10) -> BandedFrontier:
    return BandedFrontier(crawl, Crawl(), site_of, (0.0, 10), band=band)


def test_first_in_first_out_within_a_band_and_best_band_first(workers):
    queue = banded(workers[0])
    for path, priority in [("a", 12), ("b", 19), ("c", 25), ("d", -3)]:
        queue.push(Request(f"http://a.test/{path}", priority=priority))
    order = [queue.pop()[0] for _ in range(4)]
    # 12 and 19 share the band [10, 20): the first queued comes first; each keeps its priority.
    assert [(r.url[-1], r.priority) for r in order] == [("c", 25), ("a", 12), ("b", 19), ("d", -3)]
    assert queue.pop() is None and len(queue) == 0


def test_a_moved_request_leaves_a_tombstone_that_pops_skip(workers):
    queue = banded(workers[0])
    for i in range(3):
        queue.push(Request(f"http://a.test/{i}", priority=5))
    assert queue.rescore(lambda r: 40 if r.url.endswith("/1") else None) == 1
    server = workers[0].server
    assert server.llen(workers[0].key("band", "a.test", "0")) == 3  # its old place: a tombstone
    assert queue.size() == 3
    urls = [queue.pop()[0].url for _ in range(3)]
    assert urls == ["http://a.test/1", "http://a.test/0", "http://a.test/2"]
    assert queue.pop() is None and queue.size() == 0
    assert int(server.get(workers[0].key("tombstones"))) == 0
    # A move within its band keeps its place (only the stored priority changes).
    queue.push(Request("http://a.test/x", priority=1))
    queue.push(Request("http://a.test/y", priority=2))
    assert queue.rescore(lambda r: 8 if r.url.endswith("x") else None) == 1
    assert [(r.url[-1], r.priority) for r in (queue.pop()[0], queue.pop()[0])] == [
        ("x", 8),
        ("y", 2),
    ]


def tracked(url: str, priority: int, **meta) -> Request:
    features = {"features": {"text": 0.5}, "hops": 1, "offset": 0}
    return Request(url, callback=Crawl.parse, priority=priority, meta={FRONTIER: features, **meta})


def test_the_index_is_compact_and_names_a_site_that_is_not_the_host(workers):
    spider = Crawl()
    queue = BandedFrontier(workers[0], spider, site_of, (0.0, 10), band=10)
    fingerprinter = RequestFingerprinter()
    seen = BloomDupeFilter(workers[0], fingerprinter, capacity=1000, error=1e-3)
    rediscovery = SharedRediscovery(queue, fingerprinter.fingerprint, 50)

    def push(request: Request) -> int:
        request = request.replace(callback=spider.parse)
        fingerprint = fingerprinter.fingerprint(request)
        offsets = seen.offsets(request, fingerprint)
        return rediscovery.push_new(request, fingerprint, offsets, None)

    assert push(tracked("http://a.test/1", 100)) == QUEUED
    assert push(tracked("http://a.test/2", 100, download_slot="slot-1")) == QUEUED
    server = workers[0].server
    values = {}
    for key in server.scan_iter(match=workers[0].key("w", "*")):
        assert server.object("encoding", key) == b"listpack"
        values.update(server.hgetall(key))
    assert sorted(values.values()) == sorted([b"%d" % (0 * 16384 + 100 + 8192), b"slot-1\t100\t0"])
    assert push(tracked("http://a.test/2", 200)) == RAISED  # found under its slot
    assert push(tracked("http://a.test/1", 120)) != RAISED  # under the gain
    popped = queue.pop()[0]
    assert (popped.url, popped.priority, popped.meta["download_slot"]) == (
        "http://a.test/2",
        200,
        "slot-1",
    )


def test_the_crawl_keeps_its_first_workers_band(workers):
    assert crawl_band(workers[0], 10) == 10
    assert crawl_band(workers[1], 25) == 10  # a worker started with another value follows
