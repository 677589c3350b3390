"""The progress line, the end-of-crawl summary (logged and kept in crawl_runs), and the end of a
crawl that can make no progress."""

from __future__ import annotations

import logging
import socket

from scrapy.utils.defer import deferred_f_from_coro_f
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.crawl import crawl
from topiccrawler.extensions.progress import OUTCOME_KEY, SUMMARY_KEY
from topiccrawler.storage.models import CrawlRun


def messages(caplog, start: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith(start)]


@deferred_f_from_coro_f
async def test_progress_lines_and_a_summary_kept_with_the_run(site, seeds_file, sqlite_url, caplog):
    caplog.set_level(logging.INFO)
    # /slow/ pages take 0.2 s each, one at a time: the crawl lasts several progress intervals.
    crawler = await crawl(
        {"DATABASE_URL": sqlite_url, "PROGRESS_INTERVAL": 0.3, "CONCURRENT_REQUESTS": 1},
        topic="tax", seeds=str(seeds_file(depth_limit=8, start="/slow/1.html")),
    )  # fmt: skip

    progress = messages(caplog, "Progress: ")
    assert len(progress) >= 2
    assert all(
        "pages fetched" in line and "kept (harvest rate" in line and "queue" in line
        and "sites blocked" in line
        for line in progress
    )  # fmt: skip
    stats = crawler.stats.get_stats()
    summary = stats[SUMMARY_KEY]
    host = site.url.split("//")[1]  # 127.0.0.1:port's host is the site
    assert summary["outcome"] == "ok" and stats[OUTCOME_KEY] == "ok"
    assert summary["pages_stored"] == summary["sites"]["127.0.0.1"]["stored"] >= 8
    assert summary["pages_judged"] >= summary["pages_kept"] > 0
    assert summary["finish_reason"] == "finished" and host
    logged = messages(caplog, "Crawl summary (finished")
    assert len(logged) == 1 and f"{summary['pages_stored']} stored" in logged[0]
    assert messages(caplog, "  site 127.0.0.1: ")

    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        run = session.scalars(select(CrawlRun)).one()
    engine.dispose()
    assert run.stats[SUMMARY_KEY] == summary  # the summary is kept with the crawl run


@deferred_f_from_coro_f
async def test_failures_are_counted_by_cause(site, seeds_file, sqlite_url, caplog):
    caplog.set_level(logging.INFO)
    crawler = await crawl({"DATABASE_URL": sqlite_url}, topic="tax", seeds=str(seeds_file()))
    summary = crawler.stats.get_value(SUMMARY_KEY)
    # The fixture site links a page that is not there.
    assert summary["failures"].get("HTTP 404", 0) >= 1
    assert any("failed:" in m and "HTTP 404" in m for m in messages(caplog, "  failed: "))


@deferred_f_from_coro_f
async def test_a_crawl_that_cannot_progress_ends_with_a_reason(tmp_path, sqlite_url, caplog):
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(
            '[[authority]]\nname = "silent"\n'
            f'start_urls = ["http://127.0.0.1:{silent.getsockname()[1]}/"]\n',
            encoding="utf-8",
        )
        crawler = await crawl(
            {"DATABASE_URL": sqlite_url, "PROGRESS_STALL_TIMEOUT": 1, "ROBOTSTXT_OBEY": False,
             "DOWNLOAD_TIMEOUT": 4},  # closing waits for the download in flight
            topic="tax", seeds=str(seeds),
        )  # fmt: skip
    stats = crawler.stats.get_stats()
    assert stats["finish_reason"] == "no_progress" and stats[OUTCOME_KEY] == "no_progress"
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert any(e.startswith("No page fetched for") for e in errors)
    assert any(e.startswith("The crawl did not do its job") for e in errors)


@deferred_f_from_coro_f
async def test_a_crawl_every_site_blocks_says_so(tmp_path, sqlite_url):
    """Every page a 403 "access denied": nothing stored, outcome blocked_everywhere (exit 4)."""
    from tests.middlewares.test_address_guard import RecordingServer

    denied = (403, {}, "<html><head><title>403</title></head><body>Access denied</body></html>")
    with RecordingServer("127.0.0.1", {"/": denied, "/robots.txt": (404, {}, "")}) as site:
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(f'[[authority]]\nname = "wall"\nstart_urls = ["{site.url}/"]\n')
        crawler = await crawl(
            {"DATABASE_URL": sqlite_url, "BAN_RETRY_TIMES": 1, "BAN_MIN_DELAY": 0.1,
             "BAN_MAX_DELAY": 0.2},
            topic="tax", seeds=str(seeds),
        )  # fmt: skip
    summary = crawler.stats.get_value(SUMMARY_KEY)
    assert summary["blocked_sites"] and summary["pages_stored"] == 0
    assert crawler.stats.get_value(OUTCOME_KEY) == "blocked_everywhere"
