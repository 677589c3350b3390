"""Sites that ban: one that bans aggressive clients for a day (the strict sandbox site, banning
after a few requests that come too fast) is crawled to the end on the project's default pacing
without being banned; one that bans for good (403 to everything from the first request) is left
alone and the crawl finishes everything else without waiting for it."""

from __future__ import annotations

import time

from sqlalchemy import select

from tests.sandbox.test_crawl import run_crawl
from topiccrawler import settings as project
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.truth import truth_key
from topiccrawler.sandbox.web import PORTAL_A, STRICT, build_web
from topiccrawler.storage.models import Page

DEFAULT_PACING = {
    name: getattr(project, name)
    for name in ("DOWNLOAD_DELAY", "AUTOTHROTTLE_ENABLED", "AUTOTHROTTLE_START_DELAY",
                 "CONCURRENT_REQUESTS_PER_DOMAIN", "BAN_MIN_DELAY")
}  # fmt: skip


def relevant_stored(crawl, web) -> tuple[set, set]:
    with crawl.session() as session:
        stored = {truth_key(url) for url in session.scalars(select(Page.url))}
    relevant = {(h, p) for h, p, t in web.pages_with_truth() if t.relevant}
    return relevant & stored, relevant - stored


def test_a_site_that_bans_fast_clients_is_finished_unbanned_on_defaults(tmp_path):
    # The site alone: pacing is per site, and the rest of the web on default pacing would only
    # make the crawl longer.
    web = build_web(1, "small")
    with SandboxServer(web, slow_seconds=4, strict_ban_after=3) as server:
        seeds = f"""[[authority]]
name = "{web.site_names[STRICT]}"
start_urls = ["{server.url(STRICT)}"]
depth_limit = 2
"""
        crawl = run_crawl(server, tmp_path, seeds_text=seeds, **DEFAULT_PACING)
        assert server.bans == 0, "banned"
    stored, missed = relevant_stored(crawl, web)
    assert {h for h, _ in stored} == {STRICT}  # its articles and the reposts it carries
    assert not {(h, p) for h, p in missed if h == STRICT}, missed
    assert "Leaving www.strict-news.test alone" not in crawl.log


def test_a_site_that_bans_for_good_is_left_alone_without_stalling(tmp_path):
    web = build_web(1, "small")
    started = time.monotonic()
    with SandboxServer(web, slow_seconds=4, strict_ban_after=0) as server:
        # Left after 15 s of nothing but blocks (60 s by default: the same rule, sooner).
        crawl = run_crawl(server, tmp_path, BAN_GIVE_UP_AFTER=15)
    seconds = time.monotonic() - started
    stored, missed = relevant_stored(crawl, web)
    assert {h for h, _ in missed} <= {STRICT, PORTAL_A} and stored
    assert not any(h == STRICT for h, _ in stored)
    assert f"Leaving {STRICT} alone" in crawl.log
    assert seconds < 100, f"{seconds:.0f} s: the crawl waited for the banned site"
