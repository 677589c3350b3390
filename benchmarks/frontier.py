"""Shared frontier memory: bytes of Redis per queued request, with the compact stored form
(topiccrawler/distributed/codec.py) and with scrapy-redis's pickled `Request.to_dict()`.

    .venv/bin/python benchmarks/frontier.py [--queued 1000000 10000000] [--sites 2000]
        [--redis redis://127.0.0.1:6379/0]

Requests as the topic spider and the relevance middleware leave a link (the meta keys and
frontier features they set), URLs and anchor texts varied: article paths with dates and ids,
anchors from the real news titles of ../shared/bench/relevance (read in place). They are queued
in the frontier's own structures (one sorted set per site, scored as the frontier scores, and
the index of sites), under a key prefix of this run's own, pipelined in batches (SharedFrontier
.push does the same per request, one round trip each, too slow for 10M). Memory is Redis's
`used_memory` before and after; the keys are deleted at the end (and on an error).
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
import time
import uuid
from pathlib import Path

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
            priority=rng.randrange(0, 2000),
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


def measure(server, count: int, sites: list[str], anchors: list[str], form: str) -> dict:
    from topiccrawler.distributed.codec import encode_request

    spider = spider_class()()
    prefix = f"bench-frontier-{uuid.uuid4().hex[:8]}"
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
                data = encode_request(request, spider, site)
            else:
                data = pickle.dumps(request.to_dict(spider=spider), protocol=4)
            encode_s += time.perf_counter() - t0
            sizes += len(data)
            sequence += 1
            score = -request.priority + sequence / 10_000_000
            pipe.zadd(f"{prefix}:q:{site}", {data: score})
            pipe.zadd(f"{prefix}:sites", {site: score}, lt=True)
            if len(pipe) >= 2 * BATCH:
                pipe.execute()
        pipe.execute()
        after = server.info("memory")["used_memory"]
        queued = sum(server.zcard(f"{prefix}:q:{s}") for s in sites)
    finally:
        cursor = 0
        while True:
            cursor, keys = server.scan(cursor, match=f"{prefix}:*", count=10_000)
            if keys:
                server.delete(*keys)
            if cursor == 0:
                break
    return {
        "form": form, "queued": queued, "bytes": (after - before) / queued,
        "member": sizes / count, "encode_us": encode_s / count * 1e6,
        "seconds": time.perf_counter() - started,
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queued", nargs="+", type=int, default=[100_000, 1_000_000])
    parser.add_argument("--pickled", type=int, default=100_000, help="queued, scrapy-redis form")
    parser.add_argument("--sites", type=int, default=2000)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    import redis

    server = redis.Redis.from_url(args.redis)
    with TITLES.open(encoding="utf-8") as lines:
        anchors = [line.split("\t")[0].strip()[:30] for line in lines if line.strip()]
    sites = [f"www.site{n}.example.cn" for n in range(args.sites)]
    runs = [measure(server, args.pickled, sites, anchors, "pickled")] if args.pickled else []
    runs += [measure(server, n, sites, anchors, "compact") for n in args.queued]
    print(f"{'stored form':12} | {'queued':>10} | Redis B/request | member B | encode µs")
    for r in runs:
        print(
            f"{r['form']:12} | {r['queued']:>10,} | {r['bytes']:15.0f} | {r['member']:8.0f} "
            f"| {r['encode_us']:9.1f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
