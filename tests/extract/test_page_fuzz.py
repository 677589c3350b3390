"""Hostile pages: a corpus of mutations of one page we wrote (control bytes, truncated
declarations and tags, wrong and unknown charsets, binary, deep nesting, 50 MB), made by the
test from a fixed seed. Every page gives a result; what can be read is read."""

from __future__ import annotations

import random

import pytest

from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.page import PageContent, extract_page
from topiccrawler.extract.parse import XML_INCOMPATIBLE, parse_html

SENTENCE = "小规模纳税人继续享受增值税减免政策"
ENGLISH = "Small taxpayers keep their value added tax relief this year"
PAGE = f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>增值税改革新政解读-税务资讯</title></head>
<body><nav><a href="/">首页</a> <a href="/news">新闻</a></nav>
<div class="article"><h1>增值税改革新政解读</h1><p class="info">2026-03-15 09:30 来源：税务资讯</p>
<p>{SENTENCE}，政策执行期限延长至年底，各地税务机关将做好宣传辅导工作。</p>
<p>{ENGLISH}, and the tax office will publish the forms next month.</p>
<p>第三段正文说明申报流程与注意事项，纳税人可通过电子税务局办理。</p></div>
<ul class="comments">
<li class="comment"><span class="author">张三</span> <span class="time">2026-03-15 10:00</span><p>这个政策很好，希望尽快落实到位。</p></li>
<li class="comment"><span class="author">李四</span> <span class="time">2026-03-15 11:00</span><p>请问个体户是否也适用这项减免？</p></li>
<li class="comment"><span class="author">王五</span> <span class="time">2026-03-15 12:00</span><p>申报表格什么时候可以下载呢？</p></li>
</ul></body></html>"""
RANDOM = random.Random(17)  # the corpus is the same on every run


def with_controls(page: str, count: int = 60) -> str:
    """NUL bytes, C0 controls, U+FFFE/U+FFFF and lone surrogates (what lxml refuses) at random
    places, tags included; C1 controls (which lxml reads) at the start of paragraphs."""
    bad = [chr(c) for c in (*range(0, 9), *range(14, 32))] + ["\ufffe", "\uffff", "\ud800"]
    chars = list(page.replace("<p>", "<p>\x85\x9f"))
    for _ in range(count):
        chars.insert(RANDOM.randrange(len(chars)), RANDOM.choice(bad))
    return "".join(chars)


def truncated(page: str) -> list[str]:
    """The page cut at random places (inside tags, attributes, entities), and broken openings."""
    cuts = [page[: RANDOM.randrange(1, len(page))] for _ in range(25)]
    openings = [
        '<?xml version="1.0" encoding="ilashack, ',
        '<?xml version="1.0" encoding="utf-8"?>',
        '<?xml version="1.0" encoding="x-unknown"',
        "<!DOCTYPE html PUBLIC",
        "<!--",
        '<div class="a',
        "<script>var a = '<p>",
        "<![CDATA[",
        "&#x110000;&#0;&#xD800;&#55296;",
    ]
    return cuts + [opening + page for opening in openings] + openings


def mutated_bytes(data: bytes, count: int = 30) -> list[bytes]:
    """Random bytes overwritten: stray bytes in multibyte characters, tags and declarations."""
    out = []
    for _ in range(count):
        mutable = bytearray(data)
        for _ in range(RANDOM.randrange(1, 40)):
            mutable[RANDOM.randrange(len(mutable))] = RANDOM.randrange(256)
        out.append(bytes(mutable))
    return out


def charsets(page: str) -> list[bytes]:
    """Declared charsets that are wrong, unknown or malformed."""
    gbk = page.encode("gb18030")
    return [
        gbk,  # GBK bytes declared as UTF-8 by the page
        gbk.replace(b'charset="utf-8"', b'charset="x-no-such-charset"'),
        page.encode("utf-8").replace(b'charset="utf-8"', b'charset="gbk"'),
        page.encode("utf-8").replace(b'charset="utf-8"', b'charset="utf-7"'),
        page.encode("utf-16-le"),  # no byte-order mark
        page.encode("utf-8").replace(b'charset="utf-8"', b'charset="\x00\xff"'),
        b"\xef\xbb\xbf" + gbk,  # a UTF-8 byte-order mark on GBK bytes
    ]


def binary() -> list[bytes]:
    return [
        bytes(RANDOM.randrange(256) for _ in range(20_000)),
        b"\x89PNG\r\n\x1a\n" + bytes(RANDOM.randrange(256) for _ in range(5_000)),
        b"%PDF-1.4\n" + bytes(RANDOM.randrange(256) for _ in range(5_000)),
        b"\x00" * 10_000,
        b"\xff\xfe" + bytes(RANDOM.randrange(256) for _ in range(5_001)),
    ]


def assert_result(page: PageContent) -> None:
    assert isinstance(page, PageContent) and isinstance(page.body, str)
    for text in (page.title, page.body, page.author, page.source, page.published):
        assert text is None or not XML_INCOMPATIBLE.search(text)


def test_control_characters_are_cleaned_and_the_page_read_as_without_them():
    clean = extract_page(PAGE.replace("<p>", "<p>\x85\x9f"))
    assert SENTENCE in clean.body and len(clean.records.comments) == 3
    for _ in range(20):
        page = extract_page(with_controls(PAGE))
        assert_result(page)
        assert page.error is None
        assert (page.title, page.body, page.published) == (clean.title, clean.body, clean.published)
        assert page.records.comments == clean.records.comments


def test_truncated_declarations_and_tags_give_results():
    for source in truncated(PAGE):
        assert_result(extract_page(source))


@pytest.mark.parametrize(
    "opening",
    ['<?xml version="1.0" encoding="ilashack, ', '<?xml version="1.0" encoding="utf-8"?>'],
)
def test_xml_declarations_closed_or_not_do_not_hide_the_page(opening):
    page = extract_page(opening + PAGE)
    assert page.error is None and SENTENCE in page.body
    assert page.title == "增值税改革新政解读"


def test_wrong_and_unknown_charsets_and_stray_bytes_give_results():
    corpus = charsets(PAGE) + mutated_bytes(PAGE.encode("utf-8"))
    for data in corpus:
        _, text = decode_html(data)
        assert_result(extract_page(text))
    _, text = decode_html(corpus[0])  # GBK bytes declared UTF-8: detection reads them
    assert SENTENCE in extract_page(text).body


def test_binary_content_gives_a_result():
    for data in binary():
        _, text = decode_html(data)
        assert_result(extract_page(text))


def test_a_step_that_fails_costs_its_field_not_the_page():
    deep_json = '<script type="application/ld+json">' + "[" * 100_000 + "]" * 100_000 + "</script>"
    page = extract_page(PAGE.replace("</head>", deep_json + "</head>"))
    assert page.error.startswith("metadata: RecursionError")  # json.loads gives up
    assert page.title == "增值税改革新政解读" and SENTENCE in page.body
    assert len(page.records.comments) == 3


def test_ten_thousand_levels_of_nesting():
    deep = "<div><span>" * 5_000 + f"<p>{SENTENCE}</p>" + "</span></div>" * 5_000
    unclosed = "<b><i><font>" * 3_500 + f"<p>{ENGLISH}</p>"
    for body in (deep, unclosed):
        page = extract_page(f"<html><body>{body}<p>尾段文字在最深处之后。</p></body></html>")
        assert_result(page)
        assert SENTENCE in page.body or ENGLISH in page.body


def test_a_fifty_megabyte_page():
    """Tens of megabytes are mostly inlined assets (scripts, data: images), with some text."""
    blob = "".join(RANDOM.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
                   for _ in range(10_000)) * 2_200  # fmt: skip
    paragraphs = "".join(
        f"<p>第{n}段：{SENTENCE}。{'税收政策解读文字' * 1_200}</p>\n" for n in range(500)
    )
    huge = PAGE.replace(
        '<div class="article">',
        f'<script>var data = "{blob}";</script><img src="data:image/png;base64,{blob}">'
        f'<div class="article">{paragraphs}',
    )
    assert len(huge.encode("utf-8")) >= 50_000_000
    page = extract_page(huge)
    assert_result(page)
    assert page.body.count(SENTENCE) == 501 and "var data" not in page.body


def test_what_the_parser_refuses_is_cleaned_before_parsing():
    root = parse_html("<p>a\x00b\x01c\x0cd\ud800e\ufffff</p>")
    assert root.findtext(".//p") == "abc def"
