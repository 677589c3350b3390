"""Page basics: title, visible text and metadata, on pages we wrote and on hostile input."""

from __future__ import annotations

import pytest

from tests.servers import FIXTURES
from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.page import ExtractionError, extract_page, parse_html, visible_text


def test_article_fields():
    _, html = decode_html((FIXTURES / "site/news/vat-reform.html").read_bytes())
    page = extract_page(html, "http://example.test/news/vat-reform.html")
    assert page.title == "增值税改革新政解读-税务资讯"
    assert page.author == "李明" and page.source == "税务资讯"
    assert page.published_at.isoformat() == "2026-03-15T09:30:00+08:00"
    lines = page.body.splitlines()
    assert lines[:2] == ["首页", "增值税改革新政解读"]
    assert "税务机关提醒纳税人按时办理纳税申报，依法开具发票。" in lines
    assert "tracker" not in page.body and "an HTML comment" not in page.body


def test_json_ld_metadata_and_time_element():
    html = (
        '<html><head><script type="application/ld+json">{"@type": "NewsArticle", '
        '"datePublished": "2026-01-02T03:04:05Z", "author": {"name": "Jane Roe"}}</script>'
        "</head><body><p>x</p></body></html>"
    )
    page = extract_page(html)
    assert page.author == "Jane Roe" and page.published_at.year == 2026
    page = extract_page('<body><time datetime="2025-12-31">Dec 31</time><p>x</p></body>')
    assert page.published == "2025-12-31"


def test_title_falls_back_to_h1():
    assert extract_page("<body><h1> 标题 </h1><p>正文</p></body>").title == "标题"
    assert extract_page("<body><p>no title</p></body>").title is None


def test_visible_text_keeps_the_tree_intact():
    root = parse_html("<body><script>x()</script><p>a<br>b</p></body>")
    assert visible_text(root) == "a\nb"
    assert root.find(".//script") is not None


@pytest.mark.parametrize("html", ["", "   \n", "<!-- only a comment -->"])
def test_empty_documents_raise(html):
    with pytest.raises(ExtractionError):
        extract_page(html)


def test_malformed_html_is_repaired():
    page = extract_page("<html><body><div><p>未闭合<table><tr><td>单元<p>段落</b></i></div>")
    assert "未闭合" in page.body and "单元" in page.body and "段落" in page.body


def test_deeply_nested_page_keeps_its_text():
    depth = 5000
    html = "<html><body>" + "<div>" * depth + "深层正文" + "</div>" * depth + "</body></html>"
    assert extract_page(html).body == "深层正文"


def test_huge_page():
    paragraph = "<p>" + "纳税人依法申报增值税。" * 50 + "</p>\n"
    page = extract_page("<html><body>" + paragraph * 4000 + "</body></html>")  # ~4 MB
    assert page.body.count("\n") == 3999
