"""Ctrl-C on a sandbox crawl, as a user gives it: the crawl stops cleanly, says it was
interrupted (summary, exit status, `topiccrawler runs`), keeps what it fetched, and the next
crawl on the same database goes on from there. SQLite and PostgreSQL, with and without the
browser."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from tests.conftest import ROOT
from tests.report.chromium import chromium
from topiccrawler.errors import EXIT_INTERRUPTED, EXIT_NOTHING_NEW, EXIT_OK
from topiccrawler.sandbox.demo import (
    crawl_command,
    sandbox_crawl_settings,
    sandbox_login_env,
    sandbox_seed_file,
)
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.web import build_web
from topiccrawler.storage.models import CrawlRun, Page
from topiccrawler.storage.runs import CHANGES_KEY

PAGES_BEFORE_SIGNAL = 15  # stored before Ctrl-C is sent


@pytest.fixture(scope="module")
def sandbox():
    with SandboxServer(build_web(1, "small"), slow_seconds=4) as server:
        yield server


def count_pages(url: str) -> int:
    engine = create_engine(url)
    try:
        with Session(engine) as session:
            return session.scalar(select(func.count()).select_from(Page)) or 0
    except Exception:  # noqa: BLE001 (no table yet: the crawl is starting)
        return 0
    finally:
        engine.dispose()


def start_crawl(sandbox: SandboxServer, folder: Path, url: str, browser: bool, **settings):
    seeds = folder / "seeds.toml"
    seeds.write_text(sandbox_seed_file(sandbox), encoding="utf-8")
    options = {
        **sandbox_crawl_settings(sandbox),
        "DATABASE_URL": url,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "STORAGE_BATCH_SIZE": 5,
        "STORAGE_FLUSH_INTERVAL": 1,
        "LOG_LEVEL": "INFO",
        **settings,
    }
    env = {**os.environ, **sandbox_login_env(), "PYTHONUNBUFFERED": "1"}
    if not browser:
        env["TOPICCRAWLER_CHROMIUM"] = "none"
    return subprocess.Popen(
        crawl_command(seeds, options), cwd=ROOT, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip


def interrupt_when_stored(process: subprocess.Popen, url: str, pages: int, signals=1) -> str:
    deadline = time.monotonic() + 120
    while count_pages(url) < pages and time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()[0][-3000:]
        time.sleep(0.2)
    for n in range(signals):
        if n:
            time.sleep(0.3)
        process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=120)
    return out


def runs_output(url: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "topiccrawler.cli", "-s", f"DATABASE_URL={url}", "runs", "tax"],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def latest_runs(url: str) -> list[CrawlRun]:
    engine = create_engine(url)
    with Session(engine) as session:
        runs = list(session.scalars(select(CrawlRun).order_by(CrawlRun.id)))
    engine.dispose()
    return runs


def check_interrupt_and_resume(sandbox, folder: Path, url: str, browser: bool) -> None:
    process = start_crawl(sandbox, folder, url, browser)
    out = interrupt_when_stored(process, url, PAGES_BEFORE_SIGNAL)
    assert process.returncode == EXIT_INTERRUPTED, out[-3000:]
    assert "Traceback" not in out and "TargetClosedError" not in out, out[-5000:]
    assert "Crawl summary (interrupted" in out and "The crawl was interrupted" in out
    stored = count_pages(url)
    assert stored >= PAGES_BEFORE_SIGNAL
    (run,) = latest_runs(url)
    assert run.finish_reason == "interrupted" and run.finished_at is not None
    assert run.stats["topiccrawler/summary"]["outcome"] == "interrupted"
    listing = runs_output(url)
    assert "interrupted" in listing and " ok " not in listing

    # The next crawl on the same database goes on from what was stored.
    again = start_crawl(sandbox, folder, url, browser, CLOSESPIDER_PAGECOUNT=40)
    out, _ = again.communicate(timeout=300)
    assert again.returncode in (EXIT_OK, EXIT_NOTHING_NEW), out[-3000:]
    first, second = latest_runs(url)
    assert second.finish_reason != "interrupted"
    changes = second.stats[CHANGES_KEY]
    assert changes["previous_run"] == first.id
    assert count_pages(url) == stored + changes["new_pages"]  # nothing stored was lost


@pytest.mark.parametrize("browser", [False, True], ids=["no-browser", "chromium"])
def test_ctrl_c_on_sqlite(sandbox, tmp_path, browser):
    if browser:
        chromium()
    check_interrupt_and_resume(sandbox, tmp_path, f"sqlite:///{tmp_path / 'crawl.db'}", browser)


@pytest.mark.postgres
@pytest.mark.parametrize("browser", [False, True], ids=["no-browser", "chromium"])
def test_ctrl_c_on_postgresql(sandbox, tmp_path, postgres_url, browser):
    if browser:
        chromium()
    check_interrupt_and_resume(sandbox, tmp_path, postgres_url, browser)


def test_a_second_ctrl_c_stops_at_once_and_loses_nothing_stored(sandbox, tmp_path):
    url = f"sqlite:///{tmp_path / 'crawl.db'}"
    process = start_crawl(sandbox, tmp_path, url, browser=False)
    out = interrupt_when_stored(process, url, PAGES_BEFORE_SIGNAL, signals=2)
    assert process.returncode == EXIT_INTERRUPTED, out[-3000:]
    assert "Traceback" not in out, out[-5000:]
    assert count_pages(url) >= PAGES_BEFORE_SIGNAL
    (run,) = latest_runs(url)
    assert run.finish_reason == "interrupted" and run.finished_at is not None
    assert "interrupted" in runs_output(url)


def test_ctrl_c_on_the_demo(tmp_path):
    database = tmp_path / "demo.db"
    url = f"sqlite:///{database}"
    process = subprocess.Popen(
        [sys.executable, "-m", "topiccrawler.cli", "demo", "--db", str(database), "--port", "0"],
        cwd=tmp_path, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    out = interrupt_when_stored(process, url, PAGES_BEFORE_SIGNAL)
    assert process.returncode == EXIT_INTERRUPTED, out[-3000:]
    assert "Traceback" not in out and "TargetClosedError" not in out, out[-5000:]
    assert "topiccrawler demo: tax topic on the sandbox web (small) — interrupted" in out
    stored = count_pages(url)
    assert f"pages stored          {stored}" in out
    assert "interrupted" in runs_output(url)
