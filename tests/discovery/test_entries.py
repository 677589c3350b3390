"""Entries into requests, one middleware on a feed response: fresh entries first, stored and
undated-since entries left alone, changed ones fetched, off-site ones dropped, the site's page
budget kept, and every page labelled with how it was found."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from types import SimpleNamespace

import pytest
from scrapy import Request, Spider
from scrapy.http import HtmlResponse, XmlResponse
from scrapy.utils.defer import deferred_f_from_coro_f
from scrapy.utils.test import get_crawler

from tests.crawl import PROJECT_SETTINGS
from topiccrawler.discovery.meta import CHANGED, DISCOVERY, FOUND_BY
from topiccrawler.discovery.middleware import DiscoveryMiddleware
from topiccrawler.items import PageItem
from topiccrawler.meta import AUTHORITY_SITE, ENTRANCE, HOPS, LINK_TEXT, QUERY
from topiccrawler.storage.db import Database
from topiccrawler.storage.sources import record_source
from topiccrawler.storage.writer import store_page
from topiccrawler.topics import AuthoritySite

NOW = datetime.now(UTC)
SITE = AuthoritySite(
    name="a",
    start_urls=("http://a.test/",),
    allowed_domains=("a.test",),
    depth_limit=2,
    max_pages=4,
    entry_domains=("cdn.test",),
    download_delay=0.5,  # a download slot of its own
)


class StubSpider(Spider):
    """What the middleware reads of the topic spider."""

    name = "stub"

    def parse(self, response):
        return []

    def on_error(self, failure):
        return []


def rss(*items: tuple[str, str, datetime]) -> bytes:
    body = "".join(
        f"<item><title>{title}</title><link>{link}</link>"
        f"<pubDate>{format_datetime(when, usegmt=True)}</pubDate></item>"
        for title, link, when in items
    )
    return f"<rss version='2.0'><channel><title>t</title>{body}</channel></rss>".encode()


def make_middleware(tmp_path, site: AuthoritySite = SITE) -> DiscoveryMiddleware:
    url = f"sqlite:///{tmp_path / 'db.sqlite'}"
    crawler = get_crawler(StubSpider, {**PROJECT_SETTINGS, "DATABASE_URL": url})
    crawler.spider = StubSpider()
    crawler.spider.topic = SimpleNamespace(name="tax", seeds=SimpleNamespace(authority=(site,)))
    middleware = DiscoveryMiddleware.from_crawler(crawler)
    middleware.spider_opened(crawler.spider)
    return middleware


@pytest.fixture
def middleware(tmp_path):
    middleware = make_middleware(tmp_path)
    database = Database(f"sqlite:///{tmp_path / 'db.sqlite'}")
    with database.session() as session, session.begin():
        for path, fetched in (
            ("/old.html", NOW - timedelta(days=1)),
            ("/edited.html", NOW - timedelta(days=3)),
        ):
            item = PageItem(url=f"http://a.test{path}", topic="tax", status=200, fetched_at=fetched)
            store_page(session, item)
    return middleware


@deferred_f_from_coro_f
async def test_the_crawl_starts_with_robots_txt_named_and_known_sources(tmp_path):
    site = replace(
        SITE,
        start_urls=("http://a.test/", "http://news.a.test/", "http://a.test/b/"),
        feeds=("http://feeds.elsewhere.test/a.rss",),  # the seed file's: whatever the host
        sitemaps=("http://a.test/sitemap.xml",),
    )
    database = Database(f"sqlite:///{tmp_path / 'db.sqlite'}")
    database.upgrade()
    with database.session() as session, session.begin():
        for url, kind in (("http://a.test/found.xml", "feed"), ("http://b.test/gone.xml", "feed")):
            record_source(session, "tax", "a", kind, url, 0, 200, NOW, etag='"v1"')
    middleware = make_middleware(tmp_path, site)

    async def start():
        yield Request("http://a.test/")

    out = [request async for request in middleware.process_start(start())]
    assert [r.url for r in out] == [
        "http://a.test/",  # the spider's first start request comes first
        "http://a.test/robots.txt",
        "http://news.a.test/robots.txt",
        "http://feeds.elsewhere.test/a.rss",
        "http://a.test/sitemap.xml",
        "http://a.test/found.xml",  # found by an earlier crawl; b.test is no longer the site's
    ]
    assert all(r.priority > out[0].priority for r in out[1:])  # asked before the start pages
    assert out[-1].headers.get("If-None-Match") == b'"v1"'  # conditional GET
    assert out[3].meta[DISCOVERY]["kind"] == "feed" and out[4].meta[DISCOVERY]["kind"] == "sitemap"


def read_feed(middleware, body: bytes) -> list[Request]:
    request = Request(
        "http://a.test/rss.xml", meta={DISCOVERY: {"kind": "feed", "site": "a", "depth": 0}}
    )
    response = XmlResponse(request.url, body=body, request=request)
    return list(middleware.process_spider_output(response, [], None))


def test_fresh_first_stored_skipped_changed_fetched_offsite_dropped(middleware):
    requests = read_feed(
        middleware,
        rss(
            ("today", "http://a.test/today.html?utm_source=rss", NOW - timedelta(hours=1)),
            ("last week", "http://a.test/week.html", NOW - timedelta(days=7)),
            ("stored, not changed since", "http://a.test/old.html", NOW - timedelta(days=2)),
            ("stored, edited after", "http://a.test/edited.html", NOW - timedelta(days=1)),
            ("elsewhere", "http://b.test/x.html", NOW),
            ("the CDN", "http://cdn.test/y.html", NOW - timedelta(days=30)),
        ),
    )
    by_url = {r.url: r for r in requests}
    assert set(by_url) == {
        "http://a.test/today.html",  # tracking parameters removed, as the spider does
        "http://a.test/week.html",
        "http://a.test/edited.html",
        "http://cdn.test/y.html",  # in entry_domains: kept, but no page of the site's
    }
    assert by_url["http://a.test/today.html"].priority > by_url["http://a.test/week.html"].priority
    assert by_url["http://a.test/edited.html"].meta[CHANGED] is True
    assert CHANGED not in by_url["http://a.test/today.html"].meta
    today = by_url["http://a.test/today.html"].meta
    assert today[FOUND_BY] == "feed" and today[HOPS] == 1 and today[LINK_TEXT] == "today"
    assert today[AUTHORITY_SITE] == "a" and today["download_slot"] == "authority:a"
    assert by_url["http://cdn.test/y.html"].meta[AUTHORITY_SITE] is None
    stats = middleware.crawler.stats
    assert stats.get_value("topiccrawler/discovery/entries_unchanged") == 1
    assert stats.get_value("topiccrawler/discovery/entries_offsite") == 1


def test_the_site_budget_takes_the_freshest(middleware):
    items = [(f"n{n}", f"http://a.test/{n}.html", NOW - timedelta(days=n)) for n in range(10)]
    requests = read_feed(middleware, rss(*items))
    assert sorted(r.url for r in requests) == [f"http://a.test/{n}.html" for n in range(4)]
    assert read_feed(middleware, rss(*items)) == []  # the budget is spent; asked once each


def test_freshness_halves_with_each_half_life(middleware):
    assert middleware.freshness(NOW, NOW) == 200
    assert middleware.freshness(NOW - timedelta(days=1), NOW) == 100
    assert middleware.freshness(NOW + timedelta(days=1), NOW) == 200  # a clock ahead
    assert middleware.freshness(None, NOW) == 0


def test_pages_are_labelled_with_how_they_were_found(middleware):
    def label(meta: dict) -> str:
        request = Request("http://a.test/p.html", meta=meta)
        response = HtmlResponse(request.url, body=b"<html></html>", request=request)
        item = PageItem(url=request.url, topic="tax", status=200, fetched_at=NOW)
        [out] = [o for o in middleware.process_spider_output(response, [item], None)
                 if isinstance(o, PageItem)]  # fmt: skip
        return out.found_by

    assert label({FOUND_BY: "sitemap", HOPS: 1}) == "sitemap"
    assert label({HOPS: 2, ENTRANCE: "authority"}) == "link"
    assert label({HOPS: 0, ENTRANCE: "search", QUERY: "q"}) == "search"
    assert label({HOPS: 0, ENTRANCE: "authority", QUERY: "q"}) == "search"
    assert label({HOPS: 0, ENTRANCE: "authority"}) == "start"


def test_announced_feeds_on_start_pages_only_once_and_only_on_the_site(middleware):
    html = (
        b"<html><head><link rel='alternate' type='application/rss+xml' href='/rss.xml'>"
        b"<link rel='alternate' type='application/atom+xml' href='http://evil.test/a.xml'>"
        b"</head></html>"
    )

    def page(url: str, hops: int, link_density: float | None = None) -> list[Request]:
        request = Request(url, meta={AUTHORITY_SITE: "a", HOPS: hops})
        response = HtmlResponse(
            url, body=html, request=request, headers={"Content-Type": "text/html"}
        )
        item = PageItem(url=url, topic="tax", status=200, fetched_at=NOW, link_density=link_density)
        return [o for o in middleware.process_spider_output(response, [item], None)
                if isinstance(o, Request)]  # fmt: skip

    first = page("http://a.test/", 0)
    assert [r.url for r in first] == ["http://a.test/robots.txt", "http://a.test/rss.xml"]
    assert first[1].meta[DISCOVERY] == {"kind": "feed", "site": "a", "depth": 0, "lastmod": None}
    assert first[1].meta["download_maxsize"] == 10 * 1024 * 1024
    assert page("http://a.test/news/", 1, link_density=0.8) == []  # asked already
    assert page("http://www.a.test/deep/", 2) == []  # past DISCOVERY_HUB_HOPS


def test_an_article_s_own_feed_is_not_read(middleware):
    def feeds(url: str, link_density: float) -> list[str]:
        html = f"<html><head><link rel='alternate' type='application/rss+xml' href='{url}feed/'>"
        request = Request(url, meta={AUTHORITY_SITE: "a", HOPS: 1})
        response = HtmlResponse(url, body=html.encode(), request=request)
        item = PageItem(url=url, topic="tax", status=200, fetched_at=NOW, link_density=link_density)
        out = middleware.process_spider_output(response, [item], None)
        return [
            o.url for o in out if isinstance(o, Request) and o.meta[DISCOVERY]["kind"] == "feed"
        ]

    assert feeds("http://a.test/2026/article/", 0.1) == []  # its comments' feed
    assert feeds("http://a.test/finance/", 0.7) == ["http://a.test/finance/feed/"]  # a channel's
