"""Spider middleware: a page's rel=canonical claim (URL_CANONICAL_LINKS).

A page that names another URL as its canonical address (`<link rel="canonical">` in its head) is
that page: the page item keeps the address (`canonical_url`), and the canonical URL is marked
seen in the scheduler's duplicate filter (Scrapy's public `scheduler.df`, the shared Bloom filter
in a shared crawl), so a link to it is not fetched again (`topiccrawler/links/canonical_claimed`).
The claim is made as the page item passes, before the page's links follow it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from topiccrawler.items import PageItem
from topiccrawler.responses import in_encoding
from topiccrawler.urls import strip_tracking

CANONICAL = "//head/link[@rel='canonical']/@href"


class CanonicalLinksMiddleware(BaseSpiderMiddleware):
    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        self.stats = crawler.stats
        self.tracking_parameters = tuple(crawler.settings.getlist("URL_TRACKING_PARAMETERS"))

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CanonicalLinksMiddleware:
        if not crawler.settings.getbool("URL_CANONICAL_LINKS"):
            raise NotConfigured("URL_CANONICAL_LINKS is False")
        return cls(crawler)

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if isinstance(item, PageItem) and response is not None:
            self.claim(response, item)
        return item

    def canonical_url(self, response: Response, page: PageItem) -> str | None:
        """The address the page names as its own, when it is another http(s) URL."""
        if page.html and "canonical" not in page.html:
            return None  # (the page would be parsed here for the claim alone: most make none)
        decoded = in_encoding(response, page.encoding)  # as the spider decoded the page
        href = decoded.xpath(CANONICAL).get()
        if not href:
            return None
        canonical = decoded.urljoin(href.strip())
        if urlsplit(canonical).scheme not in ("http", "https"):
            return None
        canonical = strip_tracking(canonical, self.tracking_parameters)
        return None if canonical == response.url else canonical

    def claim(self, response: Response, page: PageItem) -> None:
        canonical = self.canonical_url(response, page)
        if canonical is None:
            return
        page.canonical_url = canonical
        dupefilter = self.crawler.engine.scheduler.df  # Scrapy's, or the shared Bloom filter
        if dupefilter is not None and not dupefilter.request_seen(Request(canonical)):
            self.stats.inc_value("topiccrawler/links/canonical_claimed")
