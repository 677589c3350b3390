"""Spider middleware: pages whose comments, posts or body are built by script are completed
before they are judged (SPEC §9; both extraction papers name script-loaded records as their main
failure).

It sits between extraction and the relevance judge: it reads what extraction found and asks
`render.detect` whether the static page is incomplete. If the page names the JSON its records come from, that JSON is fetched directly (a
plain request through the downloader: politeness, the address guard and retries apply); else the
page is rendered in Chromium through scrapy-playwright (`render.handler`), "load more" pressed a
few times, and its records (and its body, when the static one was an empty shell) are read from
the rendered HTML. Pages that show no sign are never rendered.

RENDER_MODE decides globally ("auto": on signs; "always"; "never"), a seed file's authority site
per site (`render = "always" | "never" | "auto"`).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import AsyncIterator
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Response

from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.extract.page import extract_page
from topiccrawler.extract.records.forum import is_forum_page
from topiccrawler.items import PageItem, PostRecord
from topiccrawler.meta import ENTRANCE
from topiccrawler.middlewares.extraction import record_options
from topiccrawler.read_ahead import SCRIPT_NEED, take
from topiccrawler.render.detect import ScriptNeed, script_check_key, script_need
from topiccrawler.render.handler import browser_path
from topiccrawler.render.records_json import records_from_json
from topiccrawler.urls import host_in_domains

logger = logging.getLogger(__name__)

MODES = ("auto", "always", "never")
_GENERATOR = re.compile(r"<meta[^>]+name=[\"']generator[\"'][^>]+content=[\"']([^\"']+)", re.I)


class ScriptedPagesMiddleware:
    def __init__(self, crawler: Crawler, mode: str, rounds: int, can_render: bool):
        self.crawler = crawler
        self.stats = crawler.stats
        self.mode = mode
        self.rounds = rounds
        self.can_render = can_render
        self.records = record_options(crawler.settings)  # for the rendered document
        self.sites: list[tuple[tuple[str, ...], str]] = []  # (domains, mode) from the seed file

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ScriptedPagesMiddleware:
        settings = crawler.settings
        mode = settings.get("RENDER_MODE", "auto")
        if mode not in MODES:
            raise ValueError(f"RENDER_MODE must be one of {', '.join(MODES)}, not {mode!r}")
        if not settings.getbool("RECORDS_ENABLED"):
            raise NotConfigured("RECORDS_ENABLED is False")
        can_render = bool(browser_path(settings.get("RENDER_BROWSER")))
        if not can_render and mode != "never":
            logger.warning(
                "No Chromium found (apt-get install chromium, or RENDER_BROWSER): pages built by "
                "script are completed only where they name their JSON"
            )
        middleware = cls(crawler, mode, settings.getint("RENDER_LOAD_MORE_ROUNDS"), can_render)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        return middleware

    def spider_opened(self, spider) -> None:
        seeds = crawl_topic(self.crawler).seeds
        for site in seeds.authority if seeds is not None else ():
            if site.render:
                self.sites.append((site.allowed_domains, site.render))

    def mode_for(self, url: str) -> str:
        for domains, mode in self.sites:
            if host_in_domains(url, domains):
                return mode
        return self.mode

    async def process_spider_output(
        self, response: Response, result: AsyncIterator[Any], spider=None
    ) -> AsyncIterator[Any]:
        async for output in result:
            if isinstance(output, PageItem):
                await self.complete(output, response)
            yield output

    async def complete(self, item: PageItem, response: Response) -> None:
        mode = self.mode_for(item.url)
        if mode == "never" or not item.extracted:
            return  # extraction (middlewares/extraction.py) reads the page first
        found = len(item.comments) + len(item.posts)
        body_chars = len(item.body or "")
        # Checked where the page was read (an extraction worker), if that was this very page.
        key = script_check_key(item.html, item.url, found, body_chars)
        ahead = take(item.read_ahead, SCRIPT_NEED, *key)
        if mode == "always":
            need: ScriptNeed | None = ScriptNeed("forced")
        elif ahead is not None:
            need = ahead.value
            self.stats.inc_value("topiccrawler/render/checked_in_worker")
        else:
            need = script_need(item.html, item.url, found, body_chars)
        if need is None:
            return
        self.stats.inc_value(f"topiccrawler/render/needed/{need.reason}")
        if need.endpoint and await self.from_json(item, need.endpoint, response):
            return
        if self.can_render:
            await self.from_browser(item, response)

    async def from_json(self, item: PageItem, endpoint: str, response: Response) -> bool:
        """Fill the page's records from the JSON it names; False when that gave none."""
        request = Request(
            endpoint,
            headers={"Accept": "application/json", "Referer": item.url},
            meta={ENTRANCE: "script"},
            priority=response.request.priority if response.request else 0,
            dont_filter=True,
        )
        try:
            answer = await self.crawler.engine.download_async(request)
        except IgnoreRequest as exc:
            logger.info("Comments of %s: %s not fetched (%s)", item.url, endpoint, exc)
            return False
        except Exception as exc:  # noqa: BLE001 (a failed extra fetch leaves the page as it is)
            logger.info("Comments of %s: %s failed: %s", item.url, endpoint, exc)
            return False
        if answer.status != 200:
            return False
        records = records_from_json(answer.body, now=item.fetched_at)
        if not records:
            return False
        self._apply(item, records, generator=_generator(item.html))
        self.stats.inc_value("topiccrawler/render/json_pages")
        self.stats.inc_value("topiccrawler/render/json_records", len(records))
        return True

    async def from_browser(self, item: PageItem, response: Response) -> None:
        """Render the page and take what the rendered page shows that the static one did not."""
        # Late: scrapy-playwright (and Playwright) load only when a page is rendered at all.
        from scrapy_playwright.page import PageMethod

        from topiccrawler.render.browser import complete

        request = Request(
            item.url,
            meta={
                "playwright": True,
                "playwright_page_methods": [PageMethod(complete, self.rounds)],
                ENTRANCE: "script",
            },
            priority=response.request.priority if response.request else 0,
            dont_filter=True,
        )
        started = time.monotonic()
        try:
            rendered = await self.crawler.engine.download_async(request)
        except Exception as exc:  # noqa: BLE001 (a page the browser failed on keeps its static text)
            logger.info("Rendering %s failed: %s", item.url, exc)
            self.stats.inc_value("topiccrawler/render/failed")
            return
        self.stats.inc_value("topiccrawler/render/ms", int(1000 * (time.monotonic() - started)))
        content = extract_page(rendered.text, item.url, fetched_at=item.fetched_at,
                               records=self.records)  # fmt: skip
        records = content.records
        if len(records.comments) + len(records.posts) > len(item.comments) + len(item.posts):
            item.comments, item.posts = records.comments, records.posts
            item.threads = records.threads or item.threads
            self.stats.inc_value(
                "topiccrawler/render/records", len(records.comments) + len(records.posts)
            )
        if len(content.body or "") > 2 * len(item.body or ""):  # the static body was a shell
            item.body, item.title = content.body, content.title or item.title

    def _apply(self, item: PageItem, records: list, generator: str | None) -> None:
        if item.posts or is_forum_page(item.url, generator):
            item.posts = item.posts + [
                PostRecord(r.text, r.author, r.author_url, r.time, r.published_at) for r in records
            ]
        else:
            item.comments = item.comments + records


def _generator(html: str) -> str | None:
    match = _GENERATOR.search(html[:20000])
    return match.group(1) if match else None
