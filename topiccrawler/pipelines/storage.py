"""Pipeline stage 4: write pages (with comments, posts, threads) and search answers to SQL in
small batches, holding them in memory while the database is away."""

from __future__ import annotations

import errno
import hashlib
import logging
import os
import pickle
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path

from scrapy.crawler import Crawler
from scrapy.utils.defer import deferred_from_coro
from sqlalchemy.exc import DBAPIError, SQLAlchemyError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

try:
    import psycopg
except ImportError:  # PostgreSQL support not installed
    psycopg = None

from topiccrawler.items import SearchResultsItem
from topiccrawler.signals import crawl_run_opened, items_stored, storage_flush_requested
from topiccrawler.storage.access import driver_error
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.db import Database
from topiccrawler.storage.writer import Storable, WriteCounts, store_batch
from topiccrawler.topics.registry import project_root

logger = logging.getLogger(__name__)

OUTAGE, DISK_FULL = "outage", "disk_full"
# SQLite's words for "another writer holds the file" or "the file cannot be reached now".
SQLITE_OUTAGE = ("database is locked", "database table is locked", "unable to open database",
                 "disk i/o error", "database is busy")  # fmt: skip


class StorageFault(Exception):
    """The database as a whole failed (unreachable, locked, full), not one item: `unstored`
    holds the items of the batch that were not written."""

    def __init__(self, kind: str, cause: BaseException, unstored: list):
        super().__init__(f"{kind}: {cause}")
        self.kind, self.cause, self.unstored = kind, cause, unstored


