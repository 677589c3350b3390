"""Decoding: declared charsets, BOMs, pages that lie about their charset, binary content."""

from __future__ import annotations

import codecs

import pytest

from topiccrawler.extract.encoding import decode_html, looks_binary

ARTICLE = "<html><head>{meta}</head><body><p>增值税专用发票管理办法，纳税人应当依法申报。</p></body></html>"


@pytest.mark.parametrize("declared", ["gbk", "gb2312", "GB18030"])
def test_declared_chinese_charsets_read_as_gb18030(declared):
    page = ARTICLE.format(meta=f'<meta charset="{declared}">')
    encoding, text = decode_html(page.encode("gb18030"))
    assert encoding == "gb18030" and text == page


def test_http_header_charset_wins_over_nothing():
    page = ARTICLE.format(meta="")
    assert decode_html(page.encode("gbk"), "text/html; charset=GBK") == ("gb18030", page)


def test_bom_wins_over_a_lying_meta():
    page = ARTICLE.format(meta='<meta charset="gbk">')
    encoding, text = decode_html(codecs.BOM_UTF8 + page.encode("utf-8"))
    assert encoding == "utf-8" and text == page


def test_page_that_lies_about_its_charset_is_detected():
    page = ARTICLE.format(meta='<meta charset="utf-8">')
    encoding, text = decode_html(page.encode("gbk"))
    assert encoding == "gb18030" and "增值税专用发票" in text


def test_undeclared_gbk_and_big5_are_detected():
    assert "纳税人" in decode_html(ARTICLE.format(meta="").encode("gbk"))[1]
    big5 = "<p>國稅局公告：營業人應依規定開立統一發票，逾期未申報者將處以罰鍰。</p>"
    assert decode_html(big5.encode("big5"))[1] == big5


def test_binary_detection():
    assert looks_binary(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert looks_binary(b"%PDF-1.4\n\x00\x01\x02\x03")
    assert not looks_binary(ARTICLE.format(meta="").encode("gbk"))
    assert not looks_binary(codecs.BOM_UTF16_LE + "<p>税</p>".encode("utf-16-le"))


MOJIBAKE_ZH = (
    "<html><body><p>"
    + "国务院总理今天在北京主持召开常务会议，部署进一步减税降费的措施。" * 8
    + "</p></body></html>"
)
MOJIBAKE_FR = (
    "<html><body><p>"
    + "Le gouvernement a annoncé une réforme économique très ambitieuse. " * 8
    + "</p></body></html>"
)


@pytest.mark.parametrize("misread_as", ["cp1252", "latin_1", "cp1251", "ptcp154"])
def test_chinese_misread_through_a_single_byte_charset_is_repaired(misread_as):
    """GBK bytes decoded as a Western or Cyrillic code page and saved as UTF-8 (mojibake)."""
    saved = MOJIBAKE_ZH.encode("gbk").decode(misread_as).encode("utf-8")
    encoding, text = decode_html(saved)
    assert encoding == "gb2312" and text == MOJIBAKE_ZH


def test_utf8_misread_as_cp1252_is_repaired():
    page = MOJIBAKE_FR.replace("<html>", '<html><meta charset="utf-8">')
    saved = page.encode("utf-8").decode("cp1252").encode("utf-8")
    assert decode_html(saved) == ("utf_8", page)


@pytest.mark.parametrize(
    "page",
    [
        MOJIBAKE_FR,
        "<html><body><p>"
        + "Президент заявил сегодня, что экономика страны продолжает расти. " * 8
        + "</p></body></html>",
        "<html><body><p>"
        + "Só a reflexão não basta — “disse” o ministro às três. " * 8
        + "</p></body></html>",
    ],
)
def test_real_french_russian_and_portuguese_pages_are_left_alone(page):
    assert decode_html(page.encode("utf-8")) == ("utf-8", page)
