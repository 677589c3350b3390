"""A page's links: read from the response (the spider) and from the page's decoded text (an
extraction worker) they are the same links, escaped in the page's encoding."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.http import HtmlResponse

from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.links import PageLink, page_links, rebuilt_response
from topiccrawler.guard.text import drop_html_controls
from topiccrawler.responses import in_encoding

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
URL = "http://news.example/2026/03/story.html"

PAGES = {
    "gbk query": (
        "gbk",
        '<html><head><meta charset="gbk"><title>税</title></head><body>'
        '<nav><a href="/">首页</a><a href="/税务/">税务</a></nav>'
        '<p><a href="/search?q=增值税&amp;p=2">增值税 新闻</a> <a href="other.html">相对</a></p>'
        "</body></html>",
    ),
    "big5": (
        "big5",
        '<html><head><meta charset="big5"></head><body>'
        '<a href="/查詢?q=稅務">稅務</a><div class="footer"><a href="/about">關於</a></div>'
        "</body></html>",
    ),
    "base href": (
        "utf-8",
        '<html><head><base href="http://cdn.example/base/"></head><body>'
        '<a href="a.html">A</a><a href="//other.example/b">B</a><a href="mailto:x@y">m</a>'
        '<a href="javascript:void(0)">js</a><a href="#top">top</a></body></html>',
    ),
    "control character in an anchor": (
        "utf-8",
        '<html><body><a href="/ok.html">ok\x1b[31m</a><a href="/a\tb.html">tab</a></body></html>',
    ),
    "a character gbk cannot write": (
        "gbk",
        '<html><head><meta charset="gbk"></head><body><a href="/x?q=\u00e9\u20ac">e</a></body></html>',
    ),
}


def both_ways(body: bytes, content_type: str) -> tuple[list[PageLink], list[PageLink]]:
    """(the spider's links from the response, a worker's from the page's decoded text)."""
    response = HtmlResponse(URL, body=body, headers={"Content-Type": content_type})
    encoding, html = decode_html(body, content_type)
    html = drop_html_controls(html)  # as the extraction middleware hands it to a worker
    return page_links(in_encoding(response, encoding)), page_links(
        rebuilt_response(html, URL, encoding)
    )


@pytest.mark.parametrize("name", sorted(PAGES))
def test_written_pages_give_the_same_links_both_ways(name):
    encoding, source = PAGES[name]
    body = source.encode(encoding, "xmlcharrefreplace")
    spider, worker = both_ways(body, f"text/html; charset={encoding}")
    assert spider == worker
    assert spider  # every page has a link to follow


def test_every_saved_page_gives_the_same_links_both_ways():
    paths = sorted(FIXTURES.rglob("*.html"))
    assert len(paths) > 10
    for path in paths:
        spider, worker = both_ways(path.read_bytes(), "text/html")
        assert spider == worker, path


def test_links_are_escaped_in_the_pages_encoding_and_marked_in_navigation():
    encoding, source = PAGES["gbk query"]
    links, _ = both_ways(source.encode(encoding), "text/html; charset=gbk")
    assert links == [
        PageLink("http://news.example/", "首页", True),
        PageLink("http://news.example/%E7%A8%8E%E5%8A%A1/", "税务", True),  # paths: UTF-8
        PageLink("http://news.example/search?q=%D4%F6%D6%B5%CB%B0&p=2", "增值税 新闻", False),
        PageLink("http://news.example/2026/03/other.html", "相对", False),
    ]


def test_an_encoding_python_does_not_know_reads_as_utf8():
    response = rebuilt_response('<a href="/税">税</a>', URL, "x-unknown-charset")
    assert response.encoding == "utf-8"
    assert page_links(response) == [PageLink("http://news.example/%E7%A8%8E", "税", False)]


def test_an_href_with_a_control_character_is_the_one_difference():
    body = b'<html><body><a href="/a\x07b.html">bell</a></body></html>'
    spider, worker = both_ways(body, "text/html; charset=utf-8")
    assert [link.url for link in spider] == ["http://news.example/a%07b.html"]
    assert [link.url for link in worker] == ["http://news.example/ab.html"]
    assert [link.text for link in spider] == [link.text for link in worker] == ["bell"]
