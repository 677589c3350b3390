"""A page's links, as the spider follows them: every `<a>` and `<area>` href, read as Scrapy's
LinkExtractor reads it (joined to the page's `<base>`, escaped in the encoding the page was
decoded with, joined to the page's URL, once per URL, http/https/file/ftp only), each link marked
when it sits in navigation (menus, breadcrumbs, footers lead everywhere, not onwards:
extract/blocks.py).

The spider reads them here from the response (spiders/topic.py); an extraction worker reads them
from the page's text (`rebuilt_response`) beside its fields, so that the crawl's process, which
limits the crawl's rate, does not walk every element of every page for them (read_ahead.py).
Both give the same links (the page's text is what the response decodes to in that encoding), but
for an href with a control character in it (`page_links`).

Why not LinkExtractor itself: it resolves every href again on every page (two `urljoin` and a
`safe_url_string`, ~80 µs a link), and a site's menus, footers and related links repeat on all
its pages: the links were a fifth of a worker's time per page. Here an href's URL is
remembered by what it depends on (`UrlMemo`), and the same w3lib and urllib calls make it; the
test holds the links equal to LinkExtractor's over saved and hostile pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin

from lxml import etree
from scrapy.http import HtmlResponse, TextResponse
from scrapy.utils.response import get_base_url
from w3lib.html import strip_html5_whitespace
from w3lib.url import safe_url_string

from topiccrawler.extract.blocks import navigation_hrefs
from topiccrawler.guard.text import drop_html_controls

# What LinkExtractor follows (its `_is_valid_url`): the scheme before "://", as written.
FOLLOWED_SCHEMES = frozenset(("http", "https", "file", "ftp"))
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")  # an href's scheme, as urllib finds one
# scheme://host, //host (urllib drops tabs and line breaks anywhere before reading an URL)
WITH_HOST = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^/?#\t\r\n]|//[^/\t\r\n]")
FROM_ROOT = re.compile(r"/[\t\r\n]*(?:[^/\t\r\n]|$)")  # /path, not //
WEB_ADDRESS = re.compile(r"(https?)://[^/?#]+", re.IGNORECASE)
ANCHOR_TEXT = etree.XPath("string()")
URL_MEMO_MAX = 20_000  # hrefs remembered per process (about 0.4 KB each); then started afresh


@dataclass(frozen=True)
class PageLink:
    url: str  # absolute, escaped in the page's encoding
    text: str  # the anchor's text
    navigation: bool  # inside a navigation block


class UrlMemo:
    """An href's URL on a page, remembered by what it depends on: an href with its own host
    (`http://host/…`, `//host/…`) on the schemes of the page's URL and `<base>`; a path from
    the root (`/…`) on those and the base's host; any other (relative, `?query`, `#part`) on
    the whole base. An href the crawl never follows (`mailto:`, `javascript:`) is not joined."""

    def __init__(self, size: int = URL_MEMO_MAX):
        self.size = size
        self.urls: dict[tuple[str, str, str, str], str | None] = {}

    def resolver(self, base: str, page_url: str, encoding: str):
        """`resolve(href)` for one page: its link URL, or None for one LinkExtractor skips."""
        page = WEB_ADDRESS.match(page_url)
        origin = WEB_ADDRESS.match(base)
        if page is None or origin is None:  # (a page or base not on the web: nothing kept)
            return lambda href: absolute_url(href, base, page_url, encoding)
        page_scheme, base_scheme = page.group(1).lower(), origin.group(1).lower()
        base_origin = origin.group(0)
        urls, size = self.urls, self.size

        def resolve(href: str) -> str | None:
            href = strip_html5_whitespace(href)
            if WITH_HOST.match(href):
                place = base_scheme
            elif FROM_ROOT.match(href):
                place = base_origin
            else:
                scheme = SCHEME.match(href)
                if scheme and scheme.group(0)[:-1].lower() not in FOLLOWED_SCHEMES:
                    return None  # kept as written, and not followed
                place = base
            key = (page_scheme, place, href, encoding)
            try:
                return urls[key]
            except KeyError:
                pass
            if len(urls) >= size:
                urls.clear()
            url = urls[key] = absolute_url(href, base, page_url, encoding)
            return url

        return resolve


URL_MEMO = UrlMemo()  # (one a process: the crawl's, each extraction worker's)


def page_links(decoded: TextResponse, memo: UrlMemo = URL_MEMO) -> list[PageLink]:
    """The links of a page read in its encoding (`responses.in_encoding`), in page order, each
    URL once; anchors without control characters (a worker reads the page's text with them
    dropped, as extraction does; an href with one gives the spider a %-escape of it, a worker
    not: the one way the two differ)."""
    root = decoded.selector.root
    resolve = memo.resolver(get_base_url(decoded), decoded.url, decoded.encoding)
    navigation = {resolve(href) for href in navigation_hrefs(root)}
    links: list[PageLink] = []
    seen: set[str] = set()
    for anchor in root.iter("a", "area"):
        href = anchor.get("href")
        if href is None:
            continue
        url = resolve(href)
        if url is None or url in seen or url.split("://", 1)[0] not in FOLLOWED_SCHEMES:
            continue
        seen.add(url)
        links.append(PageLink(url, drop_html_controls(ANCHOR_TEXT(anchor)), url in navigation))
    return links


def absolute_url(href: str, base: str, page_url: str, encoding: str) -> str | None:
    """An href as LinkExtractor makes it a link's URL (joined to the page's <base>, escaped in
    its encoding, joined to the page's URL); None for one it skips."""
    try:
        joined = urljoin(base, strip_html5_whitespace(href))
        return urljoin(page_url, safe_url_string(joined, encoding=encoding))
    except ValueError:
        return None


def rebuilt_response(html: str, url: str, encoding: str | None) -> HtmlResponse:
    """The page as the crawl read it, from its decoded text: link URLs are escaped in the
    page's encoding (a query in Chinese on a GBK page is sent in GBK, as a browser sends it);
    a character the encoding cannot write (a decoding's replacement mark) becomes a character
    reference instead of failing the page."""
    encoding = encoding or "utf-8"
    try:
        body = html.encode(encoding, "xmlcharrefreplace")
    except LookupError:  # a name Python does not know: the text is still the page's
        encoding, body = "utf-8", html.encode("utf-8", "xmlcharrefreplace")
    return HtmlResponse(url, body=body, encoding=encoding)
