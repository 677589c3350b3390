"""Two worker processes crawl the sandbox web as one crawl, over loopback Redis and PostgreSQL:
every relevant page stored once, no page fetched twice, and a worker killed with SIGKILL in the
middle of the crawl loses nothing (its requests in flight are fetched by the other)."""

from __future__ import annotations

import ast
import math
import os
import re
import signal
import subprocess
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from tests.conftest import ROOT
from tests.distributed.conftest import REDIS_URL
from topiccrawler.sandbox.demo import (
    TOPIC,
    crawl_command,
    sandbox_crawl_settings,
    sandbox_login_env,
    sandbox_seed_file,
)
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.truth import is_genuine, score_crawl, truth_for, truth_key
from topiccrawler.sandbox.web import MEMBERS, build_web
from topiccrawler.storage.models import CrawlRun, Page

pytestmark = [pytest.mark.redis, pytest.mark.postgres]

NOT_PAGES = ("/robots.txt", "/search", "/login", "/api/")


def start_worker(server, seeds: Path, database_url: str, crawl_name: str, log: Path, **extra):
    settings = {
        **sandbox_crawl_settings(server),
        "DATABASE_URL": database_url,
        "REDIS_URL": REDIS_URL,
        "REDIS_CRAWL_NAME": crawl_name,
        "REDIS_WORKER_TIMEOUT": 3,
        "REDIS_IDLE_TIMEOUT": 20,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 3,
        # One retry: under load a page can miss the 3 s timeout, and one process retries too.
        "RETRY_TIMES": 1,
        "LOG_FILE": str(log),
        **extra,
    }
    return subprocess.Popen(
        crawl_command(seeds, settings),
        cwd=ROOT,
        env={**os.environ, **sandbox_login_env()},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def page_fetches(server: SandboxServer) -> Counter:
    """Pages served (GET answered 200; not robots.txt, search answers, logins or JSON
    endpoints), by address."""
    return Counter(
        (host, target)
        for method, host, target, status in server.fetches
        if method == "GET" and status == 200 and not target.startswith(NOT_PAGES)
    )


def stat(log: str, name: str) -> int:
    """A number from the stats a worker dumps into its log at the end."""
    found = re.search(rf"'{re.escape(name)}': (\d+)", log)
    return int(found.group(1)) if found else 0


def deliberate_refetches(logs: list[str]) -> int:
    """Second fetches the spider asks for on purpose, as one process does too: a page fetched
    at the depth limit and linked later with fewer hops (for its links), and a page whose
    records are built by script (rendered in the browser)."""
    return sum(
        stat(log, "topiccrawler/links/refetched_for_fewer_hops")
        + stat(log, "topiccrawler/render/pages")
        + stat(log, "retry/count")
        for log in logs
    )


GAVE_UP = re.compile(r"Gave up retrying <GET https?://([^/:>]+)(?::\d+)?([^>]*)>.*took longer than")


def unexplained(missing: list[str], logs: list[str]) -> list[str]:
    """The relevant pages not stored that nothing but sharing the crawl explains: not the page
    robots.txt disallows (one process leaves it too), and not a page whose every fetch timed out
    on a busy machine (the fake web shares two cores with both workers and the test), which a
    worker logs as given up. Each left is shown with the lines the workers logged of it."""
    given_up = {host + path for log in logs for host, path in GAVE_UP.findall(log)}
    left = [page for page in missing if page not in given_up and "/internal/" not in page]
    return [
        f"{page}: " + " | ".join(
            line[:200] for log in logs for line in log.splitlines() if page.split("/", 1)[1] in line
        )[-1500:]
        for page in left
    ]  # fmt: skip


def what_became_of(pages: list[str], database_url: str, fetched: Counter) -> dict:
    """For a failing assertion: how often the sandbox served each page ("host/path: ..." as
    `unexplained` gives them), and its stored rows (title, body length, verdict, score, depth,
    entrance, the page it repeats)."""
    engine = create_engine(database_url)
    found = {}
    try:
        with Session(engine) as session:
            for page in pages:
                host, path = page.split(": ", 1)[0].split("/", 1)
                rows = session.execute(
                    select(Page.url, Page.title, func.length(Page.body), Page.is_relevant,
                           Page.relevance, Page.depth, Page.entrance, Page.duplicate_of_id)
                    .where(Page.url.like(f"%{host}%/{path}%"))
                ).all()  # fmt: skip
                found[page[: len(host) + len(path) + 1]] = {
                    "served": fetched.get((host, f"/{path}"), 0),
                    "rows": [tuple(row) for row in rows],
                }
    finally:
        engine.dispose()
    return found


def threshold_state(log: str) -> dict:
    """The relevance judge's η state a worker dumps with its stats at the end."""
    found = re.search(r"'topiccrawler/relevance/threshold': (\{[^}]*\})", log)
    assert found, "no η in the worker's stats"
    return ast.literal_eval(found.group(1))


def stored_pages(database_url: str) -> tuple[int, int, object]:
    engine = create_engine(database_url)
    try:
        with Session(engine) as session:
            rows = session.scalar(select(func.count()).select_from(Page))
            distinct = session.scalar(select(func.count(func.distinct(Page.url))))
            runs = session.scalars(select(CrawlRun)).all()
            return rows, distinct, runs
    finally:
        engine.dispose()


def score(database_url: str, web, port: int):
    engine = create_engine(database_url)
    try:
        with Session(engine) as session:
            return score_crawl(session, web, TOPIC, port=port)
    finally:
        engine.dispose()


def relevant_not_stored(database_url: str, web, port: int) -> list[str]:
    """The relevant pages of the web that the crawl did not store with their text (for a failing
    assertion to name them)."""
    engine = create_engine(database_url)
    try:
        with Session(engine) as session:
            stored = {
                truth_key(url)
                for url, body, title in session.execute(select(Page.url, Page.body, Page.title))
                if (truth := truth_for(web, url)) is not None and is_genuine(truth, body, title)
            }
    finally:
        engine.dispose()
    return sorted(
        f"{host}{path}"
        for host, path, truth in web.pages_with_truth()
        if truth.relevant and (host, path) not in stored
    )


@pytest.fixture
def sandbox(tmp_path):
    web = build_web(1, "small")
    with SandboxServer(web, slow_seconds=4) as server:
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(sandbox_seed_file(server), encoding="utf-8")
        yield web, server, seeds


def wait(processes, timeout: float = 240) -> list[int]:
    deadline = time.monotonic() + timeout
    codes = []
    for process in processes:
        try:
            codes.append(process.wait(max(1.0, deadline - time.monotonic())))
        except subprocess.TimeoutExpired:
            process.kill()
            pytest.fail("a worker did not finish in time")
    return codes


def test_two_workers_share_one_crawl(sandbox, postgres_url, redis_server, tmp_path):
    web, server, seeds = sandbox
    name = f"test-{uuid.uuid4().hex[:8]}"
    workers = [  # η estimated from the crawl's scores: one η for both, learnt from both
        start_worker(
            server, seeds, postgres_url, name, tmp_path / f"worker{i}.log",
            RELEVANCE_THRESHOLD="auto",
        )
        for i in range(2)
    ]  # fmt: skip
    codes = wait(workers)
    logs = [(tmp_path / f"worker{i}.log").read_text() for i in range(2)]
    assert all(code in (0, 3) for code in codes), (codes, [log[-3000:] for log in logs])

    fetched = page_fetches(server)
    assert fetched, "the sandbox served no page"
    twice = {page: n for page, n in fetched.items() if n > 1}
    assert sum(n - 1 for n in twice.values()) <= deliberate_refetches(logs), twice
    # Both workers fetched: the work was shared.
    dequeued = [stat(log, "scheduler/dequeued/redis") for log in logs]
    assert min(dequeued) > 20, dequeued

    rows, distinct, runs = stored_pages(postgres_url)
    assert rows == distinct  # stored once
    result = score(postgres_url, web, server.port)
    missing = relevant_not_stored(postgres_url, web, server.port)
    lost = unexplained(missing, logs)
    assert not lost, f"{lost}\n{what_became_of(lost, postgres_url, fetched)}\n{result}"  # as alone
    assert result.kept_relevant >= 0.9 * result.relevant_fetched, result
    assert result.kept_relevant >= 0.9 * result.kept, result
    states = [threshold_state(log) for log in logs]
    etas = [state["threshold"] for state in states]
    assert all(eta for eta in etas), states
    assert abs(math.log10(etas[0] / etas[1])) <= 0.05, states  # one η, within its tolerance
    assert sum(state["adopted"] for state in states) > 0, states  # fitted once, taken by both
    assert len(runs) == 1 and runs[0].finished_at is not None  # one run row, closed
    assert len(runs[0].stats["topiccrawler/workers"]) == 2  # with each worker's stats
    # The finished crawl left nothing behind in Redis.
    assert not list(redis_server.scan_iter(match=f"topiccrawler:{name}:*"))


def test_a_worker_killed_mid_crawl_loses_nothing(sandbox, postgres_url, redis_server, tmp_path):
    web, server, seeds = sandbox
    name = f"test-{uuid.uuid4().hex[:8]}"
    victim = start_worker(server, seeds, postgres_url, name, tmp_path / "victim.log")
    survivor = start_worker(server, seeds, postgres_url, name, tmp_path / "survivor.log")
    deadline = time.monotonic() + 120
    while sum(page_fetches(server).values()) < 80 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert victim.poll() is None, "the crawl ended before the kill"
    in_flight = redis_server.hlen(f"topiccrawler:{name}:lease")
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    # A worker may join at any time: this one takes part in the rest of the crawl.
    newcomer = start_worker(server, seeds, postgres_url, name, tmp_path / "newcomer.log")
    codes = wait([survivor, newcomer])
    log = (tmp_path / "survivor.log").read_text()
    joined = (tmp_path / "newcomer.log").read_text()
    assert codes == [0, 0] or set(codes) <= {0, 3}, (codes, log[-3000:], joined[-3000:])
    assert "Joining a shared crawl whose seeds another worker pushed" in joined
    assert "stopped beating" in log + joined  # the dead worker's requests were taken back

    result = score(postgres_url, web, server.port)
    missing = relevant_not_stored(postgres_url, web, server.port)
    assert not unexplained(missing, [log, joined]), (unexplained(missing, [log, joined]), result)
    rows, distinct, runs = stored_pages(postgres_url)
    assert rows == distinct
    # Only what was in flight at the kill can have been fetched twice (and what the spider
    # refetches on purpose; the victim's log has no stats: it was killed).
    twice = sum(n - 1 for n in page_fetches(server).values() if n > 1)
    assert twice <= in_flight + deliberate_refetches([log, joined]) + 16, (twice, in_flight)
    assert not list(redis_server.scan_iter(match=f"topiccrawler:{name}:*"))


class LoginHeldBack(SandboxServer):
    """The sandbox, its members site's login answering only once `go_on` is set."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.login_asked = threading.Event()
        self.go_on = threading.Event()

    def login(self, form: dict):
        self.login_asked.set()
        self.go_on.wait(120)
        return super().login(form)


def test_a_worker_killed_while_logging_in_loses_the_requests_it_held_back_for_it(
    postgres_url, redis_server, tmp_path
):
    """The requests a worker holds back while it logs in to a site (out of the engine, their
    downloads over) are still its: killed meanwhile, they go back to the frontier."""
    web = build_web(1, "small")
    with LoginHeldBack(web, slow_seconds=4) as server:
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(sandbox_seed_file(server), encoding="utf-8")
        name = f"test-{uuid.uuid4().hex[:8]}"
        victim = start_worker(server, seeds, postgres_url, name, tmp_path / "victim.log")
        try:
            assert server.login_asked.wait(120), "the crawl never logged in"
            # Past the storage pipeline's flush (STORAGE_FLUSH_INTERVAL): what the victim
            # fetched meanwhile is committed, and the leases of what is done released.
            time.sleep(8)
            assert victim.poll() is None, "the crawl ended before the kill"
            victim.send_signal(signal.SIGKILL)
            victim.wait()
        finally:
            server.go_on.set()
        newcomer = start_worker(server, seeds, postgres_url, name, tmp_path / "newcomer.log")
        codes = wait([newcomer])
        joined = (tmp_path / "newcomer.log").read_text()
        assert set(codes) <= {0, 3}, (codes, joined[-3000:])
        missing = relevant_not_stored(postgres_url, web, server.port)
    assert not [page for page in missing if page.startswith(MEMBERS)], missing
    assert not list(redis_server.scan_iter(match=f"topiccrawler:{name}:*"))
