"""A page's fields: title (without the site suffix), body (the default extractor), publish
time, author and source, and the page's link density. Pure functions; no Scrapy inside."""

from __future__ import annotations

import copy
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from html import unescape
from itertools import islice

from lxml import etree

from topiccrawler.extract.blocks import page_blocks
from topiccrawler.extract.body import extract_body, restat
from topiccrawler.extract.dates import find_time, parse_time
from topiccrawler.extract.parse import (
    ExtractionError,
    clean_source,
    json_ld_texts,
    normalize_space,
    parse_html,
    text_content,
    visible_text,
)
from topiccrawler.extract.records.comments import RecordOptions
from topiccrawler.extract.records.nodes import text_evidence
from topiccrawler.extract.records.page import (
    PageRecords,
    extract_records,
    script_links_as_text,
    shared_records,
    unwrap_wrapper_forms,
)
from topiccrawler.extract.tree import NOISE_TAGS, clean_tree, drop

logger = logging.getLogger(__name__)

# <meta> names/properties that carry the publish time and the author, most specific first.
PUBLISHED_META = (
    "article:published_time", "og:published_time", "og:release_date", "datepublished",
    "pubdate", "publishdate", "publish_date", "publishtime", "date", "dc.date", "dc.date.issued",
)  # fmt: skip
AUTHOR_META = ("author", "article:author", "dc.creator", "byl")
SOURCE_META = ("og:site_name", "source", "application-name")


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
    blocks: dict[str, str] = field(default_factory=dict)  # navigation, anchors, other (relevance)
    records: PageRecords = field(default_factory=PageRecords)  # comments, posts, threads
    error: str | None = None  # why extraction fell short (a page without elements, a failed step)


# Separators between a title and its site/channel name: "标题-新华网", "Title | Reuters".
TITLE_SEPARATORS = re.compile(r"\s*(?:\s[-–—|·:]\s|[_|–—]|-(?=[^-\s]{2,15}$|[^-\s]{2,15}-))\s*")


def clean_title(title: str, headings: list[str] = ()) -> str:
    """The title without the site and channel names that pages append to it.

    A heading of the page found inside the title is the title; else the title is split at its
    separators and the first part kept if it is substantial, the longest part otherwise.

    >>> clean_title("增值税改革新政解读-税务资讯")
    '增值税改革新政解读'
    >>> clean_title("缅甸华侨华人为孔子课堂捐款组图-教育频道-新华网")
    '缅甸华侨华人为孔子课堂捐款组图'
    >>> clean_title("Why Beijing will bring slaughter | Washington Examiner")
    'Why Beijing will bring slaughter'
    """
    title = normalize_space(title)
    squeezed = "".join(title.split())
    for heading in headings:
        heading = normalize_space(heading)
        if len(heading) >= 4 and "".join(heading.split()) in squeezed:
            return heading
    parts = [p for p in TITLE_SEPARATORS.split(title) if p.strip()]
    if len(parts) <= 1:
        return title
    first = parts[0]
    return first if len(first) >= 0.4 * len(title) else max(parts, key=len)


def extract_title(root: etree._Element) -> str | None:
    """The page's title without its site suffix: <title>, og:title, else the first <h1>."""
    headings = [text_content(h) for h in islice(root.iter("h1", "h2"), 6)]
    og_titles = (m.get("content") for m in root.iter("meta") if m.get("property") == "og:title")
    candidates = [root.findtext(".//title"), *(t for t in og_titles if t is not None)]
    for candidate in candidates:
        if candidate and candidate.strip():
            return clean_title(candidate, headings)
    for heading in headings:
        if heading.strip():
            return normalize_space(heading)
    return None


def link_density(root: etree._Element, text: str) -> float:
    """Characters of link text over characters of visible text (white space ignored), in [0, 1].

    The decay paper's DL, for a whole page: list and home pages score high, articles low.
    """
    total = sum(len(line.replace(" ", "")) for line in text.splitlines())
    if not total:
        return 0.0
    linked = sum(len("".join(text_content(a).split())) for a in root.iter("a"))
    return min(1.0, linked / total)


def _meta(root: etree._Element, names: tuple[str, ...], found: dict | None = None) -> str | None:
    """The first non-empty <meta> content among `names` (matched on name, property or itemprop).
    `found`: the page's `meta_contents`, for a caller asking for several fields."""
    found = meta_contents(root) if found is None else found
    return next((found[n] for n in names if n in found), None)


def meta_contents(root: etree._Element) -> dict[str, str]:
    """Each <meta> key (property, name or itemprop, lowercased) with its first non-empty
    content, white space collapsed: read once for every field that asks."""
    found: dict[str, str] = {}
    for meta in root.iter("meta"):
        key = (meta.get("property") or meta.get("name") or meta.get("itemprop") or "").lower()
        if key in found:
            continue
        value = normalize_space(meta.get("content"))
        if value:
            found[key] = value
    return found


