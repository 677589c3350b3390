"""A page's way out of the spider: extracted (middlewares/extraction.py), judged
(middlewares/relevance.py), its links gated by tunnelling and ranked (middlewares/frontier.py)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from scrapy import Request, signals
from scrapy.http import HtmlResponse, Response

from tests.crawl import make_crawler
from topiccrawler.items import PageItem
from topiccrawler.meta import (
    AT_DEPTH_LIMIT,
    CONTINUES_RELEVANT,
    ENGINE,
    ENTRANCE,
    FRONTIER,
    FRONTIER_RAISED,
    HIT_SNIPPET,
    HIT_TITLE,
    HOPS,
    LINK_TEXT,
    PAGER_HOPS,
    QUERY,
    TUNNEL,
)
from topiccrawler.middlewares.extraction import ExtractionMiddleware, extract_into
from topiccrawler.middlewares.frontier import FrontierMiddleware
from topiccrawler.middlewares.relevance import RelevanceMiddleware
from topiccrawler.signals import queue_rescore_wanted
from topiccrawler.spiders.topic import TopicSpider

TAX_PAGE = """<html><head><title>税务机关查处偷税案件</title></head><body>
<div class="nav"><a href="/">首页</a><a href="/sports">体育</a></div>
<article><p>税务机关近日查处一起偷税案件，涉案企业虚开增值税专用发票，被依法追缴税款并处罚款。</p>
<p>稽查局提醒纳税人依法履行纳税申报义务。</p></article>
<a href="/next">下一篇</a></body></html>"""
SPORTS_PAGE = """<html><head><title>国足客场逆转取胜</title></head><body>
<article><p>国足客场逆转取胜，晋级下一阶段比赛，球迷在现场欢呼。主教练赛后表示满意。</p></article>
<a href="/next">下一篇</a></body></html>"""


class Chain:
    """The three spider middlewares in Scrapy's order; attributes are the judge's, else the
    frontier's."""

    def __init__(self, seeds_file, settings: dict):
        crawler = make_crawler({"STORAGE_ENABLED": False, **settings})
        spider = TopicSpider.from_crawler(crawler, topic="tax", seeds=str(seeds_file()))
        crawler.spider = spider
        self.extraction = ExtractionMiddleware.from_crawler(crawler)
        self.relevance = RelevanceMiddleware.from_crawler(crawler)
        self.frontier = FrontierMiddleware.from_crawler(crawler)
        self.relevance.spider_opened(spider)
        self.frontier.spider_opened(spider)
        self.crawler = crawler

    def schedule(self, request):
        """The request reaches the scheduler (Scrapy's request_scheduled signal)."""
        self.crawler.signals.send_catch_log(
            signals.request_scheduled, request=request, spider=self.crawler.spider
        )

    def process_spider_output(self, response, produced):
        out = map(self.extraction.process, produced)  # (its sync reading: no worker here)
        out = self.relevance.process_spider_output(response, out)
        return self.frontier.process_spider_output(response, out)

    def __getattr__(self, name: str):
        for part in (self.relevance, self.frontier):
            if hasattr(part, name):
                return getattr(part, name)
        raise AttributeError(name)


@pytest.fixture
def middleware(seeds_file):
    return Chain(seeds_file, {"RELEVANCE_TUNNEL_DEPTH": 1})


def outputs(middleware, html: str, tunnel: int | None = None, with_page: bool = True, links=None):
    meta = {} if tunnel is None else {TUNNEL: tunnel}
    request = Request("http://site.test/page", meta=meta)
    response = HtmlResponse(request.url, body=html.encode(), encoding="utf-8", request=request)
    page = PageItem(
        url=request.url, topic="tax", status=200, fetched_at=datetime.now(UTC), html=html
    )
    produced = [page] if with_page else []
    produced += links or [Request("http://site.test/a"), Request("http://site.test/b")]
    return list(middleware.process_spider_output(response, iter(produced)))


