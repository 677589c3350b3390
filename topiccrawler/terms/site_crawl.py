"""A small crawl of one authority site whose page texts bootstrap a topic's vocabulary (the seed
paper §2.2; `topiccrawler terms bootstrap`). Nothing is stored: the texts stay on the spider for
the command to count, and the topic pipeline, relevance and known-URL components are off. It
lives here, not in `spiders/`, because it is a part of that command, not a crawl to run alone.
"""

from __future__ import annotations

import logging
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request, Spider
from scrapy.http import Response, TextResponse
from scrapy.linkextractors import LinkExtractor

from topiccrawler.extract.encoding import decode_html, looks_binary
from topiccrawler.extract.page import extract_page
from topiccrawler.urls import host_in_domains

logger = logging.getLogger(__name__)


class BootstrapSpider(Spider):
    name = "bootstrap"
    custom_settings = {
        "ITEM_PIPELINES": {},
        "SPIDER_MIDDLEWARES": {"topiccrawler.middlewares.relevance.RelevanceMiddleware": None},
        "DOWNLOADER_MIDDLEWARES": {"topiccrawler.middlewares.known_urls.KnownUrlsMiddleware": None},
        "EXTENSIONS": {"topiccrawler.extensions.crawl_run.CrawlRunRecorder": None},
    }

    def __init__(self, site: str, max_pages: int | str = 200, **kwargs: Any):
        super().__init__(**kwargs)
        self.site = site
        self.max_pages = int(max_pages)
        self.domains = (urlsplit(site).hostname or "",)
        self.requested = 1
        self.texts: list[str] = []
        self.link_extractor = LinkExtractor()

    async def start(self):
        yield Request(self.site, callback=self.parse)

    def parse(self, response: Response):
        if not isinstance(response, TextResponse) or looks_binary(response.body):
            return
        encoding, html = decode_html(
            response.body, response.headers.get(b"Content-Type", b"").decode("latin-1") or None
        )
        content = extract_page(html, response.url, records=None)  # title and body are enough
        if content.error:
            logger.info("Extraction fell short on %s: %s", response.url, content.error)
        self.texts.append(f"{content.title or ''}\n{content.body}")
        for link in self.link_extractor.extract_links(response.replace(encoding=encoding)):
            if self.requested >= self.max_pages:
                return
            if host_in_domains(link.url, self.domains):
                self.requested += 1
                yield Request(link.url, callback=self.parse)
