"""A page's links: read from the response (the spider) and from the page's decoded text (an
extraction worker) they are the same links, escaped in the page's encoding."""

from __future__ import annotations

from pathlib import Path

import pytest
from scrapy.http import HtmlResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.response import get_base_url

from tests.conftest import SHARED
from topiccrawler.extract.blocks import navigation_hrefs
from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.links import PageLink, UrlMemo, absolute_url, page_links, rebuilt_response
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


# --- The same links as Scrapy's LinkExtractor -------------------------------------------------

# hrefs whose URL depends on the page's and the base's schemes, hosts and paths in every way
# urllib joins them, and hrefs it is never asked to join.
HOSTILE_HREFS = [
    "http:g",
    "HTTP://Example.COM/a/../b",
    "//other.example/x",
    "///x",
    "/./a/../b",
    "?q=1",
    "#frag",
    "",
    "  /spaced  ",
    "javascript:void(0)",
    "JavaScript:x",
    "mailto:a@b",
    "ftp://f.example/x",
    "FILE:///etc/passwd",
    "http://[::1",
    "http://a/b?",
    "http://a/b;p?q#f",
    "/税务/?q=增值税",
    "data:text/html,x",
    "\x01/ctrl",
    "/a\tb",
    "https://x.example",
    "tel:123",
    "../up.html",
    "http:///p",
    "https:/x",
    "//",
    "/",
    "sub/page.html",
    "HtTpS://Mixed.example/Path",
    "/a b/c",
    "%zz",
    "http://a:99999/",
    "h\ttp://split",
    "http://user:pw@host.example/",
    "\\\\backslash",
    "/same",
    "/same",
    "//\t/x",
    "/\t/",
    "http://\t/x",
    "/\t/x",
    "/\n",
    "HTTPS://UPPER.example",
    "Ftp://f.example/y",
]
PAGE_URLS = ["http://news.example/2026/03/story.html", "https://secure.example/a/b/c?x=1"]
BASES = [
    None,
    "http://cdn.example/base/",
    "https://cdn.example/other/dir",
    "sub/",
    "/rooted/",
    "http://CDN.Example/base/",
    "?only=query",
    "ftp://files.example/",
]


def hostile_page(base: str | None) -> str:
    anchors = "".join(
        f'<a href="{h.replace(chr(34), "&quot;")}">{i}</a>' for i, h in enumerate(HOSTILE_HREFS)
    )
    navigation = '<nav><a href="/same">n</a><a href="http:g">g</a><a href="?q=1">q</a></nav>'
    base_tag = f'<base href="{base}">' if base else ""
    return (
        f"<html><head>{base_tag}</head><body>{navigation}<p>{anchors}</p>"
        '<map><area href="/area.html"><area></map></body></html>'
    )


def extractor_links(response: HtmlResponse) -> list[PageLink]:
    """The links as Scrapy's LinkExtractor gives them, marked in navigation by their URLs."""
    base = get_base_url(response)
    navigation = {
        absolute_url(href, base, response.url, response.encoding)
        for href in navigation_hrefs(response.selector.root)
    }
    return [
        PageLink(link.url, drop_html_controls(link.text), link.url in navigation)
        for link in LinkExtractor(deny_extensions=[]).extract_links(response)
    ]


def test_hostile_hrefs_give_linkextractors_links_whatever_the_memo_holds():
    memo = UrlMemo()  # one memo over every page, base and scheme: what it keeps must not leak
    for _ in range(2):
        for page_url in PAGE_URLS:
            for base in BASES:
                for encoding in ("utf-8", "gbk"):
                    body = hostile_page(base).encode(encoding, "xmlcharrefreplace")
                    response = HtmlResponse(page_url, body=body, encoding=encoding)
                    assert page_links(response, memo) == extractor_links(response), (
                        page_url, base, encoding,
                    )  # fmt: skip
    assert memo.urls  # (it was used)


def test_a_full_memo_starts_afresh():
    memo = UrlMemo(size=3)
    response = HtmlResponse(PAGE_URLS[0], body=hostile_page(None).encode(), encoding="utf-8")
    assert page_links(response, memo) == extractor_links(response)
    assert len(memo.urls) <= 3


BODY_BENCH = SHARED / "bench" / "body"


@pytest.mark.skipif(not BODY_BENCH.is_dir(), reason="../shared/bench is not beside this checkout")
def test_real_pages_give_linkextractors_links():
    """A quarter of the body bench's pages (news, blogs, wikis, Chinese portals: hundreds of
    links each), read in place, under page URLs of two schemes, through one memo."""
    memo = UrlMemo()
    paths = sorted(BODY_BENCH.rglob("*.html"))[::4]
    assert len(paths) > 40
    for number, path in enumerate(paths):
        encoding, html = decode_html(path.read_bytes(), "text/html")
        page_url = ("http://site.example/a/index.html", "https://site.example/b/c?d")[number % 2]
        response = rebuilt_response(html, page_url, encoding)
        assert page_links(response, memo) == extractor_links(response), path
