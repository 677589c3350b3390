"""Extraction, once, as pages leave the spider: pages filled, what cannot be parsed kept with
the reason."""

from __future__ import annotations

import logging
import multiprocessing
from datetime import UTC, datetime

import pytest
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from topiccrawler.items import PageItem
from topiccrawler.middlewares.extraction import ExtractionMiddleware, record_options
from topiccrawler.pipelines.feed import DropRawHtmlPipeline


def item(html: str) -> PageItem:
    return PageItem(
        url="http://x.example/", topic="tax", status=200, fetched_at=datetime.now(UTC), html=html
    )


def test_fills_fields_and_counts():
    crawler = get_crawler()
    middleware = build_from_crawler(ExtractionMiddleware, crawler)
    page = middleware.process(item("<title>税</title><body><p>正文</p></body>"))
    assert (page.title, page.body) == ("税", "正文")
    assert crawler.stats.get_value("topiccrawler/extraction/pages") == 1


def test_unparseable_page_is_kept_with_reason_and_size():
    crawler = get_crawler()
    middleware = build_from_crawler(ExtractionMiddleware, crawler)
    page = item("<!-- only a comment, no element -->")
    page.raw_size = 40
    page.relevance_detail = {"threshold": 0.3}  # the relevance middleware's reasons stay
    kept = middleware.process(page)
    assert kept.relevance_detail == {
        "threshold": 0.3,
        "extraction": {"error": "no element in document", "raw_bytes": 40},
    }
    assert kept.title is None and kept.body == ""
    assert crawler.stats.get_value("topiccrawler/extraction/failed") == 1
    assert crawler.stats.get_value("topiccrawler/extraction/pages") == 1


def test_page_with_bytes_lxml_refuses_is_extracted_in_full():
    middleware = build_from_crawler(ExtractionMiddleware, get_crawler())
    page = middleware.process(
        item('<?xml version="1.0" encoding="ilashack, <title>税\x00</title><p>正\x01文</p>')
    )
    assert (page.title, page.body, page.extraction_error, page.relevance_detail) == (
        "税",
        "正文",
        None,
        None,
    )


def test_other_outputs_pass_untouched_and_a_page_is_read_once():
    middleware = build_from_crawler(ExtractionMiddleware, get_crawler())
    assert middleware.process({"a": 1}) == {"a": 1}
    page = middleware.process(item("<title>税</title><p>正文</p>"))
    page.body = "kept"
    assert middleware.process(page).body == "kept"  # already extracted: not read again
    assert middleware.stats.get_value("topiccrawler/extraction/pages") == 1


def test_raw_html_is_dropped_last():
    page = DropRawHtmlPipeline().process_item(item("<p>x</p>"))
    assert page.html == ""


def project_settings(**overrides):
    from scrapy.settings import Settings

    settings = Settings()
    settings.setmodule("topiccrawler.settings")
    settings.update(overrides)
    return settings


def test_record_options_come_from_the_settings():
    options = record_options(project_settings(FORUM_MIN_BLOCKS=3, COMMENT_MEASURE="stm"))
    assert (options.measure, options.similarity, options.level, options.min_blocks) == (
        "stm", 0.8, 6, 5,
    )  # fmt: skip
    assert (options.forum.min_blocks, options.forum.weights) == (3, (0.6, 0.3, 0.1))
    assert record_options(project_settings(RECORDS_ENABLED=False)) is None


def test_comments_and_posts_reach_the_item():
    from tests.extract.records.test_comments import SIX, news_page
    from tests.extract.records.test_forum import POSTS, thread_page

    crawler = get_crawler(settings_dict=dict(project_settings()))
    middleware = build_from_crawler(ExtractionMiddleware, crawler)
    news = middleware.process(item(news_page(SIX)))
    thread = middleware.process(item(thread_page(POSTS)))
    assert len(news.comments) == 6 and not news.posts
    assert [p.author for p in thread.posts] == ["清风徐来", "小王同学", "财务张姐"]
    assert crawler.stats.get_value("topiccrawler/extraction/comments") == 6


# --- pages read in worker processes (EXTRACT_PROCESSES) -------------------------------------------


def test_pages_are_read_in_a_worker_where_the_crawl_may_use_two_cores(monkeypatch):
    """By default ("auto") one worker where the crawl may use two cores or more (the testbed
    crawl at 1.0-1.1x the plain spider's rate, against 0.75-0.8x in process: docs/benchmarks.md,
    round 12), none on one core, where a worker would only take turns with the crawl."""
    from topiccrawler.middlewares import extraction

    monkeypatch.setattr(extraction, "usable_cpus", lambda: 2)
    assert extraction.extract_processes(project_settings()) == 1
    assert extraction.extract_processes(project_settings(EXTRACT_PROCESSES=0)) == 0
    monkeypatch.setattr(extraction, "usable_cpus", lambda: 1)
    assert extraction.extract_processes(project_settings()) == 0
    assert extraction.extract_processes(project_settings(EXTRACT_PROCESSES=" Auto ")) == 0
    assert extraction.extract_processes(project_settings(EXTRACT_PROCESSES="2")) == 2
    assert extraction.extract_processes(project_settings(EXTRACT_PROCESSES=2)) == 2
    assert extraction.extract_processes(project_settings(EXTRACT_PROCESSES="1")) == 1
    for wrong in (-1, "two"):
        with pytest.raises(ValueError, match="EXTRACT_PROCESSES"):
            extraction.extract_processes(project_settings(EXTRACT_PROCESSES=wrong))
    assert extraction.usable_cpus() >= 1


