"""Snippets are cut from the stored text; marks are offsets, never markup."""

from __future__ import annotations

from topiccrawler.search.query import parse_query
from topiccrawler.search.snippets import make_snippet


def test_the_stretch_with_the_most_terms_is_shown_with_them_marked():
    text = "开头的话。" * 40 + "今年增值税专用发票的新规定已经施行。" + "结尾。" * 40
    snippet = make_snippet(text, parse_query("增值税 发票"))
    assert snippet.text.startswith("… ") and snippet.text.endswith(" …")
    assert [snippet.text[s:e] for s, e in snippet.marks] == ["增值税", "发票"]


def test_latin_words_are_marked_wherever_their_stem_matches():
    snippet = make_snippet("Taxed twice: taxes, taxation and a tax.", parse_query("taxes"))
    assert [snippet.text[s:e] for s, e in snippet.marks] == ["Taxed", "taxes", "tax"]


def test_markup_in_text_stays_text_in_the_parts():
    snippet = make_snippet("<script>alert(1)</script> 发票", parse_query("发票"))
    assert snippet.parts() == [("<script>alert(1)</script> ", False), ("发票", True)]
    assert snippet.marked() == "<script>alert(1)</script> «发票»"


def test_no_occurrence_gives_the_start_of_the_text():
    snippet = make_snippet("甲" * 300, parse_query("发票"), width=10)
    assert snippet.text == "甲" * 10 + " …" and snippet.marks == ()
