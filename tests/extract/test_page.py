"""Page basics: title, visible text and metadata, on pages we wrote and on hostile input."""

from __future__ import annotations

import gc

import pytest

from tests.servers import FIXTURES
from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.page import PageContent, extract_page
from topiccrawler.extract.parse import ExtractionError, parse_html, visible_text


def test_article_fields():
    _, html = decode_html((FIXTURES / "site/news/vat-reform.html").read_bytes())
    page = extract_page(html, "http://example.test/news/vat-reform.html")
    assert page.title == "增值税改革新政解读"  # without the site suffix
    assert page.author == "李明" and page.source == "税务资讯"
    assert page.published_at.isoformat() == "2026-03-15T09:30:00+08:00"
    assert page.body.splitlines() == [
        "自2026年4月1日起，增值税一般纳税人适用的税率进一步调整，小规模纳税人继续享受减免税政策。",
        "税务机关提醒纳税人按时办理纳税申报，依法开具发票。",
    ]  # no navigation, no title heading, no script text
    assert page.link_density < 0.2


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


def test_metadata_from_the_text_when_the_page_has_no_meta_tags():
    html = (
        "<html><head><title>国家税务总局发布公告_财经频道_某某网</title></head><body>"
        "<div class=nav><a href=/>首页</a> <a href=/n>新闻</a></div>"
        "<h1>国家税务总局发布公告</h1><div class=info>2026年3月1日 08:05 来源：新华社 作者：王五</div>"
        "<div class=content><p>" + "公告正文第一段，纳税人应当按期申报。" * 5 + "</p>"
        "<p>" + "第二段内容，税务机关依法处理。" * 4 + "</p></div></body></html>"
    )
    page = extract_page(html)
    assert page.title == "国家税务总局发布公告"
    assert (page.published, page.source, page.author) == ("2026年3月1日 08:05", "新华社", "王五")
    assert page.published_at.isoformat() == "2026-03-01T08:05:00+08:00"
    assert page.body.startswith("公告正文第一段") and "来源" not in page.body


def test_title_falls_back_to_h1():
    assert extract_page("<body><h1> 标题 </h1><p>正文</p></body>").title == "标题"
    assert extract_page("<body><p>no title</p></body>").title is None


def test_visible_text_keeps_the_tree_intact():
    root = parse_html("<body><script>x()</script><p>a<br>b</p></body>")
    assert visible_text(root) == "a\nb"
    assert root.find(".//script") is not None


@pytest.mark.parametrize("html", ["", "   \n", "<!-- only a comment -->"])
def test_documents_without_elements_give_a_result_with_the_reason(html):
    with pytest.raises(ExtractionError):
        parse_html(html)
    page = extract_page(html)
    assert page.error in ("empty document", "no element in document")
    assert page.title is None and page.body == ""


def test_malformed_html_is_repaired():
    page = extract_page("<html><body><div><p>未闭合<table><tr><td>单元<p>段落</b></i></div>")
    assert "未闭合" in page.body and "单元" in page.body and "段落" in page.body


def test_deeply_nested_page_keeps_its_text():
    depth = 5000
    html = "<html><body>" + "<div>" * depth + "深层正文" + "</div>" * depth + "</body></html>"
    assert extract_page(html).body == "深层正文"


def test_huge_page():
    paragraphs = "".join(
        f"<p>第{n}段：" + "纳税人依法申报增值税。" * 50 + "</p>\n" for n in range(4000)
    )
    page = extract_page(
        "<html><body><div class=content>" + paragraphs + "</div></body></html>"
    )  # 6 MB
    assert page.body.count("\n") == 3999


