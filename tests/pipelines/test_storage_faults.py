"""The storage pipeline when the database fails as a whole: locked by another writer, unreachable,
out of room. Real SQLite locks and a real PostgreSQL behind a loopback relay that is cut and
restored (the shared server itself is never stopped)."""

from __future__ import annotations

import errno
import logging
import select
import socket
import sqlite3
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

from scrapy.utils.defer import deferred_f_from_coro_f, maybe_deferred_to_future
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler
from sqlalchemy import event, func
from sqlalchemy import select as sql_select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from twisted.internet import reactor
from twisted.internet.defer import Deferred, succeed
from twisted.internet.task import deferLater

from tests.conftest import POSTGRES_URL
from tests.crawl import PROJECT_SETTINGS, crawl
from tests.servers import closed_port
from topiccrawler.items import PageItem
from topiccrawler.pipelines.storage import DISK_FULL, OUTAGE, StoragePipeline, storage_fault
from topiccrawler.signals import items_stored
from topiccrawler.storage import Database
from topiccrawler.storage.models import CrawlRun, Page


def page(n: int) -> PageItem:
    return PageItem(
        url=f"http://news.example/{n}", topic="tax", status=200,
        fetched_at=datetime.now(UTC), title=f"增值税 {n}", body="正文",
    )  # fmt: skip


class Engine:
    """What the pipeline needs of Scrapy's engine: a spider, and a way to close it."""

    spider = object()

    def __init__(self):
        self.reasons: list[str] = []

    def close_spider_async(self, *, reason: str) -> Deferred:
        self.reasons.append(reason)
        return succeed(None)


def pipeline(url: str, tmp_path: Path, **settings) -> StoragePipeline:
    crawler = get_crawler(
        settings_dict={
            **PROJECT_SETTINGS,
            "DATABASE_URL": url,
            "DATABASE_BUSY_TIMEOUT": 0.1,
            "STORAGE_BATCH_SIZE": 2,
            "STORAGE_RETRY_DELAY": 0.2,
            "STORAGE_RETRY_MAX_DELAY": 0.5,
            "STORAGE_SPILL_DIR": str(tmp_path / "unstored"),
            **settings,
        }
    )
    crawler.engine = Engine()
    built = build_from_crawler(StoragePipeline, crawler)
    built.signalled = []
    crawler.signals.connect(
        lambda pending: built.signalled.append(pending), items_stored, weak=False
    )
    built.open_spider()
    return built


def stored(database: Database) -> int:
    with database.session() as session:
        return session.scalar(sql_select(func.count()).select_from(Page))


def hold_sqlite_lock(path: Path, seconds: float) -> threading.Event:
    """A second connection takes the write lock (BEGIN EXCLUSIVE) and keeps it `seconds`."""
    taken = threading.Event()

    def hold():
        connection = sqlite3.connect(path, timeout=5)
        connection.isolation_level = None
        connection.execute("BEGIN EXCLUSIVE")
        taken.set()
        time.sleep(seconds)
        connection.execute("COMMIT")
        connection.close()

    threading.Thread(target=hold, daemon=True).start()
    assert taken.wait(5)
    return taken


def sleep(seconds: float):
    return maybe_deferred_to_future(deferLater(reactor, seconds, lambda: None))


