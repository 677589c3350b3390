"""Feeds: the feed links a page announces, and the entries of RSS 2.0, Atom and RDF feeds."""

from __future__ import annotations

from datetime import UTC, datetime

from parsel import Selector

from topiccrawler.discovery.feeds import announced_feeds, parse_feed

RSS = b"""<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0"><channel><title>Tax news</title>
<item><title>VAT refunds <b>speed up</b></title><link>/news/1.html?utm_source=rss</link>
<description>&lt;p&gt;Refunds of &lt;em&gt;VAT&lt;/em&gt; now take 3 days.&lt;/p&gt;</description>
<pubDate>Mon, 05 Jan 2026 08:00:00 +0800</pubDate></item>
<item><title>No link here</title></item>
<item><title>Mail</title><link>mailto:desk@a.test</link></item>
<item><title>Bad port</title><link>http://a.test:port/x</link></item>
</channel></rss>"""

ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>税务</title><id>x</id><updated>2026-01-05T00:00:00Z</updated>
<entry><title>增值税新规</title><link rel="alternate" href="http://a.test/a/1.html"/><id>1</id>
<updated>2026-01-04T10:00:00+08:00</updated><summary>纳税人注意</summary></entry>
</feed>""".encode()

RDF = b"""<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
<channel rdf:about="http://a.test/"><title>RDF</title><link>http://a.test/</link></channel>
<item rdf:about="http://a.test/r/1.html"><title>Stamp duty</title><link>http://a.test/r/1.html</link></item>
</rdf:RDF>"""


def test_rss_entries_carry_link_title_summary_and_date():
    feed = parse_feed(RSS, "http://a.test/rss.xml", "application/rss+xml", 100)
    assert feed.problem is None and feed.title == "Tax news"
    [entry] = feed.entries  # no link, mailto: and a broken port are left out
    assert entry.url == "http://a.test/news/1.html?utm_source=rss"
    assert entry.title == "VAT refunds speed up"
    assert entry.summary == "Refunds of VAT now take 3 days."
    assert entry.date == datetime(2026, 1, 5, 0, 0, tzinfo=UTC)


def test_atom_and_rdf_entries():
    atom = parse_feed(ATOM, "http://a.test/atom.xml", None, 100)
    assert [(e.url, e.title, e.summary) for e in atom.entries] == [
        ("http://a.test/a/1.html", "增值税新规", "纳税人注意")
    ]
    assert atom.entries[0].date == datetime(2026, 1, 4, 2, 0, tzinfo=UTC)
    rdf = parse_feed(RDF, "http://a.test/rdf", None, 100)
    assert [e.url for e in rdf.entries] == ["http://a.test/r/1.html"]


def test_entries_past_the_limit_are_counted_not_kept():
    items = "".join(
        f"<item><title>{n}</title><link>http://a.test/{n}</link></item>" for n in range(50)
    )
    body = f"<rss version='2.0'><channel><title>t</title>{items}</channel></rss>".encode()
    feed = parse_feed(body, "http://a.test/rss", None, 10)
    assert len(feed.entries) == 10 and feed.more == 40


def test_not_a_feed_is_a_problem_not_an_exception():
    for body in (b"", b"\x00\x01binary", b"<html><body>hello</body></html>"):
        feed = parse_feed(body, "http://a.test/rss", "text/html", 10)
        assert feed.entries == [] and feed.problem


def test_announced_feeds_are_rss_atom_and_rdf_links_only():
    page = Selector(
        text="""<html><head>
        <link rel="alternate" type="application/rss+xml" href="/rss.xml">
        <link rel="Alternate" type="application/atom+xml; charset=utf-8" href="atom.xml#x">
        <link rel="alternate" hreflang="en" href="/en/">
        <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
        <link rel="stylesheet" type="application/rss+xml" href="/style.css">
        <link rel="alternate" type="application/rss+xml" href="/rss.xml">
        </head><body></body></html>"""
    )
    assert announced_feeds(page, "http://a.test/news/") == [
        "http://a.test/rss.xml",
        "http://a.test/news/atom.xml",
    ]
