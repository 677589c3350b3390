"""Pipeline stage 2: mark reposts. A page whose title is a near-duplicate of an earlier page's
(TF-IDF cosine ≥ DEDUP_THRESHOLD after normalisation) on another site, and whose body does not
say otherwise (SimHash), gets `duplicate_of` = that page's URL; it is still stored, so where a
story spread can be listed (`topiccrawler stories`)."""

from __future__ import annotations

import logging
import time

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.dedup.index import TitleIndex
from topiccrawler.dedup.simhash import simhash
from topiccrawler.dedup.titles import normalize_title
from topiccrawler.items import PageItem
from topiccrawler.relevance.tokenizer import Tokenizer
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.db import Database
from topiccrawler.storage.titles import load_stored_titles
from topiccrawler.urls import site_of

logger = logging.getLogger(__name__)


class DedupPipeline:
    def __init__(
        self,
        crawler: Crawler,
        threshold: float,
        refresh_interval: float,
        database: Database | None,
        same_site: bool = False,
        max_titles: int = 0,
    ):
        self.crawler = crawler
        self.max_titles = max_titles  # past it the index keeps its newest half (0: no bound)
        self.same_site = same_site
        self.index = TitleIndex(threshold=threshold)
        self.refresh_interval = refresh_interval
        self.database = database
        self.tokenizer: Tokenizer | None = None
        self.topic: str | None = None
        self.last_stored_id = 0
        self.last_refresh = 0.0

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DedupPipeline:
        settings = crawler.settings
        if not settings.getbool("DEDUP_ENABLED"):
            raise NotConfigured("DEDUP_ENABLED is False")
        try:
            database = database_for(crawler)
        except NotConfigured:
            database = None  # dedup within this crawl only
        return cls(
            crawler,
            settings.getfloat("DEDUP_THRESHOLD"),
            settings.getfloat("DEDUP_REFRESH_INTERVAL"),
            database,
            same_site=settings.getbool("DEDUP_SAME_SITE"),
            max_titles=settings.getint("DEDUP_MAX_TITLES"),
        )

    def open_spider(self) -> None:
        topic = crawl_topic(self.crawler).topic
        self.topic = topic.name if topic is not None else None
        self.tokenizer = Tokenizer(topic.keywords.all_words if topic else ())
        started = time.monotonic()
        self.refresh()
        if len(self.index):
            logger.info(
                "Dedup index: %d stored titles loaded in %.1f s",
                len(self.index),
                time.monotonic() - started,
            )

    def refresh(self) -> None:
        """Take in titles other processes (or earlier runs) stored since the last look."""
        self.last_refresh = time.monotonic()
        if self.database is None or self.topic is None:
            return
        with self.database.session() as session:
            self.last_stored_id = load_stored_titles(
                session, self.index, self.topic, self.last_stored_id
            )
        self.bound()

    def bound(self) -> None:
        """Past DEDUP_MAX_TITLES titles, keep the newest half (a repost is found against the
        titles of its time; a long crawl's index stops growing). Rebuilt at once: a pause of
        about a second per 100,000 titles kept, once per half of the bound."""
        if self.max_titles and len(self.index) > self.max_titles:
            self.index = self.index.newest(self.max_titles // 2)
            self.crawler.stats.inc_value("topiccrawler/dedup/index_trimmed")

    def process_item(self, item):
        """Mark a repost; a failure here is logged and the page stored unmarked, never lost."""
        if not isinstance(item, PageItem) or not item.title or self.tokenizer is None:
            return item
        try:
            self.mark(item)
        except Exception:
            self.crawler.stats.inc_value("topiccrawler/dedup/failed")
            logger.exception("Dedup failed on %s; stored without a decision", item.url)
        return item

    def mark(self, item: PageItem) -> None:
        tokens = self.tokenizer.tokens(normalize_title(item.title))
        if not tokens:
            return
        item.title_key = " ".join(tokens)
        item.body_hash = simhash(item.body)
        if time.monotonic() - self.last_refresh >= self.refresh_interval:
            self.refresh()
        if item.url in self.index:
            return  # a page seen before: its decision stands
        skip = None
        if not self.same_site:
            site = site_of(item.url)
            skip = lambda key: site_of(key) == site  # noqa: E731 (pagination shares titles)
        match = self.index.best_match(
            tokens, exclude=item.url, skip=skip, fingerprint=item.body_hash
        )
        if match is not None:
            item.duplicate_of = match.key
            self.crawler.stats.inc_value("topiccrawler/dedup/duplicates")
            logger.debug("Repost: %s repeats %s (cos %.2f)", item.url, match.key, match.similarity)
        self.index.add(item.url, tokens, item.body_hash)
        self.bound()