@deferred_f_from_coro_f
async def test_a_locked_sqlite_file_is_waited_out_without_losing_an_item(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    storage = pipeline(f"sqlite:///{tmp_path / 'crawl.db'}", tmp_path)
    storage.process_item(page(0))
    storage.process_item(page(1))  # a batch of two: stored
    assert stored(storage.database) == 2

    hold_sqlite_lock(tmp_path / "crawl.db", 1.5)
    for n in range(2, 9):
        storage.process_item(page(n))
    assert storage.outage_since is not None and len(storage.buffer) == 7  # held, not dropped
    assert storage.crawler.stats.get_value("topiccrawler/storage/failed") is None
    assert storage.signalled[-1] == 2  # items_stored is sent after a failed flush too
    await sleep(3)  # retried with backoff until the lock goes
    assert stored(storage.database) == 9 and storage.buffer == []
    assert storage.outage_since is None and storage.crawler.engine.reasons == []
    stats = storage.crawler.stats
    assert stats.get_value("topiccrawler/storage/outages") == 1
    assert stats.get_value("topiccrawler/storage/retries") >= 2
    assert any("Database unavailable (OperationalError: database is locked)" in m
               for m in caplog.messages)  # fmt: skip
    assert any(m.startswith("Database back after") for m in caplog.messages)
    storage.close_spider()


def test_a_bad_item_costs_only_itself(tmp_path, caplog):
    storage = pipeline(f"sqlite:///{tmp_path / 'crawl.db'}", tmp_path)
    bad = page(1)
    bad.status = "not a number" * 10  # type: ignore[assignment]  (rejected by the column)
    bad.topic = None  # type: ignore[assignment]  (NOT NULL)
    storage.process_item(page(0))
    storage.process_item(bad)
    assert stored(storage.database) == 1
    assert storage.outage_since is None and storage.buffer == []
    assert storage.crawler.stats.get_value("topiccrawler/storage/failed") == 1
    assert any("Could not store http://news.example/1" in m for m in caplog.messages)


def test_past_the_bound_the_crawl_stops_loudly_and_keeps_the_items(tmp_path, caplog):
    url = f"sqlite:///{tmp_path / 'crawl.db'}"
    storage = pipeline(url, tmp_path, STORAGE_MAX_PENDING=5, STORAGE_OUTAGE_TIMEOUT=600)
    hold_sqlite_lock(tmp_path / "crawl.db", 30)
    for n in range(6):
        storage.process_item(page(n))
    assert storage.crawler.engine.reasons == ["storage_unavailable"]
    error = [r for r in caplog.records if r.levelno == logging.ERROR][0].getMessage()
    assert "Stopping the crawl (storage_unavailable): 5 items wait for the database" in error
    storage.close_spider()  # the database is still locked: saved to the spill folder
    assert storage.buffer == []
    assert storage.crawler.stats.get_value("topiccrawler/storage/spilled") == 6
    assert list((tmp_path / "unstored").glob("*/*.pickle"))


def test_items_saved_by_a_stopped_crawl_are_stored_by_the_next(tmp_path):
    url = f"sqlite:///{tmp_path / 'crawl.db'}"
    first = pipeline(url, tmp_path, STORAGE_OUTAGE_TIMEOUT=0)
    first.process_item(page(0))
    first.process_item(page(1))
    hold_sqlite_lock(tmp_path / "crawl.db", 1.5)
    for n in range(2, 5):
        first.process_item(page(n))
    assert first.crawler.engine.reasons == ["storage_unavailable"]  # outage past the timeout
    first.close_spider()
    assert stored(first.database) == 2 and first.crawler.stats.get_value(
        "topiccrawler/storage/spilled"
    ) in (2, 3)
    time.sleep(1.6)

    second = pipeline(url, tmp_path)
    assert second.crawler.stats.get_value("topiccrawler/storage/unspilled") in (2, 3)
    second.process_item(page(5))
    second.close_spider()
    assert stored(second.database) == 6
    assert not list((tmp_path / "unstored").glob("*/*.pickle"))  # nothing stored twice later


def test_a_full_disk_stops_the_crawl_at_once(tmp_path, caplog):
    url = f"sqlite:///{tmp_path / 'crawl.db'}"
    storage = pipeline(url, tmp_path, STORAGE_BATCH_SIZE=1)
    storage.process_item(page(0))
    with storage.database.engine.connect() as connection:
        pages = connection.exec_driver_sql("PRAGMA page_count").scalar()
    storage.database.engine.dispose()  # new connections get the limit: SQLite's real SQLITE_FULL
    event.listen(
        storage.database.engine, "connect",
        lambda dbapi, _record: dbapi.execute(f"PRAGMA max_page_count={pages}"),
    )  # fmt: skip
    big = page(1)
    big.body = "x" * 200_000
    storage.process_item(big)
    assert storage.crawler.engine.reasons == ["disk_full"]
    assert storage.crawler.stats.get_value("topiccrawler/storage/failed") is None
    assert any("Stopping the crawl (disk_full): the database's disk is full" in m
               and "database or disk is full" in m for m in caplog.messages)  # fmt: skip
    storage.close_spider()
    assert storage.crawler.stats.get_value("topiccrawler/storage/spilled") == 1


def test_faults_are_told_apart():
    def sqlite_error(message: str) -> OperationalError:
        return OperationalError("INSERT", {}, sqlite3.OperationalError(message))

    assert storage_fault(sqlite_error("database is locked")) == OUTAGE
    assert storage_fault(sqlite_error("database or disk is full")) == DISK_FULL
    assert storage_fault(sqlite_error("no such column: x")) is None
    assert storage_fault(OSError(errno.ENOSPC, "No space left on device")) == DISK_FULL
    assert storage_fault(ValueError("bad")) is None


class Relay:
    """A loopback TCP relay to PostgreSQL that can be cut (every connection dropped, new ones
    refused) and restored: the database goes away as a stopped server would, for this test's
    connections only."""

    def __init__(self, host: str, port: int):
        self.target = (host, port)
        self.port = closed_port()
        self.sockets: list[socket.socket] = []
        self.listener: socket.socket | None = None
        self.restore()

    def restore(self) -> None:
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", self.port))
        self.listener.listen()
        threading.Thread(target=self._accept, args=(self.listener,), daemon=True).start()

    def cut(self) -> None:
        self.listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread: no more accepts
        self.listener.close()
        for sock in self.sockets:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            sock.close()
        self.sockets = []

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()

    @staticmethod
    def _pipe(a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                ready, _, _ = select.select([a, b], [], [], 1)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    (b if sock is a else a).sendall(data)
        except (OSError, ValueError):  # a socket closed by cut() (its descriptor is -1)
            return


@deferred_f_from_coro_f
async def test_postgresql_going_away_and_coming_back_loses_nothing(postgres_url, tmp_path):
    parsed = make_url(postgres_url)
    relay = Relay(parsed.host or "127.0.0.1", parsed.port or 5432)
    url = parsed.set(host="127.0.0.1", port=relay.port).render_as_string(hide_password=False)
    storage = pipeline(url, tmp_path)
    try:
        storage.process_item(page(0))
        storage.process_item(page(1))
        assert stored(storage.database) == 2
        relay.cut()  # the server is gone: pooled connections die, new ones are refused
        for n in range(2, 7):
            storage.process_item(page(n))
        assert storage.outage_since is not None and len(storage.buffer) == 5
        await sleep(1)
        assert len(storage.buffer) == 5  # still away: retried, still held
        relay.restore()
        await sleep(2)
        assert storage.buffer == [] and stored(storage.database) == 7
        assert storage.crawler.engine.reasons == []
    finally:
        storage.close_spider()
        storage.database.dispose()
        relay.cut()


def test_an_unreachable_postgresql_stops_the_crawl_past_the_timeout(tmp_path):
    url = make_url(POSTGRES_URL).set(host="127.0.0.1", port=closed_port())
    storage = pipeline(url.render_as_string(hide_password=False), tmp_path,
                       DATABASE_AUTO_UPGRADE=False, STORAGE_OUTAGE_TIMEOUT=0)  # fmt: skip
    storage.process_item(page(0))
    storage.process_item(page(1))
    assert storage.crawler.engine.reasons == ["storage_unavailable"]
    storage.close_spider()
    assert storage.crawler.stats.get_value("topiccrawler/storage/spilled") == 2


@deferred_f_from_coro_f
async def test_a_crawl_through_a_locked_database_stores_every_page(site, seeds_file, tmp_path):
    """End to end: another writer locks the file for 1.5 s while the crawl stores (a chain of
    slow pages, one at a time: about 4 s of crawling)."""
    url = f"sqlite:///{tmp_path / 'crawl.db'}"
    settings = {"DATABASE_URL": url, "STORAGE_BATCH_SIZE": 2, "DATABASE_BUSY_TIMEOUT": 0.2,
                "STORAGE_SPILL_DIR": str(tmp_path / "unstored"), "CONCURRENT_REQUESTS": 1}  # fmt: skip
    seeds = str(seeds_file(depth_limit=20, start="/slow/1.html"))
    plain = await crawl({**settings, "DATABASE_URL": f"sqlite:///{tmp_path / 'plain.db'}"},
                        topic="tax", seeds=seeds)  # fmt: skip
    expected = plain.stats.get_value("topiccrawler/storage/pages")

    from tests.crawl import make_crawler

    crawler = make_crawler(settings)
    locked = []

    def lock_once(**_):
        if not locked:
            locked.append(hold_sqlite_lock(tmp_path / "crawl.db", 1.5))

    crawler.signals.connect(lock_once, items_stored, weak=False)
    await crawler.crawl_async(topic="tax", seeds=seeds)
    stats = crawler.stats
    assert locked and stats.get_value("topiccrawler/storage/outages") >= 1
    assert stats.get_value("finish_reason") == "finished"
    database = Database(url)
    assert expected >= 15 and stats.get_value("topiccrawler/storage/spilled") is None
    assert stored(database) == stats.get_value("topiccrawler/storage/pages") == expected
    with database.session() as session:
        assert session.scalar(sql_select(CrawlRun.finish_reason)) == "finished"
