"""Parsing: what lxml refuses is cleaned (found in the page's bytes), and only a page nested
deeper than libxml2 reads is flattened."""

from __future__ import annotations

import copy

from lxml import etree

from topiccrawler.extract.parse import (
    XML_INCOMPATIBLE,
    _marked_text,
    clean_source,
    parse_html,
    text_content,
    visible_text,
)


def test_clean_source_removes_every_refused_character_and_keeps_the_rest():
    refused = [chr(c) for c in (*range(0, 9), 0x0B, 0x0C, *range(0x0E, 0x20))]
    refused += ["\ud800", "\udfff", "\ufffe", "\uffff"]
    kept = "\t\n\r\x7f\x85\x9f\u00a0\u4e2d\ufffd\U0001f600"
    for char in refused:
        text = f"<p>a{char}b{kept}</p>"
        expected = "<p>a" + (" " if char in "\x0b\x0c" else "") + "b" + kept + "</p>"
        assert clean_source(text) == expected
        assert not XML_INCOMPATIBLE.search(clean_source(text))
    clean = f"<p>{kept}</p>"
    assert clean_source(clean) is clean  # nothing to clean: the page itself


def test_xml_declaration_is_removed_after_the_controls():
    page = '\x00 \ufeff<?xml version="1.0" encoding="gbk"?><p>文</p>'
    assert clean_source(page) == "<p>文</p>"
    assert clean_source("<p>no declaration</p><?xml ?>") == "<p>no declaration</p><?xml ?>"


def test_entity_references_do_not_make_a_page_look_truncated():
    """Carriage returns written as `&#13;` between thousands of tags (a forum template) are
    more characters in the source than in the tree; the page is not deep, so its nesting
    stays (it used to be flattened, losing every post's container)."""
    rows = "".join(
        f'<div class="post">&#13;\n\t&#13;\n<span class="author">user{n}</span>&#13;\n'
        f"<p>post {n}</p>&#13;\n</div>&#13;\n"
        for n in range(1500)
    )
    root = parse_html(f"<html><body><div id=posts>{rows}</div></body></html>")
    posts = root.findall(".//div[@class='post']")
    assert len(posts) == 1500 and posts[7].find("span").text == "user7"


def test_a_page_deeper_than_libxml2_reads_keeps_the_text_after_the_deep_part():
    depth = 3000
    html = "<html><body>" + "<div>" * depth + "深" + "</div>" * depth + "<p>之后</p></body></html>"
    text = text_content(parse_html(html))
    assert "深" in text and "之后" in text


def test_visible_text_reads_lines_as_the_marked_tree_does_and_leaves_the_tree():
    """The XSLT pass and the rules it stands for (line breaks set into a copy's texts) agree:
    invisible elements skipped with their tails kept, blocks and <br> on lines of their own."""
    page = (
        "<html><head><title>T</title><style>p{}</style></head><body>前言<div>甲<span>乙</span>"
        "<script>x()</script>丙<p>段一<br>段二</p>尾<noscript>无脚本</noscript>末</div>"
        "<ul><li>项一</li><li><a href=/>项二</a>后</li></ul><svg><text>图</text></svg>"
        "<table><tr><td>格一</td><td>格二</td></tr></table>  空白   收尾</body></html>"
    )
    root = parse_html(page)
    before = etree.tostring(root)
    for element in (root, root.find("body"), root.find(".//div"), root.find(".//p")):
        marked = _marked_text(copy.deepcopy(element))
        lines = [" ".join(line.split()) for line in marked.splitlines()]
        assert visible_text(element) == "\n".join(filter(None, lines))
    assert (
        visible_text(root) == "前言\n甲乙丙\n段一\n段二\n尾末\n项一\n项二后\n格一\n格二\n空白 收尾"
    )
    assert etree.tostring(root) == before