def test_relevant_page_is_kept_with_reasons_and_its_links_followed(middleware):
    page, *links = outputs(middleware, TAX_PAGE, tunnel=1)
    assert page.is_relevant and page.extracted and page.relevance >= middleware.threshold
    assert (
        page.relevance_detail["threshold"] == 0.04
        and page.relevance_detail["library"] == "extended"
    )
    assert "偷税" in page.relevance_detail["terms"] and set(page.relevance_detail["blocks"]) >= {
        "title",
        "body",
    }
    assert [link.meta[TUNNEL] for link in links] == [0, 0]  # back on topic: the tunnel resets


def test_irrelevant_pages_links_tunnel_then_wait_behind_all_others(middleware):
    page, *links = outputs(middleware, SPORTS_PAGE)
    assert page.is_relevant is False and page.relevance < middleware.threshold
    assert [link.meta[TUNNEL] for link in links] == [1, 1]
    assert all(link.priority >= 0 for link in links)
    page, *links = outputs(middleware, SPORTS_PAGE, tunnel=1)
    # A second irrelevant page in a row (RELEVANCE_TUNNEL_DEPTH = 1): its off-topic links are
    # deferred below every link with a priority of its own, not dropped.
    assert len(links) == 2 and all(link.priority < 0 for link in links)
    stats = middleware.stats.get_stats()
    assert stats["topiccrawler/relevance/links_deferred"] == 2
    assert stats["topiccrawler/relevance/dropped"] == 2


def test_past_the_tunnel_an_on_topic_anchor_keeps_its_priority(middleware):
    produced = [Request("http://site.test/a", meta={LINK_TEXT: "税务机关查处偷税案件"})]
    page, link = outputs(middleware, SPORTS_PAGE, tunnel=1, links=produced)
    assert link.priority > 0 and link.meta[TUNNEL] == 2


def test_without_deferral_links_past_the_tunnel_are_dropped(seeds_file):
    middleware = Chain(seeds_file, {"RELEVANCE_TUNNEL_DEPTH": 1, "RELEVANCE_TUNNEL_DEFER": False})
    page, *links = outputs(middleware, SPORTS_PAGE, tunnel=1)
    assert links == []
    assert middleware.stats.get_stats()["topiccrawler/relevance/links_not_followed"] == 2


def test_search_hits_are_ranked_by_title_and_snippet_then_refreshed(middleware):
    def hit(url, title, snippet):
        meta = {ENTRANCE: "search", ENGINE: "e", QUERY: "偷税", HOPS: 0}
        meta |= {HIT_TITLE: title, HIT_SNIPPET: snippet}
        return Request(url, meta=meta)

    on_topic = hit("http://a.test/1", "税务机关查处偷税案件", "追缴税款并处罚款")
    off_topic = hit("http://a.test/2", "国足客场逆转取胜", "球迷谈偷税")  # the query word only
    ranked = outputs(middleware, SPORTS_PAGE, with_page=False, links=[on_topic, off_topic])
    assert ranked[0].priority > ranked[1].priority > 0
    # The query's hits prove irrelevant: its queued hits come up lower than they went in.
    spider = middleware.crawler.spider
    spider.query_yields.add_hits("e", "偷税", 10)
    for _ in range(10):
        spider.query_yields.record("e", "偷税", False)
    assert middleware.refresh_priority(off_topic) < off_topic.priority


def test_a_queued_link_is_read_at_eta_as_it_is_now_when_it_comes_up(middleware):
    prioritizer = middleware.frontier.prioritizer
    prioritizer.rescale(0.25)  # η as a crawl's first estimate may put it, far above the last
    produced = [Request("http://site.test/a", meta={LINK_TEXT: "查处偷税"})]
    page, link = outputs(middleware, TAX_PAGE, links=produced)
    known = link.meta[FRONTIER]
    assert known["parent"] == page.relevance and 0 < known["features"]["context"] < 1
    assert middleware.refresh_priority(link) == link.priority  # η as it was: the same
    # η estimated lower (as a crawl's estimate settles): what the parent's relevance and the
    # anchor say is read over the new 2η, as for a link of the same page queued now.
    prioritizer.rescale(0.04)
    now = prioritizer.link_features(link.url, "查处偷税", "content", page.relevance)
    assert known["features"]["context"] < now["context"] == 1.0
    assert middleware.refresh_priority(link) > link.priority
    queued_now = prioritizer.current(known["features"], link.url, "查处偷税", known["parent"])
    assert {name: queued_now[name] for name in ("text", "context", "url")} == {
        name: now[name] for name in ("text", "context", "url")
    }


