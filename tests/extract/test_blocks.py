"""The page's blocks for relevance, and the navigation links the spider tells apart."""

from __future__ import annotations

from pathlib import Path

from scrapy.http import HtmlResponse

from topiccrawler.extract.blocks import NAVIGATION_WORDS, navigation_hrefs, page_blocks
from topiccrawler.extract.parse import parse_html

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

# What the spider asked before (Scrapy's XPath with EXSLT regular expressions): the reference.
NAVIGATION_XPATH = (
    "//nav//a/@href | //footer//a/@href | //*[@role='navigation']//a/@href"
    f" | //*[re:test(@class, '{NAVIGATION_WORDS}', 'i')"
    f" or re:test(@id, '{NAVIGATION_WORDS}', 'i')]//a/@href"
)

NAVIGATIONS = """<html><body>
<div id="TopNav"><a href="/home">Home</a><a>no href</a><a href="">self</a>
  <ul class="sub-MENU"><li><a href="/sub">Sub</a></li></ul></div>
<nav><span><a href="/n1">n1</a></span></nav>
<div role="navigation"><a href="/r1">r1</a></div>
<div class="breadcrumbs"><a href="/a">A</a> &gt; <a href="/a/b">B</a></div>
<div class="content"><p>Text with <a href="/story">a story</a>.</p>
  <div class="Channel-bar"><a href="/ch">Ch</a></div></div>
<a class="nav-link" href="/itself">a link named like navigation, with no link inside</a>
<div id="页脚 footer"><a href="/f">f</a></div>
<footer><a href="/about">About</a><!-- <a href="/commented">x</a> --></footer>
</body></html>"""


def test_navigation_links_are_what_the_xpath_of_the_same_test_finds():
    pages = [NAVIGATIONS.encode(), *(p.read_bytes() for p in sorted(FIXTURES.rglob("*.html")))]
    for body in pages:
        response = HtmlResponse("http://fixture.example/n/", body=body, encoding="utf-8")
        assert navigation_hrefs(response.selector.root) == set(
            response.xpath(NAVIGATION_XPATH).getall()
        )
    found = navigation_hrefs(parse_html(NAVIGATIONS))
    assert found == {"/home", "", "/sub", "/n1", "/r1", "/a", "/a/b", "/ch", "/f", "/about"}
    assert "/story" not in found and "/itself" not in found  # content, and a link itself


def test_page_blocks_keep_navigation_apart_from_anchors():
    blocks = page_blocks(parse_html(NAVIGATIONS))
    assert "Home" in blocks["navigation"] and "About" in blocks["navigation"]
    assert "a story" in blocks["anchors"] and "Home" not in blocks["anchors"]
