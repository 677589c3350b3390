"""One worker against two on one shared crawl (Redis frontier, one PostgreSQL), on the large sandbox.

    .venv/bin/python benchmarks/workers.py [--pages 2000] [--workers 2] [--size large]
        [--rounds 3] [--split-only] [--profile DIR]

Each run crawls the sandbox from the home page of every content site (as `harvest.py sandbox`
does) until --pages pages are judged in all (CRAWL_MAX_PAGES split between the workers), with
CPU-bound settings: no delay, AutoThrottle off, 4 requests per site; the sandbox answers on
loopback, so the crawl's own work (extraction, scoring, storage) is what limits it. One worker
with 32 requests in flight, then N workers two ways: 32 in flight in all (split between them:
as polite as one worker, only the processors differ) and 32 each (what adding a worker with the
same settings does: more requests in flight, so more sites at once). Each run stores
into a fresh PostgreSQL schema and a fresh crawl in Redis. Printed per run: wall time from the
first worker's start to the last one's exit, pages stored, pages/s; the seconds from the first
page fetched to the last and pages/s over them (the crawl without start-up and shut-down, which
a long crawl pays once); harvest rate at 100/500/1,000/2,000 pages in fetch order, duplicate
page fetches (the sandbox's own count), CPU seconds of the workers, of the sandbox server and of
the Redis and PostgreSQL servers (they share the machine's cores), and the ratios to one worker.
With --rounds N every setup runs N times, alternating, and a summary gives each round's ratio
to its own one-worker run and their median: on a shared machine one run's figure is noisy.

Then the Redis memory the shared crawl costs, measured on the server: a frontier filled with
100,000 requests of the sandbox's kind (as the spider makes them, with their meta) and the
seen-URL filter, both given per million URLs.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import redis
from scrapy import Request, Spider
from sqlalchemy import create_engine, text

from topiccrawler.meta import (
    AUTHORITY_SITE,
    ENTRANCE,
    FRONTIER,
    HOPS,
    LINK_BLOCK,
    LINK_TEXT,
    SITE_BUDGET,
    TUNNEL,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harvest import CHECKPOINTS, every_site_seed_file, measure  # noqa: E402

from topiccrawler.distributed.bloom import bloom_size  # noqa: E402
from topiccrawler.distributed.frontier import SharedFrontier  # noqa: E402
from topiccrawler.distributed.state import SharedCrawl  # noqa: E402
from topiccrawler.sandbox.demo import (  # noqa: E402
    crawl_command,
    sandbox_crawl_settings,
    sandbox_login_env,
)
from topiccrawler.sandbox.server import SandboxServer  # noqa: E402
from topiccrawler.sandbox.web import build_web  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = os.environ.get(
    "TOPICCRAWLER_TEST_POSTGRES_URL", "postgresql+psycopg://127.0.0.1:5432/test"
)
REDIS = os.environ.get("TOPICCRAWLER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
CPU_BOUND = {
    "DOWNLOAD_DELAY": 0,
    "AUTOTHROTTLE_ENABLED": False,
    "CONCURRENT_REQUESTS": 32,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
    "RETRY_TIMES": 0,
    "DOWNLOAD_TIMEOUT": 5,
    "LOG_LEVEL": "INFO",
}
NOT_PAGES = ("/robots.txt", "/search", "/login", "/api/")


def fresh_schema() -> tuple[str, str]:
    schema = f"tc_bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'create schema "{schema}"'))
    admin.dispose()
    return schema, f"{POSTGRES}?options=-csearch_path%3D{schema}"


def drop_schema(schema: str) -> None:
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'drop schema "{schema}" cascade'))
    admin.dispose()


def crawling_seconds(url: str) -> float:
    """Seconds from the first page fetched to the last, over all workers: the crawl without the
    processes' start-up and shut-down, which a long crawl pays once."""
    engine = create_engine(url)
    with engine.connect() as connection:
        first, last = connection.execute(
            text("select min(fetched_at), max(fetched_at) from pages")
        ).one()
    engine.dispose()
    return (last - first).total_seconds()


