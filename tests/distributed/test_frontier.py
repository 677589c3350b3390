"""The shared frontier, seen-URL filter, leases and learning state on the loopback Redis, with
two `SharedCrawl` views standing for two workers."""

from __future__ import annotations

import json
import time

import pytest
from scrapy import Request, Spider
from scrapy.utils.request import RequestFingerprinter
from scrapy.utils.test import get_crawler

from tests.distributed.conftest import shared_frontier
from topiccrawler.distributed.addon import DistributedCrawl
from topiccrawler.distributed.bloom import BloomDupeFilter, bit_offsets, bloom_size
from topiccrawler.distributed.frontier import OVER_BUDGET, QUEUED, SEEN, SharedFrontier
from topiccrawler.distributed.learning import (
    SharedLinkClassifier,
    SharedQueryYields,
    SharedYieldStats,
)
from topiccrawler.distributed.state import SEEDS_PUSHED, SharedCrawl
from topiccrawler.extensions.crawl_run import _sum_workers
from topiccrawler.meta import (
    AT_DEPTH_LIMIT,
    AUTHORITY_SITE,
    ENTRANCE,
    FRONTIER,
    HOP_LIMIT,
    HOPS,
    LEASE,
    LINK_BLOCK,
    LINK_TEXT,
    PAGER_HOPS,
    SITE_BUDGET,
    TUNNEL,
)

pytestmark = pytest.mark.redis


class Crawl(Spider):
    name = "crawl"


def site_of(request: Request) -> str:
    return request.url.split("/")[2]


def frontier(
    crawl: SharedCrawl, delay: float = 0.0, concurrency: int = 2, band: int = 0
) -> SharedFrontier:
    return shared_frontier(crawl, Crawl(), site_of, (delay, concurrency), band)


def test_best_request_of_a_free_site_first_and_fifo_within_a_priority(workers, band):
    queue = frontier(workers[0], concurrency=10, band=band)
    for url, priority in [
        ("http://a.test/1", 10),
        ("http://a.test/2", 50),
        ("http://b.test/1", 40),
        ("http://a.test/3", 50),
    ]:
        queue.push(Request(url, priority=priority))
    order = [queue.pop()[0].url for _ in range(4)]
    assert order == ["http://a.test/2", "http://a.test/3", "http://b.test/1", "http://a.test/1"]
    assert queue.pop() is None and len(queue) == 0


def test_a_sites_concurrency_holds_over_all_workers(workers, band):
    first, second = frontier(workers[0], band=band), frontier(workers[1], band=band)
    for i in range(4):
        first.push(Request(f"http://a.test/{i}", priority=10))
    first.push(Request("http://b.test/low", priority=0))
    leases = [first.pop(), second.pop()]  # concurrency 2: both take a.test
    assert all(site_of(request) == "a.test" for request, _ in leases)
    request, _ = second.pop()  # a.test is full for everyone: the other site, though worse
    assert request.url == "http://b.test/low"
    assert first.pop() is None
    workers[0].free(leases[0][1])  # a download is over: a.test may take one more
    request, lease = second.pop()
    assert site_of(request) == "a.test"
    assert second.pop() is None
    # The lease freed with the next pop, in the same round trip: the pop sees the free slot.
    assert site_of(second.pop(free=[lease])[0]) == "a.test"


def test_a_sites_delay_holds_over_all_workers_and_the_most_careful_report_wins(workers, band):
    first, second = (
        frontier(workers[0], band=band),
        frontier(workers[1], delay=0.0, concurrency=8, band=band),
    )
    for i in range(3):
        first.push(Request(f"http://a.test/{i}"))
    first.set_policy("a.test", 0.0, 8)
    second.set_policy("a.test", 0.4, 8)  # this worker was slowed down by the site
    assert first.pop() is not None
    assert second.pop() is None  # within 0.4 s of the last request, for every worker
    assert 0 < second.next_free <= 0.4
    time.sleep(0.45)
    assert second.pop() is not None


def test_a_dead_workers_leases_go_back_and_nothing_is_taken_twice(workers, band):
    victim, survivor = workers
    queue = frontier(victim, band=band)
    queue.push(Request("http://a.test/1", priority=5))
    queue.push(Request("http://a.test/2", priority=1))
    request, lease = queue.pop()
    assert survivor.reclaim_dead() == 0  # the victim is alive: its lease stays
    time.sleep(1.1)  # the victim stops beating (worker_timeout 1 s)
    survivor.beat()
    assert survivor.reclaim_dead() == 1
    assert victim.release(lease) == 0  # too late: the lease is no longer its own
    again = [frontier(survivor, band=band).pop()[0].url for _ in range(2)]
    assert again == ["http://a.test/1", "http://a.test/2"]  # back at its place, best first
    assert survivor.server.hget(survivor.key("active"), "a.test") == b"2"