def test_outputs_without_a_page_pass_untouched(middleware):
    links = outputs(middleware, SPORTS_PAGE, tunnel=5, with_page=False)  # e.g. search results
    assert len(links) == 2 and all(TUNNEL not in link.meta for link in links)


def test_static_library_and_threshold_settings(seeds_file):
    middleware = Chain(seeds_file, {"RELEVANCE_LIBRARY": "static", "RELEVANCE_THRESHOLD": "0.5"})
    assert middleware.threshold == 0.5 and len(middleware.scorer.library) == len(
        middleware.crawler.spider.topic.keywords.terms
    )
    page, *_ = outputs(middleware, TAX_PAGE)
    assert page.is_relevant is False and page.relevance_detail["library"] == "static"


def test_forum_pager_links_continue_the_page(middleware):
    from tests.extract.records.test_forum import POSTS, thread_page

    html = thread_page(POSTS)
    request = Request("http://bbs.test/thread-77-1-1.html", meta={TUNNEL: 2}, priority=7)
    response = HtmlResponse(request.url, body=html.encode(), encoding="utf-8", request=request)
    page = PageItem(
        url=request.url, topic="tax", status=200, fetched_at=datetime.now(UTC), html=html
    )
    pager = Request("http://bbs.test/thread-77-2-1.html", meta={LINK_TEXT: "下一页", HOPS: 3})
    other = Request("http://bbs.test/other.html", meta={LINK_TEXT: "别的", AT_DEPTH_LIMIT: True})
    judged, *links = middleware.process_spider_output(response, iter([page, pager, other]))
    assert judged.posts and links == [pager]  # past the depth limit only the pager goes on
    assert pager.meta[PAGER_HOPS] == 1 and pager.priority == 7
    assert pager.meta[CONTINUES_RELEVANT] == judged.is_relevant


def test_a_later_page_of_a_relevant_thread_is_kept(middleware):
    from tests.extract.records.test_forum import thread_page

    chat = [
        ("球迷甲", "2026-3-1 10:20", "昨晚的比赛太精彩了"),
        ("球迷乙", "2026-3-1 11:00", "进球很漂亮"),
    ]
    html = thread_page(chat).replace("个税汇算怎么退税？", "昨晚的比赛")
    page = PageItem(
        url="http://bbs.test/thread-77-2-1.html", topic="tax", status=200,
        fetched_at=datetime.now(UTC), html=html,
    )  # fmt: skip
    later = Request(page.url, meta={CONTINUES_RELEVANT: True})
    extract_into(page)
    assert middleware.judge(page, Response(page.url, request=later)) is True
    assert page.relevance < middleware.threshold and "kept_as" in page.relevance_detail


