"""Spider middleware: extraction, once, as pages leave the spider (SPEC §3–§5): title, body,
metadata, comments, forum posts and thread lists. Everything after it (the relevance judge, the
frontier, the pipelines) reads what it found.

It sits between the spider and the relevance judge because a page must be read before it is
judged, and judged before its links are scheduled. Extraction never loses a page: one that does
not parse, or on which a step fails, is kept with what could be read, and the reason and the
page's size go into its `relevance_detail` under "extraction" (the JSON of reasons stored with
every page), e.g. `{"extraction": {"error": "no element in document", "raw_bytes": 1234}}`.
Search-result items pass through it too: hit titles and snippets are crawled text, made inert.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from typing import Any

from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings
from scrapy.statscollectors import StatsCollector

from topiccrawler.extract.page import extract_page
from topiccrawler.extract.records.comments import RecordOptions
from topiccrawler.extract.records.forum import ForumOptions
from topiccrawler.guard.text import drop_html_controls, make_inert
from topiccrawler.items import PageItem, SearchResultsItem

logger = logging.getLogger(__name__)


class ExtractionMiddleware:
    """Fills the extracted fields of every PageItem; a page extraction fell short on is kept,
    with the reason."""

    def __init__(self, stats: StatsCollector, records: RecordOptions | None):
        self.stats = stats
        self.records = records

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionMiddleware:
        return cls(crawler.stats, record_options(crawler.settings))

    def process_spider_output(self, response, result: Iterable[Any], spider=None):
        for output in result:
            yield self.process(output)

    async def process_spider_output_async(self, response, result: AsyncIterator[Any], spider=None):
        async for output in result:
            yield self.process(output)

    def process(self, output: Any) -> Any:
        if isinstance(output, SearchResultsItem):
            return make_inert(output)
        if isinstance(output, PageItem) and not output.extracted:
            extract_into(output, self.records)
            self._count(output)
        return output

    def _count(self, item: PageItem) -> None:
        if item.extraction_error:
            self.stats.inc_value("topiccrawler/extraction/failed")
            logger.info("Extraction fell short on %s: %s", item.url, item.extraction_error)
            raw = item.raw_size if item.raw_size is not None else len(item.html.encode("utf-8"))
            item.relevance_detail = {
                **(item.relevance_detail or {}),
                "extraction": {"error": item.extraction_error, "raw_bytes": raw},
            }
        self.stats.inc_value("topiccrawler/extraction/pages")
        self.stats.inc_value("topiccrawler/extraction/comments", len(item.comments))
        self.stats.inc_value("topiccrawler/extraction/posts", len(item.posts))
        self.stats.inc_value("topiccrawler/extraction/threads", len(item.threads))


def record_options(settings: BaseSettings) -> RecordOptions | None:
    """Comment and forum detection parameters from the settings; None when RECORDS_ENABLED is
    False."""
    if not settings.getbool("RECORDS_ENABLED"):
        return None
    return RecordOptions(
        measure=settings.get("COMMENT_MEASURE"),
        similarity=settings.getfloat("COMMENT_SIMILARITY"),
        level=settings.getint("COMMENT_LEVEL"),
        min_blocks=settings.getint("COMMENT_MIN_BLOCKS"),
        min_blocks_with_evidence=settings.getint("COMMENT_MIN_BLOCKS_WITH_EVIDENCE"),
        forum=ForumOptions(
            similarity=settings.getfloat("FORUM_SIMILARITY"),
            weights=tuple(float(w) for w in settings.getlist("FORUM_WEIGHTS")),
            min_blocks=settings.getint("FORUM_MIN_BLOCKS"),
        ),
    )


def extract_into(item: PageItem, records: RecordOptions | None = RecordOptions()) -> None:
    """Fill a page's extracted fields from its HTML, once; never raises (`extraction_error`
    says what fell short)."""
    if item.extracted:
        return
    # Control characters in the source are dropped first (lxml refuses them in text it sets),
    # and again from what extraction gives (character references such as &#27; make them).
    item.html = drop_html_controls(item.html)
    content = extract_page(item.html, item.url, fetched_at=item.fetched_at, records=records)
    item.title = content.title
    item.body = content.body
    item.published = content.published
    item.published_at = content.published_at
    item.author = content.author
    item.source = content.source
    item.link_density = content.link_density
    item.blocks = content.blocks
    item.comments = content.records.comments
    item.posts = content.records.posts
    item.threads = content.records.threads
    item.extraction_error = content.error
    make_inert(item)  # crawled text is data: no control characters in anything stored
    item.extracted = True
