"""RSS, Atom and RDF feeds: the feeds a page announces, and a feed's entries (feedparser).

feedparser reads every flavour (RSS 0.9x/1.0/2.0, Atom 0.3/1.0, RDF) and bad markup with its
lenient parser; it never fetches anything itself here: it is given the body Scrapy downloaded.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urljoin

import feedparser
from parsel import Selector

from topiccrawler.discovery.entries import Entry, from_struct_time, usable_url

# Content types of `<link rel="alternate" type=…>` that name a feed.
FEED_TYPES = (
    "application/rss+xml",
    "application/atom+xml",
    "application/rdf+xml",
    "application/feed+json",
    "application/json+feed",
    "text/xml",
    "application/xml",
)
ALTERNATE_LINKS = (
    "//link[contains(concat(' ', normalize-space(translate(@rel, 'ALTERNATE', 'alternate')),"
    " ' '), ' alternate ')][@href]"
)
SUMMARY_CHARS = 500  # of an item's summary kept for scoring
TITLE_CHARS = 300


@dataclass
class Feed:
    """A parsed feed: its title and its entries (at most the `max_entries` asked for)."""

    title: str = ""
    entries: list[Entry] = field(default_factory=list)
    more: int = 0  # entries left out past max_entries
    problem: str | None = None  # why nothing could be read, if so


def announced_feeds(selector: Selector, base_url: str) -> list[str]:
    """The feed URLs a page announces with `<link rel="alternate" type="…rss+xml|atom+xml…">`,
    absolute, http(s) only, each once, in page order.

    >>> page = Selector(text='<head><link rel="alternate" type="application/rss+xml" '
    ...                      'href="/rss.xml"></head>')
    >>> announced_feeds(page, "http://a.test/")
    ['http://a.test/rss.xml']
    """
    found: dict[str, None] = {}
    for link in selector.xpath(ALTERNATE_LINKS):
        kind = (link.attrib.get("type") or "").split(";", 1)[0].strip().lower()
        if kind not in FEED_TYPES:
            continue  # a translation (hreflang) or a print version, not a feed
        url = urljoin(base_url, link.attrib["href"].strip())
        if usable_url(url):
            found.setdefault(url.split("#", 1)[0])
    return list(found)


def parse_feed(body: bytes, url: str, content_type: str | None, max_entries: int) -> Feed:
    """The entries of a feed body: link, title, summary (tags removed), date (published, else
    updated). Items without an http(s) link are left out; at most `max_entries` are kept."""
    headers = {"content-type": content_type} if content_type else {}
    try:
        parsed = feedparser.parse(body, response_headers=headers, sanitize_html=True)
    except Exception as exc:  # noqa: BLE001 - feedparser's lenient parser raising is a bad feed
        return Feed(problem=f"unreadable feed ({type(exc).__name__}: {exc})")
    if not parsed.entries and (parsed.get("bozo") or not parsed.get("version")):
        why = parsed.get("bozo_exception") or "no RSS, Atom or RDF in it"
        return Feed(problem=f"not a feed ({why})")
    feed = Feed(title=_text(parsed.feed.get("title"))[:TITLE_CHARS])
    for item in parsed.entries:
        link = (item.get("link") or "").strip()
        link = urljoin(url, link) if link else ""
        if not usable_url(link):
            continue
        if len(feed.entries) >= max_entries:
            feed.more += 1
            continue
        date = from_struct_time(item.get("published_parsed")) or from_struct_time(
            item.get("updated_parsed")
        )
        feed.entries.append(
            Entry(
                url=link.split("#", 1)[0],
                title=_text(item.get("title"))[:TITLE_CHARS],
                summary=_text(item.get("summary"))[:SUMMARY_CHARS],
                date=date,
            )
        )
    return feed


def _text(value: object) -> str:
    """Text without markup (feedparser sanitises summaries but keeps their tags)."""
    if not isinstance(value, str) or not value:
        return ""
    if "<" in value:
        value = " ".join(Selector(text=f"<div>{value}</div>").xpath("//text()").getall())
    return " ".join(value.split())
