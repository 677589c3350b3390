"""The web view in a real Chromium (Debian's, driven by Playwright): what a person sees.

A search shows its hits with marked snippets; a page view shows its comments and its thread's
posts; a stored title, comment and post carrying markup and script show as text and run
nothing; and the crawl view of a running sandbox crawl changes while the crawl runs.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time

import pytest
from sqlalchemy import select

from tests.conftest import ROOT
from tests.report.chromium import chromium
from tests.web.conftest import HOSTILE, served
from topiccrawler.sandbox.demo import (
    crawl_command,
    sandbox_crawl_settings,
    sandbox_login_env,
    sandbox_seed_file,
)
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.web import build_web
from topiccrawler.storage import Database
from topiccrawler.storage.models import CrawlRun

BROWSER_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run"]  # fmt: skip


class Browser:
    """Debian's Chromium through Playwright's sync API, in a thread of its own: the tests'
    thread runs the asyncio reactor's loop, where the sync API refuses to run."""

    def __init__(self, path: str):
        self.path = path

    def run(self, look) -> None:
        """`look(browser)` in the browser's thread; what it raises is raised here."""
        failures: list[BaseException] = []

        def in_thread() -> None:
            from playwright.sync_api import sync_playwright

            try:
                with sync_playwright() as playwright:
                    launched = playwright.chromium.launch(
                        executable_path=self.path, args=BROWSER_FLAGS
                    )
                    try:
                        look(launched)
                    finally:
                        launched.close()
            except BaseException as exc:  # noqa: BLE001 (handed to the test's thread)
                failures.append(exc)

        thread = threading.Thread(target=in_thread)
        thread.start()
        thread.join(300)
        assert not thread.is_alive(), "the browser did not finish in 300 s"
        if failures:
            raise failures[0]


@pytest.fixture
def browser() -> Browser:
    return Browser(chromium())


class Watched:
    """A browser tab that records what would show that crawled script ran: dialogs, errors,
    requests to anywhere but the view."""

    def __init__(self, browser, base: str):
        self.page = browser.new_page()
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.elsewhere: list[str] = []
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on(
            "request", lambda r: None if r.url.startswith(base) else self.elsewhere.append(r.url)
        )


def test_search_shows_hits_with_marked_snippets(browser, store):
    def look(chromium) -> None:
        tab = Watched(chromium, base)
        tab.page.goto(f"{base}/search")
        tab.page.fill("input[name=q]", "增值税 发票")
        tab.page.press("input[name=q]", "Enter")
        tab.page.wait_for_selector("ol.hits li")
        assert tab.page.locator("ol.hits li.hit").count() == 2  # the article and its repost
        marked = tab.page.locator(".snippet mark").all_inner_texts()
        assert {"增值税", "发票"} <= set(marked)
        tab.page.locator("ol.hits li.hit a").first.click()
        tab.page.wait_for_selector("article.page h1")
        assert "增值税" in tab.page.locator("article.page").inner_text()
        assert tab.dialogs == [] and tab.errors == [] and tab.elsewhere == []

    with served(store.database) as base:
        browser.run(look)


def test_a_page_view_shows_its_comments_and_thread_posts(browser, store):
    def look(chromium) -> None:
        tab = Watched(chromium, base)
        tab.page.goto(f"{base}/pages/{store.article}")
        comments = tab.page.locator("section.comments .record-text").all_inner_texts()
        assert comments == ["电子发票怎么开？", "在电子税务局开。", "谢谢，发票开好了"]
        reply = tab.page.locator("section.comments ol.replies .record-text").first.inner_text()
        assert reply == "在电子税务局开。"
        tab.page.goto(f"{base}/pages/{store.thread}")
        posts = tab.page.locator("section.posts .record-text").all_inner_texts()
        assert posts == ["个人所得税汇算在哪里办？", "手机上就能办，发票不用交。"]
        assert "accepted answer" in tab.page.locator("section.posts").inner_text()

    with served(store.database) as base:
        browser.run(look)


def test_markup_and_script_in_crawled_text_show_as_text_and_run_nothing(browser, store):
    def look(chromium) -> None:
        tab = Watched(chromium, base)
        tab.page.goto(f"{base}/pages/{store.hostile}")
        assert tab.page.locator("article.page h1").inner_text() == f"{HOSTILE} 发票"
        assert HOSTILE in tab.page.locator("section.comments").inner_text()
        assert "<b>bold</b>" in tab.page.locator("section.posts").inner_text()
        assert tab.page.locator("article img, article script, article b").count() == 0
        tab.page.goto(f"{base}/search?q=发票&kind=page&kind=comment&kind=post")
        assert HOSTILE in tab.page.locator("ol.hits").inner_text()
        assert tab.page.locator("ol.hits img, ol.hits script").count() == 0
        tab.page.wait_for_timeout(500)  # an onerror would have fired by now
        assert tab.dialogs == [] and tab.errors == [] and tab.elsewhere == []

    with served(store.database) as base:
        browser.run(look)


def test_the_crawl_view_changes_while_a_sandbox_crawl_runs(browser, tmp_path):
    """A real crawl of the sandbox in another process; the view's figures refresh by
    themselves (no reload) while it runs."""
    url = f"sqlite:///{tmp_path / 'live.db'}"
    database = Database(url)
    database.upgrade()
    with SandboxServer(build_web(1, "small"), slow_seconds=4) as sandbox:
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(sandbox_seed_file(sandbox), encoding="utf-8")
        settings = {
            **sandbox_crawl_settings(sandbox), "DATABASE_URL": url, "CRAWL_RUN_LIVE_INTERVAL": 1,
            # Paced, and stored a few pages at a time, so that the crawl lasts a while on an
            # idle machine too and its stored count moves in small steps.
            "DOWNLOAD_DELAY": 0.5, "AUTOTHROTTLE_ENABLED": False, "CLOSESPIDER_PAGECOUNT": 150,
            "STORAGE_BATCH_SIZE": 5, "STORAGE_FLUSH_INTERVAL": 1,
        }  # fmt: skip
        crawl = subprocess.Popen(
            crawl_command(seeds, settings), cwd=ROOT, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, text=True, env={**os.environ, **sandbox_login_env()},
        )  # fmt: skip
        try:
            run_id = None
            deadline = time.monotonic() + 60
            while run_id is None and time.monotonic() < deadline:
                with database.session() as session:
                    run_id = session.scalar(select(CrawlRun.id))
                time.sleep(0.2)
            assert run_id is not None, "the crawl recorded no run"

            def look(chromium) -> None:
                tab = Watched(chromium, base)
                tab.page.goto(f"{base}/crawls/{run_id}")
                stored = tab.page.locator("dd[data-field=stored]")
                seen = {stored.inner_text()}
                deadline = time.monotonic() + 90
                while len(seen) < 3 and crawl.poll() is None and time.monotonic() < deadline:
                    tab.page.wait_for_timeout(500)
                    seen.add(stored.inner_text())
                assert len(seen) >= 3, f"the figures did not change while the crawl ran: {seen}"
                assert tab.errors == [] and tab.elsewhere == []

            with served(database) as base:
                browser.run(look)
        finally:
            try:
                crawl.wait(120)
            except subprocess.TimeoutExpired:
                crawl.kill()
        database.dispose()