def test_finished_means_seeds_pushed_nothing_queued_and_nothing_leased(workers, band):
    queue = frontier(workers[0], band=band)
    workers[0].server.set(workers[0].key("seeded"), workers[0].worker)
    assert not workers[0].finished()  # the first worker is still pushing its seeds
    workers[0].server.set(workers[0].key("seeded"), SEEDS_PUSHED)
    assert workers[0].finished()
    queue.push(Request("http://a.test/1"))
    assert not workers[0].finished()
    _, lease = queue.pop()
    assert not workers[0].finished()  # in flight: its page may hold new links
    workers[0].free(lease)
    assert not workers[0].finished()  # downloaded, not yet stored
    workers[0].release(lease)
    assert workers[0].finished()


def test_rescore_moves_queued_requests_unless_taken(workers, band):
    queue = frontier(workers[0], concurrency=10, band=band)
    queue.push(Request("http://a.test/low", priority=1))
    queue.push(Request("http://a.test/high", priority=9))
    moved = queue.rescore(lambda r: 20 if r.url.endswith("low") else None)
    assert moved == 1
    assert queue.pop()[0].url == "http://a.test/low"


def test_the_frontier_is_rescored_once_per_pages_judged_over_all_workers(workers):
    from topiccrawler.distributed.scheduler import RESCORE_DUE

    due = workers[0].server.register_script(RESCORE_DUE)
    keys = [workers[0].key("classifier", "pages"), workers[0].key("rescored_at")]
    assert due(keys=keys, args=[250]) == 1  # the first refit: at once
    for worker in workers:  # each worker's judged pages count on the one clock
        classifier = SharedLinkClassifier(worker, min_examples=10_000)
        for i in range(124):
            classifier.learn([{f"u:{i}": 1.0}], True)
        classifier.send()
    assert int(workers[0].server.get(keys[0])) == 248
    assert due(keys=keys, args=[250]) == 0  # 248 pages since: not yet
    workers[1].server.incrby(keys[0], 2)
    assert due(keys=keys, args=[250]) == 1
    assert due(keys=keys, args=[250]) == 0  # taken by the first to ask


def test_bloom_filter_sees_each_url_once_over_workers(workers):
    fingerprinter = RequestFingerprinter()
    filters = [BloomDupeFilter(w, fingerprinter, capacity=10_000, error=1e-3) for w in workers]
    urls = [f"http://a.test/{i}" for i in range(2000)]
    new = [not filters[i % 2].request_seen(Request(u)) for i, u in enumerate(urls)]
    assert all(new)
    assert all(filters[1].request_seen(Request(u)) for u in urls[:500])
    assert filters[0].count() == 2000
    # False positives on URLs never added stay near the configured rate (well under 1 %).
    wrong = sum(filters[0].request_seen(Request(f"http://b.test/{i}")) for i in range(3000))
    assert wrong <= 15


def test_bloom_size_follows_the_textbook_formula():
    bits, hashes = bloom_size(10_000_000, 1e-4)
    assert 23_900_000 <= bits / 8 <= 24_000_000  # 24 MB for 10 million URLs
    assert hashes == 13
    offsets = bit_offsets(bytes(range(20)), bits, hashes)
    assert len(set(offsets)) == hashes and all(0 <= o < bits for o in offsets)


def test_section_yields_are_shared(workers):
    first, second = SharedYieldStats(workers[0]), SharedYieldStats(workers[1])
    for i in range(6):
        first.record(f"http://a.test/tax/{i}.html", True)
    first.record("http://a.test/sport/1.html", False)
    second.sync()
    assert second.total == 0  # counts go to Redis with the worker's next sync, not one a page
    first.sync()
    second.sync()
    assert second.total == 7 and second.total_relevant == 6
    assert second.judged["a.test/tax"] == 6
    assert second.expected("http://a.test/tax/new.html") > second.expected(
        "http://a.test/sport/new.html"
    )


