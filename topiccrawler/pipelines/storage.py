"""Pipeline stage 4: write pages (with comments, posts, threads) and search answers to SQL in
small batches."""

from __future__ import annotations

import logging
import time

from scrapy.crawler import Crawler
from sqlalchemy.exc import SQLAlchemyError

from topiccrawler.extensions.crawl_run import CrawlRunRecorder
from topiccrawler.items import LinkFailureItem, PageCheckedItem, PageItem, SearchResultsItem
from topiccrawler.signals import items_stored
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.db import Database
from topiccrawler.storage.writer import (
    WriteCounts,
    store_check,
    store_failure,
    store_page,
    store_search,
)

Storable = PageItem | SearchResultsItem | LinkFailureItem | PageCheckedItem

logger = logging.getLogger(__name__)


class StoragePipeline:
    """Buffers pages and commits them every STORAGE_BATCH_SIZE items or STORAGE_FLUSH_INTERVAL
    seconds, and on close, so an interrupted crawl loses at most the last partial batch of an
    unclean kill (a Ctrl-C closes the spider, which flushes)."""

    def __init__(
        self,
        crawler: Crawler,
        database: Database,
        batch_size: int,
        flush_interval: float,
        dead_link_failures: int = 3,
    ):
        self.crawler = crawler
        self.database = database
        self.dead_link_failures = dead_link_failures
        self.batch_size = max(1, batch_size)
        self.flush_interval = flush_interval
        self.buffer: list[Storable] = []
        self.last_flush = time.monotonic()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StoragePipeline:
        return cls(
            crawler,
            database_for(crawler),
            crawler.settings.getint("STORAGE_BATCH_SIZE"),
            crawler.settings.getfloat("STORAGE_FLUSH_INTERVAL"),
            crawler.settings.getint("DEAD_LINK_MAX_FAILURES"),
        )

    def process_item(self, item):
        if isinstance(item, Storable):
            self.buffer.append(item)
            due = time.monotonic() - self.last_flush >= self.flush_interval
            if len(self.buffer) >= self.batch_size or due:
                self.flush()
        return item

    def close_spider(self) -> None:
        self.flush()

    @property
    def crawl_run_id(self) -> int | None:
        recorder = self.crawler.get_extension(CrawlRunRecorder)
        return recorder.run_id if recorder else None

    def flush(self) -> None:
        """Write the buffer in one transaction; if that fails, item by item so one bad item
        costs only itself (logged with its URL)."""
        batch, self.buffer = self.buffer, []
        self.last_flush = time.monotonic()
        if batch:
            self._write(batch)
        self.crawler.signals.send_catch_log(items_stored)

    def _write(self, batch: list[Storable]) -> None:
        run_id = self.crawl_run_id
        counts = WriteCounts()
        try:
            with self.database.session() as session, session.begin():
                for item in batch:
                    counts.add(self._store(session, item, run_id))
        except SQLAlchemyError:
            logger.warning(
                "Batch of %d pages failed; storing one by one", len(batch), exc_info=True
            )
            counts = WriteCounts()
            for item in batch:
                try:
                    with self.database.session() as session, session.begin():
                        counts.add(self._store(session, item, run_id))
                except SQLAlchemyError as exc:
                    self.crawler.stats.inc_value("topiccrawler/storage/failed")
                    logger.error("Could not store %s: %s", _describe(item), exc)
        stats = self.crawler.stats
        stats.inc_value("topiccrawler/storage/pages", counts.pages)
        stats.inc_value("topiccrawler/storage/comments_new", counts.comments)
        stats.inc_value("topiccrawler/storage/posts_new", counts.posts)
        stats.inc_value("topiccrawler/storage/threads", counts.threads)
        stats.inc_value("topiccrawler/storage/search_queries", counts.queries)
        stats.inc_value("topiccrawler/storage/search_results", counts.results)
        stats.inc_value("topiccrawler/storage/link_failures", counts.failures)
        stats.inc_value("topiccrawler/storage/not_modified", counts.checked)

    def _store(self, session, item: Storable, run_id: int | None) -> WriteCounts:
        if isinstance(item, SearchResultsItem):
            return store_search(session, item, run_id)
        if isinstance(item, LinkFailureItem):
            return store_failure(session, item, self.dead_link_failures)
        if isinstance(item, PageCheckedItem):
            return store_check(session, item)
        return store_page(session, item, run_id)


def _describe(item: Storable) -> str:
    if isinstance(item, SearchResultsItem):
        return f"{item.engine} query {item.query!r} page {item.page}"
    return item.url
