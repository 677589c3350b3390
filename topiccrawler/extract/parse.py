"""Parsing pages into lxml trees, and the text a reader sees: the ground every extractor
stands on. Pure functions; nothing here imports Scrapy."""

from __future__ import annotations

import copy
import re

from lxml import etree, html

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
