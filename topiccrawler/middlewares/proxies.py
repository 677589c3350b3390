"""Downloader middleware: requests go out through a pool of proxies (PROXIES, PROXY_FILE), the
next healthy one in turn; a proxy that fails or gets blocked is benched with a growing back-off
and the request is retried through another (PROXY_RETRY_TIMES). No proxies configured: direct
connections, and this middleware switches itself off. Scrapy's HttpProxyMiddleware, after this
one, sends the proxy's credentials; they are never logged (proxies are named by host and port).
At the end of the crawl each proxy's requests, failures and benchings are in the stats and the log.
"""

from __future__ import annotations

import logging
import time

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import (
    DownloadConnectionRefusedError,
    DownloadFailedError,
    DownloadTimeoutError,
    NotConfigured,
)
from scrapy.http import Response
from twisted.internet.error import (
    ConnectError,
    ConnectionLost,
    ConnectionRefusedError,
    TCPTimedOutError,
    TimeoutError,
)
from twisted.web._newclient import ResponseNeverReceived

from topiccrawler.antiban.bans import ban_reason
from topiccrawler.antiban.proxies import ProxyPool, check_proxy, load_proxy_file
from topiccrawler.meta import POOL_PROXY, PROXY_RETRIES, ROTATE_PROXY
from topiccrawler.topics.registry import resolve_dir

logger = logging.getLogger(__name__)

PROXY_FAILURES = (
    DownloadConnectionRefusedError, DownloadTimeoutError, DownloadFailedError,  # Scrapy ≥ 2.13
    ConnectError, ConnectionRefusedError, ConnectionLost, TCPTimedOutError, TimeoutError,
    ResponseNeverReceived,
)  # fmt: skip
PROXY_ERROR_STATUSES = frozenset({407, 502, 504})  # the proxy's own errors


class ProxyMiddleware:
    def __init__(self, crawler: Crawler, pool: ProxyPool, retry_times: int):
        self.crawler = crawler
        self.stats = crawler.stats
        self.pool = pool
        self.retry_times = retry_times

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ProxyMiddleware:
        settings = crawler.settings
        urls = [check_proxy(u, "PROXIES") for u in settings.getlist("PROXIES")]
        if settings.get("PROXY_FILE"):
            urls += load_proxy_file(resolve_dir(settings.get("PROXY_FILE")))
        if not urls:
            raise NotConfigured  # no proxies: direct connections (no message: nothing is wrong)
        pool = ProxyPool(
            urls, settings.getfloat("PROXY_BACKOFF"), settings.getfloat("PROXY_BACKOFF_MAX")
        )
        logger.info("Proxy pool: %s", ", ".join(p.name for p in pool.proxies))
        middleware = cls(crawler, pool, settings.getint("PROXY_RETRY_TIMES"))
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def process_request(self, request: Request, spider=None) -> None:
        if request.meta.get("proxy_fixed"):
            return  # a request that names its own proxy keeps it
        previous = request.meta.get(POOL_PROXY)
        if previous and not request.meta.pop(ROTATE_PROXY, False):
            request.meta["proxy"] = previous
            return
        proxy = self.pool.choose(time.monotonic(), avoid=previous)
        request.meta["proxy"] = request.meta[POOL_PROXY] = proxy.url
        self.stats.inc_value(f"topiccrawler/proxy/{proxy.name}/requests")

    def process_response(self, request: Request, response: Response, spider=None):
        proxy = self.pool.by_url(request.meta.get(POOL_PROXY))
        if proxy is None:
            return response
        if response.status in PROXY_ERROR_STATUSES:
            return self._failed(request, proxy, f"HTTP {response.status} from the proxy")
        if ban_reason(response) is not None:
            self._bench(proxy, "blocked by the site")  # the ban middleware retries the page
        else:
            self.pool.success(proxy)
            self.stats.inc_value(f"topiccrawler/proxy/{proxy.name}/ok")
        return response

    def process_exception(self, request: Request, exception: Exception, spider=None):
        proxy = self.pool.by_url(request.meta.get(POOL_PROXY))
        if proxy is None or not isinstance(exception, PROXY_FAILURES):
            return None
        return self._failed(request, proxy, exception.__class__.__name__)

    def _failed(self, request: Request, proxy, reason: str):
        self._bench(proxy, reason)
        attempts = request.meta.get(PROXY_RETRIES, 0)
        if attempts >= self.retry_times:
            return None  # Scrapy's retry and the errback take it from here
        meta = {**request.meta, PROXY_RETRIES: attempts + 1, ROTATE_PROXY: True}
        return request.replace(dont_filter=True, meta=meta)

    def _bench(self, proxy, reason: str) -> None:
        seconds = self.pool.failure(proxy, time.monotonic())
        self.stats.inc_value(f"topiccrawler/proxy/{proxy.name}/failed")
        self.stats.set_value(f"topiccrawler/proxy/{proxy.name}/benched", proxy.benched)
        logger.warning("Proxy %s benched for %.0f s (%s)", proxy.name, seconds, reason)

    def spider_closed(self, spider) -> None:
        for proxy in self.pool.proxies:
            logger.info(
                "Proxy %s: %d ok, %d failed, benched %d times",
                proxy.name,
                proxy.ok,
                proxy.failed,
                proxy.benched,
            )
