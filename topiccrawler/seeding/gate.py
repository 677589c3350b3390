"""A downloader middleware that keeps queries away from engines that cannot take them.

Every query is queued at the start of a crawl (the frontier ranks the hits), so when an engine
is down or blocked the requests for it are already waiting. Without this gate each of them would
be sent anyway: a refused or hanging engine would cost (retries × timeout) per query, and a
blocked one would be asked again during its back-off. Requests for an unreachable engine are
dropped (counted in `topiccrawler/search/<engine>/not_asked`); requests for one that backs off
are handed back to the spider, which sends them again when the back-off ends. Captchas and
rate limits are recognised here too, as the answer arrives.

Queries are not retried: the first refusal, unknown host or timeout (SEARCH_ENGINE_TIMEOUT)
marks the engine unreachable here, before the downloader takes the next request, so only the
queries already in flight are lost.
"""

from __future__ import annotations

import time

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Response, TextResponse

from topiccrawler.seeding.base import EngineBlocked
from topiccrawler.seeding.health import UNREACHABLE


class EngineGateMiddleware:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> EngineGateMiddleware:
        return cls(crawler)

    def process_request(self, request: Request, spider=None) -> None:
        if "search_page" not in request.meta:
            return None  # not a query
        spider = self.crawler.spider
        health = getattr(spider, "engine_health", {}).get(request.meta.get("engine"))
        if health is None or health.available(time.monotonic()):
            return None
        name = request.meta["engine"]
        if health.unreachable is not None:
            self.crawler.stats.inc_value(f"topiccrawler/search/{name}/not_asked")
            raise IgnoreRequest(f"search engine '{name}' cannot be reached")
        spider.hold_query(name, request)
        raise IgnoreRequest(f"search engine '{name}' is backing off")

    def process_response(self, request: Request, response: Response, spider=None) -> Response:
        """A captcha or rate limit backs the engine off now, before the downloader takes the
        next query (the spider would see it only after the response has been queued)."""
        if "search_page" not in request.meta:
            return response
        spider = self.crawler.spider
        name = request.meta.get("engine")
        engine = getattr(spider, "engines", {}).get(name)
        health = getattr(spider, "engine_health", {}).get(name)
        if engine is None or health is None:
            return response
        text = response.text if isinstance(response, TextResponse) else ""
        request.meta["engine_checked"] = True
        try:
            engine.check_response(response.status, response.url, text)
        except EngineBlocked as blocked:
            request.meta["engine_blocked"] = blocked.reason
            if health.available(time.monotonic()):  # not backing off yet: now
                spider._back_off(name, health, blocked.reason, time.monotonic())
        return response

    def process_exception(self, request: Request, exception: BaseException, spider=None) -> None:
        if "search_page" in request.meta and isinstance(exception, UNREACHABLE):
            report = getattr(self.crawler.spider, "engine_unreachable", None)
            if report is not None:
                report(request.meta["engine"], exception, request)
        return None
