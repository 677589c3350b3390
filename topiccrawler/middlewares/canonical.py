"""Spider middleware: a page's rel=canonical claim (URL_CANONICAL_LINKS).

A page that names another URL as its canonical address (`<link rel="canonical">` in its head) is
that page: the page item keeps the address (`canonical_url`), and the canonical URL is marked
seen in the scheduler's duplicate filter (Scrapy's public `scheduler.df`, the shared Bloom filter
in a shared crawl), so a link to it is not fetched again (`topiccrawler/links/canonical_claimed`).
The claim is made as the page item passes, before the page's links follow it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from topiccrawler.items import PageItem
from topiccrawler.responses import in_encoding
from topiccrawler.urls import strip_tracking

CANONICAL = "//head/link[@rel='canonical']/@href"


class CanonicalLinksMiddleware:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        self.tracking_parameters = tuple(crawler.settings.getlist("URL_TRACKING_PARAMETERS"))

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CanonicalLinksMiddleware:
        if not crawler.settings.getbool("URL_CANONICAL_LINKS"):
            raise NotConfigured("URL_CANONICAL_LINKS is False")
        return cls(crawler)

    def process_spider_output(self, response: Response, result: Iterable[Any], spider=None):
        for output in result:
            if isinstance(output, PageItem):
                self.claim(response, output)
            yield output

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider=None
    ):
        async for output in result:
            if isinstance(output, PageItem):
                self.claim(response, output)
            yield output

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
        scheduler = getattr(getattr(self.crawler, "engine", None), "scheduler", None)
        dupefilter = getattr(scheduler, "df", None)
        if dupefilter is not None and not dupefilter.request_seen(Request(canonical)):
            self.stats.inc_value("topiccrawler/links/canonical_claimed")