@pytest.mark.parametrize(
    "settings, stored_from",
    [
        ({}, 0.04),  # the tax topic's own η
        ({"RELEVANCE_THRESHOLD": 0.1}, 0.1),
        ({"RELEVANCE_THRESHOLD": "auto"}, None),  # η estimated: no bound known
        ({"RELEVANCE_STORE_DROPPED_TEXT": True}, None),  # every page's text stored
        ({"RELEVANCE_THRESHOLD": "high"}, None),  # (the relevance middleware refuses it)
    ],
)
def test_workers_brief_pages_from_the_fixed_threshold(seeds_file, settings, stored_from):
    """The workers are told from which score a page's text is stored: with η a number, from η
    (pages under it are stored without text, and need no briefing)."""
    from tests.crawl import make_crawler
    from topiccrawler.spiders.topic import TopicSpider

    crawler = make_crawler({"STORAGE_ENABLED": False, **settings})
    spider = TopicSpider.from_crawler(crawler, topic="tax", seeds=str(seeds_file()))
    crawler.spider = spider
    stages = ExtractionMiddleware.from_crawler(crawler)._later_stages(spider)
    assert stages.briefing is not None and stages.library is not None
    assert stages.stored_from == stored_from


def worker_middleware(**settings) -> ExtractionMiddleware:
    crawler = get_crawler(settings_dict=dict(project_settings(EXTRACT_PROCESSES=1, **settings)))
    middleware = build_from_crawler(ExtractionMiddleware, crawler)
    middleware.spider_opened()
    middleware.pool.wait_started(60)  # before, pages are read here (the next tests)
    return middleware


async def outputs(middleware: ExtractionMiddleware, pages: list) -> list:
    async def spider_output():
        for page in pages:
            yield page

    return [o async for o in middleware.process_spider_output(None, spider_output())]


LONG = (
    "<title>长文</title><body>"
    + "".join(
        f"<p>第{i}段：增值税改革持续推进，纳税人办税更加便利，申报流程再简化。</p>"
        for i in range(12)
    )
    + "</body>"
)
NEWS = "<title>增值税改革-税务</title><body><h1>增值税改革</h1><p>正文\x1b说明。</p></body>"


@deferred_f_from_coro_f
async def test_a_page_read_in_a_worker_is_the_page_read_here():
    from tests.extract.records.test_comments import SIX, news_page
    from topiccrawler.dedup import simhash as fingerprints

    sources = [NEWS, news_page(SIX), "<!-- nothing -->", LONG]
    middleware = worker_middleware()
    assert middleware.pool.ready  # a worker has started
    try:
        read = await outputs(middleware, [*(item(s) for s in sources), {"other": 1}])
    finally:
        middleware.spider_closed()
    body = read[3].body
    ahead = fingerprints._ahead.get((len(body), hash(body)))  # the worker's SimHash, for dedup
    fingerprints._ahead.clear()
    here = build_from_crawler(ExtractionMiddleware, get_crawler(settings_dict=dict(
        project_settings(EXTRACT_PROCESSES=0))))  # fmt: skip
    expected = [here.process(item(s)) for s in sources]
    for page in expected + read[:4]:
        page.fetched_at = None  # (each item its own fetch time)
    assert read[:4] == expected and read[4] == {"other": 1}
    assert len(read[1].comments) == 6
    assert ahead == fingerprints.simhash(read[3].body) != 0
    fingerprints._ahead.clear()  # (what the reading here left for dedup)
    stats = middleware.stats
    assert stats.get_value("topiccrawler/extraction/in_worker") == 4
    assert stats.get_value("topiccrawler/extraction/pages") == 4
    assert stats.get_value("topiccrawler/extraction/failed") == 1


@deferred_f_from_coro_f
async def test_a_killed_worker_leaves_pages_to_the_crawl_process(caplog):
    before = set(multiprocessing.active_children())
    middleware = worker_middleware()
    try:
        await outputs(middleware, [item(NEWS)])  # the worker is up
        assert middleware.stats.get_value("topiccrawler/extraction/in_worker") == 1
        for worker in set(multiprocessing.active_children()) - before:
            worker.kill()
            worker.join(10)
        with caplog.at_level(logging.WARNING):
            read = await outputs(middleware, [item(NEWS), item(NEWS)])
    finally:
        middleware.spider_closed()
    assert [(p.title, p.body) for p in read] == [("增值税改革", "正文说明。")] * 2
    assert middleware.pool is None
    assert middleware.stats.get_value("topiccrawler/extraction/in_worker") == 1
    assert middleware.stats.get_value("topiccrawler/extraction/pages") == 3
    assert "BrokenProcessPool" in middleware.stats.get_value(
        "topiccrawler/extraction/workers_given_up"
    )
    assert "Extraction workers given up" in caplog.text