def two_classifiers(workers) -> tuple[SharedLinkClassifier, SharedLinkClassifier]:
    """Two workers' classifiers; the first has judged 8 pages (税 relevant, 球 not)."""
    first = SharedLinkClassifier(workers[0], min_examples=8, min_per_class=2)
    second = SharedLinkClassifier(workers[1], min_examples=8, min_per_class=2)
    for i in range(4):
        first.learn([{"w:税": 1.0, f"u:{i}": 1.0}], True)
        first.learn([{"w:球": 1.0, f"u:{i}": 1.0}], False)
    return first, second


def test_classifier_examples_are_shared(workers):
    first, second = two_classifiers(workers)
    assert second.fit()  # the second worker learns from the first one's pages
    assert second.probability({"w:税": 1.0}) > 0.5 > second.probability({"w:球": 1.0})


def test_one_worker_fits_the_classifier_and_the_others_take_its_model(workers):
    first, second = two_classifiers(workers)
    assert first.ready and first.fits == 1
    second.learn([{"w:税": 1.0}], True)  # due by the shared count: takes the published model
    assert second.fits == 0 and second.adopted == 1
    assert second.probability({"w:税": 1.0}) == first.probability({"w:税": 1.0})
    # While one worker fits, another due a refit keeps its model rather than fit it twice.
    workers[0].server.set(workers[0].key("classifier", "fitting"), "someone", px=5000)
    for i in range(3):
        second.learn([{"w:股": 1.0, f"u:{i}": 1.0}], True)
    assert second.fits == 0 and second.adopted == 1


def test_the_addon_switches_on_with_redis_url_only():
    plain = get_crawler(Crawl, {"ADDONS": {DistributedCrawl: 0}})
    assert "distributed" not in plain.settings["SCHEDULER"]
    shared = get_crawler(Crawl, {"ADDONS": {DistributedCrawl: 0}, "REDIS_URL": "redis://x:1/0"})
    assert shared.settings["SCHEDULER"].endswith("DistributedScheduler")
    mine = get_crawler(
        Crawl,
        {"ADDONS": {DistributedCrawl: 0}, "REDIS_URL": "redis://x:1/0", "SCHEDULER": "my.Sched"},
    )
    assert mine.settings["SCHEDULER"] == "my.Sched"  # the user's own choice wins


def test_a_shared_runs_stats_add_up_over_workers():
    total = _sum_workers(
        {
            "w1": {"pages": 3, "reason": "a", "flag": True},
            "w2": {"pages": 4, "reason": "b", "flag": False},
        }
    )
    assert total == {"pages": 7, "reason": "b", "flag": False}


def test_query_yields_and_next_pages_are_shared(workers):
    parser, judge = SharedQueryYields(workers[0]), SharedQueryYields(workers[1])
    parser.add_hits("bing", "增值税", 4)
    parser.hold_next_page("bing", "增值税", 2)
    judge.record("bing", "增值税", True)
    assert judge.take_next_page("bing", "增值税") is None  # 1 of 4 hits judged: not settled
    judge.record("bing", "增值税", True)
    assert judge.take_next_page("bing", "增值税") == 2  # the judging worker asks page 2
    assert parser.take_next_page("bing", "增值税") is None  # once
    parser.sync()
    assert parser.expected("bing", "增值税") > parser.expected("bing", "风险")


def test_a_provisional_verdict_corrected_is_corrected_for_every_worker(workers):
    """One worker learnt from a page judged provisionally; its verdict changes: the section's
    yield, the classifier's shared window and the query's yield read it once, as it is now."""
    yields, other = SharedYieldStats(workers[0]), SharedYieldStats(workers[1])
    yields.record("http://a.test/tax/1.html", False)
    yields.sync()
    yields.relabel("http://a.test/tax/1.html", True)
    yields.sync()
    other.sync()
    assert other.total == 1 and other.total_relevant == 1 and other.relevant["a.test/tax"] == 1

    first, second = two_classifiers(workers)
    first.learn([{"w:税务": 1.0}, {"w:稽查": 1.0}], False, key="http://a.test/tax/1.html")
    first.send()
    assert first.relabel({"http://a.test/tax/1.html": True}) == 1
    window = workers[1].server.lrange(workers[1].key("classifier", "examples"), 0, -1)
    labels = [json.loads(raw) for raw in window]  # the page's examples there once, relabelled
    assert len(labels) == 10
    assert [
        label for features, label in labels if "w:税务" in features or "w:稽查" in features
    ] == [
        True,
        True,
    ]

    judge, parser = SharedQueryYields(workers[0]), SharedQueryYields(workers[1])
    judge.record("bing", "增值税", False)
    judge.relabel("bing", "增值税", True)
    parser.sync()
    assert parser.judged["bing", "增值税"] == 1 and parser.relevant["bing", "增值税"] == 1