def services_cpu() -> float:
    """CPU seconds used so far by the Redis and PostgreSQL servers on this machine (their own
    processes, and PostgreSQL's ended connections through the postmaster's children count)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        if name in ("redis-server", "postgres"):
            fields = text[text.rindex(")") + 2 :].split()
            total += sum(int(v) for v in fields[11:15])  # utime stime cutime cstime
    return total / tick


def run(
    server: SandboxServer,
    web,
    folder: Path,
    workers: int,
    pages: int,
    in_flight: int,
    profile: Path | None = None,
    shared: bool = True,
    extra: dict | None = None,
) -> dict:
    """One crawl of `workers` workers over Redis (`shared` False: one process without Redis,
    `workers` must be 1), with `extra` settings added."""
    seeds = folder / "seeds.toml"
    seeds.write_text(every_site_seed_file(server), encoding="utf-8")
    schema, url = fresh_schema()
    name = f"bench-{uuid.uuid4().hex[:8]}"
    served_before = len(server.fetches)
    settings = {
        **sandbox_crawl_settings(server),
        **CPU_BOUND,
        "DATABASE_URL": url,
        "CRAWL_MAX_PAGES": pages // workers,
        "CONCURRENT_REQUESTS": in_flight,
        "REDIS_URL": REDIS,
        "REDIS_CRAWL_NAME": name,
        **(extra or {}),
    }
    if not shared:
        if workers != 1:
            raise ValueError("a crawl without Redis runs in one process")
        del settings["REDIS_URL"], settings["REDIS_CRAWL_NAME"]
    started = time.monotonic()
    cpu_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_cpu = time.process_time()  # this process: the sandbox server's threads
    services = services_cpu()
    processes = []
    for i in range(workers):
        log = folder / f"worker{i}.log"
        command = crawl_command(seeds, {**settings, "LOG_FILE": str(log)})
        if profile:
            output = profile / f"{folder.name}-worker{i}.prof"
            command[1:1] = ["-m", "cProfile", "-o", str(output)]
        processes.append(
            subprocess.Popen(
                command,
                cwd=ROOT,
                env={**os.environ, **sandbox_login_env()},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    codes = [p.wait() for p in processes]
    elapsed = time.monotonic() - started
    server_cpu = time.process_time() - server_cpu
    services = services_cpu() - services
    cpu_after = resource.getrusage(resource.RUSAGE_CHILDREN)
    workers_cpu = sum(
        getattr(cpu_after, f) - getattr(cpu_before, f) for f in ("ru_utime", "ru_stime")
    )
    if any(code not in (0, 3) for code in codes):
        raise SystemExit(f"a worker failed ({codes}); logs in {folder}")
    result = measure(url, web, elapsed)
    result["crawling"] = crawling_seconds(url)
    served = Counter(
        (host, path)
        for method, host, path, status in server.fetches[served_before:]
        if method == "GET" and status == 200 and not path.startswith(NOT_PAGES)
    )
    result["duplicates"] = sum(n - 1 for n in served.values())
    result["elapsed"] = elapsed
    result["cpu"] = (workers_cpu, server_cpu, services)
    if shared:  # a crawl stopped by its page budget
        SharedCrawl(redis.Redis.from_url(REDIS), name).clear()
    drop_schema(schema)
    return result


class Topic(Spider):
    name = "topic"

    def parse(self, response):  # the callback requests carry, as the topic spider's do
        pass


def synthetic_link(spider, i: int) -> Request:
    """The i-th of a stream of links of the sandbox's kind (12 sites), for memory figures."""
    host = f"www.site{i % 12}.test:8765"
    return Request(
        f"http://{host}/finance/2026{i % 12:02d}{i % 28:02d}/{i}.html",
        callback=spider.parse,
        priority=i % 900,
        meta={
            ENTRANCE: "authority", HOPS: 3, AUTHORITY_SITE: host,
            LINK_TEXT: "国家税务总局关于个人所得税专项附加扣除的公告", LINK_BLOCK: "content",
            TUNNEL: 0, SITE_BUDGET: (host, 5000),
            FRONTIER: {"features": {"text": 0.8, "context": 0.6, "url": 0.5,
                                    "block": 1.0, "learned": 0.55, "model": 0.7},
                       "hops": 3, "offset": 0},
        },
    )  # fmt: skip


def redis_memory(count: int = 100_000) -> dict:
    """Bytes per million URLs: the frontier holding them, and the seen-URL filter."""
    server = redis.Redis.from_url(REDIS)
    crawl = SharedCrawl(server, f"bench-memory-{uuid.uuid4().hex[:8]}")
    spider = Topic()
    queue = SharedFrontier(crawl, spider, lambda r: r.url.split("/")[2], (0.0, 8))
    before = server.info("memory")["used_memory"]
    for i in range(count):
        queue.push(synthetic_link(spider, i))
    queued = server.info("memory")["used_memory"] - before
    crawl.clear()
    bits, _ = bloom_size(10_000_000, 1e-4)
    return {"queue_per_million": queued / count * 1_000_000, "bloom_per_million": bits / 8 / 10}