ARTICLE = "".join(
    f"<p>第{n}段：纳税人应当按期办理增值税申报，税务机关将加强辅导与服务，确保政策落实到位。</p>"
    for n in range(1, 13)
)
# Comments in a box not named as comments (the body extractor's own rule does not see them):
# the records extractor finds them, and they are cut out of the body.
REPLIES = "".join(
    f'<div class="item"><span class="author">网友{n}</span> <span class="time">2026-03-1{n} 10:0{n}</span>'
    f"<p>第{n}条留言：这项减税政策对我们小店帮助很大，希望继续保持。</p></div>"
    for n in range(1, 6)
)
PAGES = {
    "article": f"<html><head><title>增值税申报指南</title></head><body><nav><a href=/>首页</a></nav>"
    f"<div class=main><h1>增值税申报指南</h1>{ARTICLE}</div></body></html>",
    "article with comments": f"<html><body><div class=main>{ARTICLE}"
    f"<div class=box>{REPLIES}</div></div><footer>版权所有</footer></body></html>",
    "table forum thread": "<html><body><table summary=posts>"
    + "".join(
        f"<tr><td class=bold><a href=/u{n}>用户{n}</a></td><td>2026-3-{n} 10:2{n}</td></tr>"
        f"<tr><td class='l w'>第{n}楼：个税汇算退税一般一周左右到账，注意银行卡信息。</td></tr>"
        for n in range(1, 5)
    )
    + "</table></body></html>",
    "noscript and aside": f"<html><body><noscript><img src=/p.gif></noscript>"
    f"<div class=main>{ARTICLE}<noscript>\n</noscript></div><aside>{REPLIES}</aside></body></html>",
}


def test_comments_the_records_extractor_found_are_cut_from_the_body():
    page = extract_page(PAGES["article with comments"])
    assert [c.author for c in page.records.comments] == [f"网友{n}" for n in range(1, 6)]
    assert "第1段" in page.body and "第12段" in page.body
    assert "留言" not in page.body and "网友" not in page.body


@pytest.mark.parametrize("name", PAGES)
def test_one_cleaned_tree_serves_both_extractors_with_the_same_result(name, monkeypatch):
    """A page whose <noscript> shows nothing gets one cleaned tree for records and body; the
    result is what separate trees give (the path kept for pages with <noscript> content)."""
    url = "http://forum.example.test/topic/7" if "forum" in name else None
    shared = extract_page(PAGES[name], url)
    monkeypatch.setattr("topiccrawler.extract.page.shows_without_javascript", lambda root: True)
    separate = extract_page(PAGES[name], url)
    assert fields(shared) == fields(separate)
    assert shared.body and (name != "table forum thread" or len(shared.records.posts) == 4)


def fields(page: PageContent) -> tuple:
    """What extract_page gives, but the elements the records came from (each tree's own)."""
    records = page.records
    return (
        page.title, page.body, page.published, page.author, page.source, page.blocks,
        page.link_density, page.error, records.kind, records.comments, records.posts,
        records.threads, len(records.elements),
    )  # fmt: skip


def test_noscript_content_is_read_by_the_records_extractor_only():
    """What a page shows without JavaScript (comments served in <noscript>) is records; the
    body extractor leaves <noscript> out."""
    page = extract_page(
        f"<html><body><div class=main>{ARTICLE}</div><div id=c><noscript>{REPLIES}</noscript>"
        "</div></body></html>"
    )
    assert len(page.records.comments) == 5 and "留言" not in page.body
    assert "第3段" in page.body


@pytest.mark.parametrize("name", PAGES)
def test_extraction_makes_no_reference_cycles(name):
    """Nothing extract_page makes refers to itself: a page's elements are freed with its
    result, not held until the cycle collector runs (recursive closures once did that, and
    the collector's passes over them cost a batch more than they found)."""
    gc.collect()
    gc.disable()
    try:
        page = extract_page(PAGES[name], "http://forum.example.test/topic/7")
        assert page.body
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_the_page_text_is_read_only_for_what_the_markup_leaves_out(monkeypatch):
    """Publish time, author and source from <meta>: the page's text (read for bylines near the
    title) is not read when relevance fields are not asked for; without them it is."""
    head = (
        '<meta property="article:published_time" content="2026-03-01T08:05:00+08:00">'
        '<meta name="author" content="张三"><meta property="og:site_name" content="税务资讯">'
    )
    page = f"<html><head><title>增值税申报指南</title>{head}</head><body><div class=main>{ARTICLE}</div></body></html>"
    reads = []
    real = visible_text
    monkeypatch.setattr(
        "topiccrawler.extract.page.visible_text", lambda *a, **k: reads.append(1) or real(*a, **k)
    )
    found = extract_page(page, relevance=False)
    assert (found.published, found.author, found.source) == (
        "2026-03-01T08:05:00+08:00", "张三", "税务资讯",
    )  # fmt: skip
    assert reads == [] and "第12段" in found.body
    bare = extract_page(page.replace(head, ""), relevance=False)
    assert reads and bare.author is None and bare.body == found.body
    assert extract_page(page).link_density == 0.0  # relevance: the text is read for it
