"""A page fetched at its site's hop limit and found nearer later: its links are followed from
what was kept when it was fetched, not by fetching it again."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from scrapy import Request
from scrapy.http import HtmlResponse

from tests.crawl import make_crawler
from topiccrawler.items import PageItem
from topiccrawler.meta import AUTHORITY_SITE, ENTRANCE, HOPS, SITE_BUDGET
from topiccrawler.middlewares.extraction import ExtractionMiddleware
from topiccrawler.middlewares.frontier import FrontierMiddleware
from topiccrawler.middlewares.hop_limit import HopLimitMiddleware
from topiccrawler.middlewares.relevance import RelevanceMiddleware
from topiccrawler.middlewares.site_budget import SiteBudgetMiddleware
from topiccrawler.spiders.topic import TopicSpider

PAGE = """<html><head><title>税务机关查处偷税案件</title></head><body>
<div class="nav"><a href="/index.html">首页</a></div>
<article><p>税务机关近日查处一起偷税案件，涉案企业虚开增值税专用发票，被依法追缴税款。</p>
<a href="/news/fines.html">偷税罚款标准公布</a> <a href="/sports/match.html">国足客场取胜</a></article>
</body></html>"""


def link_chain(seeds_file):
    """A crawler, its spider (hop limit 2 on the fixture site) and the spider middlewares a
    page's links pass, opened as Scrapy opens them; `crawled` collects what the engine gets."""
    crawler = make_crawler({"STORAGE_ENABLED": False})
    spider = TopicSpider.from_crawler(crawler, topic="tax", seeds=str(seeds_file(depth_limit=2)))
    crawler.spider = spider
    chain = SimpleNamespace(
        crawler=crawler,
        spider=spider,
        extraction=ExtractionMiddleware.from_crawler(crawler),
        relevance=RelevanceMiddleware.from_crawler(crawler),
        frontier=FrontierMiddleware.from_crawler(crawler),
        hop_limit=HopLimitMiddleware.from_crawler(crawler),
        crawled=[],
    )
    chain.frontier.budget = SiteBudgetMiddleware.from_crawler(crawler)  # as the engine has it
    chain.relevance.spider_opened(spider)
    chain.frontier.spider_opened(spider)  # tells the hop limit where the frontier is
    crawler.engine = SimpleNamespace(crawl=chain.crawled.append)
    return chain


def fetched_deep(chain, url: str, html: str, meta: dict):
    """The page at `url` fetched with `meta` (its hops): its PageItem, and its output through
    the spider middlewares (a generator: read lazily, as the engine reads it)."""
    spider = chain.spider
    request = Request(url, meta=meta, callback=spider.parse)
    response = HtmlResponse(url, body=html.encode(), encoding="utf-8", request=request)
    page = PageItem(url=url, topic="tax", status=200, fetched_at=datetime.now(UTC), html=html)
    read = map(chain.extraction.process, [page, *spider.follow_links(response, page)])
    judged = chain.relevance.process_spider_output(response, read)
    return page, chain.frontier.process_spider_output(
        response, chain.hop_limit.process_spider_output(response, judged)
    )


