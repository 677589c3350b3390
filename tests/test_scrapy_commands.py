"""The real `scrapy` command line, in a subprocess: errors users see, and Ctrl-C mid-crawl."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

from tests.conftest import ROOT
from topiccrawler.errors import EXIT_INTERRUPTED
from topiccrawler.storage.models import CrawlRun, Page


def scrapy(*args: str, **popen) -> subprocess.Popen:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "scrapy", *args], cwd=ROOT, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, **popen,
    )  # fmt: skip


def test_unknown_topic_fails_at_once_listing_topics():
    process = scrapy("crawl", "topic", "-a", "topic=nope")
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 2
    assert "unknown topic 'nope'" in out and "tax" in out and "Traceback" not in out


def test_broken_topic_file_fails_naming_file_and_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[topic]\nthreshold = "high"\n[subjects]\n"a" = []\n', encoding="utf-8")
    process = scrapy("crawl", "topic", "-a", f"keywords={bad}")
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 2
    assert f"{bad}:2: 'topic.threshold' must be a number" in out


def test_scrapy_list_and_check_run_without_arguments():
    outputs = {}
    for command in ("list", "check"):
        process = scrapy(command)
        outputs[command], _ = process.communicate(timeout=60)
        assert process.returncode == 0, outputs[command]
    assert outputs["list"].split() == ["topic"]


def test_interrupted_crawl_keeps_what_it_stored(site, seeds_file, tmp_path):
    """Ctrl-C (SIGINT) mid-crawl: the spider closes cleanly, every scraped page is stored and
    the crawl run records the interrupt."""
    url = f"sqlite:///{tmp_path / 'interrupted.db'}"
    seeds = seeds_file(depth_limit=1000, max_pages=1000, start="/slow/1.html")
    process = scrapy(
        "crawl", "topic", "-a", f"seeds={seeds}", "-s", f"DATABASE_URL={url}",
        "-s", "DOWNLOAD_DELAY=0", "-s", "AUTOTHROTTLE_ENABLED=False", "-s", "STORAGE_BATCH_SIZE=1000",
        "-s", "STORAGE_FLUSH_INTERVAL=1000",
    )  # fmt: skip
    deadline = time.monotonic() + 60
    before = site.hits["/slow/8.html"]  # the fixture site serves every test of the session
    while site.hits["/slow/8.html"] == before and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == EXIT_INTERRUPTED, out
    assert "Crawl summary (interrupted" in out and "Traceback" not in out

    engine = create_engine(url)
    with Session(engine) as session:
        pages = session.scalar(select(func.count()).select_from(Page))
        run = session.scalars(select(CrawlRun)).one()
    engine.dispose()
    assert pages >= 7  # nothing was committed before the interrupt (huge batch), all of it after
    assert run.finish_reason == "interrupted"
    assert run.stats["item_scraped_count"] == pages


def test_exit_status_says_the_crawl_fetched_nothing(tmp_path):
    """Only a search engine, and it refuses: one ERROR naming the fix, a summary, status 1."""
    from tests.servers import closed_port

    port = closed_port()
    seeds = tmp_path / "seeds.toml"
    seeds.write_text(
        '[search]\nengines = ["searxng"]\n\n[engines.searxng]\ntype = "searxng"\n'
        f'url = "http://127.0.0.1:{port}/search"\n',
        encoding="utf-8",
    )
    process = scrapy(
        "crawl", "topic", "-a", f"seeds={seeds}",
        "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'nothing.db'}",
    )  # fmt: skip
    out, _ = process.communicate(timeout=120)
    assert process.returncode == 1, out
    assert out.count("Search engine 'searxng' cannot be reached") == 1
    assert f"start SearXNG at http://127.0.0.1:{port}" in out
    assert "Crawl summary (finished" in out and "engine searxng: unreachable" in out
    assert "The crawl did not do its job: no page could be fetched" in out
    failed = [line for line in out.splitlines() if "  failed: " in line]
    assert failed and "IgnoreRequest" not in failed[0]  # queries not sent are not failures
    assert "Traceback" not in out
