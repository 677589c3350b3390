"""The one spider: `scrapy crawl topic -a topic=tax`.

Entrances yield the first requests; every HTML response becomes a PageItem that the pipelines
extract, dedupe, score and store; links are followed within each entrance's limits.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime
from typing import Any

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import UsageError
from scrapy.http import Response, TextResponse
from scrapy.linkextractors import LinkExtractor

from topiccrawler.extract.encoding import decode_html, looks_binary
from topiccrawler.items import PageItem
from topiccrawler.topics import (
    AuthoritySite,
    Topic,
    TopicFileError,
    UnknownTopicError,
    load_topic_from_settings,
)
from topiccrawler.urls import host_in_domains

logger = logging.getLogger(__name__)

HTML_TYPES = ("text/html", "application/xhtml+xml")


class TopicSpider(Spider):
    """Crawls one topic from its seed file; arguments: topic, keywords (path), seeds (path)."""

    name = "topic"

    def __init__(
        self,
        topic: str | None = None,
        keywords: str | None = None,
        seeds: str | None = None,
        *args: Any,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.topic_name = topic
        self.keywords_path = keywords
        self.seeds_path = seeds
        self.topic: Topic
        self.site_requests: Counter[str] = Counter()
        self.link_extractor = LinkExtractor()

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> TopicSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        try:
            spider.topic = load_topic_from_settings(
                crawler.settings, spider.topic_name, spider.keywords_path, spider.seeds_path
            )
        except (UnknownTopicError, TopicFileError) as exc:
            logger.error("%s", exc)
            raise UsageError(str(exc)) from exc
        spider.topic_name = spider.topic.name
        logger.info(
            "Topic '%s': %d terms, %d authority sites, %d engines",
            spider.topic.name,
            len(spider.topic.keywords.terms),
            len(spider.topic.seeds.authority),
            len(spider.topic.seeds.engines),
        )
        return spider

    async def start(self) -> AsyncIterator[Request]:
        for site in self.topic.seeds.authority:
            for url in site.start_urls:
                if self._take_budget(site):
                    yield self._authority_request(url, site)

    # --- authority entrance ---------------------------------------------------------------------

    def _authority_request(self, url: str, site: AuthoritySite) -> Request:
        return Request(
            url,
            callback=self.parse,
            errback=self.on_error,
            meta={"entrance": "authority", "authority_site": site.name},
        )

    def _take_budget(self, site: AuthoritySite) -> bool:
        """Count a request against the site's max_pages; False once the budget is spent."""
        if self.site_requests[site.name] >= site.max_pages:
            self.crawler.stats.inc_value("topiccrawler/links/over_site_budget")
            return False
        self.site_requests[site.name] += 1
        return True

    def _authority_site(self, response: Response) -> AuthoritySite | None:
        name = response.meta.get("authority_site")
        return next((s for s in self.topic.seeds.authority if s.name == name), None)

    # --- responses ------------------------------------------------------------------------------

    def parse(self, response: Response) -> Iterator[Any]:
        page = self.page_item(response)
        if page is None:
            return
        yield page
        site = self._authority_site(response)
        if site is None or response.meta.get("depth", 0) >= site.depth_limit:
            return
        decoded = response.replace(encoding=page.encoding)
        assert isinstance(decoded, TextResponse)
        for link in self.link_extractor.extract_links(decoded):
            if host_in_domains(link.url, site.allowed_domains) and self._take_budget(site):
                yield self._authority_request(link.url, site)

    def page_item(self, response: Response) -> PageItem | None:
        """A PageItem for an HTML response; None (with a logged reason) for anything else."""
        content_type = response.headers.get(b"Content-Type", b"").decode("latin-1")
        mime = content_type.split(";", 1)[0].strip().lower()
        if mime and mime not in HTML_TYPES:
            return self._skip(response, "not_html", f"content type {mime!r}")
        if looks_binary(response.body):
            return self._skip(response, "binary", "binary content served as HTML")
        encoding, html = decode_html(response.body, content_type or None)
        referrer = response.request.headers.get(b"Referer") if response.request else None
        return PageItem(
            url=response.url,
            topic=self.topic.name,
            status=response.status,
            fetched_at=datetime.now(UTC),
            html=html,
            encoding=encoding,
            content_type=content_type or None,
            entrance=response.meta.get("entrance", "link"),
            depth=response.meta.get("depth", 0),
            referrer=referrer.decode("latin-1") if referrer else None,
        )

    def _skip(self, response: Response, reason: str, detail: str) -> None:
        self.crawler.stats.inc_value(f"topiccrawler/skipped/{reason}")
        logger.info("Skipped %s: %s", response.url, detail)
        return None

    def on_error(self, failure) -> None:
        """Log failed requests once, briefly; Scrapy's retry middleware has already retried."""
        request = failure.request if hasattr(failure, "request") else None
        self.crawler.stats.inc_value("topiccrawler/fetch/failed")
        logger.info("Failed %s: %s", getattr(request, "url", "?"), failure.getErrorMessage())
