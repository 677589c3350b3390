"""A long unattended crawl of the huge sandbox web: memory and speed every 1,000 pages.

    .venv/bin/python benchmarks/soak.py --pages 100000 [--workers 1] [--db sqlite|postgresql]
        [--json soak.json] [--seed 1] [--every 1000] [--set NAME=VALUE ...] [--keep DIR]
        [--trace DIR [--trace-seconds 120]]

Serves the huge sandbox web (sandbox/huge.py: ~200,000 pages rendered on request, the server's
memory flat) on loopback and crawls it for the tax topic from every site's home page with the
project's defaults (the sandbox's own settings aside: its hosts, timeouts and delays, as
benchmarks/harvest.py uses them) until --pages pages are judged (CRAWL_MAX_PAGES, split between
--workers; more than one worker share one crawl through Redis, and --db postgresql is then the
sensible store). Every --every pages stored it samples:

- rss_mb: the resident memory of every process of the crawl (each worker and its extraction
  workers and Chromium's processes when pages are rendered: the process tree, read from /proc),
  in all and by process; pss_mb: the same as proportional set sizes (shared pages counted once);
- pages_per_s: pages stored since the sample before, over the seconds between them;
- harvest: the share of relevant pages (the web's truth) among all pages stored so far, and
  among those stored since the sample before (window_harvest);
- queue: requests queued (the crawl's last progress line; in a shared crawl each worker's own);
- db_mb: the database's size (SQLite: the file and its WAL; PostgreSQL: the crawl's schema);
- redis_mb: Redis's used_memory (INFO memory); with workers also the URLs queued and seen, and
  the bytes of the queues per queued URL and of the seen filter per URL seen (MEMORY USAGE);
- per page stored since the sample before: Redis commands processed, and with PostgreSQL its
  transactions, rows written and rows fetched (the servers' own counters: on a shared machine
  other clients' work counts too), for sizing N machines on paper (docs/workers.md).

--trace DIR runs each worker under tracemalloc (benchmarks/soak_trace.py): every
--trace-seconds it writes DIR/worker<i>/growth-NNN.txt, the allocations still held that grew
since the first snapshot, by traceback (a traced crawl is slower and larger: find what grows
with it, measure without it).

It prints a table as it goes and rewrites --json after every sample ({"samples": [...],
"command": ..., "settings": ...}), so that a crawl stopped half-way leaves its figures.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from sqlalchemy import create_engine, text

from topiccrawler.sandbox.demo import crawl_command, sandbox_crawl_settings, sandbox_login_env
from topiccrawler.sandbox.huge import HugeWeb
from topiccrawler.sandbox.server import SandboxServer

ROOT = Path(__file__).resolve().parent.parent
POSTGRES = os.environ.get(
    "TOPICCRAWLER_TEST_POSTGRES_URL", "postgresql+psycopg://127.0.0.1:5432/test"
)
REDIS = os.environ.get("TOPICCRAWLER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")
POLL_SECONDS = 1.0


def seed_file(server: SandboxServer, web: HugeWeb) -> str:
    """Every site of the huge web as an authority site, from its home page."""
    return "".join(
        f'[[authority]]\nname = "{web.site_names[host]}"\nstart_urls = ["{server.url(host)}"]\n'
        f"depth_limit = 8\nmax_pages = 5000\n\n"
        for host in web.kind
    )


def process_tree(roots: list[int]) -> list[int]:
    """The processes under `roots` (themselves included), from /proc's parent links."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            data = stat.read_text()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(data[data.rindex(")") + 2 :].split()[1])
    tree, frontier = [], [r for r in roots if r in parents]
    while frontier:
        pid = frontier.pop()
        tree.append(pid)
        frontier += [child for child, parent in parents.items() if parent == pid]
    return tree


def rss_mb(pid: int) -> float:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_SIZE / 2**20
    except (OSError, IndexError, ValueError):
        return 0.0


