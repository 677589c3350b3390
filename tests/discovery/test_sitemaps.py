"""Sitemaps: robots.txt lines, URL sets, indexes, news sitemaps, gzip, and their bounds."""

from __future__ import annotations

import gzip
import time
from datetime import UTC, datetime

import pytest

from topiccrawler.discovery.sitemaps import (
    SitemapTooLarge,
    parse_sitemap,
    robots_sitemaps,
    sitemap_body,
)

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
NEWS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'


def test_robots_sitemap_lines_are_absolute_and_http_only():
    robots = (
        b"User-agent: *\nDisallow: /x\nSitemap: /sitemap.xml\nsitemap: http://b.test/s.xml\n"
        b"Sitemap: ftp://a.test/s.xml\nSitemap: /sitemap.xml\n"
    )
    assert robots_sitemaps(robots, "http://a.test/robots.txt") == [
        "http://a.test/sitemap.xml",
        "http://b.test/s.xml",
    ]


def test_urlset_entries_with_lastmod():
    xml = f"""<?xml version="1.0"?><urlset {NS}>
    <url><loc>http://a.test/1.html</loc><lastmod>2026-01-05</lastmod></url>
    <url><loc>/2.html</loc></url>
    <url><loc>javascript:x</loc></url>
    </urlset>""".encode()
    parsed = parse_sitemap(xml, "http://a.test/sitemap.xml", 100)
    assert parsed.kind == "urlset" and parsed.problem is None
    assert [(e.url, e.date) for e in parsed.entries] == [
        ("http://a.test/1.html", datetime(2026, 1, 5, tzinfo=UTC)),
        ("http://a.test/2.html", None),
    ]


def test_news_sitemap_gives_title_and_publication_date():
    xml = f"""<urlset {NS} {NEWS}><url><loc>http://a.test/n/1.html</loc>
    <news:news><news:publication><news:name>A</news:name></news:publication>
    <news:publication_date>2026-01-05T08:00:00+08:00</news:publication_date>
    <news:title>个人所得税汇算开始</news:title></news:news></url></urlset>""".encode()
    [entry] = parse_sitemap(xml, "http://a.test/news.xml", 10).entries
    assert entry.title == "个人所得税汇算开始"
    assert entry.date == datetime(2026, 1, 5, 0, 0, tzinfo=UTC)


def test_index_lists_sitemaps_with_their_lastmod():
    xml = f"""<sitemapindex {NS}>
    <sitemap><loc>http://a.test/s1.xml.gz</loc><lastmod>2026-01-05T00:00:00Z</lastmod></sitemap>
    <sitemap><loc>http://a.test/s2.xml</loc></sitemap></sitemapindex>""".encode()
    parsed = parse_sitemap(xml, "http://a.test/index.xml", 10)
    assert parsed.kind == "sitemapindex" and parsed.entries == []
    assert parsed.children == [
        ("http://a.test/s1.xml.gz", datetime(2026, 1, 5, tzinfo=UTC)),
        ("http://a.test/s2.xml", None),
    ]


def test_gzipped_sitemap_is_unpacked_and_a_bomb_stops_at_the_ceiling():
    xml = f"<urlset {NS}><url><loc>http://a.test/1</loc></url></urlset>".encode()
    assert sitemap_body(gzip.compress(xml), 1024) == xml
    assert sitemap_body(xml, 1) == xml  # not gzipped: the download limit applies instead
    bomb = gzip.compress(b" " * (50 * 1024 * 1024), compresslevel=9)
    assert len(bomb) < 100_000
    with pytest.raises(SitemapTooLarge):
        sitemap_body(bomb, 1024 * 1024)
    with pytest.raises(SitemapTooLarge):
        sitemap_body(b"\x1f\x8b\x08garbage", 1024)


def test_a_huge_urlset_is_read_up_to_the_limit_only():
    urls = "".join(f"<url><loc>http://a.test/p/{n}</loc></url>" for n in range(200_000))
    xml = f"<urlset {NS}>{urls}</urlset>".encode()
    started = time.monotonic()
    parsed = parse_sitemap(xml, "http://a.test/s.xml", 1000)
    assert len(parsed.entries) == 1000 and parsed.more >= 1
    assert time.monotonic() - started < 5  # stops reading soon after the limit


def test_broken_or_foreign_xml_is_a_problem_and_a_truncated_one_keeps_what_was_read():
    for body in (b"", b"not xml at all", b"<html><body>x</body></html>"):
        assert parse_sitemap(body, "http://a.test/s.xml", 10).problem
    truncated = f"<urlset {NS}><url><loc>http://a.test/1</loc></url><url><loc>http://a".encode()
    entries = parse_sitemap(truncated, "http://a.test/s.xml", 10).entries
    assert entries[0].url == "http://a.test/1"  # (lxml's recovery may close the cut entry)


def test_entities_are_not_expanded():
    xml = f"""<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">
    <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
    <urlset {NS}><url><loc>http://a.test/&c;</loc></url></urlset>""".encode()
    for entry in parse_sitemap(xml, "http://a.test/s.xml", 10).entries:
        assert len(entry.url) < 100
