"""Harvest of a shared crawl (Redis frontier) against one process, like for like, on the large sandbox.

    .venv/bin/python benchmarks/shared_harvest.py [--pages 2000] [--rounds 2] [--size large]
        [--setups "one process" "1 Redis worker" ...] [--gain 50]
    .venv/bin/python benchmarks/shared_harvest.py --memory [--queued 100000]

Every setup crawls the same sandbox web from the home page of every content site, with the same
CPU-bound settings as `workers.py` (no delay, AutoThrottle off, 4 requests per site, 32 requests
in flight in all, a fresh PostgreSQL schema each), until --pages pages are judged in all:

- one process: no Redis, the one-process scheduler and queue (frontier/queue.py);
- one process, gain 0: the same with FRONTIER_REDISCOVERY_GAIN 0 (a page keeps its first link's
  priority: what a shared crawl did before it raised rediscovered links);
- 1 Redis worker: one worker of a shared crawl (distributed/);
- 2 Redis workers: two, 16 requests in flight each (32 in all, as one process).

FRONTIER_REDISCOVERY_GAIN is --gain in every setup but the "gain 0" one. Printed per round and
setup: harvest at 100 / 500 / 1,000 / 2,000 pages in fetch order, recall, duplicate page fetches
(the sandbox's count), links raised by rediscovery (`topiccrawler/frontier/rediscovered_higher`
over the workers' stats), and seconds; then the mean over the rounds. Setups alternate within a
round, so a round's figures ran under the same load.

--memory: what rediscovery costs in Redis, measured on the server: --queued links of the
sandbox's kind (as workers.py's memory figure makes them, with the frontier's features) queued
through the rediscovery's enqueue, the frontier's keys (its default layout) and the index apart,
in bytes per queued request (MEMORY USAGE of the keys: the server may be shared).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harvest import CHECKPOINTS  # noqa: E402
from workers import CPU_BOUND, REDIS, Topic, run, synthetic_link  # noqa: E402

from topiccrawler.distributed.bands import BandedFrontier  # noqa: E402
from topiccrawler.distributed.bloom import BloomDupeFilter  # noqa: E402
from topiccrawler.distributed.frontier import SharedFrontier  # noqa: E402
from topiccrawler.distributed.rediscovery import SharedRediscovery  # noqa: E402
from topiccrawler.distributed.state import SharedCrawl  # noqa: E402
from topiccrawler.sandbox.server import SandboxServer  # noqa: E402
from topiccrawler.sandbox.web import build_web  # noqa: E402
from topiccrawler.settings import REDIS_FRONTIER_BAND  # noqa: E402

IN_FLIGHT = CPU_BOUND["CONCURRENT_REQUESTS"]
# name → (workers, shared over Redis, extra settings besides the gain)
SETUPS = {
    "one process": (1, False, {}),
    "one process, gain 0": (1, False, {"FRONTIER_REDISCOVERY_GAIN": 0}),
    "1 Redis worker": (1, True, {}),
    "2 Redis workers": (2, True, {}),
}
RAISED = "topiccrawler/frontier/rediscovered_higher"  # stat: links raised by rediscovery


def counted(folder: Path, name: str) -> int:
    """A stat summed over the workers' logs (their stats dump at the end)."""
    total = 0
    for log in folder.glob("worker*.log"):
        found = re.search(rf"'{re.escape(name)}': (\d+)", log.read_text(errors="replace"))
        total += int(found.group(1)) if found else 0
    return total