def test_a_page_at_the_hop_limit_found_nearer_has_its_kept_links_followed(seeds_file, site):
    chain = link_chain(seeds_file)
    crawler, spider, crawled, hop_limit = (
        chain.crawler,
        chain.spider,
        chain.crawled,
        chain.hop_limit,
    )

    url = f"{site.url}/deep/page.html"
    meta = {HOPS: 2, AUTHORITY_SITE: "fixture", ENTRANCE: "authority"}
    page, output = fetched_deep(chain, url, PAGE, meta)
    links = [r for r in output if isinstance(r, Request)]
    assert links == []  # at the limit (2 hops): its links are not followed, but kept
    assert page.is_relevant and hop_limit.store.hop_limited == {url: 2}

    hop_limit.request_dropped(Request(url, meta={**meta, HOPS: 2}, callback=spider.parse))
    assert crawled == []  # not nearer: nothing to do
    hop_limit.request_dropped(Request(url, meta={**meta, HOPS: 1}, callback=spider.parse))
    by_url = {r.url.rsplit("/", 2)[-2] + "/" + r.url.rsplit("/", 1)[-1]: r for r in crawled}
    fines, sports = by_url["news/fines.html"], by_url["sports/match.html"]
    assert fines.meta[HOPS] == sports.meta[HOPS] == 2 and not fines.dont_filter
    assert fines.priority > sports.priority > 0  # ranked as links of a relevant page
    assert fines.meta[SITE_BUDGET] == ("fixture", 50)  # counted against the site's budget
    assert url not in {r.url for r in crawled}  # the page itself is not fetched again
    stats = crawler.stats.get_stats()
    assert stats["topiccrawler/links/held_links_followed"] == 1
    assert "topiccrawler/links/refetched_for_fewer_hops" not in stats
    assert hop_limit.store.held == {} and hop_limit.store.total == 0


LEAF = """<html><head><title>税务机关查处偷税案件</title></head><body>
<article><p>税务机关近日查处一起偷税案件，涉案企业虚开增值税专用发票，被依法追缴税款。</p></article>
</body></html>"""


def test_a_page_at_the_hop_limit_without_links_is_not_fetched_again_when_found_nearer(
    seeds_file, site
):
    """Nothing was held, so nothing is lost: a second fetch would bring no link."""
    chain = link_chain(seeds_file)
    crawler, spider, crawled = chain.crawler, chain.spider, chain.crawled
    extraction, relevance, hop_limit = chain.extraction, chain.relevance, chain.hop_limit

    url = f"{site.url}/deep/leaf.html"
    meta = {HOPS: 2, AUTHORITY_SITE: "fixture", ENTRANCE: "authority"}
    request = Request(url, meta=meta, callback=spider.parse)
    response = HtmlResponse(url, body=LEAF.encode(), encoding="utf-8", request=request)
    page = PageItem(url=url, topic="tax", status=200, fetched_at=datetime.now(UTC), html=LEAF)
    outputs = list(
        hop_limit.process_spider_output(
            response,
            relevance.process_spider_output(
                response, map(extraction.process, [page, *spider.follow_links(response, page)])
            ),
        )
    )
    assert outputs == [page]

    hop_limit.request_dropped(Request(url, meta={**meta, HOPS: 1}, callback=spider.parse))
    assert crawled == []  # not fetched again
    assert "topiccrawler/links/refetched_for_fewer_hops" not in crawler.stats.get_stats()


def test_a_page_found_nearer_while_its_output_is_still_read_is_not_fetched_again(seeds_file, site):
    """A page read in an extraction worker yields its links later than it was fetched; found
    nearer in between (another page's link, refused as seen), it waits for its links to be
    held, then they are followed from there: no second fetch."""
    chain = link_chain(seeds_file)
    crawler, spider, crawled, hop_limit = (
        chain.crawler,
        chain.spider,
        chain.crawled,
        chain.hop_limit,
    )

    url = f"{site.url}/deep/page.html"
    meta = {HOPS: 2, AUTHORITY_SITE: "fixture", ENTRANCE: "authority"}
    page, output = fetched_deep(chain, url, PAGE, meta)
    assert next(output) is page  # the page is out; its links are still to come
    hop_limit.request_dropped(Request(url, meta={**meta, HOPS: 1}, callback=spider.parse))
    assert crawled == []  # waits for the page's links
    assert [r for r in output if isinstance(r, Request)] == []  # at the limit: held
    followed = {r.url.rsplit("/", 1)[-1] for r in crawled}
    assert {"fines.html", "match.html"} <= followed and url not in {r.url for r in crawled}
    stats = crawler.stats.get_stats()
    assert stats["topiccrawler/links/held_links_followed"] == 1
    assert "topiccrawler/links/refetched_for_fewer_hops" not in stats
    assert hop_limit.reading == {}
