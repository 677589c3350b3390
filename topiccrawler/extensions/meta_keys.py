"""An extension for whoever adds a component: with META_KEYS_CHECK on, every request.meta key
seen during the crawl (requests scheduled, responses received) is held against the declared
ones (topiccrawler/meta.py) and Scrapy's; an undeclared key is logged once and counted
(`topiccrawler/meta/undeclared/<key>`). The test suite crawls the sandbox with it on."""

from __future__ import annotations

import logging

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.meta import DECLARED, SCRAPY_KEYS

logger = logging.getLogger(__name__)


class MetaKeysCheck:
    def __init__(self, crawler: Crawler):
        self.stats = crawler.stats
        self.known = DECLARED | SCRAPY_KEYS
        self.reported: set[str] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> MetaKeysCheck:
        if not crawler.settings.getbool("META_KEYS_CHECK"):
            raise NotConfigured
        check = cls(crawler)
        crawler.signals.connect(check.request_scheduled, signal=signals.request_scheduled)
        crawler.signals.connect(check.response_received, signal=signals.response_received)
        return check

    def request_scheduled(self, request, **kwargs) -> None:
        self.check(request.meta)

    def response_received(self, response, request, **kwargs) -> None:
        self.check(request.meta)

    def check(self, meta: dict) -> None:
        for key in meta.keys() - self.known:
            self.stats.inc_value(f"topiccrawler/meta/undeclared/{key}")
            if key not in self.reported:
                self.reported.add(key)
                logger.warning("request.meta key %r is not declared in topiccrawler/meta.py", key)
