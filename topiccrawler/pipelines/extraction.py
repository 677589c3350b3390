"""Pipeline stage 1: turn a page's HTML into title, body and metadata.

Extraction never loses a page: one that does not parse, or on which a step fails, is stored with
what could be read, and the reason and the page's size go into its `relevance_detail` under
"extraction" (the JSON of reasons stored with every page), e.g.
`{"extraction": {"error": "no element in document", "raw_bytes": 1234}}`.
"""

from __future__ import annotations

import logging

from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings
from scrapy.statscollectors import StatsCollector

from topiccrawler.extract.page import extract_page
from topiccrawler.extract.records.comments import RecordOptions
from topiccrawler.extract.records.forum import ForumOptions
from topiccrawler.guard.text import drop_html_controls, make_inert
from topiccrawler.items import PageItem, SearchResultsItem

logger = logging.getLogger(__name__)


class ExtractionPipeline:
    """Fills the extracted fields of a PageItem; a page extraction fell short on is kept, with
    the reason."""

    def __init__(self, stats: StatsCollector, records: RecordOptions | None):
        self.stats = stats
        self.records = records

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> ExtractionPipeline:
        return cls(crawler.stats, record_options(crawler.settings))

    def process_item(self, item):
        if isinstance(item, SearchResultsItem):
            return make_inert(item)  # hit titles and snippets are crawled text too
        if not isinstance(item, PageItem):
            return item
        extract_into(item, self.records)  # a no-op when the relevance middleware did it
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
        return item


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
