"""Query yields: the share of relevant pages among each query's judged hits."""

from __future__ import annotations

from topiccrawler.frontier.queries import QueryYields


def test_an_unjudged_query_starts_at_the_mean_of_all_queries():
    yields = QueryYields()
    assert yields.expected("e", "央行") == 0.5
    for _ in range(8):
        yields.record("e", "基金", True)
    assert yields.expected("e", "央行") == yields.overall() > 0.8


def test_a_query_that_brings_irrelevant_pages_sinks_below_a_good_one():
    yields = QueryYields()
    for n in range(10):
        yields.record("e", "基金", True)
        yields.record("e", "乐观", n == 0)
    assert yields.expected("e", "乐观") < 0.3 < 0.8 < yields.expected("e", "基金")


def test_settled_once_half_the_hits_are_judged():
    yields = QueryYields()
    assert not yields.settled("e", "基金")  # no hits yet
    yields.add_hits("e", "基金", 10)
    for _ in range(4):
        yields.record("e", "基金", True)
    assert not yields.settled("e", "基金")
    yields.record("e", "基金", False)
    assert yields.settled("e", "基金")


def test_a_hit_relabelled_counts_once_with_its_new_verdict():
    yields = QueryYields()
    yields.record("bing", "个人所得税", False)
    yields.record("bing", "个人所得税", True)
    yields.relabel("bing", "个人所得税", True)
    assert yields.judged["bing", "个人所得税"] == 2 and yields.relevant["bing", "个人所得税"] == 2
