"""The downloader keeps each site's concurrency under the asyncio reactor (downloader.py): a
loopback server counts the requests it is answering at once."""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler

import pytest
import scrapy
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from tests.servers import LoopbackServer
from topiccrawler import settings as project_settings


class CountingServer(LoopbackServer):
    """Answers every path after `delay` seconds; `most` is the most requests it was answering at
    once, and `connections` how many connections it accepted."""

    def __init__(self, delay: float = 0.05):
        self.now = self.most = self.connections = 0
        lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers do

            def setup(self) -> None:
                super().setup()
                with lock:
                    server.connections += 1

            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                with lock:
                    server.now += 1
                    server.most = max(server.most, server.now)
                time.sleep(delay)
                with lock:
                    server.now -= 1
                server.reply(self, 200, {"Content-Type": "text/html"}, b"<html>ok</html>")

            def log_message(self, *args) -> None:
                pass

        self.serve(Handler)
        self.server.request_queue_size = 64  # no refused connection blurs the count


class ManyPages(scrapy.Spider):
    name = "many_pages"

    def __init__(self, base: str, pages: int = 40, **kwargs):
        super().__init__(**kwargs)
        self.base, self.pages = base, pages

    async def start(self):
        for number in range(self.pages):
            yield scrapy.Request(f"{self.base}/{number}", dont_filter=True)

    def parse(self, response):
        pass


async def crawl_at_once(per_domain: int, **settings) -> CountingServer:
    with CountingServer() as server:
        crawler = get_crawler(
            ManyPages,
            {
                "DOWNLOADER": project_settings.DOWNLOADER,
                "CONCURRENT_REQUESTS": 16,
                "CONCURRENT_REQUESTS_PER_DOMAIN": per_domain,
                "DOWNLOAD_DELAY": 0,
                "ROBOTSTXT_OBEY": False,
                **settings,
            },
        )
        await crawler.crawl_async(base=server.url)
        assert crawler.stats.get_value("response_received_count") == 40
    return server


@pytest.mark.parametrize("per_domain", [1, 2, 8])
@deferred_f_from_coro_f
async def test_a_site_gets_its_concurrency_and_no_more(per_domain):
    server = await crawl_at_once(per_domain)
    # never more (Scrapy's own downloader: 9-13); about as many (a loaded machine may not
    # have all of them at the server in the same instant)
    assert per_domain // 2 < server.most <= per_domain
    # Connections are kept and reused: none opened beyond what the site may have at once.
    assert server.connections <= per_domain


@deferred_f_from_coro_f
async def test_a_slot_of_its_own_keeps_its_concurrency_too():
    """A seed file's per-site concurrency (DOWNLOAD_SLOTS) is kept the same way."""
    slots = {"127.0.0.1": {"concurrency": 3, "delay": 0}}
    server = await crawl_at_once(8, DOWNLOAD_SLOTS=slots)
    assert 1 < server.most <= 3
