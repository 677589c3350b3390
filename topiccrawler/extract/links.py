"""A page's links, as the spider follows them: Scrapy's LinkExtractor over the page read in the
encoding extraction decoded it with, each link marked when it sits in navigation (menus,
breadcrumbs, footers lead everywhere, not onwards: extract/blocks.py).

The spider reads them here from the response (spiders/topic.py); an extraction worker reads them
from the page's text (`rebuilt_response`) beside its fields, so that the crawl's process, which
limits the crawl's rate, does not walk every element of every page for them (read_ahead.py).
Both give the same links (the page's text is what the response decodes to in that encoding), but
for an href with a control character in it (`page_links`).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urljoin

from scrapy.http import HtmlResponse, TextResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.utils.response import get_base_url
from w3lib.html import strip_html5_whitespace
from w3lib.url import safe_url_string

from topiccrawler.extract.blocks import navigation_hrefs
from topiccrawler.guard.text import drop_html_controls

# Links to files (Scrapy's IGNORED_EXTENSIONS) are left out by the spider, in one str.endswith
# (Scrapy's own test tries each of ~100 extensions in turn, per link).
LINK_EXTRACTOR = LinkExtractor(deny_extensions=[])


@dataclass(frozen=True)
class PageLink:
    url: str  # absolute, escaped in the page's encoding
    text: str  # the anchor's text
    navigation: bool  # inside a navigation block


def page_links(decoded: TextResponse) -> list[PageLink]:
    """The links of a page read in its encoding (`responses.in_encoding`), in page order;
    anchors without control characters (a worker reads the page's text with them dropped, as
    extraction does; an href with one gives the spider a %-escape of it, a worker not: the
    one way the two differ)."""
    base = get_base_url(decoded)
    navigation = {
        absolute_url(href, base, decoded.url, decoded.encoding)
        for href in navigation_hrefs(decoded.selector.root)
    }
    return [
        PageLink(link.url, drop_html_controls(link.text), link.url in navigation)
        for link in LINK_EXTRACTOR.extract_links(decoded)
    ]


def absolute_url(href: str, base: str, page_url: str, encoding: str) -> str | None:
    """An href as LinkExtractor makes it a link's URL (joined to the page's <base>, escaped in
    its encoding), so that a navigation link is known by the URL the extractor gives it (a
    path in Chinese, a space); None for one it skips."""
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
