"""Engines that cannot take queries, on loopback: one that refuses connections, one that
accepts and never answers, one that answers every query with a captcha. Each is reported once,
at ERROR, with the fix; its other queries are not sent; the crawl goes on from the authority
site, and ends (with its outcome) when that is done."""

from __future__ import annotations

import logging
import socket
import time
from http.server import BaseHTTPRequestHandler

from scrapy.utils.defer import deferred_f_from_coro_f

from tests.crawl import crawl
from tests.servers import LoopbackServer, closed_port
from topiccrawler.extensions.progress import OUTCOME_KEY, SUMMARY_KEY
from topiccrawler.seeding import build_queries
from topiccrawler.seeding.health import EngineHealth

CAPTCHA = (
    "<html><head><title>验证</title></head><body><p>请完成下方验证 (captcha): "
    "we have detected unusual traffic from your network.</p></body></html>"
).encode()


NO_RESULTS = b'<html><body><ol id="b_results"><li class="b_no">No results</li></ol></body></html>'


class CaptchaEngine(LoopbackServer):
    """A Bing-like result page server that answers with a captcha page, every time or for the
    first `captchas` queries (then with an empty result page)."""

    def __init__(self, captchas: int | None = None):
        self.queries = 0
        self.captchas = captchas
        engine = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                engine.queries += 1
                captcha = engine.captchas is None or engine.queries <= engine.captchas
                body = CAPTCHA if captcha else NO_RESULTS
                engine.reply(self, 200, {"Content-Type": "text/html; charset=utf-8"}, body)

            def log_message(self, *args) -> None:
                pass

        self.serve(Handler)


class HangingEngine:
    """Accepts connections (the kernel's backlog) and never reads or answers."""

    def __enter__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def __exit__(self, *exc) -> None:
        self.sock.close()


def seeds_with_engine(tmp_path, site, engine_table: str, authority: bool = True):
    path = tmp_path / "seeds.toml"
    sites = (
        f'[[authority]]\nname = "fixture"\nstart_urls = ["{site.url}/index.html"]\n'
        "depth_limit = 2\nmax_pages = 20\n\n"
        if authority
        else ""
    )
    path.write_text(
        sites + '[search]\nengines = ["engine"]\n\n[engines.engine]\n' + engine_table,
        encoding="utf-8",
    )
    return path


def errors(caplog, text: str) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and text in r.getMessage()
    ]


SETTINGS = {"SEARCH_REPEAT_AFTER": 0, "RETRY_TIMES": 1, "PROGRESS_INTERVAL": 0}


@deferred_f_from_coro_f
async def test_refusing_engine_is_reported_once_and_the_crawl_goes_on(
    site, tmp_path, sqlite_url, caplog
):
    port = closed_port()
    seeds = seeds_with_engine(
        tmp_path, site, f'type = "searxng"\nurl = "http://127.0.0.1:{port}/search"\n'
    )
    crawler = await crawl({**SETTINGS, "DATABASE_URL": sqlite_url}, topic="tax", seeds=str(seeds))

    stats = crawler.stats.get_stats()
    reports = errors(caplog, "Search engine 'engine'")
    assert len(reports) == 1
    assert "cannot be reached" in reports[0]
    assert f"start SearXNG at http://127.0.0.1:{port}" in reports[0] and str(seeds) in reports[0]
    # One query was sent, the probe; the rest waited for it and were never sent.
    failed = stats["topiccrawler/search/engine/failed"]
    assert failed == 1
    queries = len(build_queries(crawler.spider.topic))
    assert stats["topiccrawler/search/engine/not_asked"] + failed == queries
    summary = stats[SUMMARY_KEY]
    assert summary["search"]["engines"]["engine"]["state"].startswith("unreachable")
    assert summary["pages_stored"] >= 3 and stats[OUTCOME_KEY] == "ok"  # the site was crawled


@deferred_f_from_coro_f
async def test_hanging_engine_is_given_up_after_its_timeout(site, tmp_path, sqlite_url, caplog):
    with HangingEngine() as engine:
        url = engine.url
        seeds = seeds_with_engine(tmp_path, site, f'type = "bing"\nurl = "{url}/search"\n')
        started = time.monotonic()
        crawler = await crawl(
            {**SETTINGS, "DATABASE_URL": sqlite_url, "SEARCH_ENGINE_TIMEOUT": 1},
            topic="tax",
            seeds=str(seeds),
        )
        elapsed = time.monotonic() - started

    reports = errors(caplog, "Search engine 'engine'")
    assert len(reports) == 1
    assert "no answer within 1.0 s" in reports[0]
    assert "check the network connection" not in reports[0]  # a loopback server: start it
    assert f"start the search server at {url}" in reports[0]
    stats = crawler.stats.get_stats()
    queries = len(build_queries(crawler.spider.topic))
    failed = stats["topiccrawler/search/engine/failed"]
    assert stats["topiccrawler/search/engine/not_asked"] + failed == queries
    assert failed == 1  # the probe; the others waited for it
    assert stats[OUTCOME_KEY] == "ok"
    assert elapsed < 30  # one timeout, not one per query


