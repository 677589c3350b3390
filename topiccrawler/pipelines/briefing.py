"""Pipeline stage 4: the briefing of each kept page (keywords, a summary, the people, places and
organisations it names), stored with it so that `topiccrawler report` and SQL users read them
without re-reading every body. Pages below η and reposts' bodies are briefed too when their text
is stored; a page with no text gets nothing."""

from __future__ import annotations

import logging

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.briefing import brief
from topiccrawler.items import PageItem
from topiccrawler.relevance.tokenizer import Tokenizer

logger = logging.getLogger(__name__)


class BriefingPipeline:
    def __init__(self, crawler: Crawler, n_keywords: int, n_sentences: int, n_entities: int):
        self.crawler = crawler
        self.n_keywords = n_keywords
        self.n_sentences = n_sentences
        self.n_entities = n_entities
        self.tokenizer: Tokenizer | None = None  # made when the spider opens, with its topic
        self.topic_terms: frozenset[str] = frozenset()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BriefingPipeline:
        settings = crawler.settings
        if not settings.getbool("BRIEFING_ENABLED"):
            raise NotConfigured("BRIEFING_ENABLED is False")
        return cls(
            crawler,
            settings.getint("BRIEFING_KEYWORDS"),
            settings.getint("BRIEFING_SUMMARY_SENTENCES"),
            settings.getint("BRIEFING_ENTITIES"),
        )

    def open_spider(self) -> None:
        topic = getattr(self.crawler.spider, "topic", None)
        words = topic.keywords.all_words if topic is not None else ()
        self.topic_terms = frozenset(words)
        # The topic's words, as the scorer and the dedup pipeline have: one segmenter for all.
        self.tokenizer = Tokenizer(words)

    def process_item(self, item):
        if not isinstance(item, PageItem) or not (item.body or "").strip():
            return item
        try:
            found = brief(
                item.title,
                item.body,
                self.tokenizer,
                self.topic_terms,
                self.n_keywords,
                self.n_sentences,
                self.n_entities,
            )
        except Exception:  # a briefing is extra: the page is stored without one
            logger.exception("Briefing failed for %s; the page is stored without it", item.url)
            return item
        item.keywords = found.keywords
        item.summary = found.summary or None
        item.entities = [
            {"name": e.name, "kind": e.kind, "mentions": e.mentions} for e in found.entities
        ]
        return item
