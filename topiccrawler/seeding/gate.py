"""A downloader middleware that keeps queries away from engines that cannot take them.

Every query is queued at the start of a crawl (the frontier ranks the hits), so when an engine
is down or blocked the requests for it are already waiting. Without this gate each of them would
be sent anyway: a refused or hanging engine would cost (retries × timeout) per query, and a
blocked one would be asked again during its back-off. Requests for an unreachable engine are
dropped (counted in `topiccrawler/search/<engine>/not_asked`); requests for one that backs off
are handed back to the spider, which sends them again when the back-off ends.
"""

from __future__ import annotations

import time

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest


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
