"""Reliability under kill -9: sandbox crawls killed at random moments, then resumed.

    nice .venv/bin/python benchmarks/reliability.py            # 10 kills per database, + memory
    nice .venv/bin/python benchmarks/reliability.py --quick    # 3 kills in all (CI, ~2 min)

Each scenario (SQLite or PostgreSQL in a fresh schema; resumed with JOBDIR or without) starts an
empty database and crawls the small sandbox web with `scrapy crawl topic` in a subprocess, kills
its process group with SIGKILL after a random time (seeded), again N times, then lets a last run
finish. After every kill it checks:
- no stored row lost: every table's primary keys after the kill include those before the run;
- none duplicated: no two stored pages are the same sandbox page;
and at the end: the killed runs' rows say "killed" (closed by the next run), the last says
"finished", and the crawl finished the job: relevant pages stored with their true text as a
clean uninterrupted crawl stores (`topiccrawler/sandbox/truth.py` score_crawl).

The full version also measures memory over a long crawl: the large sandbox web, the crawl's
resident set (VmRSS) after its first 1,000 stored pages, at the end, and its peak.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import create_engine, func, select, text
from sqlalchemy.orm import Session

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from topiccrawler.sandbox.demo import (  # noqa: E402
    crawl_command,
    sandbox_crawl_settings,
    sandbox_login_env,
    sandbox_seed_file,
)
from topiccrawler.sandbox.server import SandboxServer  # noqa: E402
from topiccrawler.sandbox.truth import score_crawl, truth_key  # noqa: E402
from topiccrawler.sandbox.web import build_web  # noqa: E402
from topiccrawler.storage.db import resolve_database_url  # noqa: E402
from topiccrawler.storage.models import Base, CrawlRun, Page  # noqa: E402
from topiccrawler.storage.search_index import index_gaps  # noqa: E402

POSTGRES_URL = os.environ.get(
    "TOPICCRAWLER_TEST_POSTGRES_URL", "postgresql+psycopg://127.0.0.1:5432/test"
)
TIMEOUT = 300  # seconds a crawl may take before the benchmark gives up on it


@dataclass
class Scenario:
    database: str  # "sqlite" or "postgresql"
    jobdir: bool
    kills: int
    kill_window: float = 0.9  # kills fall between 1 s and this share of a clean crawl's time
    # What happened, for the report.
    killed_at: list = field(default_factory=list)
    rows_compared: int = 0
    lost: int = 0
    duplicated: int = 0
    unindexed: int = 0  # stored rows the search index disagrees on, after any kill (most)
    runs: list[str] = field(default_factory=list)
    relevant: int = 0
    expected: int = 0
    genuine_failures: int = 0
    seconds: float = 0.0

    @property
    def name(self) -> str:
        return f"{self.database}, {'JOBDIR' if self.jobdir else 'no JOBDIR'}"

    @property
    def ok(self) -> bool:
        return (
            self.lost == 0
            and self.duplicated == 0
            and self.unindexed == 0
            and bool(self.runs)
            and self.runs[-1] == "finished"
            and all(reason in ("killed", "finished") for reason in self.runs[:-1])
            and self.relevant >= self.expected
            and self.genuine_failures == 0
        )


def crawl_settings(server: SandboxServer, url: str, **extra) -> dict:
    return {
        **sandbox_crawl_settings(server),
        "DATABASE_URL": url,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 3,
        "RETRY_TIMES": 0,
        "LOG_LEVEL": "INFO",
        **extra,
    }


def start(server: SandboxServer, folder: Path, url: str, log: Path, **extra) -> subprocess.Popen:
    folder.mkdir(parents=True, exist_ok=True)
    seeds = folder / "seeds.toml"
    seeds.write_text(sandbox_seed_file(server), encoding="utf-8")
    extra.setdefault("TOPIC_LOCK_DIR", str(folder / "locks"))
    extra.setdefault("STORAGE_SPILL_DIR", str(folder / "unstored"))
    command = crawl_command(seeds, crawl_settings(server, url, **extra))
    return subprocess.Popen(
        command,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=open(log, "ab"),  # noqa: SIM115 (the child owns it)
        env={**os.environ, **sandbox_login_env()},
        start_new_session=True,  # its own process group: the kill takes any browser with it
    )


def kill(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait()


def primary_keys(url: str) -> dict[str, set]:
    engine = create_engine(url)
    keys: dict[str, set] = {}
    with engine.connect() as connection:
        for table in Base.metadata.sorted_tables:
            if table.name == "search_documents":
                # The search index is derived: an entry is replaced (a new id) when its text or
                # verdict changes. Its agreement with the store is checked apart (unindexed).
                continue
            try:
                rows = connection.execute(select(*table.primary_key.columns)).all()
            except Exception:  # noqa: BLE001 (no such table yet: killed before the migration)
                connection.rollback()
                rows = []
            keys[table.name] = {tuple(row) for row in rows}
    engine.dispose()
    return keys


def duplicated_pages(url: str) -> int:
    """Stored pages beyond the first of each sandbox page (same host and path)."""
    engine = create_engine(url)
    with Session(engine) as session:
        urls = session.scalars(select(Page.url)).all()
    engine.dispose()
    return len(urls) - len({truth_key(u) for u in urls})


def unindexed_rows(url: str) -> int:
    """Rows the full-text index disagrees on (a page stored but not searchable, an entry of a
    row that is gone): the index is written in the page's own transaction, so none."""
    engine = create_engine(url)
    with engine.connect() as connection:
        gaps = index_gaps(connection)
    engine.dispose()
    return sum(gaps.values())