@deferred_f_from_coro_f
async def test_the_workers_end_with_the_crawl(site, seeds_file, sqlite_url, tmp_path, monkeypatch):
    """A crawl of the fixture site reads its pages in a worker, stores what a crawl reading
    them in its own process stores, and leaves no worker behind."""
    from sqlalchemy import create_engine, select
    from sqlalchemy.orm import Session

    from tests.crawl import crawl
    from topiccrawler.extraction_workers import ExtractionPool
    from topiccrawler.storage.models import Page

    # The crawl is over before a spawned worker has started: its pages wait for it instead.
    monkeypatch.setattr(ExtractionPool, "ready", property(lambda pool: True))

    def stored(url: str) -> dict:
        engine = create_engine(url)
        with Session(engine) as session:
            pages = {
                p.url: (
                    p.title, p.body, p.is_relevant, p.relevance, p.relevance_detail,
                    p.published_at, p.keywords, p.summary, p.entities,
                )
                for p in session.scalars(select(Page))
            }  # fmt: skip
        engine.dispose()
        return pages

    seeds = str(seeds_file())
    before = set(multiprocessing.active_children())
    in_worker = await crawl({"DATABASE_URL": sqlite_url, "EXTRACT_PROCESSES": 1},
                            topic="tax", seeds=seeds)  # fmt: skip
    assert not set(multiprocessing.active_children()) - before
    here_url = f"sqlite:///{tmp_path / 'here.db'}"
    here = await crawl({"DATABASE_URL": here_url, "EXTRACT_PROCESSES": 0}, topic="tax", seeds=seeds)
    stats = in_worker.stats.get_stats()
    # (pages past the bound in flight are read in the crawl's process)
    assert 0 < stats["topiccrawler/extraction/in_worker"] <= stats["topiccrawler/extraction/pages"]
    assert "topiccrawler/extraction/in_worker" not in here.stats.get_stats()
    # The later stages took the worker's work for every page it read (read_ahead.py) …
    in_worker = stats["topiccrawler/extraction/in_worker"]
    assert stats["topiccrawler/relevance/scored_in_worker"] == in_worker
    assert stats["topiccrawler/render/checked_in_worker"] == in_worker
    assert 0 < stats["topiccrawler/briefing/in_worker"] <= in_worker
    assert stats["topiccrawler/links/read_in_worker"] == in_worker
    # … and stored what they store when they do it themselves (scores to the last bit).
    assert stored(sqlite_url) == stored(here_url)


@deferred_f_from_coro_f
async def test_pages_are_read_here_until_a_worker_has_started(monkeypatch):
    """A worker that is still starting (importing, loading its tools) would read a page later
    than the crawl's process can: the first pages of a crawl are read here, in the order they
    come, their links queued at once."""
    from topiccrawler.extraction_workers import ExtractionPool

    monkeypatch.setattr(ExtractionPool, "ready", property(lambda pool: False))
    middleware = worker_middleware()
    page = item(NEWS)
    try:
        await middleware.read(page)
    finally:
        middleware.spider_closed()
    assert page.title == "增值税改革"
    assert middleware.stats.get_value("topiccrawler/extraction/in_worker") is None
    assert middleware.stats.get_value("topiccrawler/extraction/before_workers_started") == 1


@deferred_f_from_coro_f
async def test_pages_wait_their_turn_for_a_full_worker():
    """A page that finds the workers full waits for room rather than being read here ahead of
    pages that came before it (its links would be queued before theirs)."""
    import asyncio

    middleware = worker_middleware(EXTRACT_IN_FLIGHT=1)
    pages = [item(NEWS), item(LONG), item(NEWS)]
    try:
        await asyncio.gather(*(middleware.read(page) for page in pages))
    finally:
        middleware.spider_closed()
    assert middleware.stats.get_value("topiccrawler/extraction/in_worker") == 3
    assert [p.title for p in pages] == ["增值税改革", "长文", "增值税改革"]


@deferred_f_from_coro_f
async def test_a_page_waits_for_a_full_worker_only_so_long(monkeypatch):
    from topiccrawler.middlewares import extraction

    monkeypatch.setattr(extraction, "ROOM_WAIT_STEP", 0.05)
    monkeypatch.setattr(extraction, "ROOM_WAIT_MAX", 0.1)
    middleware = worker_middleware()
    pool, waiting = middleware.pool, []  # the pool's count of pages waiting, at each try
    try:
        # stuck: always full
        monkeypatch.setattr(pool, "submit", lambda *args: waiting.append(pool.waiting))
        page = item(NEWS)
        await middleware.read(page)
    finally:
        middleware.spider_closed()
    assert page.title == "增值税改革"  # read here in the end
    assert middleware.stats.get_value("topiccrawler/extraction/in_worker") is None
    assert not middleware._waiting
    # The scheduler counts it as waiting (frontier/scheduler.py) from its first wait to the end.
    assert waiting[0] == 0 and set(waiting[1:]) == {1} and pool.waiting == 0
