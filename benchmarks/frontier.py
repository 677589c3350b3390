"""Shared frontier memory: bytes of Redis per queued request, in the frontier's layouts (sorted
sets, REDIS_FRONTIER_BAND 0; band lists, distributed/bands.py) with rediscovery's index of the
links, and in scrapy-redis's form (a pickled `Request.to_dict()` in sorted sets, no index).

    .venv/bin/python benchmarks/frontier.py [--queued 1000000 10000000] [--band 0 10]
        [--pickled 100000] [--sites 2000] [--redis redis://127.0.0.1:6379/0]

Requests as the topic spider and the relevance middleware leave a link (the meta keys and
frontier features they set), URLs and anchor texts varied: article paths with dates and ids,
anchors from the real news titles of ../shared/bench/relevance (read in place), priorities
uniform over a link's range (0 to PAGE_SCALE, frontier/priority.py: as spread as links can be,
the most bands a site can have). They are queued
by the frontier's own `push` (its encoding, its scripts, its keys, and the rediscovery's index
entry of each link), under a crawl name of this run's own, pipelined in batches (a crawl pushes
one request a round trip, too slow for 10M). Memory is Redis's `used_memory` before and after
(a server of its own gives the exact figure; a shared one moves with other clients); the keys
are deleted at the end (and on an error).
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
import uuid
from pathlib import Path

from topiccrawler.frontier.priority import PAGE_SCALE
from topiccrawler.meta import (
    AT_DEPTH_LIMIT,
    AUTHORITY_SITE,
    ENTRANCE,
    FRONTIER,
    HOP_LIMIT,
    HOPS,
    LINK_BLOCK,
    LINK_TEXT,
    PAGER_HOPS,
    SITE_BUDGET,
    TUNNEL,
)

TITLES = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "bench"
    / "relevance"
    / "thucnews-titles-dev.txt"
)
BATCH = 5000


def spider_class():
    from scrapy import Spider

    class Topic(Spider):
        name = "topic"

        def parse(self, response):
            return None

        def on_error(self, failure):
            return None

    return Topic


def requests(count: int, sites: list[str], anchors: list[str], spider, rng: random.Random):
    from scrapy import Request

    for n in range(count):
        site = sites[rng.randrange(len(sites))]
        path = rng.choice(
            (
                f"/{2020 + n % 7}/{1 + n % 12:02d}/{1 + n % 28:02d}/{rng.getrandbits(40):x}.html",
                f"/news/{rng.choice(('china', 'world', 'finance', 'tech'))}/{n}.shtml",
                f"/article/{rng.getrandbits(32)}?from=index",
            )
        )
        anchor = anchors[n % len(anchors)]
        yield site, Request(
            f"https://{site}{path}",
            callback=spider.parse,
            errback=spider.on_error,
            priority=rng.randrange(0, PAGE_SCALE + 1),
            meta={
                ENTRANCE: "link", HOPS: rng.randrange(1, 6), AUTHORITY_SITE: None,
                PAGER_HOPS: 0, LINK_TEXT: anchor, LINK_BLOCK: rng.choice(("content", "navigation")),
                AT_DEPTH_LIMIT: False, HOP_LIMIT: 6, SITE_BUDGET: (site, 5000),
                TUNNEL: rng.randrange(0, 3), "depth": rng.randrange(1, 6),
                FRONTIER: {
                    "features": {"text": rng.random(), "context": rng.random(), "url": rng.choice((0.0, rng.random())),
                                 "block": rng.choice((0.0, 1.0)), "learned": rng.random(), "model": rng.random()},
                    "hops": 2, "offset": 0,
                },
            },
        )  # fmt: skip


def measure(server, count: int, sites: list[str], anchors: list[str], form: str, band: int) -> dict:
    """Bytes of Redis per queued request: `form` "pickled" (scrapy-redis's form in sorted sets,
    no index) or "compact" (the frontier's own push, with rediscovery's index of the links:
    sorted sets when `band` is 0, else band lists that wide)."""
    from scrapy.utils.request import RequestFingerprinter

    from topiccrawler.distributed.bands import BandedFrontier
    from topiccrawler.distributed.frontier import SharedFrontier
    from topiccrawler.distributed.rediscovery import SharedRediscovery
    from topiccrawler.distributed.state import SharedCrawl

    spider = spider_class()()
    crawl = SharedCrawl(server, f"bench-frontier-{uuid.uuid4().hex[:8]}")
    args = (crawl, spider, lambda request: request.url.split("/")[2], (0.0, 8))
    queue = BandedFrontier(*args, band=band) if band else SharedFrontier(*args)
    fingerprinter = RequestFingerprinter()
    rediscovery = SharedRediscovery(queue, fingerprinter.fingerprint, 50)
    rng = random.Random(20261125)
    before = server.info("memory")["used_memory"]
    sizes = 0
    started = time.perf_counter()
    encode_s = 0.0
    try:
        pipe = server.pipeline(transaction=False)
        sequence = 0
        for site, request in requests(count, sites, anchors, spider, rng):
            t0 = time.perf_counter()
            if form == "compact":
                data = queue._encode(request, site)
            else:
                data = pickle.dumps(request.to_dict(spider=spider), protocol=4)
            encode_s += time.perf_counter() - t0
            sizes += len(data)
            if form == "compact":
                queue.push(request, client=pipe)
            else:
                sequence += 1
                score = -request.priority + sequence / 10_000_000
                pipe.zadd(crawl.key("q", site), {data: score})
                pipe.zadd(crawl.key("sites"), {site: score}, lt=True)
            if len(pipe) >= 2 * BATCH:
                pipe.execute()
        pipe.execute()
        after = server.info("memory")["used_memory"]
        queued = queue.size()
        indexed = rediscovery.size() if form == "compact" else 0
    finally:
        crawl.clear()
    return {
        "form": form if form != "compact" else (f"bands of {band}" if band else "sorted sets"),
        "queued": queued, "indexed": indexed, "bytes": (after - before) / queued,
        "member": sizes / count, "encode_us": encode_s / count * 1e6,
        "seconds": time.perf_counter() - started,
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queued", nargs="+", type=int, default=[100_000, 1_000_000])
    parser.add_argument("--pickled", type=int, default=100_000, help="queued, scrapy-redis form")
    parser.add_argument("--sites", type=int, default=2000)
    parser.add_argument(
        "--band", nargs="+", type=int, default=[0, 10],
        help="REDIS_FRONTIER_BAND of each layout measured (0: sorted sets)",
    )  # fmt: skip
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    import redis

    server = redis.Redis.from_url(args.redis)
    with TITLES.open(encoding="utf-8") as lines:
        anchors = [line.split("\t")[0].strip()[:30] for line in lines if line.strip()]
    sites = [f"www.site{n}.example.cn" for n in range(args.sites)]
    runs = [measure(server, args.pickled, sites, anchors, "pickled", 0)] if args.pickled else []
    runs += [
        measure(server, n, sites, anchors, "compact", band)
        for band in args.band
        for n in args.queued
    ]
    print(
        f"{'layout':14} | {'queued':>10} | {'indexed':>10} | Redis B/request | member B | encode µs | s"
    )
    for r in runs:
        print(
            f"{r['form']:14} | {r['queued']:>10,} | {r['indexed']:>10,} | {r['bytes']:15.0f} "
            f"| {r['member']:8.0f} | {r['encode_us']:9.1f} | {r['seconds']:.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
