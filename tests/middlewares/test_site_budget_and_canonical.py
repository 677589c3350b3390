"""The site budget and the rel=canonical claim, each a spider middleware of its own."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.http import HtmlResponse

from tests.crawl import make_crawler
from topiccrawler.items import PageItem
from topiccrawler.meta import AUTHORITY_SITE, ENTRANCE, HOPS, SITE_BUDGET
from topiccrawler.middlewares.canonical import CanonicalLinksMiddleware
from topiccrawler.middlewares.site_budget import SiteBudgetMiddleware
from topiccrawler.spiders.topic import TopicSpider


def budget_for(seeds_file, **settings):
    crawler = make_crawler({"STORAGE_ENABLED": False, **settings})
    crawler.spider = TopicSpider.from_crawler(
        crawler, topic="tax", seeds=str(seeds_file(max_pages=3))
    )
    return SiteBudgetMiddleware.from_crawler(crawler), crawler


def test_a_page_links_count_once_each_against_its_sites_budget(seeds_file, site):
    budget, crawler = budget_for(seeds_file)
    page = f"{site.url}/index.html"
    response = HtmlResponse(
        page,
        body=b"<html></html>",
        request=Request(page, meta={HOPS: 0, AUTHORITY_SITE: "fixture"}),
    )
    links = [f"{site.url}/{name}.html" for name in ("a", "b", "a", "c", "d#top", "e")]
    outputs = [Request(url, meta={HOPS: 1}) for url in links]
    outputs.append(Request("http://other.test/x", meta={HOPS: 0}))  # no link of this page
    passed = list(budget.process_spider_output(response, iter(outputs)))
    assert [r.url.rsplit("/", 1)[-1] for r in passed] == [
        "a.html",
        "b.html",
        "a.html",
        "c.html",
        "x",
    ]
    assert all(r.meta[SITE_BUDGET] == ("fixture", 3) for r in passed[:4])
    assert SITE_BUDGET not in passed[4].meta
    assert crawler.stats.get_value("topiccrawler/links/over_site_budget") == 2


def test_a_page_of_no_authority_site_counts_against_its_host(seeds_file):
    budget, _ = budget_for(seeds_file, SITE_MAX_PAGES=1)
    page = "http://found.test/hit.html"
    response = HtmlResponse(page, body=b"<html></html>", request=Request(page, meta={HOPS: 0}))
    links = [Request(f"http://found.test/{i}", meta={HOPS: 1}) for i in range(3)]
    passed = list(budget.process_spider_output(response, iter(links)))
    assert len(passed) == 1 and passed[0].meta[SITE_BUDGET] == ("found.test", 1)


@pytest.mark.parametrize(
    ("meta", "dont_filter", "counted"),
    [
        ({ENTRANCE: "authority", HOPS: 0, AUTHORITY_SITE: "fixture"}, False, True),
        ({ENTRANCE: "authority", HOPS: 0, AUTHORITY_SITE: "fixture"}, True, False),  # a refetch
        ({ENTRANCE: "search", HOPS: 0, AUTHORITY_SITE: "fixture"}, False, False),  # a hit
    ],
)
def test_start_pages_of_an_authority_site_take_its_budget(seeds_file, meta, dont_filter, counted):
    budget, _ = budget_for(seeds_file)
    request = Request("http://fixture.test/start.html", meta=dict(meta), dont_filter=dont_filter)
    assert budget._start_admitted(request)
    assert (SITE_BUDGET in request.meta) is counted


def page_item(url: str, html: str) -> PageItem:
    return PageItem(url=url, topic="tax", status=200, fetched_at=datetime.now(UTC), html=html,
                    encoding="utf-8")  # fmt: skip


def test_a_canonical_claim_marks_the_canonical_url_seen():
    crawler = make_crawler({"STORAGE_ENABLED": False})
    canonical = CanonicalLinksMiddleware.from_crawler(crawler)
    seen: list[str] = []
    crawler.engine = SimpleNamespace(
        scheduler=SimpleNamespace(df=SimpleNamespace(request_seen=lambda r: seen.append(r.url)))
    )
    url = "http://news.test/a.html?utm_source=feed"
    html = '<html><head><link rel="canonical" href="/story/a.html?utm_medium=x"></head></html>'
    response = HtmlResponse(url, body=html.encode(), encoding="utf-8")
    page = page_item(url, html)
    assert list(canonical.process_spider_output(response, iter([page]))) == [page]
    assert page.canonical_url == "http://news.test/story/a.html" == seen[0]
    assert crawler.stats.get_value("topiccrawler/links/canonical_claimed") == 1

    itself = '<html><head><link rel="canonical" href="http://news.test/b.html"></head></html>'
    other = page_item("http://news.test/b.html", itself)
    canonical.claim(HtmlResponse(other.url, body=itself.encode(), encoding="utf-8"), other)
    assert other.canonical_url is None and len(seen) == 1  # a page naming itself claims nothing


def test_a_page_without_a_canonical_link_is_not_parsed_for_one(monkeypatch):
    """The claim parses the page only where its source names a canonical link at all (with a
    worker reading pages, the crawl's process parses none of them otherwise)."""
    from topiccrawler.middlewares import canonical as module

    crawler = make_crawler({"STORAGE_ENABLED": False})
    canonical = CanonicalLinksMiddleware.from_crawler(crawler)
    crawler.engine = SimpleNamespace(scheduler=SimpleNamespace(df=None))
    parsed = []
    monkeypatch.setattr(module, "in_encoding", lambda *a: parsed.append(a) or a[0])
    url = "http://news.test/c.html"
    html = '<html><head><link rel="alternate" href="/feed.xml"></head><body>正文</body></html>'
    page = page_item(url, html)
    canonical.claim(HtmlResponse(url, body=html.encode(), encoding="utf-8"), page)
    assert page.canonical_url is None and not parsed
    named = html.replace("alternate", "canonical")
    page = page_item(url, named)
    canonical.claim(HtmlResponse(url, body=named.encode(), encoding="utf-8"), page)
    assert page.canonical_url == "http://news.test/feed.xml" and len(parsed) == 1


def test_canonical_claims_are_off_with_url_canonical_links_false():
    with pytest.raises(NotConfigured):
        CanonicalLinksMiddleware.from_crawler(make_crawler({"URL_CANONICAL_LINKS": False}))
