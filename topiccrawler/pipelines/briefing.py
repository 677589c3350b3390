"""Pipeline stage 4: the briefing of each kept page (keywords, a summary, the people, places and
organisations it names), stored with it so that `topiccrawler report` and SQL users read them
without re-reading every body. Pages below η and reposts' bodies are briefed too when their text
is stored; a page with no text gets nothing."""

from __future__ import annotations

import logging

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.briefing import BriefingOptions, brief_page
from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.items import PageItem
from topiccrawler.read_ahead import BRIEFING, take
from topiccrawler.relevance.tokenizer import Tokenizer

logger = logging.getLogger(__name__)


def briefing_options(crawler: Crawler) -> BriefingOptions:
    """The crawl's briefing options: BRIEFING_* and its topic's words."""
    settings = crawler.settings
    topic = crawl_topic(crawler).topic
    return BriefingOptions(
        tuple(topic.keywords.all_words) if topic is not None else (),
        settings.getint("BRIEFING_KEYWORDS"),
        settings.getint("BRIEFING_SUMMARY_SENTENCES"),
        settings.getint("BRIEFING_ENTITIES"),
    )


class BriefingPipeline:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.stats = crawler.stats
        self.options = BriefingOptions()  # set when the spider opens, with its topic
        self.tokenizer: Tokenizer | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BriefingPipeline:
        if not crawler.settings.getbool("BRIEFING_ENABLED"):
            raise NotConfigured("BRIEFING_ENABLED is False")
        return cls(crawler)

    def open_spider(self) -> None:
        self.options = briefing_options(self.crawler)
        # The topic's words, as the scorer and the dedup pipeline have: one segmenter for all.
        self.tokenizer = Tokenizer(self.options.topic_words)

    def process_item(self, item):
        if not isinstance(item, PageItem):
            return item
        # Briefed where the page was read (an extraction worker), if that was this very text.
        ahead = take(item.read_ahead, BRIEFING, item.title, item.body)
        if not (item.body or "").strip():
            return item
        if ahead is not None:
            found = ahead.value
            self.stats.inc_value("topiccrawler/briefing/in_worker")
        else:
            try:
                found = brief_page(item.title, item.body, self.options, self.tokenizer)
            except Exception:  # a briefing is extra: the page is stored without one
                logger.exception("Briefing failed for %s; the page is stored without it", item.url)
                return item
        item.keywords = found.keywords
        item.summary = found.summary or None
        item.entities = [
            {"name": e.name, "kind": e.kind, "mentions": e.mentions} for e in found.entities
        ]
        return item
