"""What the crawl learns about sections, and link priorities from what is known before fetching."""

from __future__ import annotations

from tests.relevance.test_scorer import KEYWORDS
from topiccrawler.frontier.learning import YieldStats, places
from topiccrawler.frontier.priority import PAGE_SCALE, LinkPrioritizer
from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.scorer import RelevanceScorer


def test_places_are_site_and_first_path_segment():
    assert places("http://News.Example/tax/2024/1.html") == ("news.example", "news.example/tax")
    assert places("http://news.example/index.html") == ("news.example", "news.example/")


def test_sections_that_keep_yielding_irrelevant_pages_sink():
    stats = YieldStats(exploration=0.0)
    for n in range(20):
        stats.record(f"http://a.test/tax/{n}.html", True)
        stats.record(f"http://a.test/sports/{n}.html", False)
    assert stats.expected("http://a.test/tax/99.html") > 0.8
    assert stats.expected("http://a.test/sports/99.html") < 0.2
    unseen = stats.expected("http://a.test/new/1.html")
    assert 0.2 < unseen < 0.8  # the site's rate, for a section never seen
    assert stats.expected("http://b.test/x/1.html") == stats.expected("http://b.test/y/1.html")


def test_exploration_favours_sections_seen_little():
    stats = YieldStats(exploration=0.2)
    for n in range(30):
        stats.record(f"http://a.test/old/{n}.html", False)
    stats.record("http://a.test/young/1.html", False)
    assert stats.expected("http://a.test/young/2.html") > stats.expected(
        "http://a.test/old/99.html"
    )


def prioritizer(learning=None) -> LinkPrioritizer:
    return LinkPrioritizer(
        RelevanceScorer(ConceptLibrary.extended(KEYWORDS)), 0.04, learning=learning
    )


def test_topical_anchor_content_block_and_relevant_parent_come_first():
    p = prioritizer()
    on_topic = p.priority("http://a.test/1.html", "税务机关查处偷税案件", "content", 0.08, 1)
    assert on_topic > p.priority("http://a.test/2.html", "国足客场取胜", "content", 0.08, 1)
    assert on_topic > p.priority(
        "http://a.test/1.html", "税务机关查处偷税案件", "navigation", 0.08, 1
    )
    assert on_topic > p.priority("http://a.test/1.html", "税务机关查处偷税案件", "content", 0.0, 1)
    assert on_topic > p.priority("http://a.test/1.html", "税务机关查处偷税案件", "content", 0.08, 5)
    assert p.link_features("http://a.test/tax-evasion/1.html", "", "content", 0)["url"] > 0
    assert 0 <= p.priority("http://a.test/x", "", "navigation", 0, 50) <= PAGE_SCALE


def test_learning_moves_links_of_the_same_kind():
    stats = YieldStats(exploration=0.0)
    p = prioritizer(stats)
    before = p.priority("http://a.test/shop/9.html", "加湿器 正品包邮", "content", 0.0, 1)
    for n in range(30):
        stats.record(f"http://a.test/shop/{n}.html", False)
        stats.record(f"http://a.test/news/{n}.html", True)
    assert p.priority("http://a.test/shop/9.html", "加湿器 正品包邮", "content", 0.0, 1) < before
    assert p.priority("http://a.test/news/9.html", "加湿器 正品包邮", "content", 0.0, 1) > before


def test_links_that_name_the_topic_itself_are_on_topic():
    scorer = RelevanceScorer(ConceptLibrary.extended(KEYWORDS))
    named = LinkPrioritizer(scorer, 0.04, topic_title="财经 / Finance")
    unnamed = LinkPrioritizer(scorer, 0.04)
    channel = named.link_features("http://a.test/finance/", "财经", "navigation", 0)
    assert channel["text"] == 0.75 and channel["url"] == 1.0
    assert unnamed.link_features("http://a.test/finance/", "财经", "navigation", 0)["text"] == 0
    assert named.link_features("http://a.test/sports/", "体育", "navigation", 0)["text"] == 0
    assert named.topic_words == {"财经", "finance"}


def test_an_anchor_is_scored_against_the_library_once():
    scorer = RelevanceScorer(ConceptLibrary.extended(KEYWORDS))
    prioritizer = LinkPrioritizer(scorer, 0.05)
    calls = []
    score = scorer.block_score
    scorer.block_score = lambda text: calls.append(text) or score(text)
    first = prioritizer.evidence("国家税务总局查处偷税案件")
    assert prioritizer.evidence("国家税务总局查处偷税案件") == first > 0
    assert calls == ["国家税务总局查处偷税案件"]


def test_a_page_relabelled_counts_once_with_its_new_verdict():
    relabelled, direct = YieldStats(), YieldStats()
    for stats, first in ((relabelled, False), (direct, True)):
        stats.record("http://a.test/finance/1.html", first)
        stats.record("http://a.test/finance/2.html", True)
    relabelled.relabel("http://a.test/finance/1.html", True)
    assert relabelled.total == direct.total == 2
    assert relabelled.total_relevant == direct.total_relevant == 2
    assert dict(relabelled.relevant) == dict(direct.relevant)
    url = "http://a.test/finance/3.html"
    assert relabelled.expected(url) == direct.expected(url)
