"""Pipeline stage 1: turn a page's HTML into title, body and metadata."""

from __future__ import annotations

import logging

from scrapy.crawler import Crawler
from scrapy.exceptions import DropItem
from scrapy.statscollectors import StatsCollector

from topiccrawler.extract.page import extract_page
from topiccrawler.extract.parse import ExtractionError
from topiccrawler.items import PageItem

logger = logging.getLogger(__name__)


class ExtractionPipeline:
    """Fills the extracted fields of a PageItem; a page that cannot be parsed is dropped."""

    def __init__(self, stats: StatsCollector):
        self.stats = stats

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        return cls(crawler.stats)

    def process_item(self, item):
        if not isinstance(item, PageItem):
            return item
        try:
            extract_into(item)  # a no-op when the relevance middleware did it already
        except ExtractionError as exc:
            self.stats.inc_value("topiccrawler/extraction/failed")
            raise DropItem(f"cannot extract {item.url}: {exc}") from exc
        self.stats.inc_value("topiccrawler/extraction/pages")
        return item


def extract_into(item: PageItem) -> None:
    """Fill a page's extracted fields from its HTML, once (raises ExtractionError)."""
    if item.extracted:
        return
    content = extract_page(item.html, item.url, fetched_at=item.fetched_at)
    item.title = content.title
    item.body = content.body
    item.published = content.published
    item.published_at = content.published_at
    item.author = content.author
    item.source = content.source
    item.link_density = content.link_density
    item.blocks = content.blocks
    item.extracted = True