def test_judged_pages_teach_the_link_classifier_which_rescores_the_queue(middleware):
    class Queue(list):
        def rescore(self, score):
            self.scores = [score(request) for request in self]
            return len(self)

    queued = Request(
        "http://site.test/news/1.html",
        meta={LINK_TEXT: "税务局查处偷税", FRONTIER: {"features": {}, "hops": 1, "offset": 0}},
    )
    queued.meta[FRONTIER]["features"] = middleware.prioritizer.link_features(
        queued.url, "税务局查处偷税", "content", 0.1
    )
    queue = Queue([queued])
    middleware.crawler.signals.connect(  # as the scheduler answers
        lambda score, limit: queue.rescore(score), signal=queue_rescore_wanted, weak=False
    )
    classifier = middleware.classifier
    assert classifier is not None and not classifier.ready
    for i in range(12):
        html, link = (TAX_PAGE, "税务稽查新闻") if i % 2 else (SPORTS_PAGE, "体育新闻")
        request = Request(f"http://site.test/{i}.html", meta={LINK_TEXT: link})
        response = HtmlResponse(request.url, body=html.encode(), encoding="utf-8", request=request)
        page = PageItem(
            url=request.url, topic="tax", status=200, fetched_at=datetime.now(UTC), html=html
        )
        list(middleware.process_spider_output(response, iter([page])))
    assert classifier.ready and classifier.seen == 24  # each page: its link and its title
    assert middleware.stats.get_value("topiccrawler/frontier/classifier_fits") >= 1
    assert queue.scores and queue.scores[0] is not None  # the queue was scored again
    on_topic = middleware.prioritizer.link_features(
        "http://site.test/x.html", "税务稽查", "content", 0
    )
    off_topic = middleware.prioritizer.link_features(
        "http://site.test/y.html", "体育", "content", 0
    )
    assert on_topic["model"] > 0.5 > off_topic["model"]


def test_a_page_full_of_on_topic_links_teaches_the_classifier_it_is_worth_fetching(middleware):
    middleware.frontier.hub_links = 5  # FRONTIER_HUB_LINKS
    hub = SPORTS_PAGE  # not relevant itself...
    links = [
        Request(f"http://site.test/{i}", meta={LINK_TEXT: f"税务机关查处偷税案件{i}"})
        for i in range(6)
    ]
    page, *_ = outputs(middleware, hub, links=links)  # ...but six anchors on the topic
    assert page.is_relevant is False
    assert middleware.stats.get_value("topiccrawler/frontier/hubs") == 1
    assert middleware.classifier.examples[-1][1] is True  # learnt as worth fetching


def test_a_page_found_again_through_a_better_link_is_queued_again_there(middleware):
    """A hit whose snippet says nothing of the topic queues the page low; a relevant page's
    on-topic link to it queues it again higher (past the dupefilter, fetched once:
    frontier/rediscovery.py); a weaker link after that does not."""
    hit = Request(
        "http://site.test/case",
        meta={ENTRANCE: "search", ENGINE: "e", QUERY: "偷税", HOPS: 0}
        | {HIT_TITLE: "通知", HIT_SNIPPET: "偷税"},
    )
    (hit,) = outputs(middleware, SPORTS_PAGE, with_page=False, links=[hit])
    assert not hit.dont_filter
    middleware.schedule(hit)  # queued (before it is, a better link raises it in place)
    link = Request("http://site.test/case", meta={LINK_TEXT: "税务机关查处偷税案件 追缴税款"})
    page, link = outputs(middleware, TAX_PAGE, links=[link])
    assert link.priority >= hit.priority + 50
    assert link.dont_filter and link.meta[FRONTIER_RAISED]
    weaker = Request("http://site.test/case", meta={LINK_TEXT: "税务机关查处偷税案件 追缴税款"})
    page, weaker = outputs(middleware, SPORTS_PAGE, links=[weaker])
    assert not weaker.dont_filter and weaker.priority < link.priority
    stats = middleware.stats.get_stats()
    assert stats["topiccrawler/frontier/rediscovered_higher"] == 1


def test_example_pages_in_the_topic_file_teach_the_page_classifier(seeds_file, tmp_path):
    """[examples]: saved pages labelled by the user are in the page classifier's window before
    the first page is fetched; an unreadable one is skipped with a reason."""
    from dataclasses import replace

    (tmp_path / "case.html").write_text(TAX_PAGE, encoding="utf-8")
    (tmp_path / "match.html").write_text(SPORTS_PAGE, encoding="utf-8")
    chain = Chain(seeds_file, {"RELEVANCE_THRESHOLD": "auto"})
    spider = chain.crawler.spider
    keywords = replace(
        spider.topic.keywords,
        relevant_examples=(tmp_path / "case.html",),
        irrelevant_examples=(tmp_path / "match.html", tmp_path / "gone.html"),
    )
    spider.topic = replace(spider.topic, keywords=keywords)
    chain.relevance.spider_opened(spider)
    labels = [label for _, _, label in chain.relevance.page_judge.classifier.examples]
    assert labels == [True, False]
    assert chain.stats.get_value("topiccrawler/relevance/examples") == 2


