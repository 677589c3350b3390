"""The download handler: plain HTTP as Scrapy does it, and for a request marked
`meta["playwright"]` the page rendered by scrapy-playwright in the system's Chromium.

The browser side starts on the first such request (a crawl that renders nothing never starts
Playwright's driver or a browser), always with the configured executable (RENDER_BROWSER, else
$TOPICCRAWLER_CHROMIUM, else `chromium` on PATH): Playwright never downloads a browser of its own. What the rendering page
asks for on its own (scripts, XHR, frames) passes the same address guard as the crawl's own
requests; images, fonts and media are not loaded at all.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
from typing import TYPE_CHECKING

from scrapy.core.downloader.handlers.http11 import HTTP11DownloadHandler
from scrapy.exceptions import IgnoreRequest
from twisted.python.failure import Failure

from topiccrawler.signals import address_guard_wanted

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.crawler import Crawler
    from scrapy.http import Response

logger = logging.getLogger(__name__)

SKIPPED_RESOURCES = frozenset({"image", "media", "font"})


class BrowserNotFound(IgnoreRequest):
    """No Chromium to render with: the page keeps what its static HTML gave."""


CHROMIUM_ENV = "TOPICCRAWLER_CHROMIUM"


def browser_path(configured: str | None = None) -> str | None:
    """The Chromium to render with: RENDER_BROWSER when set; else $TOPICCRAWLER_CHROMIUM, a path
    or a command name, or `none` to behave as on a machine without Chromium; else `chromium` (or
    `chromium-browser`) on PATH. None when there is none."""
    if configured:
        return configured
    named = os.environ.get(CHROMIUM_ENV, "").strip()
    if named.lower() == "none":
        return None
    if named:
        return shutil.which(named)
    return shutil.which("chromium") or shutil.which("chromium-browser")


class RenderingDownloadHandler(HTTP11DownloadHandler):
    def __init__(self, crawler: Crawler):
        super().__init__(crawler=crawler)
        self.crawler = crawler
        self.executable = browser_path(crawler.settings.get("RENDER_BROWSER"))
        self.playwright = None
        self.lock = asyncio.Lock()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RenderingDownloadHandler:
        return cls(crawler)

    async def download_request(self, request: Request) -> Response:
        if not request.meta.get("playwright"):
            return await super().download_request(request)
        handler = await self.browser()
        self.crawler.stats.inc_value("topiccrawler/render/pages")
        return await handler.download_request(request)

    async def browser(self):
        """scrapy-playwright's handler, started once, with our browser and launch options."""
        async with self.lock:
            if self.playwright is None:
                if not self.executable:
                    raise BrowserNotFound(
                        "no Chromium to render with (apt-get install chromium, or RENDER_BROWSER)"
                    )
                from scrapy_playwright.handler import ScrapyPlaywrightDownloadHandler

                settings = self.crawler.settings
                handler = ScrapyPlaywrightDownloadHandler(self.crawler)
                handler.config.launch_options = {
                    "executable_path": self.executable,
                    "headless": True,
                    "args": settings.getlist("RENDER_BROWSER_ARGS"),
                }
                handler.config.max_contexts = 1
                handler.config.max_pages_per_context = max(1, settings.getint("RENDER_MAX_PAGES"))
                handler.config.navigation_timeout_ms = 1000 * settings.getfloat("RENDER_TIMEOUT")
                handler.abort_request = self.abort
                await handler._launch()  # (private: it has no public way to start lazily)
                logger.info("Rendering pages with %s", self.executable)
                self.playwright = handler
            return self.playwright

    async def abort(self, request) -> bool:
        """Whether a request the rendering page makes is not made: images, fonts and media
        (not needed for text), and anything the address guard refuses."""
        if request.resource_type in SKIPPED_RESOURCES:
            return True
        if not request.url.startswith(("http://", "https://")):
            return not request.url.startswith(("data:", "blob:", "about:"))
        guard = _address_guard(self.crawler)
        if guard is None:
            return False
        _, why = await guard.check(request.url)
        if why is not None:
            self.crawler.stats.inc_value("topiccrawler/render/refused_subrequests")
            logger.warning("Rendering: refused %s (%s)", request.url, why.reason)
            return True
        return False

    async def close(self) -> None:
        if self.playwright is not None:
            await self.playwright.close()
        await super().close()


def _address_guard(crawler: Crawler):
    """The crawl's address guard, which answers `address_guard_wanted`; None without one."""
    for _, guard in crawler.signals.send_catch_log(address_guard_wanted):
        if guard is not None and not isinstance(guard, Failure):  # (a receiver's error)
            return guard
    return None