def score(server: SandboxServer, url: str):
    engine = create_engine(url)
    with Session(engine) as session:
        result = score_crawl(session, server.web, "tax")
        runs = session.scalars(select(CrawlRun.finish_reason).order_by(CrawlRun.id)).all()
    engine.dispose()
    return result, list(runs)


class PostgresSchema:
    """A fresh schema on the test PostgreSQL, dropped afterwards (as tests/conftest.py)."""

    def __enter__(self) -> str:
        self.admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
        self.schema = f"tc_reliability_{uuid.uuid4().hex[:10]}"
        with self.admin.connect() as connection:
            connection.execute(text(f'create schema "{self.schema}"'))
        return f"{POSTGRES_URL}?options=-csearch_path%3D{self.schema}"

    def __exit__(self, *exc) -> None:
        with self.admin.connect() as connection:
            connection.execute(text(f'drop schema "{self.schema}" cascade'))
        self.admin.dispose()


def relevant_keys(server: SandboxServer, url: str) -> set:
    engine = create_engine(url)
    with Session(engine) as session:
        urls = session.scalars(select(Page.url)).all()
    engine.dispose()
    keys = {truth_key(u) for u in urls}
    return {(h, p) for h, p, t in server.web.pages_with_truth() if t.relevant and (h, p) in keys}


def clean_crawl(server: SandboxServer, folder: Path) -> tuple[float, int]:
    """An uninterrupted crawl: how long it takes and how many relevant pages it stores."""
    url = f"sqlite:///{folder / 'clean.db'}"
    started = time.monotonic()
    process = start(server, folder, url, folder / "clean.log")
    if process.wait(TIMEOUT) not in (0, 3):
        raise SystemExit(f"the clean crawl failed: see {folder / 'clean.log'}")
    result, _ = score(server, url)
    return time.monotonic() - started, result.relevant_fetched


def run_scenario(
    scenario: Scenario, server: SandboxServer, folder: Path, clean_seconds: float, rng
) -> Scenario:
    folder.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with PostgresSchema() if scenario.database == "postgresql" else _sqlite(folder) as url:
        extra = {"JOBDIR": str(folder / "job")} if scenario.jobdir else {}
        log = folder / "crawl.log"
        for _ in range(scenario.kills):
            before = primary_keys(url)
            process = start(server, folder, url, log, **extra)
            wait = rng.uniform(1.0, clean_seconds * scenario.kill_window)
            try:
                process.wait(wait)
                scenario.killed_at.append("ended first")  # the crawl was done before the kill
            except subprocess.TimeoutExpired:
                kill(process)
                scenario.killed_at.append(round(wait, 1))
            after = primary_keys(url)
            for table, keys in before.items():
                scenario.rows_compared += len(keys)
                scenario.lost += len(keys - after.get(table, set()))
            scenario.duplicated = max(scenario.duplicated, duplicated_pages(url))
            scenario.unindexed = max(scenario.unindexed, unindexed_rows(url))
        before = primary_keys(url)
        process = start(server, folder, url, log, **extra)
        process.wait(TIMEOUT)
        after = primary_keys(url)
        for table, keys in before.items():
            scenario.rows_compared += len(keys)
            scenario.lost += len(keys - after.get(table, set()))
        scenario.duplicated = max(scenario.duplicated, duplicated_pages(url))
        result, scenario.runs = score(server, url)
        scenario.relevant, scenario.genuine_failures = result.relevant_fetched, result.not_genuine
    scenario.seconds = time.monotonic() - started
    return scenario


class _sqlite:  # noqa: N801 (used as a context manager beside PostgresSchema)
    def __init__(self, folder: Path):
        self.url = f"sqlite:///{folder / 'crawl.db'}"

    def __enter__(self) -> str:
        return self.url

    def __exit__(self, *exc) -> None:
        pass


def rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def memory(folder: Path, size: str) -> dict:
    """RSS of one long crawl: after the first 1,000 stored pages, at the end, the peak."""
    folder.mkdir(parents=True, exist_ok=True)
    url = f"sqlite:///{folder / 'memory.db'}"
    with SandboxServer(build_web(1, size), slow_seconds=4) as server:
        process = start(server, folder, url, folder / "memory.log")
        engine = create_engine(url)
        at_1000 = peak = last = pages = 0
        started = time.monotonic()
        while process.poll() is None and time.monotonic() - started < 3 * TIMEOUT:
            time.sleep(2)
            last = rss_kb(process.pid) or last
            peak = max(peak, last)
            try:
                with engine.connect() as connection:
                    pages = connection.execute(select(func.count()).select_from(Page)).scalar()
            except Exception:  # noqa: BLE001 (not created yet)
                continue
            if not at_1000 and pages >= 1000:
                at_1000 = last
        if process.poll() is None:
            kill(process)
        engine.dispose()
    return {
        "pages": pages,
        "rss_1000_mb": at_1000 / 1024,
        "rss_end_mb": last / 1024,
        "peak_mb": peak / 1024,
        "seconds": time.monotonic() - started,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="3 kills in all, no memory run")
    parser.add_argument("--seed", type=int, default=23, help="seed of the kill moments")
    parser.add_argument("--kills", type=int, default=10, help="kills per database (full run)")
    parser.add_argument("--memory-size", default="large", help="sandbox size of the memory run")
    parser.add_argument("--no-postgres", action="store_true", help="SQLite only")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    resolve_database_url(None)  # the project imports cleanly before any crawl starts
    if args.quick:
        plan = [Scenario("sqlite", True, 2, 0.6), Scenario("postgresql", False, 1, 0.6)]
    else:
        half = max(1, args.kills // 2)
        plan = [
            Scenario("sqlite", True, half),
            Scenario("sqlite", False, args.kills - half),
            Scenario("postgresql", True, half),
            Scenario("postgresql", False, args.kills - half),
        ]
    if args.no_postgres:
        plan = [s for s in plan if s.database == "sqlite"]
    with tempfile.TemporaryDirectory(prefix="tc-reliability-") as tmp:
        folder = Path(tmp)
        with SandboxServer(build_web(1, "small"), slow_seconds=4) as server:
            clean_seconds, expected = clean_crawl(server, folder / "clean")
            print(f"clean crawl: {clean_seconds:.0f} s, {expected} relevant pages stored")
            print("| scenario | kills (s after start) | rows compared | lost | duplicated "
                  "| unindexed | runs | relevant pages | s |")  # fmt: skip
            print("|---|---|---|---|---|---|---|---|---|")
            for n, scenario in enumerate(plan):
                scenario.expected = expected
                run_scenario(scenario, server, folder / f"s{n}", clean_seconds, rng)
                runs = ", ".join(
                    f"{r} ×{scenario.runs.count(r)}" for r in dict.fromkeys(scenario.runs)
                )
                print(
                    f"| {scenario.name} | {scenario.kills} ({', '.join(map(str, scenario.killed_at))}) "
                    f"| {scenario.rows_compared} | {scenario.lost} | {scenario.duplicated} "
                    f"| {scenario.unindexed} | {runs} | {scenario.relevant}/{expected} | {scenario.seconds:.0f} |"
                    + ("" if scenario.ok else " FAILED"),
                    flush=True,
                )
        kills = sum(s.kills for s in plan)
        survived = sum(s.kills for s in plan if s.ok)
        print(f"kills survived: {survived}/{kills}; rows compared: "
              f"{sum(s.rows_compared for s in plan)}, lost {sum(s.lost for s in plan)}, "
              f"duplicated {sum(s.duplicated for s in plan)}, "
              f"unindexed {sum(s.unindexed for s in plan)}")  # fmt: skip
        if not args.quick:
            figures = memory(folder / "memory", args.memory_size)
            ratio = figures["rss_end_mb"] / figures["rss_1000_mb"] if figures["rss_1000_mb"] else 0
            print(f"memory ({args.memory_size} sandbox, {figures['pages']} pages, "
                  f"{figures['seconds']:.0f} s): RSS after 1,000 pages {figures['rss_1000_mb']:.0f} MB, "
                  f"at the end {figures['rss_end_mb']:.0f} MB ({ratio:.2f}×), "
                  f"peak {figures['peak_mb']:.0f} MB")  # fmt: skip
    return 0 if survived == kills else 1


if __name__ == "__main__":
    raise SystemExit(main())