def _json_ld(root: etree._Element, key: str) -> str | None:
    """`key` from the page's JSON-LD objects (datePublished, author.name …), if any."""
    for script in json_ld_texts(root):
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


# Bylines in the text near the title: "作者：张三", "来源：新华网", "By Jane Roe".
AUTHOR_LINE = re.compile(
    r"(?:作者|记者|编辑|文/|撰文)\s*[:：]?\s*([^\s|｜/，,。:：]{2,12})|^\s*By\s+([A-Z][\w.'-]+(?:\s+[A-Z][\w.'-]+){0,3})",
    re.M,
)
SOURCE_LINE = re.compile(r"(?:来源|來源|出处|Source)\s*[:：]\s*([^\s|｜/，,。]{2,20})")
# Lines after the start of the page text searched for a publish time and bylines.
HEADER_LINES = 40


def extract_page(
    text: str,
    url: str | None = None,
    fetched_at: datetime | None = None,
    records: RecordOptions | None = RecordOptions(),
    relevance: bool = True,
) -> PageContent:
    """Title, body, publish time, author and source of an HTML document, and its comments,
    forum posts and listed threads (unless `records` is None). Never raises: a page without
    any element, or a step that fails on it, gives what could be read, with `error` saying why.

    Publish time, author and source come from <meta>, JSON-LD or <time> when the page has them,
    else from the lines around the title (the time as written is kept in `published`). The page
    is parsed once, and cleaned once for the records and body extractors, which share the
    cleaned tree and its text statistics (unless its <noscript> shows content: see
    shows_without_javascript). When the body holds comments or replies the records extractor
    found (but not most of it: see MAX_RECORDS_SHARE), they are cut out and the body read again.
    `relevance` False leaves out what only the crawl's relevance reads (the tag blocks and the
    link density), for a caller that does not store them.
    """
    try:
        root = parse_html(text, base_url=url)
    except ExtractionError as exc:
        return PageContent(title=None, body=readable_text(clean_source(text or "")), error=str(exc))
    failures: list[str] = []
    blocks = _attempt("blocks", page_blocks, root, failures, default={}) if relevance else {}
    body_element = root.find("body")
    # The page's text, read when asked: bylines and dates near the title when the markup
    # does not give them, link density, a body of last resort.
    page_text = cache(lambda: visible_text(body_element if body_element is not None else root))
    title = _attempt("title", extract_title, root, failures, default=None)
    content = PageContent(title=title, body="", blocks=blocks)
    _attempt(
        "metadata",
        lambda r: _read_metadata(r, content, page_text, fetched_at, relevance),
        root,
        failures,
        None,
    )
    tree = stats = None
    if records and not shows_without_javascript(root):
        # One cleaned copy of the page for both extractors (see shows_without_javascript),
        # with its text statistics (and the records' evidence, taken in the same pass):
        # detection leaves it as it was.
        keep_times = records.measure != "signature"  # (see clean_tree)
        tree = clean_tree(root, keep_times=keep_times)
        unwrap_wrapper_forms(tree)  # a <form> that only wraps posts (or the page) is no box
        script_links_as_text(tree)  # a comment's text in a link to a script is text
        stats, evidence = text_evidence(_body_of(tree))
        find = lambda r: shared_records(  # noqa: E731
            r, tree, stats, evidence, records, now=fetched_at, url=url
        )
    else:
        find = lambda r: extract_records(r, records, now=fetched_at, url=url)  # noqa: E731
    if records:
        found = _attempt("records", find, root, failures, default=None)
        content.records = found if found is not None else PageRecords()
        if found is None:
            tree = None  # a step that failed may have left the tree changed
    cut = content.records.elements
    if tree is not None and not cut:  # most pages: the body reads the shared tree itself
        content.body = _attempt(
            "body", lambda r: extract_body(r, cleaned=tree, stats=stats), root, failures, None
        )
    elif tree is not None:  # the records' elements are the shared tree's
        # The body with the records first, in a copy, with the statistics of its elements
        # (detection left the tree as it was, so the tree's statistics are the copy's).
        first = copy.deepcopy(tree)
        copied = {c: stats[e] for c, e in zip(first.iter(), tree.iter(), strict=True) if e in stats}
        content.body = _attempt(
            "body", lambda r: extract_body(r, cleaned=first, stats=copied), root, failures, None
        )
        if content.body and 0 < records_share(content.body, cut) < MAX_RECORDS_SHARE:
            parents = [element.getparent() for element in cut]
            for element in cut:  # comments and replies are not the article
                drop(element)
            restat(tree, parents, stats)  # what lost text is counted again, the rest kept
            stats.pop(tree, None)  # (the body's statistics: the root's are the body's to add)
            clean_tree(tree, in_place=True, keep_times=keep_times)  # containers left empty go
            content.body = _attempt(
                "body",
                lambda r: extract_body(r, cleaned=tree, stats=stats),
                root,
                failures,
                content.body,
            )
    else:
        content.body = _attempt("body", extract_body, root, failures, default=None)
        if content.body and cut and 0 < records_share(content.body, cut) < MAX_RECORDS_SHARE:
            for element in cut:  # comments and replies are not the article
                drop(element)
            content.body = _attempt("body", extract_body, root, failures, default=content.body)
    if content.body is None:
        content.body = page_text()
    content.error = "; ".join(failures) or None
    return content


