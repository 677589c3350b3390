"""Sitemaps: robots.txt `Sitemap:` lines, sitemap indexes and URL sets, gzipped or not, and
news sitemaps (`<news:title>`, `<news:publication_date>`), with Scrapy's own utilities.

Scrapy's `Sitemap` parses incrementally (lxml iterparse, each element freed once read), never
resolves entities, and recovers from broken markup; reading stops at `max_entries`, so a
sitemap of a million URLs costs its download and no more memory than its body. A gzipped body is
unpacked with a ceiling on the unpacked bytes (a gzip bomb stops there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import urljoin

from lxml import etree
from scrapy.utils.gz import gunzip
from scrapy.utils.sitemap import Sitemap, sitemap_urls_from_robots

from topiccrawler.discovery.entries import Entry, parse_w3c_date, usable_url

GZIP_MAGIC = b"\x1f\x8b"
TITLE_CHARS = 300


class SitemapTooLarge(ValueError):
    """A gzipped sitemap that unpacks past the ceiling."""


@dataclass
class ParsedSitemap:
    """A sitemap's kind ("urlset" or "sitemapindex"), its page entries (a URL set) or the
    sitemaps it lists with their lastmod (an index), at most `max_entries` of them."""

    kind: str = ""
    entries: list[Entry] = field(default_factory=list)
    children: list[tuple[str, datetime | None]] = field(default_factory=list)
    more: int = 0  # entries left out past max_entries
    problem: str | None = None


def robots_sitemaps(body: bytes, robots_url: str) -> list[str]:
    """The http(s) sitemap URLs of a robots.txt body, each once.

    >>> robots_sitemaps(b"User-agent: *\\nSitemap: /sitemap.xml\\n", "http://a.test/robots.txt")
    ['http://a.test/sitemap.xml']
    """
    found: dict[str, None] = {}
    for url in sitemap_urls_from_robots(body, base_url=robots_url):
        if usable_url(url):
            found.setdefault(url)
    return list(found)


def sitemap_body(body: bytes, max_bytes: int) -> bytes:
    """The XML of a sitemap response: unpacked when gzipped (a `.xml.gz` file served as is),
    at most `max_bytes` of it; SitemapTooLarge past that."""
    if not body.startswith(GZIP_MAGIC):
        return body
    try:
        return gunzip(body, max_size=max_bytes)
    except ValueError as exc:  # Scrapy's decompression ceiling is a ValueError
        raise SitemapTooLarge(f"unpacks to more than {max_bytes} bytes") from exc
    except (OSError, EOFError) as exc:
        raise SitemapTooLarge(f"broken gzip ({exc})") from exc


class _NewsSitemap(Sitemap):
    """Scrapy's Sitemap, also reading a `<url>`'s `<news:news>` block (Scrapy keeps only the
    direct children's text, and frees the block before that)."""

    def _process_sitemap_element(self, elem: Any) -> dict[str, Any] | None:
        news: dict[str, str] = {}
        for child in elem:
            if _local(child) == "news":
                for part in child:
                    name = _local(part)
                    if name in ("title", "publication_date") and part.text:
                        news[f"news_{name}"] = part.text.strip()
        found = super()._process_sitemap_element(elem)
        if found is not None:
            found.update(news)
        return found


def _local(element: Any) -> str:
    tag = element.tag
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def parse_sitemap(xml: bytes, url: str, max_entries: int) -> ParsedSitemap:
    """A sitemap's entries (URL set) or listed sitemaps (index), at most `max_entries`."""
    try:
        sitemap = _NewsSitemap(xml)
        kind = sitemap.type
    except (etree.XMLSyntaxError, StopIteration, ValueError) as exc:
        return ParsedSitemap(problem=f"not a sitemap ({type(exc).__name__})")
    if kind not in ("urlset", "sitemapindex"):
        return ParsedSitemap(problem=f"not a sitemap (root element <{kind}>)")
    parsed = ParsedSitemap(kind=kind)
    read = 0
    try:
        for element in sitemap:
            loc = urljoin(url, element.get("loc", "").strip())
            if not usable_url(loc):
                continue
            read += 1
            if read > max_entries:
                parsed.more += 1
                if parsed.more >= 1000:  # enough to say there were more; stop reading
                    break
                continue
            lastmod = parse_w3c_date(element.get("lastmod"))
            if kind == "sitemapindex":
                parsed.children.append((loc, lastmod))
                continue
            published = parse_w3c_date(element.get("news_publication_date"))
            parsed.entries.append(
                Entry(
                    url=loc.split("#", 1)[0],
                    title=" ".join(element.get("news_title", "").split())[:TITLE_CHARS],
                    date=max((d for d in (published, lastmod) if d), default=None),
                )
            )
    except etree.XMLSyntaxError:
        pass  # what was read before the markup broke is kept
    return parsed