def storage_fault(exc: BaseException) -> str | None:
    """OUTAGE when the database is unreachable or locked, DISK_FULL when it has no room, None
    when the error is about what was written (one bad item: store the others)."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 8:
        seen.append(current)
        wrapped = driver_error(current)
        current = wrapped if wrapped is not current else current.__cause__ or current.__context__
    for error in seen:
        message = str(error).lower()
        if (isinstance(error, OSError) and error.errno == errno.ENOSPC) or (
            "database or disk is full" in message or "no space left on device" in message
        ):
            return DISK_FULL
        if getattr(error, "sqlstate", None) == "53100":  # PostgreSQL disk_full
            return DISK_FULL
    for error in seen:
        if isinstance(error, PoolTimeoutError | ConnectionError | TimeoutError):
            return OUTAGE
        if isinstance(error, DBAPIError) and error.connection_invalidated:
            return OUTAGE
        if isinstance(error, sqlite3.OperationalError):
            return OUTAGE if any(words in str(error).lower() for words in SQLITE_OUTAGE) else None
        if psycopg is not None and isinstance(
            error, psycopg.OperationalError | psycopg.InterfaceError
        ):
            return OUTAGE  # connection lost or refused, server shutting down, lock timeout
    return None


class StoragePipeline:
    """Buffers pages and commits them every STORAGE_BATCH_SIZE items or STORAGE_FLUSH_INTERVAL
    seconds, and on close, so an interrupted crawl loses at most the last partial batch of an
    unclean kill (a Ctrl-C closes the spider, which flushes).

    One bad item costs only itself (the batch is retried item by item). A database that is gone
    (unreachable, locked by another writer) costs nothing: the items stay in memory and the write
    is retried with backoff; past STORAGE_MAX_PENDING items or STORAGE_OUTAGE_TIMEOUT seconds the
    crawl stops ("storage_unavailable"), and a full disk stops it at once ("disk_full"). Items
    still unwritten when the crawl closes are saved to STORAGE_SPILL_DIR and written by the next
    crawl into the same database."""

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
        settings = crawler.settings
        self.max_pending = max(self.batch_size, settings.getint("STORAGE_MAX_PENDING", 10_000))
        self.outage_timeout = settings.getfloat("STORAGE_OUTAGE_TIMEOUT", 300.0)
        self.first_retry = settings.getfloat("STORAGE_RETRY_DELAY", 1.0)
        self.max_retry = settings.getfloat("STORAGE_RETRY_MAX_DELAY", 30.0)
        spill_dir = settings.get("STORAGE_SPILL_DIR")
        self.spill_dir = Path(spill_dir) if spill_dir else project_root() / "data" / "unstored"
        self.outage_since: float | None = None
        self.retry_delay = self.first_retry
        self.retry_call = None
        self.stopping: str | None = None
        self.loaded: list[Path] = []  # files of saved items now in the buffer
        self.crawl_run_id: int | None = None  # the crawl run stored items are filed under
        self.search_index = settings.getbool("SEARCH_INDEX", True)  # pages searchable as stored

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> StoragePipeline:
        pipeline = cls(
            crawler,
            database_for(crawler),
            crawler.settings.getint("STORAGE_BATCH_SIZE"),
            crawler.settings.getfloat("STORAGE_FLUSH_INTERVAL"),
            crawler.settings.getint("DEAD_LINK_MAX_FAILURES"),
        )
        crawler.signals.connect(pipeline.crawl_run_opened, signal=crawl_run_opened)
        crawler.signals.connect(pipeline.flush_requested, signal=storage_flush_requested)
        return pipeline

    def open_spider(self) -> None:
        self._load_spilled()

    def process_item(self, item):
        if isinstance(item, Storable):
            self.buffer.append(item)
            if self.outage_since is not None or self.stopping:
                # The retry timer writes; here only the bound is watched.
                if len(self.buffer) >= self.max_pending and not self.stopping:
                    self._stop(
                        "storage_unavailable",
                        f"{len(self.buffer)} items wait for the database "
                        f"(STORAGE_MAX_PENDING {self.max_pending})",
                    )
                return item
            due = time.monotonic() - self.last_flush >= self.flush_interval
            if len(self.buffer) >= self.batch_size or due:
                self.flush()
        return item

    def close_spider(self) -> None:
        if self.retry_call is not None and self.retry_call.active():
            self.retry_call.cancel()
        self.retry_call = None
        if self.stopping != DISK_FULL:
            self.flush(final=True)
        if self.buffer:
            self._spill()

    def crawl_run_opened(self, run_id: int | None) -> None:
        """`crawl_run_opened`: what is stored from now on is filed under this run."""
        self.crawl_run_id = run_id

    def flush_requested(self) -> None:
        """`storage_flush_requested`: write what is held now (a shared crawl's scheduler frees
        the leases of requests whose items are stored)."""
        self.flush()

    def flush(self, final: bool = False) -> None:
        """Write the buffer in one transaction; if that fails for one item, item by item so
        one bad item costs only itself (logged with its URL); if it fails because the database
        is gone, keep everything and retry later. `items_stored` is sent after every flush."""
        batch, self.buffer = self.buffer, []
        self.last_flush = time.monotonic()
        try:
            if batch:
                self._write(batch)
        except StorageFault as fault:
            self.buffer = fault.unstored + self.buffer
            self._fault(fault, final)
        else:
            self._forget_loaded()
            if self.outage_since is not None:
                logger.info(
                    "Database back after %.0f s: the %d items held were stored",
                    time.monotonic() - self.outage_since, len(batch),
                )  # fmt: skip
                self.outage_since = None
                self.retry_delay = self.first_retry
        finally:
            self.crawler.signals.send_catch_log(items_stored, pending=len(self.buffer), final=final)

    def _fault(self, fault: StorageFault, final: bool) -> None:
        stats = self.crawler.stats
        if fault.kind == DISK_FULL:
            stats.inc_value("topiccrawler/storage/disk_full")
            if not self.stopping:
                self._stop("disk_full", f"the database's disk is full ({_first_line(fault.cause)})")
            return
        now = time.monotonic()
        if self.outage_since is None:
            self.outage_since = now
            stats.inc_value("topiccrawler/storage/outages")
            logger.warning(
                "Database unavailable (%s): holding %d items in memory, retrying",
                _first_line(fault.cause), len(self.buffer),
            )  # fmt: skip
        else:
            self.retry_delay = min(self.retry_delay * 2, self.max_retry)
        stats.inc_value("topiccrawler/storage/retries")
        stats.max_value("topiccrawler/storage/max_pending", len(self.buffer))
        if final:
            return
        down = now - self.outage_since
        if down >= self.outage_timeout and not self.stopping:
            self._stop(
                "storage_unavailable",
                f"the database has been unavailable for {down:.0f} s "
                f"(STORAGE_OUTAGE_TIMEOUT {self.outage_timeout:.0f}): {_first_line(fault.cause)}",
            )
        elif len(self.buffer) >= self.max_pending and not self.stopping:
            self._stop(
                "storage_unavailable",
                f"{len(self.buffer)} items wait for the database "
                f"(STORAGE_MAX_PENDING {self.max_pending})",
            )
        if not self.stopping and (self.retry_call is None or not self.retry_call.active()):
            from twisted.internet import reactor

            self.retry_call = reactor.callLater(self.retry_delay, self._retry)

    def _retry(self) -> None:
        self.retry_call = None
        if self.outage_since is not None and not self.stopping:
            self.flush()

    def _stop(self, reason: str, why: str) -> None:
        """Stop the crawl loudly: what is held is written at close if the database is back,
        else saved to STORAGE_SPILL_DIR."""
        self.stopping = reason
        logger.error("Stopping the crawl (%s): %s; %d items not yet stored",
                     reason, why, len(self.buffer))  # fmt: skip
        engine = self.crawler.engine
        if engine is not None and engine.spider is not None:
            deferred_from_coro(engine.close_spider_async(reason=reason))

    def _write(self, batch: list[Storable]) -> None:
        run_id = self.crawl_run_id
        counts = WriteCounts()
        try:
            with self.database.session() as session, session.begin():
                counts.add(self._store(session, batch, run_id))
        except (SQLAlchemyError, OSError) as exc:
            kind = storage_fault(exc)
            if kind is not None:
                raise StorageFault(kind, exc, batch) from exc
            logger.warning(
                "Batch of %d pages failed; storing one by one", len(batch), exc_info=True
            )
            counts = WriteCounts()
            for index, item in enumerate(batch):
                try:
                    with self.database.session() as session, session.begin():
                        counts.add(self._store(session, [item], run_id))
                except (SQLAlchemyError, OSError) as exc:
                    kind = storage_fault(exc)
                    if kind is not None:
                        self._count(counts)
                        raise StorageFault(kind, exc, batch[index:]) from exc
                    self.crawler.stats.inc_value("topiccrawler/storage/failed")
                    logger.error("Could not store %s: %s", _describe(item), exc)
        self._count(counts)

    def _count(self, counts: WriteCounts) -> None:
        stats = self.crawler.stats
        stats.inc_value("topiccrawler/storage/pages", counts.pages)
        stats.inc_value("topiccrawler/storage/comments_new", counts.comments)
        stats.inc_value("topiccrawler/storage/posts_new", counts.posts)
        stats.inc_value("topiccrawler/storage/threads", counts.threads)
        stats.inc_value("topiccrawler/storage/search_queries", counts.queries)
        stats.inc_value("topiccrawler/storage/search_results", counts.results)
        stats.inc_value("topiccrawler/storage/link_failures", counts.failures)
        stats.inc_value("topiccrawler/storage/not_modified", counts.checked)

    def _spill_path(self) -> Path:
        key = hashlib.sha256(self.database.url.encode()).hexdigest()[:12]
        return self.spill_dir / key

    def _spill(self) -> None:
        """Save what could not be written, so the next crawl into this database writes it."""
        folder = self._spill_path()
        count = len(self.buffer)
        path = folder / f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{os.getpid()}.pickle"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(".partial")
            with open(partial, "wb") as handle:
                pickle.dump(self.buffer, handle, protocol=pickle.HIGHEST_PROTOCOL)
                handle.flush()
                os.fsync(handle.fileno())
            partial.replace(path)
        except OSError as exc:
            logger.error("%d items could not be stored nor saved to %s (%s): they are lost",
                         count, path, exc)  # fmt: skip
            self.crawler.stats.inc_value("topiccrawler/storage/lost", count)
            return
        self._forget_loaded()  # their items are in the new file
        self.crawler.stats.set_value("topiccrawler/storage/spilled", count)
        logger.error("%d items could not be stored: saved to %s; the next crawl into this "
                     "database stores them", count, path)  # fmt: skip
        self.buffer = []

    def _load_spilled(self) -> None:
        """Items an earlier crawl saved because the database was away: queued first."""
        folder = self._spill_path()
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*.pickle")):
            try:
                with open(path, "rb") as handle:
                    items = pickle.load(handle)  # noqa: S301 (our own file, written above)
            except (OSError, pickle.UnpicklingError, EOFError, AttributeError) as exc:
                logger.error("Could not read saved items %s: %s", path, exc)
                continue
            self.buffer.extend(items)
            self.loaded.append(path)  # deleted once stored, or once saved again at close
            logger.info("%d items an earlier crawl could not store (%s) queued for storing",
                        len(items), path.name)  # fmt: skip
        if self.buffer:  # written by the first flush, with this run's id
            self.crawler.stats.set_value("topiccrawler/storage/unspilled", len(self.buffer))

    def _forget_loaded(self) -> None:
        for path in self.loaded:
            path.unlink(missing_ok=True)
        self.loaded = []

    def _store(self, session, items: list[Storable], run_id: int | None) -> WriteCounts:
        return store_batch(
            session, items, run_id, index=self.search_index,
            max_failures=self.dead_link_failures,
        )  # fmt: skip


def _describe(item: Storable) -> str:
    if isinstance(item, SearchResultsItem):
        return f"{item.engine} query {item.query!r} page {item.page}"
    return item.url


def _first_line(exc: BaseException) -> str:
    error = driver_error(exc)
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"