# <noscript> content a client without JavaScript shows, which the records extractor reads and
# the body extractor leaves out: text, or line breaks and cells (kept by clean_tree though
# empty), outside what cleaning removes anyway. Asked of each <noscript> (found by lxml's
# iterator: most pages have few or none), not by an XPath over the whole page.
_NOSCRIPT_SHOWS = etree.XPath(
    "descendant::node()[self::text()[normalize-space()] or self::br or self::hr or self::td"
    " or self::th or self::tr][not(ancestor::*["
    + " or ".join(f"self::{tag}" for tag in NOISE_TAGS if tag != "noscript")
    + "])]"
)


def shows_without_javascript(root: etree._Element) -> bool:
    """The page has <noscript> content that cleaning keeps: then the records extractor (which
    shows it) and the body extractor (which does not) need trees of their own. Elsewhere one
    cleaned tree serves both (what a <noscript> without such content leaves is white space)."""
    return any(_NOSCRIPT_SHOWS(noscript) for noscript in root.iter("noscript"))


def _body_of(tree: etree._Element) -> etree._Element:
    body = tree.find("body")
    return body if body is not None else tree


def _read_metadata(
    root: etree._Element,
    content: PageContent,
    page_text: Callable[[], str],
    fetched_at: datetime | None,
    relevance: bool = True,
) -> None:
    """Publish time, author, source and (with `relevance`) link density into `content`.
    `page_text` gives the page's text; it is only read where the markup leaves a field out
    (or for the link density)."""
    header = cache(lambda: _header_text(page_text(), content.title))
    metas = meta_contents(root)
    published = _meta(root, PUBLISHED_META, metas) or _json_ld(root, "datePublished")
    if published is None:
        times = (t.get("datetime") for t in root.iter("time"))
        first = next((t for t in times if t is not None), None)
        published = normalize_space(first) if first is not None else find_time(header())
    author = (
        _meta(root, AUTHOR_META, metas)
        or _json_ld(root, "author")
        or _first_group(AUTHOR_LINE, header())
    )
    if relevance:
        content.link_density = link_density(root, page_text())
    content.published = published
    content.published_at = parse_time(published, now=fetched_at) if published else None
    content.author = author if author and not author.startswith("http") else None
    content.source = _meta(root, SOURCE_META, metas) or _first_group(SOURCE_LINE, header())


# Records holding this share of the body text or more are the page (a board of messages, or a
# layout misread as records): the body keeps them.
MAX_RECORDS_SHARE = 0.5
# Text pieces shorter than this are not looked for in the body (dates, names, "Reply").
MIN_PIECE_CHARS = 10


def records_share(body: str, elements: list) -> float:
    """The share of the body's characters that come from the records' elements."""
    squeezed = "".join(body.split())
    found = 0
    for element in elements:
        for piece in element.itertext():
            piece = "".join(piece.split())
            if len(piece) >= MIN_PIECE_CHARS and piece in squeezed:
                found += len(piece)
    return found / len(squeezed) if squeezed else 0.0


def _attempt(step: str, function, root, failures: list[str], default):
    """One extraction step; a step that fails on a hostile page costs its field, not the page
    (the failure is logged and named in the page's `error`)."""
    try:
        return function(root)
    except Exception as exc:  # noqa: BLE001 (any failure of one step: the page goes on)
        logger.warning("extraction step %s failed: %s: %s", step, exc.__class__.__name__, exc)
        failures.append(f"{step}: {exc.__class__.__name__}: {exc}"[:300])
        return default


_MARKUP = re.compile(r"<!--.*?(?:-->|$)|<(script|style)\b.*?(?:</\1\s*>|$)|<[^>]*>?", re.S | re.I)


def readable_text(text: str) -> str:
    """What a reader could make of a page that does not parse: its text without markup."""
    return "\n".join(
        line
        for line in (normalize_space(unescape(t)) for t in _MARKUP.sub("\n", text).splitlines())
        if line
    )


def _header_text(page_text: str, title: str | None) -> str:
    """The page text from its title on (where bylines and dates sit), a few dozen lines."""
    lines = page_text.splitlines()
    start = 0
    if title:
        start = next((i for i, line in enumerate(lines) if title in line), 0)
    return "\n".join(lines[start : start + HEADER_LINES])


def _first_group(pattern: re.Pattern, text: str) -> str | None:
    match = pattern.search(text)
    if not match:
        return None
    return next((g for g in match.groups() if g), None)
