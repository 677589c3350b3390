"""Shared frontier memory: bytes of Redis per queued request, in the frontier's layouts (sorted
sets, REDIS_FRONTIER_BAND 0; band lists, distributed/bands.py) with rediscovery's index of the
links, and in scrapy-redis's form (a pickled `Request.to_dict()` in sorted sets, no index).

    .venv/bin/python benchmarks/frontier.py [--queued 1000000 10000000] [--band 0 10]
        [--pickled 100000] [--sites 2000] [--redis redis://127.0.0.1:6379/0]

Requests as the topic spider and the relevance middleware leave a link (the meta keys and
frontier features they set), URLs and anchor texts varied: article paths with dates and ids,
anchors from the real news titles of ../shared/bench/relevance (read in place), priorities
uniform over a link's range (0 to PAGE_SCALE, frontier/priority.py: as spread as links can be,
the most bands a site can have). They are queued by the frontier's own `push` (its encoding,
its scripts, its keys, and the rediscovery's index entry of each link), under a crawl name of
this run's own, pipelined in batches (a crawl pushes one request a round trip, too slow for
10M). Memory is MEMORY USAGE summed over the run's keys, a key's name and its entry in Redis's
key table included (Redis's `used_memory` before and after is printed too: exact on a server of
its own, moved by other clients on a shared one); the keys are deleted at the end (and on an
error).
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
SAMPLE = 16  # one request in SAMPLE is encoded apart, for the stored form's size and time


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
        for n, (site, request) in enumerate(requests(count, sites, anchors, spider, rng)):
            if n % SAMPLE == 0:  # the stored form's size and time, on a sample
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
                data = pickle.dumps(request.to_dict(spider=spider), protocol=4)
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
        # MEMORY USAGE of the run's keys: what other clients of the server do meanwhile does not
        # count, as it does in used_memory.
        index = total = 0
        keys = list(server.scan_iter(match=crawl.key("*"), count=10_000))
        for start in range(0, len(keys), BATCH):
            usage = server.pipeline(transaction=False)
            for key in keys[start : start + BATCH]:
                usage.memory_usage(key, samples=0)
            for key, used in zip(keys[start : start + BATCH], usage.execute(), strict=True):
                part = key.decode()[len(crawl.key("")) :].split(":", 1)[0]
                total += used or 0
                index += (used or 0) if part in ("where", "w") else 0
    finally:
        crawl.clear()
    sampled = (count + SAMPLE - 1) // SAMPLE
    return {
        "form": form if form != "compact" else (f"bands of {band}" if band else "sorted sets"),
        "queued": queued, "indexed": indexed, "bytes": total / queued,
        "used_memory": (after - before) / queued, "index": index / queued, "member": sizes / sampled, "encode_us": encode_s / sampled * 1e6,
        "seconds": time.perf_counter() - started,
    }  # fmt: skip


# Rediscovery's band index filled as `queued` links would fill it (their four bytes and packed
# priority and position number, distributed/bands.py), in a tenth of its hashes at the tenth of
# the links that falls in them: the bytes an entry takes at that many links queued.
FILL_INDEX = """
math.randomseed(tonumber(ARGV[4]))
for bucket = tonumber(ARGV[5]), tonumber(ARGV[2]) do
  local key = ARGV[1] .. string.format('%04x', bucket)
  for _ = 1, tonumber(ARGV[3]) do
    local field = struct.pack('>I2I2', math.random(0, 65535), math.random(0, 65535))
    local value = math.random(0, 100000) * 16384 + math.random(0, 1000) + 8192
    redis.call('HSET', key, field, string.format('%d', value))
  end
end
"""


FILL_BUCKETS = 32


def index_at(server, queued: int) -> float:
    """Bytes of the band index an entry takes with `queued` links in it (the 65,536 hashes
    as full as then; position numbers up to 100,000 pops of a band: 32-bit integers)."""
    from topiccrawler.distributed.bands import INDEX_BUCKET_BYTES

    buckets = 2 ** (8 * INDEX_BUCKET_BYTES)
    filled, per = buckets // 10, round(queued / buckets)
    prefix = f"bench-frontier-index-{uuid.uuid4().hex[:8]}:"
    try:
        for first in range(0, filled, FILL_BUCKETS):  # a few ms of Redis at a time
            last = min(filled, first + FILL_BUCKETS) - 1
            server.eval(FILL_INDEX, 0, prefix, last, per, 20261125 + first, first)
        keys = server.keys(prefix + "*")
        total = sum(server.memory_usage(key, samples=0) for key in keys)
        entries = sum(server.hlen(key) for key in keys)
    finally:
        keys = server.keys(prefix + "*")
        for start in range(0, len(keys), 1000):
            server.delete(*keys[start : start + 1000])
    return total / entries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queued", nargs="+", type=int, default=[100_000, 1_000_000])
    parser.add_argument("--pickled", type=int, default=100_000, help="queued, scrapy-redis form")
    parser.add_argument("--sites", type=int, default=2000)
    parser.add_argument(
        "--band", nargs="+", type=int, default=[0, 10],
        help="REDIS_FRONTIER_BAND of each layout measured (0: sorted sets)",
    )  # fmt: skip
    parser.add_argument(
        "--simulate", type=int, default=0,
        help="queued requests simulated: each run spreads its requests over as few sites as "
        "leaves each site as full as this many over --sites, and the band index is measured "
        "as full as this many make it (FILL_INDEX)",
    )  # fmt: skip
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    import redis

    server = redis.Redis.from_url(args.redis)
    with TITLES.open(encoding="utf-8") as lines:
        anchors = [line.split("\t")[0].strip()[:30] for line in lines if line.strip()]

    def sites_for(queued: int) -> list[str]:
        count = args.sites
        if args.simulate:
            count = max(1, round(args.sites * queued / args.simulate))
        return [f"www.site{n}.example.cn" for n in range(count)]

    runs = []
    if args.pickled:
        runs.append(measure(server, args.pickled, sites_for(args.pickled), anchors, "pickled", 0))
    for band in args.band:
        for n in args.queued:
            sites = sites_for(n)
            run = measure(server, n, sites, anchors, "compact", band)
            run["sites"] = len(sites)
            run["simulated"] = run["bytes"]
            if args.simulate and band:  # the lists as at --simulate; the index too
                run["simulated"] = run["bytes"] - run["index"] + index_at(server, args.simulate)
            runs.append(run)
    at = f"at {args.simulate:,}" if args.simulate else "(as measured)"
    print(
        f"{'layout':14} | {'queued':>10} | {'sites':>5} | B/request | of it index | "
        f"used_memory Δ | member B | encode µs | B/request {at}"
    )
    for r in runs:
        print(
            f"{r['form']:14} | {r['queued']:>10,} | {r.get('sites', args.sites):>5} | "
            f"{r['bytes']:9.0f} | {r.get('index', 0):11.0f} | {r['used_memory']:13.0f} | "
            f"{r['member']:8.0f} | {r['encode_us']:9.1f} | {r.get('simulated', r['bytes']):.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
