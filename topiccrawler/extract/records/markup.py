"""Reading a record's markup: its elements' text as shown, class words, links and profile
links, and the semantic node (SPEC §5) every field is read from.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from lxml import etree

from topiccrawler.extract.parse import normalize_space
from topiccrawler.extract.records.patterns import (
    AUTHOR_HINT,
    DIGIT_RUNS,
    INLINE_TAGS,
    NOT_PERSON,
    PROFILE_HINT,
    SKIPPED_TAGS,
)


@dataclass
class SemanticNode:
    """One unit of a block's text: its position key, its text, and what links it holds."""

    key: str
    text: str
    link_text: str = ""
    element: etree._Element | None = field(default=None, repr=False)
    time: str | None = None  # a time written in the node (or in a <time> inside it)
    machine_time: str | None = None  # the same time from a datetime/title attribute, if any


def class_word(element: etree._Element) -> str:
    """The first class name without digits ("comment-1234" and "comment-99" are one class)."""
    return _first_class_word(element.get("class") or "")


@lru_cache(maxsize=8192)
def _first_class_word(classes: str) -> str:
    """`class_word` of a class attribute; a page repeats a few of them thousands of times."""
    names = classes.split()
    return DIGIT_RUNS.sub("", names[0]) if names else ""


def holding_blocks(block: etree._Element) -> set:
    """The block and its descendants that hold more than text and inline elements: those
    with a descendant element neither inline nor skipped, found in one pass up from each."""
    found: set = set()
    for element in block.iterdescendants(etree.Element):
        if element.tag in INLINE_TAGS or element.tag in SKIPPED_TAGS:
            continue
        above = element.getparent()
        while above is not None and above not in found:
            found.add(above)
            if above is block:
                break
            above = above.getparent()
    return found


def node_text(element: etree._Element, skip: frozenset = frozenset()) -> str:
    """Visible text below an element, skipping script-like elements and `skip` subtrees.

    Block elements and <br> break lines; inline elements join their neighbours, with a space
    where two ASCII words or numbers would otherwise run together ("user754" + "2026-01-13").
    """
    parts: list[str] = []

    def put(text: str | None, boundary: bool = False) -> None:
        if not text:
            return
        if boundary and parts and parts[-1] and runs_together(parts[-1][-1], text[0]):
            parts.append(" ")
        parts.append(text)

    def walk(node: etree._Element) -> None:
        put(node.text, boundary=True)
        for child in node:
            if isinstance(child.tag, str) and child.tag not in SKIPPED_TAGS and child not in skip:
                inline = child.tag in INLINE_TAGS and child.tag != "br"
                if not inline:
                    parts.append("\n")
                walk(child)  # noqa: F821 (bound while it runs; deleted after)
                if not inline:
                    parts.append("\n")
            put(child.tail, boundary=True)

    walk(element)
    del walk  # a recursive closure is a reference cycle: freed now, not by the collector
    lines = (normalize_space(line) for line in "".join(parts).splitlines())
    return "\n".join(line for line in lines if line)


def runs_together(left: str, right: str) -> bool:
    """Two word characters meeting, one of them Latin or a digit ("老李" + "2026-01-13")."""
    return left.isalnum() and right.isalnum() and (left.isascii() or right.isascii())


def text_and_links(blocks: Sequence[etree._Element]) -> tuple[list[str], int, int]:
    """The blocks' texts, and their characters in all and inside links (white space out)."""
    texts = [" ".join(b.itertext()) for b in blocks]
    text = sum(len("".join(t.split())) for t in texts)
    link = sum(len("".join("".join(a.itertext()).split())) for b in blocks for a in b.iter("a"))
    return texts, text, link


def anchor_text(element: etree._Element) -> str:
    anchors = [element] if element.tag == "a" else element.iter("a")
    return normalize_space(" ".join("".join(a.itertext()) for a in anchors))


def opening_link_text(element: etree._Element, text: str) -> str | None:
    """The text of the element's first link where the element's `text` starts with it and
    goes on (a byline: the poster's name, then the time or more)."""
    first = element if element.tag == "a" else next(element.iter("a"), None)
    if first is None:
        return None
    shown = normalize_space("".join(first.itertext()))
    return shown if shown and text.startswith(shown) and len(text) > len(shown) else None


MARKED_BELOW = etree.XPath("descendant::*[@class or @id or @itemprop or @rel]")


def author_marks(element: etree._Element) -> str:
    return " ".join(
        (element.get("class") or "", element.get("id") or "", element.get("itemprop") or "",
         element.get("rel") or "")
    )  # fmt: skip


@lru_cache(maxsize=8192)
def author_hint(marks: str) -> bool | None:
    """How an element's marks name an author: False (strongly: "author", "username"), True
    (weakly: a profile box), None (not, or as a thing: "category-name")."""
    if NOT_PERSON.found(marks):
        return None
    if AUTHOR_HINT.found(marks):
        return False
    return True if PROFILE_HINT.found(marks) else None


@lru_cache(maxsize=8192)
def author_named(marks: str) -> bool:
    """AUTHOR_HINT in an element's marks; pages repeat a few class names thousands of times."""
    return AUTHOR_HINT.found(marks)


def first_text(element: etree._Element) -> str:
    return next((t for t in element.itertext() if not t.isspace()), "")


def anchor_of(element: etree._Element) -> etree._Element:
    """The link the element is or holds (itself where it holds none)."""
    if element.tag == "a":
        return element
    return next(element.iter("a"), element)


def is_inside(element: etree._Element | None, container: etree._Element | None) -> bool:
    """`element` is `container` or sits below it."""
    if element is None or container is None:
        return False
    return element is container or any(a is container for a in element.iterancestors())


def is_within(node: SemanticNode, container: etree._Element) -> bool:
    """The node is in the container, or is an inline node holding it."""
    inline = not node.key.endswith("#text")
    return is_inside(node.element, container) or (inline and is_inside(container, node.element))


def profile_href(element: etree._Element | None) -> str | None:
    """The link an author element is or holds (a profile page), if any."""
    if element is None:
        return None
    anchor = element if element.tag == "a" else next(element.iter("a"), None)
    if anchor is None:
        anchor = next(element.iterancestors("a"), None)
    href = (anchor.get("href") or "").strip() if anchor is not None else ""
    return href if href and not href.startswith(("#", "javascript:")) else None
