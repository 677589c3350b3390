"""End-to-end crawls of the loopback fixture site into SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

from scrapy import Request
from scrapy.http import HtmlResponse
from scrapy.linkextractors import IGNORED_EXTENSIONS, LinkExtractor
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.defer import deferred_f_from_coro_f
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session
from twisted.internet.error import DNSLookupError
from twisted.python.failure import Failure

from tests.crawl import crawl, make_crawler
from tests.servers import HostileSite
from topiccrawler.meta import ENTRANCE
from topiccrawler.spiders.topic import TopicSpider, links_to_a_file
from topiccrawler.storage.models import CrawlRun, Page


def _pages(url: str) -> dict[str, Page]:
    engine = create_engine(url)
    with Session(engine) as session:
        pages = {p.url.split("/", 3)[3]: p for p in session.scalars(select(Page))}
    engine.dispose()
    return pages


def _count(url: str, model) -> int:
    engine = create_engine(url)
    with Session(engine) as session:
        n = session.scalar(select(func.count()).select_from(model))
    engine.dispose()
    return n


@deferred_f_from_coro_f
async def test_crawl_stores_each_html_page_once(site, seeds_file, sqlite_url):
    vat_fetches = site.hits["/news/vat-reform.html"]  # the fixture site serves every test
    crawler = await crawl({"DATABASE_URL": sqlite_url}, topic="tax", seeds=str(seeds_file()))

    pages = _pages(sqlite_url)
    # index, two articles and the /deep/ chain down to the depth limit of 3 (deep/1..3).
    assert set(pages) == {
        "index.html",
        "news/vat-reform.html",
        "news/evasion-case.html",
        "deep/1.html",
        "deep/2.html",
        "deep/3.html",
    }
    vat = pages["news/vat-reform.html"]
    assert vat.title == "增值税改革新政解读"
    assert "小规模纳税人继续享受减免税政策" in vat.body
    assert "not body text" not in vat.body and ".ad" not in vat.body
    assert vat.author == "李明" and vat.source == "税务资讯"
    assert vat.published_text == "2026-03-15T09:30:00+08:00"
    assert vat.topic == "tax" and vat.site == "127.0.0.1" and vat.entrance == "authority"
    assert vat.depth == 1 and vat.referrer.endswith("/index.html")

    gbk = pages["news/evasion-case.html"]
    assert gbk.encoding == "gb18030"
    assert gbk.title == "某公司偷税案件曝光"
    assert "虚开增值税专用发票" in gbk.body

    stats = crawler.stats.get_stats()
    assert site.hits["/files/annual-report.pdf"] == 0  # .pdf links are not even requested
    assert stats["topiccrawler/skipped/not_html"] == 1  # /download answers with a PDF
    assert stats["topiccrawler/skipped/binary"] == 1  # a PNG served as text/html
    assert site.hits["/private/internal.html"] == 0  # robots.txt
    # Also linked with ?from=…&utm_source=…: fetched once all the same.
    assert site.hits["/news/vat-reform.html"] == vat_fetches + 1
    assert stats["topiccrawler/storage/pages"] == 6

    runs = _count(sqlite_url, CrawlRun)
    assert runs == 1


@deferred_f_from_coro_f
async def test_recrawl_updates_rows_instead_of_adding(site, seeds_file, sqlite_url):
    seeds = str(seeds_file())
    settings = {"DATABASE_URL": sqlite_url, "REVISIT_ENABLED": False}  # fetch everything again
    await crawl(settings, topic="tax", seeds=seeds)
    first = _pages(sqlite_url)
    await crawl(settings, topic="tax", seeds=seeds)
    second = _pages(sqlite_url)

    assert set(first) == set(second)
    assert {k: p.id for k, p in first.items()} == {k: p.id for k, p in second.items()}
    vat_before, vat_after = first["news/vat-reform.html"], second["news/vat-reform.html"]
    assert vat_after.fetched_at > vat_before.fetched_at
    assert vat_after.first_seen_at == vat_before.first_seen_at
    assert vat_after.crawl_run_id != vat_before.crawl_run_id
    assert _count(sqlite_url, CrawlRun) == 2


@deferred_f_from_coro_f
async def test_crawl_run_row_records_stats(site, seeds_file, sqlite_url):
    await crawl({"DATABASE_URL": sqlite_url}, topic="tax", seeds=str(seeds_file(depth_limit=0)))
    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        run = session.scalars(select(CrawlRun)).one()
    engine.dispose()
    assert run.topic == "tax" and run.spider == "topic"
    assert run.finish_reason == "finished"
    assert run.finished_at >= run.started_at
    assert run.stats["item_scraped_count"] == 1
    assert run.stats["topiccrawler/storage/pages"] == 1


@deferred_f_from_coro_f
async def test_site_page_budget_and_depth_limit(site, seeds_file, sqlite_url):
    crawler = await crawl(
        {"DATABASE_URL": sqlite_url}, topic="tax", seeds=str(seeds_file(max_pages=3))
    )
    assert len(_pages(sqlite_url)) <= 3
    assert crawler.stats.get_value("topiccrawler/links/over_site_budget") > 0

    deep_url = sqlite_url.replace("crawl.db", "deep.db")
    await crawl(
        {"DATABASE_URL": deep_url},
        topic="tax",
        seeds=str(seeds_file(depth_limit=5, start="/deep/1.html")),
    )
    assert set(_pages(deep_url)) == {f"deep/{n}.html" for n in range(1, 7)}


@deferred_f_from_coro_f
async def test_feed_export_carries_extracted_fields_not_html(site, seeds_file, tmp_path):
    feed = tmp_path / "pages.jsonl"
    await crawl(
        {
            "STORAGE_ENABLED": False,
            "FEEDS": {
                str(feed): {"format": "jsonl", "item_classes": ["topiccrawler.items.PageItem"]}
            },
        },
        topic="tax",
        seeds=str(seeds_file(depth_limit=1)),
    )
    records = [json.loads(line) for line in feed.read_text(encoding="utf-8").splitlines()]
    by_path = {r["url"].split("/", 3)[3]: r for r in records}
    assert "增值税一般纳税人" in by_path["news/vat-reform.html"]["body"]
    assert all(r["html"] == "" for r in records)
    assert by_path["news/vat-reform.html"]["comments"] == []


@deferred_f_from_coro_f
async def test_crawl_into_postgresql(site, seeds_file, postgres_url):
    await crawl({"DATABASE_URL": postgres_url}, topic="tax", seeds=str(seeds_file()))
    await crawl({"DATABASE_URL": postgres_url}, topic="tax", seeds=str(seeds_file()))
    pages = _pages(postgres_url)
    assert len(pages) == 6
    assert pages["news/evasion-case.html"].title == "某公司偷税案件曝光"
    assert _count(postgres_url, CrawlRun) == 2


@deferred_f_from_coro_f
async def test_hostile_pages_are_stored_with_what_could_be_read(tmp_path, sqlite_url):
    """Control bytes, an open XML declaration and deep nesting are read; a page without any
    element is stored all the same, with its size and the reason."""
    with HostileSite() as hostile:
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(
            f'[[authority]]\nname = "hostile"\nstart_urls = ["{hostile.url}/index.html"]\n'
            "depth_limit = 1\nmax_pages = 10\n",
            encoding="utf-8",
        )
        crawler = await crawl(
            {"DATABASE_URL": sqlite_url, "RELEVANCE_STORE_DROPPED_TEXT": True},
            topic="tax",
            seeds=str(seeds),
        )
    pages = _pages(sqlite_url)
    assert set(pages) == {"index.html", "nul.html", "xml.html", "deep.html", "empty.html"}
    assert pages["nul.html"].title == "增值税公告"
    assert "纳税申报提醒：本月十五日前完成 申报。" in pages["nul.html"].body
    assert pages["xml.html"].title == "个税公告" and "汇算清缴" in pages["xml.html"].body
    assert "深层嵌套的公告正文" in pages["deep.html"].body
    for name in ("nul.html", "xml.html", "deep.html"):
        assert "extraction" not in (pages[name].relevance_detail or {})
    empty = pages["empty.html"]
    assert empty.relevance_detail["extraction"] == {
        "error": "no element in document",
        "raw_bytes": len(HostileSite.PAGES["/empty.html"]),
    }
    assert empty.title is None and empty.body == ""
    assert crawler.stats.get_value("topiccrawler/extraction/failed") == 1


# --- links to files (one test per link, as Scrapy's LinkExtractor decides) ---------------------

LINK_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_file_links_are_those_scrapys_link_extractor_leaves_out():
    files = "".join(f'<a href="/f/report.{e.upper() if i % 2 else e}?x=1">f</a>'
                    for i, e in enumerate(IGNORED_EXTENSIONS))  # fmt: skip
    pages = [path.read_bytes() for path in sorted(LINK_FIXTURES.rglob("*.html"))]
    pages.append(
        f'<a href="/a/page.html">p</a><a href="/a/b.pdf;v=1">x</a><a href="/a/pdf">y</a>'
        f'<a href="/a/x.tar.gz#top">z</a><a href="/dir.zip/page">w</a>{files}'.encode()
    )
    for body in pages:
        response = HtmlResponse("http://fixture.example/n/", body=body, encoding="utf-8")
        scrapys = [link.url for link in LinkExtractor().extract_links(response)]
        ours = [
            link.url
            for link in LinkExtractor(deny_extensions=[]).extract_links(response)
            if not links_to_a_file(link.url)
        ]
        assert ours == scrapys
    assert links_to_a_file("http://x.example/a/b.PDF") and not links_to_a_file("http://x.example/")


def test_a_failed_fetch_of_a_crawl_link_is_recorded_by_its_url(seeds_file):
    """A 404 is a dead link (permanent), an unreachable host a failure that may pass; a request
    the crawl did not queue as a link (no entrance) is only counted."""
    crawler = make_crawler({"STORAGE_ENABLED": False})
    spider = TopicSpider.from_crawler(crawler, topic="tax", seeds=str(seeds_file()))
    crawler.spider = spider

    def failure(exc, url, meta):
        request = Request(url, meta=meta)
        failed = Failure(exc)
        failed.request = request  # as Scrapy sets it before the errback
        return failed

    gone = Request("http://site.test/gone")
    missing = HttpError(HtmlResponse(gone.url, status=404, request=gone), "Ignoring 404")
    [dead] = spider.on_error(failure(missing, gone.url, {ENTRANCE: "link"}))
    assert (dead.url, dead.reason, dead.permanent) == (gone.url, "HTTP 404", True)
    [away] = spider.on_error(
        failure(DNSLookupError("no such host"), "http://x.test/", {ENTRANCE: "link"})
    )
    assert away.url == "http://x.test/" and not away.permanent
    assert list(spider.on_error(failure(DNSLookupError("x"), "http://y.test/", {}))) == []
    assert crawler.stats.get_value("topiccrawler/fetch/failed") == 3