def test_enqueue_tests_seen_counts_budget_and_queues_in_one(workers, band):
    queue = frontier(workers[0], concurrency=10, band=band)
    seen = BloomDupeFilter(workers[1], RequestFingerprinter(), capacity=1000, error=1e-3)

    def push(url: str, budget=("a.test", 2)) -> int:
        request = Request(url)
        return queue.push_new(request, seen.offsets(request), budget)

    assert push("http://a.test/1") == QUEUED
    assert push("http://a.test/1") == SEEN  # not counted against the budget again
    assert push("http://a.test/2") == QUEUED
    assert push("http://a.test/3") == OVER_BUDGET  # the site's 2 pages over all workers
    assert seen.request_seen(Request("http://a.test/2"))  # the same filter as canonical claims
    assert queue.push_new(Request("http://a.test/5"), [], None) == QUEUED  # dont_filter
    assert queue.push_new(Request("http://a.test/5"), [], None) == QUEUED  # the same request
    # ... is queued once in a sorted set (one member); a band list queues it again, as
    # Scrapy's own scheduler does with a request that is not filtered.
    assert queue.size() == (4 if band else 3)


def test_a_link_over_its_sites_budget_is_not_marked_seen(workers, band):
    """As in one process, where the budget turns a link away before the seen-URL filter: the
    same URL can still come in another way (a search hit, counted against no budget)."""
    queue = frontier(workers[0], concurrency=10, band=band)
    seen = BloomDupeFilter(workers[1], RequestFingerprinter(), capacity=1000, error=1e-3)

    def push(url: str, budget) -> int:
        request = Request(url)
        return queue.push_new(request, seen.offsets(request), budget)

    assert push("http://a.test/1", ("a.test", 1)) == QUEUED
    assert push("http://a.test/deep", ("a.test", 1)) == OVER_BUDGET
    assert push("http://a.test/deep", None) == QUEUED  # the search hit: not seen before
    assert push("http://a.test/deep", None) == SEEN  # ... and seen now
    assert queue.size() == 2


class Topical(Spider):
    name = "topical"

    def parse(self, response):
        return None

    def on_error(self, failure):
        return None

    def parse_form(self, response, step=None):
        return None


def link_request(spider: Topical, url: str = "https://news.example.test/2026/11/25/story.html"):
    """A link as the topic spider and the relevance middleware leave it, meta and all."""
    return Request(
        url,
        callback=spider.parse,
        errback=spider.on_error,
        priority=734,
        meta={
            ENTRANCE: "link", HOPS: 3, AUTHORITY_SITE: "新闻网", PAGER_HOPS: 0,
            LINK_TEXT: "国家税务总局公布一批偷逃税典型案例", LINK_BLOCK: "content",
            AT_DEPTH_LIMIT: False, HOP_LIMIT: 6, SITE_BUDGET: ("news.example.test", 5000),
            TUNNEL: 1, "depth": 3,
            FRONTIER: {
                "features": {"text": 0.75, "context": 0.4187, "url": 0.0, "block": 1.0,
                             "learned": 0.33333, "model": 0.912345678},
                "hops": 3, "offset": -1000,
            },
        },
    )  # fmt: skip