@deferred_f_from_coro_f
async def test_captcha_engine_is_reported_once_and_its_queries_wait(
    site, tmp_path, sqlite_url, caplog
):
    with CaptchaEngine() as engine:
        seeds = seeds_with_engine(tmp_path, site, f'type = "bing"\nurl = "{engine.url}/search"\n')
        crawler = await crawl(
            {**SETTINGS, "DATABASE_URL": sqlite_url}, topic="tax", seeds=str(seeds)
        )
        asked = engine.queries

    reports = errors(caplog, "Search engine 'engine'")
    assert len(reports) == 1
    assert "looks blocked (captcha page" in reports[0] and "SearXNG" in reports[0]
    stats = crawler.stats.get_stats()
    assert asked == 1  # the probe: the others waited for it, then for the back-off
    held = stats["topiccrawler/search/engine/not_asked_blocked"]
    assert held + asked == len(build_queries(crawler.spider.topic))
    warnings = [r.getMessage() for r in caplog.records if "not asked" in r.getMessage()]
    assert len(warnings) == 1 and "the next crawl asks them" in warnings[0]
    assert stats[OUTCOME_KEY] == "ok" and stats["finish_reason"] == "finished"


@deferred_f_from_coro_f
async def test_held_queries_are_asked_when_the_back_off_ends(site, tmp_path, sqlite_url, caplog):
    with CaptchaEngine(captchas=1) as engine:
        table = f'type = "bing"\nurl = "{engine.url}/search"\n'
        seeds = seeds_with_engine(tmp_path, site, table)
        # The authority site's /slow/ chain (0.2 s a page) outlasts the 0.5 s back-off.
        seeds.write_text(
            seeds.read_text(encoding="utf-8")
            .replace("/index.html", "/slow/1.html")
            .replace("depth_limit = 2", "depth_limit = 8"),
            encoding="utf-8",
        )
        crawler = await crawl(
            {**SETTINGS, "DATABASE_URL": sqlite_url, "SEARCH_BACKOFF": 0.5,
             "CONCURRENT_REQUESTS": 1},
            topic="tax", seeds=str(seeds),
        )  # fmt: skip
        asked = engine.queries

    stats = crawler.stats.get_stats()
    queries = len(build_queries(crawler.spider.topic))
    assert len(errors(caplog, "Search engine 'engine' looks blocked")) == 1
    assert stats["topiccrawler/search/engine/held"] >= 1
    assert "topiccrawler/search/engine/not_asked_blocked" not in stats  # all were asked …
    assert asked == queries  # … each once, the blocked one not again (the next crawl asks it)
    assert stats["topiccrawler/search/engine/answers"] == queries - 1


@deferred_f_from_coro_f
async def test_a_crawl_with_nothing_reachable_ends_at_once_and_says_so(
    site, tmp_path, sqlite_url, caplog
):
    port = closed_port()
    seeds = seeds_with_engine(
        tmp_path,
        site,
        f'type = "searxng"\nurl = "http://127.0.0.1:{port}/search"\n',
        authority=False,
    )
    started = time.monotonic()
    crawler = await crawl({**SETTINGS, "DATABASE_URL": sqlite_url}, topic="tax", seeds=str(seeds))
    assert time.monotonic() - started < 10  # one refused probe, not one per query taken
    stats = crawler.stats.get_stats()
    assert stats[OUTCOME_KEY] == "nothing_fetched"
    assert errors(caplog, "The crawl did not do its job: no page could be fetched")


def test_an_engine_held_for_a_block_is_not_available_and_unreachable_is_final():
    health = EngineHealth(backoff=10)
    assert health.available(0.0)
    health.record_block("captcha page", now=0.0)
    assert not health.available(5.0) and health.available(10.0)
    assert health.record_unreachable("Connection refused") is True
    assert health.record_unreachable("again") is False
    assert not health.available(1e9) and health.unreachable == "Connection refused"


def test_a_query_held_for_a_backing_off_engine_is_announced_and_sent_when_it_ends():
    """A shared crawl's scheduler keeps a held request's lease on `request_held`: without the
    signal, a worker killed during the back-off lost the query for good."""
    from scrapy import Request
    from scrapy.exceptions import IgnoreRequest
    from scrapy.utils.test import get_crawler

    from topiccrawler.meta import ENGINE, SEARCH_PAGE
    from topiccrawler.seeding.gate import SearchEngineHealthMiddleware
    from topiccrawler.signals import request_held

    crawler = get_crawler(settings_dict={"SEARCH_BACKOFF": 0.05, "SEARCH_BACKOFF_MAX": 1})
    gate = SearchEngineHealthMiddleware.from_crawler(crawler)

    class Spider:
        engines = {"engine": object()}
        topic = None

    gate.spider_opened(Spider())
    announced, crawled = [], []

    def announce(request):  # held by name: the signals keep weak references
        announced.append(request)

    crawler.signals.connect(announce, signal=request_held)
    crawler.engine = type("Engine", (), {"crawl": lambda self, request: crawled.append(request)})()
    gate.blocked("engine", "captcha page")
    query = Request("http://127.0.0.1:9/search?q=tax", meta={SEARCH_PAGE: 1, ENGINE: "engine"})
    try:
        gate.process_request(query).send(None)  # decided at once: nothing to wait for
    except IgnoreRequest:
        pass
    else:
        raise AssertionError("a query of a backing-off engine was let through")
    assert announced == [query]
    gate.releases.pop("engine").cancel()  # the reactor is not running here: release by hand
    gate._release_held("engine")
    assert [r.url for r in crawled] == [query.url] and crawled[0].dont_filter
    assert crawled[0].meta[SEARCH_PAGE] == 1
