"""Parsing pages into lxml trees, and the text a reader sees: the ground every extractor
stands on. Pure functions; nothing here imports Scrapy."""

from __future__ import annotations

import copy
import re
from itertools import filterfalse

from lxml import etree

# Elements whose content a reader never sees.
INVISIBLE_TAGS = ("script", "style", "noscript", "template", "head", "svg", "canvas")
# Elements that start a new line of text when rendered.
BLOCK_TAGS = (
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset",
    "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "li", "main", "nav", "ol", "p", "pre", "section", "table", "tr", "td", "th", "ul",
)  # fmt: skip


class ExtractionError(ValueError):
    """The input cannot be parsed as an HTML document."""


# What lxml refuses in a tree's text (it raises "All strings must be XML compatible" when such
# text is set, and cuts text at a lone surrogate): C0 controls but tab, newline and carriage
# return; surrogates; U+FFFE and U+FFFF. Old pages carry NUL bytes and stray controls.
XML_INCOMPATIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
# An XML declaration at the start, closed or not ("<?xml version="1.0" encoding="…" with no
# "?>"): lxml refuses str input that declares an encoding.
XML_DECLARATION = re.compile(r"^[\s\ufeff]*<\?xml[^<>]*>?")
# One parser for every page: plain lxml elements (lxml.html's element classes cost a Python
# lookup per element visited, and every extractor walks the tree many times).
# The page goes in as UTF-8 bytes: libxml2 reads those faster than a str's wide buffer
# (a third less parse time on Chinese pages), and the tree is the same.
_PARSER = etree.HTMLParser(huge_tree=True, remove_comments=True, remove_pis=True, encoding="utf-8")


def clean_source(text: str) -> str:
    """The page without what lxml refuses: characters XML forbids (see XML_INCOMPATIBLE;
    form feed and vertical tab become spaces) and an XML declaration at the start."""
    return _cleaned(text)[0]


# The bytes of the C0 controls XML forbids, each looked for in a page's UTF-8 by memchr: a
# quarter of the instructions of deleting them all with `bytes.translate` to compare lengths
# (a regular expression over the str reads a page ten times slower).
_REFUSED_BYTES = tuple(bytes((b,)) for b in range(32) if b not in (9, 10, 13))
_XML_START = re.compile("[\ufeff \t\r\n]*<\\?xml")


def _cleaned(text: str) -> tuple[str, bytes]:
    """`clean_source(text)`, and it as UTF-8: what parse_html hands to libxml2. The page is
    encoded once and only rewritten when it holds something lxml refuses (few pages do)."""
    try:
        data = text.encode("utf-8")
        refused = (
            any(byte in data for byte in _REFUSED_BYTES) or "\ufffe" in text or "\uffff" in text
        )
    except UnicodeEncodeError:  # a lone surrogate
        refused = True
    if refused:
        text = XML_INCOMPATIBLE.sub(lambda m: " " if m.group() in "\x0b\x0c" else "", text)
    if _XML_START.match(text):
        text = XML_DECLARATION.sub("", text, count=1)
    elif not refused:
        return text, data
    return text, text.encode("utf-8")


def parse_html(text: str, base_url: str | None = None) -> etree._Element:
    """A forgiving HTML parse into a plain lxml tree; deep nesting, huge text nodes, control
    characters and broken declarations allowed. Raises ExtractionError only for a document
    without any element (empty, or comments only)."""
    text, data = _cleaned(text or "")
    if not text or text.isspace():
        raise ExtractionError("empty document")
    try:
        root = etree.fromstring(data, _PARSER, base_url=base_url)
    except (etree.ParserError, ValueError) as exc:
        raise ExtractionError(f"unparseable HTML: {exc}") from exc
    if root is None:
        raise ExtractionError("no element in document")
    if _too_deep(_PARSER.error_log):
        # libxml2 stops building the tree past 2,048 levels and drops the rest of the page:
        # keep the text by flattening the nesting containers and parsing again.
        flat = _NESTING_TAG.sub(" ", text).encode("utf-8")
        root = etree.fromstring(flat, _PARSER, base_url=base_url)
    return root


# The text nodes of an element (its text as the parser split it, and its children's tails).
_TEXT_NODES = etree.XPath("text()")


def json_ld_texts(element: etree._Element) -> list[str]:
    """The texts of the <script type="application/ld+json"> of the element's document, as
    `//script[@type="application/ld+json"]/text()` gives them: the scripts found by lxml's
    iterator, which costs less than an XPath over the whole page."""
    return [
        text
        for script in element.getroottree().getroot().iter("script")
        if script.get("type") == "application/ld+json"
        for text in _TEXT_NODES(script)
    ]


def text_content(element: etree._Element) -> str:
    """All text below an element, as lxml.html's text_content() gives it (tail excluded).
    An element without children (links, headings: most of those asked about) is its text,
    read without serialising it."""
    if not len(element):
        return element.text or ""
    return etree.tostring(element, method="text", encoding="unicode", with_tail=False)


_NESTING_TAG = re.compile(
    r"</?(?:div|span|font|table|tbody|tr|td|section|b|i|center)\b[^>]*>", re.I
)


def _too_deep(log: etree._ListErrorLog) -> bool:
    """libxml2 said the page nests too deep for it (and stopped reading there). Asked of the
    parser's log, not guessed by comparing the tree's text with the source's (which entity
    references such as `&#13;` inflate)."""
    return any("excessive depth" in e.message.lower() for e in log)


def normalize_space(text: str | None) -> str:
    """Collapse runs of white space (including full-width spaces) to one ASCII space."""
    return " ".join((text or "").split())


def visible_text(root: etree._Element, in_place: bool = False) -> str:
    """The text a reader sees, one line per block element, white space collapsed.

    The tree is left as it is (`in_place`, for callers that gave up their copy, is kept for
    them). Read by one XSLT pass in C: invisible elements skipped (their tails kept), a line
    break around every block element and at every <br>; a tree too deep for libxslt is read
    by the same rules on a copy.
    """
    try:
        text = str(_VISIBLE_TEXT(root))
    except etree.XSLTApplyError:
        text = _marked_text(root if in_place else copy.deepcopy(root))
    # (most lines the transform writes are blank, or the source's indentation: left unsplit)
    lines = filterfalse(str.isspace, filter(None, text.splitlines()))
    return "\n".join([" ".join(line.split()) for line in lines])


def _marked_text(root: etree._Element) -> str:
    """What _VISIBLE_TEXT gives, by changing the tree: line breaks set into the texts."""
    etree.strip_elements(root, *INVISIBLE_TAGS, with_tail=False)
    for element in root.iter(*BLOCK_TAGS, "br"):
        element.tail = "\n" + (element.tail or "")
        if element.tag != "br":
            element.text = "\n" + (element.text or "")
    return text_content(root)


_VISIBLE_TEXT = etree.XSLT(
    etree.XML(
        f"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text" encoding="utf-8"/>
<xsl:template match="{"|".join(INVISIBLE_TAGS)}"/>
<xsl:template match="{"|".join(BLOCK_TAGS)}">
  <xsl:text>&#10;</xsl:text><xsl:apply-templates/><xsl:text>&#10;</xsl:text>
</xsl:template>
<xsl:template match="br"><xsl:text>&#10;</xsl:text></xsl:template>
</xsl:stylesheet>"""
    )
)