def test_what_a_provisional_verdict_taught_the_frontier_is_corrected_when_it_changes(seeds_file):
    """η sets itself: the first page (a search hit) is judged before any estimate (relevant,
    provisionally). When a new estimate says otherwise, its section's yield, its link
    classifier examples and its query's yield read the verdict now, counted once."""
    from topiccrawler.signals import verdicts_revised

    chain = Chain(seeds_file, {"RELEVANCE_THRESHOLD": "auto", "RELEVANCE_TUNNEL_DEPTH": 1})
    hit = {ENTRANCE: "search", ENGINE: "e", QUERY: "偷税", HOPS: 0, HIT_TITLE: "税务稽查新闻"}
    request = Request("http://site.test/tax/1.html", meta=hit)
    response = HtmlResponse(request.url, body=TAX_PAGE.encode(), encoding="utf-8", request=request)
    page = PageItem(
        url=request.url, topic="tax", status=200, fetched_at=datetime.now(UTC), html=TAX_PAGE
    )
    list(chain.process_spider_output(response, iter([page])))
    assert page.is_relevant and page.relevance_detail["verdict"] == "provisional"
    learning, classifier = chain.learning, chain.classifier
    assert learning.relevant["site.test/tax"] == 1 and learning.total_relevant == 1
    assert [label for _, label in classifier.examples] == [True, True]  # the hit, the title
    yields = chain.crawler.spider.query_yields
    assert yields.judged["e", "偷税"] == yields.relevant["e", "偷税"] == 1

    chain.crawler.signals.send_catch_log(
        verdicts_revised, changed={page.url: False, "http://site.test/never-seen.html": True}
    )
    assert learning.relevant["site.test/tax"] == 0 and learning.total_relevant == 0
    assert learning.judged["site.test/tax"] == 1  # judged once, not twice
    assert [label for _, label in classifier.examples] == [False, False]
    assert chain.stats.get_value("topiccrawler/frontier/labels_corrected") == 1
    assert yields.judged["e", "偷税"] == 1 and yields.relevant["e", "偷税"] == 0
    chain.crawler.signals.send_catch_log(verdicts_revised, changed={page.url: False})
    assert chain.stats.get_value("topiccrawler/frontier/labels_corrected") == 1  # no change


def test_an_irrelevant_page_that_leads_to_a_relevant_one_is_learnt_as_a_tunnel_entry(seeds_file):
    """FRONTIER_TUNNEL_LABELS: the link to an off-topic page on which an on-topic page was
    found is learnt as worth fetching: its examples relabelled, once."""
    chain = Chain(seeds_file, {"RELEVANCE_TUNNEL_DEPTH": 1, "FRONTIER_TUNNEL_LABELS": True})

    def judge(url, html, referrer=None):
        headers = {"Referer": referrer} if referrer else {}
        request = Request(url, meta={LINK_TEXT: "新闻"}, headers=headers)
        response = HtmlResponse(url, body=html.encode(), encoding="utf-8", request=request)
        page = PageItem(url=url, topic="tax", status=200, fetched_at=datetime.now(UTC),
                        html=html, referrer=referrer)  # fmt: skip
        list(chain.process_spider_output(response, iter([page])))
        return page

    channel = judge("http://site.test/sports/", SPORTS_PAGE)
    assert channel.is_relevant is False
    assert [label for _, label in chain.classifier.examples] == [False, False]
    judge("http://site.test/tax/1.html", TAX_PAGE, referrer=channel.url)
    assert [label for _, label in chain.classifier.examples] == [True, True, True, True]
    assert chain.stats.get_value("topiccrawler/frontier/tunnel_entries") == 1
    judge("http://site.test/tax/2.html", TAX_PAGE, referrer=channel.url)
    assert chain.stats.get_value("topiccrawler/frontier/tunnel_entries") == 1