def memory(count: int) -> dict:
    """Bytes per queued request: the frontier (in the default layout) and the rediscovery's
    index."""
    import redis
    from scrapy.utils.request import RequestFingerprinter

    server = redis.Redis.from_url(REDIS)
    crawl = SharedCrawl(server, f"bench-memory-{uuid.uuid4().hex[:8]}")
    spider = Topic()
    args = (crawl, spider, lambda r: r.url.split("/")[2], (0.0, 8))
    band = REDIS_FRONTIER_BAND  # the default layout
    queue = BandedFrontier(*args, band=band) if band else SharedFrontier(*args)
    fingerprinter = RequestFingerprinter()
    seen = BloomDupeFilter(crawl, fingerprinter, 10_000_000, 1e-4)
    rediscovery = SharedRediscovery(queue, fingerprinter.fingerprint, 50)
    for i in range(count):
        request = synthetic_link(spider, i)
        fingerprint = fingerprinter.fingerprint(request)
        rediscovery.push_new(request, fingerprint, seen.offsets(request, fingerprint), None)
    # MEMORY USAGE of the keys (the server is shared: its used_memory moves with other crawls):
    # the index (`where`, or the band layout's `w:*`), the seen-URL filter apart, the frontier.
    frontier = index = 0
    for key in server.scan_iter(match=crawl.key("*"), count=1000):
        part = key.decode()[len(crawl.key("")) :].split(":", 1)[0]
        if part == "seen":
            continue
        usage = server.memory_usage(key, samples=0) or 0
        if part in ("where", "w"):
            index += usage
        else:
            frontier += usage
    entries = rediscovery.size()
    crawl.clear()
    return {"entries": entries, "frontier": frontier / count, "index": index / count}


def print_round(results: dict[str, dict], checkpoints: list[int]) -> None:
    head = (
        f"{'setup':22} | "
        + " | ".join(f"h@{n:<5}" for n in checkpoints)
        + " | recall | dup | raised | seconds"
    )
    print(head)
    print("-" * len(head))
    for label, r in results.items():
        harvest = " | ".join(f"{r['harvest'].get(n, float('nan')):.3f}  " for n in checkpoints)
        print(
            f"{label:22} | {harvest} | {r['recall']:.3f}  | {r['duplicates']:3} | "
            f"{r['raised']:6} | {r['elapsed']:7.1f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--size", choices=("small", "medium", "large"), default="large")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--gain", type=int, default=50, help="FRONTIER_REDISCOVERY_GAIN")
    parser.add_argument("--setups", nargs="+", choices=list(SETUPS), default=list(SETUPS))
    parser.add_argument("--memory", action="store_true", help="the Redis memory figure only")
    parser.add_argument("--queued", type=int, default=100_000, help="requests queued (--memory)")
    args = parser.parse_args()
    if args.memory:
        figures = memory(args.queued)
        print(
            f"{args.queued} requests queued through the rediscovery's enqueue, "
            f"{figures['entries']} indexed: frontier {figures['frontier']:.0f} B a request, "
            f"where index {figures['index']:.0f} B a request (MEMORY USAGE of the keys)"
        )
        return 0
    web = build_web(1, args.size)
    checkpoints = [n for n in CHECKPOINTS if n <= args.pages]
    print(
        f"sandbox web: {args.size}, {args.pages} pages judged in all, {IN_FLIGHT} requests in "
        f"flight in all, FRONTIER_REDISCOVERY_GAIN {args.gain}"
    )
    rounds: list[dict[str, dict]] = []
    slow = CPU_BOUND["DOWNLOAD_TIMEOUT"] + 3  # the slow page times out (as in workers.py)
    with SandboxServer(web, slow_seconds=slow) as server, tempfile.TemporaryDirectory() as tmp:
        for number in range(args.rounds):
            results: dict[str, dict] = {}
            for label in args.setups:
                workers, shared, extra = SETUPS[label]
                folder = Path(tmp) / f"round{number}-run{len(results)}"
                folder.mkdir()
                settings = {"FRONTIER_REDISCOVERY_GAIN": args.gain, **extra}
                result = run(
                    server, web, folder, workers, args.pages, IN_FLIGHT // workers,
                    shared=shared, extra=settings,
                )  # fmt: skip
                result["raised"] = counted(folder, RAISED)
                results[label] = result
                print(f"done: round {number + 1}, {label} in {result['elapsed']:.0f} s",
                      file=sys.stderr)  # fmt: skip
            rounds.append(results)
            print(f"\nround {number + 1}")
            print_round(results, checkpoints)
    print(f"\nmean over {len(rounds)} rounds (per round in brackets)")
    for label in args.setups:
        cells = []
        for n in checkpoints:
            values = [r[label]["harvest"].get(n, float("nan")) for r in rounds]
            per = " ".join(f"{v:.3f}" for v in values)
            cells.append(f"h@{n} {statistics.mean(values):.3f} ({per})")
        print(f"  {label:22} " + "; ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