def print_table(results: dict[str, dict], checkpoints: list[int]) -> None:
    print(
        f"{'setup':38} | seconds | pages | pages/s | crawling s | pages/s | "
        + " | ".join(f"h@{n}" for n in checkpoints)
        + " | dup | CPU s workers / sandbox / Redis+PG | pages/s vs 1"
    )
    base = results["1 worker"]
    for label, r in results.items():
        harvest = " | ".join(f"{r['harvest'].get(n, float('nan')):.3f}" for n in checkpoints)
        print(
            f"{label:38} | {r['elapsed']:7.1f} | {r['pages']:5} | {r['pages_per_s']:7.1f} | "
            f"{r['crawling']:10.1f} | {steady(r):7.1f} | "
            f"{harvest} | {r['duplicates']:3} | "
            f"{r['cpu'][0]:6.1f} / {r['cpu'][1]:5.1f} / {r['cpu'][2]:5.1f} | "
            f"{r['pages_per_s'] / base['pages_per_s']:.2f}x "
            f"(crawling {steady(r) / steady(base):.2f}x)"
        )


def steady(result: dict) -> float:
    """Pages/s while crawling (first page fetched to last)."""
    return result["pages"] / result["crawling"]


def print_summary(rounds: list[dict[str, dict]], checkpoints: list[int]) -> None:
    """Over the rounds: each setup's pages/s ratios to the one worker of its own round (the two
    ran minutes apart, under the same load), their median, and the mean harvest."""
    print(f"over {len(rounds)} rounds (ratio to one worker of the same round; median):")
    for label in rounds[0]:
        if label == "1 worker":
            continue
        ratios = [r[label]["pages_per_s"] / r["1 worker"]["pages_per_s"] for r in rounds]
        crawling = [steady(r[label]) / steady(r["1 worker"]) for r in rounds]
        print(
            f"  {label}: pages/s {' '.join(f'{x:.2f}' for x in ratios)} → "
            f"{statistics.median(ratios):.2f}x; crawling {' '.join(f'{x:.2f}' for x in crawling)}"
            f" → {statistics.median(crawling):.2f}x"
        )
    for label in rounds[0]:
        harvest = " ".join(
            f"h@{n} {statistics.mean(r[label]['harvest'].get(n, 0.0) for r in rounds):.3f}"
            for n in checkpoints
        )
        print(f"  {label}: mean {harvest}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--workers", type=int, nargs="+", default=[2])
    parser.add_argument("--size", choices=("small", "medium", "large"), default="large")
    parser.add_argument("--rounds", type=int, default=1, help="run every setup this many times")
    parser.add_argument(
        "--split-only", action="store_true",
        help="leave out the N workers with the requests in flight of one each",
    )  # fmt: skip
    parser.add_argument(
        "--profile", type=Path, help="write each worker's cProfile here (slows the workers)"
    )
    args = parser.parse_args()
    web = build_web(1, args.size)
    total = CPU_BOUND["CONCURRENT_REQUESTS"]
    setups = {"1 worker": (1, total)}
    for n in args.workers:
        if n > 1:
            setups[f"{n} workers, {total} in flight in all"] = (n, total // n)
            if not args.split_only:
                setups[f"{n} workers, {total} in flight each"] = (n, total)
    rounds: list[dict[str, dict]] = []
    checkpoints = [n for n in CHECKPOINTS if n <= args.pages]
    print(f"sandbox web: {args.size}, {args.pages} pages judged in all, CPU-bound settings, "
          f"{os.cpu_count()} cores")  # fmt: skip
    # The sandbox's slow page must time out (as in the tests): answered after DOWNLOAD_TIMEOUT,
    # its 30 bytes without links look like a block page, and whichever run happens to fetch it
    # after ten pages of its site slows that site down for the rest of the crawl.
    slow = CPU_BOUND["DOWNLOAD_TIMEOUT"] + 3
    with SandboxServer(web, slow_seconds=slow) as server, tempfile.TemporaryDirectory() as tmp:
        for number in range(args.rounds):
            results: dict[str, dict] = {}
            for label, (workers, in_flight) in setups.items():
                folder = Path(tmp) / f"round{number}-run{len(results)}"
                folder.mkdir()
                results[label] = run(
                    server, web, folder, workers, args.pages, in_flight, args.profile
                )
                print(f"done: {label} in {results[label]['elapsed']:.0f} s", file=sys.stderr)
            rounds.append(results)
            print_table(results, checkpoints)
    if len(rounds) > 1:
        print_summary(rounds, checkpoints)
    memory = redis_memory()
    print(
        f"Redis memory per million URLs: frontier {memory['queue_per_million'] / 2**20:.0f} MiB "
        f"queued, seen-URL filter {memory['bloom_per_million'] / 2**20:.1f} MiB "
        f"(sized for 10 million at 1e-4)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
