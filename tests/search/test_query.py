"""The query language: words, "phrases", -excluded, read with the index's own word splitting."""

from __future__ import annotations

import pytest

from topiccrawler.search.query import QueryError, parse_query


def test_words_all_required_and_said_in_both_stores_syntax():
    query = parse_query("增值税 taxes")
    assert [t.surface for t in query.required] == ["增值税", "taxes"]
    assert query.required[1].words == ("tax",)  # stemmed as the index is
    assert query.fts5() == '"增值 增值税" AND "tax"'
    assert query.tsquery() == "('增值' <-> '增值税') & 'tax'"


def test_a_quoted_phrase_keeps_its_words_in_order():
    query = parse_query('"value added tax" refund')
    assert query.required[0].words == ("valu", "add", "tax")
    assert query.required[0].phrase
    assert query.fts5() == '"valu add tax" AND "refund"'


def test_excluded_words_and_phrases():
    query = parse_query('发票 -"专用发票" -refund')
    assert [t.surface for t in query.excluded] == ["专用发票", "refund"]
    assert query.fts5() == '(("发票") NOT "专用 发票 专用发票") NOT "refund"'
    assert query.tsquery().endswith("& !'refund'")


def test_a_chinese_word_becomes_the_run_of_words_it_makes_in_text():
    assert parse_query("个人所得税").required[0].words == ("个人", "所得", "所得税", "个人所得税")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("-发票", "only excludes"),
        ("the of", "too common"),
        (" ".join(f"w{i}" for i in range(40)), "more than 32"),
    ],
)
def test_queries_that_cannot_be_searched_say_why(text, reason):
    with pytest.raises(QueryError, match=reason):
        parse_query(text)


def test_quotes_and_operators_in_words_cannot_break_the_expression():
    query = parse_query('tax" OR 1=1 -- NEAR(a b) "unclosed')
    expression = query.fts5()
    assert expression.count('"') % 2 == 0
    assert all(part.startswith('"') for part in expression.split(" AND "))
