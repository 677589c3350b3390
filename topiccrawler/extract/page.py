"""Parse a page and pull out what every page has: title, visible text, and meta-tag metadata.

Pure functions on text and lxml trees. The body extractors of SPEC §3 refine `body`; this module
gives the tree and the fields they build on.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from datetime import datetime

from lxml import etree, html

# Elements whose content a reader never sees.
INVISIBLE_TAGS = ("script", "style", "noscript", "template", "head", "svg", "canvas")
# Elements that start a new line of text when rendered.
BLOCK_TAGS = (
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tr", "td", "th", "ul",
)  # fmt: skip

# <meta> names/properties that carry the publish time and the author, most specific first.
PUBLISHED_META = (
    "article:published_time", "og:published_time", "og:release_date", "datepublished",
    "pubdate", "publishdate", "publish_date", "publishtime", "date", "dc.date", "dc.date.issued",
)  # fmt: skip
AUTHOR_META = ("author", "article:author", "dc.creator", "byl")
SOURCE_META = ("og:site_name", "source", "application-name")


class ExtractionError(ValueError):
    """The input cannot be parsed as an HTML document."""


@dataclass
class PageContent:
    """What was extracted from one page."""

    title: str | None
    body: str
    published: str | None = None
    published_at: datetime | None = None
    author: str | None = None
    source: str | None = None
    link_density: float = 0.0  # share of the visible text inside links: high on hub pages


def parse_html(text: str, base_url: str | None = None) -> html.HtmlElement:
    """A forgiving HTML parse into an lxml tree; deep nesting and huge text nodes allowed."""
    if not text or not text.strip():
        raise ExtractionError("empty document")
    # XML declarations with an encoding are refused by lxml for str input.
    if text.lstrip().startswith("<?xml"):
        text = text[text.index("?>") + 2 :]
    parser = html.HTMLParser(huge_tree=True, remove_comments=True, remove_pis=True)
    try:
        root = html.document_fromstring(text, parser=parser, base_url=base_url)
    except (etree.ParserError, ValueError) as exc:
        raise ExtractionError(f"unparseable HTML: {exc}") from exc
    if root is None:
        raise ExtractionError("no element in document")
    if text.count("<") > DEEP_PAGE_TAGS and _lost_text(root, text):
        # libxml2 stops building the tree past ~2,048 levels and drops the rest of the page:
        # keep the text by flattening the nesting containers and parsing again.
        root = html.document_fromstring(_NESTING_TAG.sub(" ", text), parser=parser)
    return root


# Pages with more tags than this are checked for text lost to libxml2's depth limit.
DEEP_PAGE_TAGS = 2000
_NESTING_TAG = re.compile(
    r"</?(?:div|span|font|table|tbody|tr|td|section|b|i|center)\b[^>]*>", re.I
)
_ANY_TAG = re.compile(r"<[^>]*>")


def _lost_text(root: html.HtmlElement, source: str) -> bool:
    """True when the tree holds under half the text characters the source does."""
    in_source = len("".join(_ANY_TAG.sub(" ", source).split()))
    in_tree = len("".join(root.text_content().split()))
    return in_tree < in_source / 2


def normalize_space(text: str | None) -> str:
    """Collapse runs of white space (including full-width spaces) to one ASCII space."""
    return " ".join((text or "").split())


def extract_title(root: html.HtmlElement) -> str | None:
    """og:title, else <title>, else the first <h1>; site suffixes are left for dedup to strip."""
    for value in root.xpath('//meta[@property="og:title"]/@content'):
        if title := normalize_space(value):
            return title
    for candidate in (root.find(".//title"), root.find(".//h1")):
        if candidate is not None and (title := normalize_space(candidate.text_content())):
            return title
    return None


def visible_text(root: html.HtmlElement) -> str:
    """The text a reader sees, one line per block element, white space collapsed.

    Works on a copy, so the caller's tree keeps its markup for later extractors.
    """
    root = copy.deepcopy(root)
    etree.strip_elements(root, *INVISIBLE_TAGS, with_tail=False)
    for element in root.iter(*BLOCK_TAGS, "br"):
        element.tail = "\n" + (element.tail or "")
        if element.tag != "br":
            element.text = "\n" + (element.text or "")
    lines = (normalize_space(line) for line in root.text_content().splitlines())
    return "\n".join(line for line in lines if line)


def link_density(root: html.HtmlElement, text: str) -> float:
    """Characters of link text over characters of visible text (white space ignored), in [0, 1].

    The decay paper's DL, for a whole page: list and home pages score high, articles low.
    """
    total = sum(len(line.replace(" ", "")) for line in text.splitlines())
    if not total:
        return 0.0
    linked = sum(len("".join(a.text_content().split())) for a in root.iter("a"))
    return min(1.0, linked / total)


def _meta(root: html.HtmlElement, names: tuple[str, ...]) -> str | None:
    """The first non-empty <meta> content among `names` (matched on name, property or itemprop)."""
    found: dict[str, str] = {}
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        value = normalize_space(meta.get("content"))
        if key in names and value:
            found.setdefault(key, value)
    return next((found[n] for n in names if n in found), None)


def _json_ld(root: html.HtmlElement, key: str) -> str | None:
    """`key` from the page's JSON-LD objects (datePublished, author.name …), if any."""
    for script in root.xpath('//script[@type="application/ld+json"]/text()'):
        try:
            data = json.loads(script)
        except ValueError:
            continue
        for obj in data if isinstance(data, list) else [data]:
            value = obj.get(key) if isinstance(obj, dict) else None
            if isinstance(value, list):
                value = value[0] if value else None
            if isinstance(value, dict):
                value = value.get("name")
            if isinstance(value, str) and value.strip():
                return value.strip()
    return None


def parse_iso_datetime(value: str | None) -> datetime | None:
    """An ISO 8601 time (as in <meta> and JSON-LD), or None when it is not one."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None


def extract_page(text: str, url: str | None = None) -> PageContent:
    """Title, visible body text and meta-tag metadata of an HTML document."""
    root = parse_html(text, base_url=url)
    published = _meta(root, PUBLISHED_META) or _json_ld(root, "datePublished")
    if published is None:
        times = root.xpath("//time/@datetime")
        published = normalize_space(times[0]) if times else None
    body = root.find("body")
    text = visible_text(body if body is not None else root)
    return PageContent(
        title=extract_title(root),
        body=text,
        link_density=link_density(root, text),
        published=published,
        published_at=parse_iso_datetime(published),
        author=_meta(root, AUTHOR_META) or _json_ld(root, "author"),
        source=_meta(root, SOURCE_META),
    )