def pss_mb(pid: int) -> float:
    """Proportional set size: shared pages divided among the processes sharing them, so that a
    sum over processes (Chromium's, forked workers) counts each page once."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def process_name(pid: int, roots: list[int]) -> str:
    """A worker (a crawl process we started) or one of its children (extraction workers)."""
    return "crawl" if pid in roots else "child"


class Store:
    """The crawl's database, read while it is written: pages so far, and the database's size."""

    def __init__(self, url: str, sqlite_path: Path | None, schema: str | None):
        self.engine = create_engine(url)
        self.sqlite_path = sqlite_path
        self.schema = schema
        self.last_id = 0

    def pages(self) -> int:
        try:
            with self.engine.connect() as connection:
                return connection.execute(text("select count(*) from pages")).scalar() or 0
        except Exception:  # the table is not there yet (the crawl is still starting)
            return 0

    def new_urls(self) -> list[str]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                text("select id, url from pages where id > :last order by id"),
                {"last": self.last_id},
            ).all()
        if rows:
            self.last_id = rows[-1][0]
        return [url for _, url in rows]

    def postgres_activity(self) -> dict:
        """Transactions committed, rows written and index scans so far in the crawl's database
        (PostgreSQL's counters for the whole database: other clients' work included)."""
        if self.sqlite_path is not None:
            return {}
        with self.engine.connect() as connection:
            row = connection.execute(
                text(
                    "select xact_commit, tup_inserted + tup_updated + tup_deleted, tup_fetched "
                    "from pg_stat_database where datname = current_database()"
                )
            ).one()
        return {"pg_commits": row[0], "pg_rows_written": row[1], "pg_rows_fetched": row[2]}

    def size_mb(self) -> float:
        if self.sqlite_path is not None:
            files = [self.sqlite_path, Path(f"{self.sqlite_path}-wal")]
            return sum(f.stat().st_size for f in files if f.exists()) / 2**20
        with self.engine.connect() as connection:
            size = connection.execute(
                text(
                    "select coalesce(sum(pg_total_relation_size(c.oid)), 0) from pg_class c "
                    "join pg_namespace n on n.oid = c.relnamespace "
                    "where n.nspname = :schema and c.relkind = 'r'"
                ),
                {"schema": self.schema},
            ).scalar()
        return float(size) / 2**20


def redis_figures(server, name: str | None) -> dict:
    """used_memory, commands processed so far (the server's, other clients' included), and for
    a shared crawl its queued and seen URLs and their bytes each."""
    figures = {
        "redis_mb": server.info("memory")["used_memory"] / 2**20,
        "redis_commands": server.info("stats")["total_commands_processed"],
    }
    if name is None:
        return figures
    prefix = f"topiccrawler:{name}"
    queued = queue_bytes = 0
    # The shared frontier's keys (distributed/bands.py): band lists (requests, "" a tombstone),
    # each site's bands and heads, rediscovery's index; or per-site sorted sets (q:).
    for pattern in ("band:*", "bands:*", "head:*", "w:*", "q:*"):
        for key in server.scan_iter(match=f"{prefix}:{pattern}", count=1000):
            queue_bytes += server.memory_usage(key, samples=0) or 0
            if pattern == "band:*":
                queued += server.llen(key)  # tombstones included: taken off below
            elif pattern == "q:*":
                queued += server.zcard(key)
    tombstones = int(server.get(f"{prefix}:tombstones") or 0)
    queued = max(0, queued - tombstones)
    seen = int(server.get(f"{prefix}:seen:count") or 0)
    seen_bytes = server.memory_usage(f"{prefix}:seen", samples=0) or 0
    figures |= {
        "queued": queued,
        "seen": seen,
        "redis_queue_mb": queue_bytes / 2**20,
        "redis_bytes_per_queued": queue_bytes / queued if queued else None,
        "redis_bytes_per_seen": seen_bytes / seen if seen else None,
        "seen_filter_mb": seen_bytes / 2**20,
    }
    return figures


def queued_in_log(log: Path) -> int | None:
    """The queue's length on the crawl's last progress line (extensions/progress.py)."""
    try:
        with log.open("rb") as lines:
            lines.seek(max(0, log.stat().st_size - 2**20))
            tail = lines.read().decode("utf-8", errors="replace")
    except OSError:
        return None
    found = re.findall(r"Progress: .*?; queue (\d+)", tail)
    return int(found[-1]) if found else None


def print_row(sample: dict, header: bool) -> None:
    columns = ("pages", "seconds", "rss_mb", "pss_mb", "pages_per_s", "harvest", "window_harvest",
               "queue", "db_mb", "redis_mb", "redis_bytes_per_queued", "redis_bytes_per_seen")  # fmt: skip
    if header:
        print(" | ".join(f"{c:>12}" for c in columns), flush=True)
    cells = []
    for column in columns:
        value = sample.get(column)
        if isinstance(value, float):
            cells.append(f"{value:>12.3f}" if "harvest" in column else f"{value:>12.1f}")
        else:
            cells.append(f"{value!s:>12}")
    print(" | ".join(cells), flush=True)


def sample_until_done(args, web, server, store, processes, folder, commands, name,
                      redis_server, started) -> None:  # fmt: skip
    """Sample every --every pages until the crawl's processes have all ended."""
    samples: list[dict] = []
    relevant = stored = 0
    last_time, last_pages, next_mark = started, 0, args.every
    while True:
        running = any(p.poll() is None for p in processes)
        pages = store.pages()
        if pages >= next_mark or (not running and pages > last_pages):
            now = time.monotonic()
            urls = store.new_urls()
            window = sum(web.is_relevant(u) for u in urls)
            relevant += window
            stored += len(urls)
            roots = [p.pid for p in processes]
            by_process = {
                f"{process_name(pid, roots)} {pid}": round(rss_mb(pid), 1)
                for pid in process_tree(roots)
            }
            sample = {
                "pages": pages,
                "seconds": round(now - started, 1),
                "rss_mb": round(sum(by_process.values()), 1),
                "rss_by_process_mb": by_process,
                "pss_mb": round(sum(pss_mb(pid) for pid in process_tree(roots)), 1),
                "pages_per_s": round((pages - last_pages) / (now - last_time), 2),
                "harvest": round(relevant / stored, 4) if stored else None,
                "window_harvest": round(window / len(urls), 4) if urls else None,
                "db_mb": round(store.size_mb(), 1),
                "server_rss_mb": round(rss_mb(os.getpid()), 1),
                "server_requests": server.requests,
            }
            queues = [queued_in_log(folder / f"crawl{i}.log") for i in range(args.workers)]
            if all(q is not None for q in queues):
                sample["queue"] = sum(queues)
            if redis_server is not None:
                sample |= redis_figures(redis_server, name)
            sample |= store.postgres_activity()
            if samples:  # per page stored since the sample before: what N workers would ask
                before, stored_since = samples[-1], pages - last_pages
                for counter in ("redis_commands", "pg_commits", "pg_rows_written",
                                "pg_rows_fetched"):  # fmt: skip
                    if counter in sample and stored_since:
                        per_page = (sample[counter] - before[counter]) / stored_since
                        sample[f"{counter}_per_page"] = round(per_page, 2)
            samples.append(sample)
            print_row(sample, header=len(samples) == 1)
            if args.json:
                args.json.write_text(json.dumps(
                    {"samples": samples, "commands": commands, "web": "huge",
                     "seed": args.seed, "workers": args.workers, "db": args.db,
                     "statuses": server.statuses}, indent=1))  # fmt: skip
            last_time, last_pages = now, pages
            next_mark = (pages // args.every + 1) * args.every
        if not running:
            break
        time.sleep(POLL_SECONDS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=20_000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--db", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--json", type=Path, help="write the samples here after each one")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--every", type=int, default=1000, help="pages between samples")
    parser.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE",
        help="a crawl setting added to the project's defaults (repeatable)",
    )  # fmt: skip
    parser.add_argument("--keep", type=Path, help="keep the crawl's logs and database here")
    parser.add_argument("--trace", type=Path, help="run the workers under tracemalloc")
    parser.add_argument("--trace-seconds", type=float, default=120.0)
    args = parser.parse_args()

    web = HugeWeb(args.seed)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="soak-"))
    folder.mkdir(parents=True, exist_ok=True)
    schema = sqlite_path = None
    if args.db == "sqlite":
        sqlite_path = folder / "crawl.db"
        sqlite_path.unlink(missing_ok=True)
        url = f"sqlite:///{sqlite_path}"
    else:
        schema = f"tc_soak_{uuid.uuid4().hex[:10]}"
        admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'create schema "{schema}"'))
        admin.dispose()
        url = f"{POSTGRES}?options=-csearch_path%3D{schema}"
    name = f"soak-{uuid.uuid4().hex[:8]}" if args.workers > 1 else None
    redis_server = None
    try:
        import redis

        redis_server = redis.Redis.from_url(REDIS)
        redis_server.ping()
    except Exception as error:  # Redis figures are left out; a shared crawl cannot run
        if name:
            raise SystemExit(f"--workers {args.workers} needs Redis at {REDIS}: {error}") from error
        redis_server = None

    # The slow sites' timeouts answer after the download timeout (as in benchmarks/workers.py).
    with SandboxServer(web, slow_seconds=5, record_fetches=False) as server:
        seeds = folder / "seeds.toml"
        seeds.write_text(seed_file(server, web), encoding="utf-8")
        settings = {
            **sandbox_crawl_settings(server),
            "DATABASE_URL": url,
            "CRAWL_MAX_PAGES": args.pages // args.workers,
            "LOG_LEVEL": "INFO",
            **dict(s.split("=", 1) for s in args.set),
        }
        if name:
            settings |= {"REDIS_URL": REDIS, "REDIS_CRAWL_NAME": name}
        processes, commands = [], []
        started = time.monotonic()
        for i in range(args.workers):
            command = crawl_command(seeds, {**settings, "LOG_FILE": str(folder / f"crawl{i}.log")})
            if args.trace:
                tracer = [
                    str(ROOT / "benchmarks" / "soak_trace.py"),
                    str(args.trace / f"worker{i}"),
                ]
                command[1:1] = [*tracer, str(args.trace_seconds)]
            commands.append(shlex.join(command))
            processes.append(
                subprocess.Popen(
                    command,
                    cwd=ROOT,
                    env={**os.environ, **sandbox_login_env()},
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )  # fmt: skip
            )
        store = Store(url, sqlite_path, schema)
        print(f"huge sandbox web, seed {args.seed}: {args.workers} worker(s), {args.db}, "
              f"{args.pages} pages; folder {folder}", flush=True)  # fmt: skip
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # to the finally below
        try:
            sample_until_done(args, web, server, store, processes, folder, commands, name,
                              redis_server, started)  # fmt: skip
        finally:
            for process in processes:  # stopped early: the crawls end with this benchmark
                if process.poll() is None:
                    process.terminate()
        codes = [p.wait() for p in processes]
    store.engine.dispose()
    if name and redis_server is not None:
        for key in redis_server.scan_iter(match=f"topiccrawler:{name}:*", count=1000):
            redis_server.delete(key)
    if schema and not args.keep:
        admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text(f'drop schema "{schema}" cascade'))
        admin.dispose()
    print(f"exit codes {codes}; logs in {folder}", flush=True)
    return 0 if all(code in (0, 3) for code in codes) else 1


if __name__ == "__main__":
    sys.exit(main())