def test_the_stored_form_is_compact_and_rebuilds_the_request():
    from topiccrawler.distributed.codec import decode_request, encode_request

    spider = Topical()
    request = link_request(spider)
    data = encode_request(request, spider, "news.example.test")
    assert len(data) < 150  # a pickled Request.to_dict() of it: about 700
    again = decode_request(data, spider, "news.example.test")
    assert again.url == request.url and again.priority == 734
    assert again.callback == spider.parse and again.errback == spider.on_error
    features = again.meta[FRONTIER]["features"]
    assert features.keys() == request.meta[FRONTIER]["features"].keys()
    for name, value in request.meta[FRONTIER]["features"].items():
        assert features[name] == pytest.approx(value, abs=0.5 / 65535)  # 16 bits in [0, 1]
    rest = {k: v for k, v in again.meta.items() if k != FRONTIER}
    assert rest == {k: v for k, v in request.meta.items() if k != FRONTIER}
    assert type(again.meta[SITE_BUDGET]) is tuple
    # None, False and 0 under a known key take one byte with it, and come back as they were.
    assert [type(again.meta[key]) for key in (AT_DEPTH_LIMIT, PAGER_HOPS)] == [bool, int]
    plain = request.replace(meta={AUTHORITY_SITE: None, AT_DEPTH_LIMIT: False, PAGER_HOPS: 0})
    bare = request.replace(meta={})
    plain_data = encode_request(plain, spider, "news.example.test")
    assert len(plain_data) == len(encode_request(bare, spider, "news.example.test")) + 3
    assert decode_request(plain_data, spider, "news.example.test").meta == plain.meta
    # Stored under another site (a seed file's download slot): the URL is kept whole.
    elsewhere = decode_request(encode_request(request, spider, "slot-1"), spider, "slot-1")
    assert elsewhere.url == request.url
    # A feature outside [0, 1] (a component's own scale): all kept as 32-bit floats.
    request.meta[FRONTIER]["features"]["learned"] = 1.75
    wide = encode_request(request, spider, "news.example.test")
    assert len(wide) == len(data) + 2 * 4  # four features of 4 bytes, not 2
    features = decode_request(wide, spider, "news.example.test").meta[FRONTIER]["features"]
    assert features["learned"] == 1.75
    assert features["model"] == pytest.approx(0.912345678, rel=1e-7)
    # A link's parent's relevance (its context at η as it is now) in 16 bits more.
    request.meta[FRONTIER]["parent"] = 0.0734
    parented = encode_request(request, spider, "news.example.test")
    assert len(parented) == len(wide) + 2
    known = decode_request(parented, spider, "news.example.test").meta[FRONTIER]
    assert known["parent"] == pytest.approx(0.0734, abs=0.5 / 65535) and known["hops"] == 3
    assert known["features"]["learned"] == 1.75 and known["offset"] == -1000


def test_whatever_else_a_request_carries_comes_back():
    from scrapy import FormRequest

    from topiccrawler.distributed.codec import decode_request, encode_request

    spider = Topical()
    post = Request(
        "http://forum.example.test/login?next=%2F",
        method="POST",
        body=b"user=a&pass=b",
        headers={"Referer": "http://forum.example.test/"},
        cookies={"sid": "1"},
        cb_kwargs={"step": 2},
        callback=spider.parse_form,
        dont_filter=True,
        flags=["login"],
        meta={"cookiejar": "forum.example.test", "custom_key": {"nested": [1, 2.5, None]},
              "an_object": frozenset({"x"}), "big": 10**30, "negative": -7},
    )  # fmt: skip
    again = decode_request(
        encode_request(post, spider, "forum.example.test"), spider, "forum.example.test"
    )
    assert (again.method, again.body, again.dont_filter, again.flags) == (
        "POST",
        post.body,
        True,
        ["login"],
    )
    assert again.headers.get("Referer") == b"http://forum.example.test/"
    assert again.cookies == {"sid": "1"} and again.cb_kwargs == {"step": 2}
    assert again.callback == spider.parse_form and again.errback is None
    assert again.meta == post.meta
    form = FormRequest("http://forum.example.test/s", formdata={"q": "税"}, callback=spider.parse)
    back = decode_request(encode_request(form, spider, "forum.example.test"), spider, "x")
    assert type(back) is FormRequest and back.body == form.body
    with pytest.raises(ValueError):  # as scrapy-redis: the scheduler keeps these locally
        encode_request(Request("http://a.test/", callback=lambda r: None), spider, "a.test")
    with pytest.raises(ValueError, match="unknown version"):
        decode_request(b"\x09junk", spider, "a.test")


def test_queued_requests_round_trip_through_redis_compactly(workers, band):
    spider = Topical()
    queue = shared_frontier(workers[0], spider, site_of, (0.0, 10), band)
    queue.push(link_request(spider))
    queue.push_new(link_request(spider, "https://news.example.test/b.html"), [], None)
    # What is queued (a sorted set's place is its stored form, a band's place ends with it).
    stored = [place[2] if band else place for _, place, _ in queue.queued(10)]
    assert len(stored) == 2 and all(len(data) < 150 for data in stored)
    popped = [queue.pop()[0] for _ in range(2)]
    assert {r.url for r in popped} == {
        "https://news.example.test/2026/11/25/story.html", "https://news.example.test/b.html"
    }  # fmt: skip
    assert all(r.callback == spider.parse and r.meta[HOPS] == 3 for r in popped)
    assert all(r.meta[LEASE] for r in popped)
