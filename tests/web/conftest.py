"""A store of our own pages for the web view's tests (hostile titles, comments and posts among
them), and the view served on loopback by uvicorn, as `topiccrawler serve` serves it."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
import uvicorn
from sqlalchemy import select

from topiccrawler.items import CommentRecord, PageItem, PostRecord
from topiccrawler.storage import Database, store_page
from topiccrawler.storage.models import CrawlRun, Page
from topiccrawler.web.app import create_app

HOSTILE = '<script>alert("title")</script><img src=x onerror=alert(1)>'
MONDAY = datetime(2026, 11, 23, 9, tzinfo=UTC)


@dataclass
class Store:
    database: Database
    article: int  # page ids
    repost: int
    thread: int
    hostile: int
    finished_run: int
    running_run: int


def _page(url: str, title: str, body: str | None, **fields) -> PageItem:
    return PageItem(
        url=url, topic=fields.pop("topic", "tax"), status=200,
        fetched_at=fields.pop("fetched_at", MONDAY), title=title, body=body,
        is_relevant=fields.pop("is_relevant", True), relevance=fields.pop("relevance", 0.2),
        relevance_detail={"verdict": "final", "threshold": 0.04, "concepts": {"增值税": 2}},
        **fields,
    )  # fmt: skip


def fill(database: Database) -> Store:
    """Pages of our own: an article with a reply under a comment, its repost, a forum thread,
    a page whose title, comment and post carry markup and script, and two crawl runs."""
    with database.session() as session, session.begin():
        finished = CrawlRun(
            topic="tax", spider="topic", started_at=MONDAY, finished_at=MONDAY + timedelta(minutes=5),
            finish_reason="finished",
            stats={"topiccrawler/summary": {"outcome": "ok", "pages_fetched": 4,
                   "threshold": {"threshold": 0.04}, "failures": {"HTTP 404": 2}}},
        )  # fmt: skip
        running = CrawlRun(
            topic="tax", spider="topic", started_at=datetime.now(UTC),
            stats={"topiccrawler/live": {"w:1": {"fetched": 9, "threshold": 0.05,
                   "failures": {"HTTP 503": 1}, "at": "2026-11-27T10:00:00+00:00"}}},
        )  # fmt: skip
        session.add_all([finished, running])
        session.flush()
        items = [
            _page("http://news.test/vat", "增值税发票新规出台",
                  "国家税务总局发布增值税专用发票管理办法。\n新规自下月起施行。",
                  published_at=MONDAY, author="记者甲",
                  comments=[CommentRecord("电子发票怎么开？", author="小王", time="11-23 10:00"),
                            CommentRecord("在电子税务局开。", author="老李", reply_to="小王"),
                            CommentRecord("谢谢，发票开好了", author="小王", reply_to="老李")]),
            _page("http://copy.test/vat", "增值税发票新规出台", "国家税务总局发布增值税专用发票管理办法。",
                  published_at=MONDAY + timedelta(hours=3), duplicate_of="http://news.test/vat"),
            _page("http://bbs.test/thread-1", "个人所得税汇算求助", "个人所得税年度汇算怎么办",
                  posts=[PostRecord("个人所得税汇算在哪里办？", author="楼主", time="2026-11-23"),
                         PostRecord("手机上就能办，发票不用交。", author="热心网友", accepted=True,
                                    votes=12)]),
            _page("http://evil.test/x", f"{HOSTILE} 发票", f"正文 {HOSTILE} 发票",
                  comments=[CommentRecord(f"{HOSTILE} 发票评论", author=HOSTILE)],
                  posts=[PostRecord(f"{HOSTILE} 发票帖子", author="<b>bold</b>")]),
        ]  # fmt: skip
        for item in items:
            store_page(session, item, crawl_run_id=finished.id)
    with database.session() as session:
        ids = {url: pid for pid, url in session.execute(select(Page.id, Page.url))}
    return Store(
        database, ids["http://news.test/vat"], ids["http://copy.test/vat"],
        ids["http://bbs.test/thread-1"], ids["http://evil.test/x"], finished.id, running.id,
    )  # fmt: skip


@pytest.fixture
def store(database_url) -> Iterator[Store]:
    """The store on SQLite, and again on PostgreSQL (the view works over either)."""
    database = Database(database_url)
    database.upgrade()
    yield fill(database)
    database.dispose()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(database: Database, token: str | None = None) -> Iterator[str]:
    """The view on a free loopback port in a thread of this process; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(
        create_app(database, token=token), host="127.0.0.1", port=port, log_level="warning"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the view did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
