"""Comments delimited by their signatures, not by repeated markup: talk pages and plain
discussion pages where each comment is a paragraph (or an indented <dd>, a list item) that
ends with its author's link and the time ("… — <a>Alice</a> (<a>talk</a>) 10:20, 12 May 2019
(UTC)"). Neither detector finds them: the comments are no repeated siblings (a reply is
nested in a <dl> inside the comment it answers). Read where POL and SoL found nothing."""

from __future__ import annotations

import re
from datetime import datetime

from lxml import etree

from topiccrawler.extract.dates import find_time, parse_time
from topiccrawler.extract.parse import normalize_space
from topiccrawler.extract.records.authors import clean_author
from topiccrawler.extract.records.patterns import PERSON_LINK
from topiccrawler.items import CommentRecord

# Elements a signed comment is written in, and those nested in it that hold other comments.
COMMENT_TAGS = ("p", "dd", "li")
NESTED_TAGS = frozenset(("dl", "ul", "ol", "div", "p", "table", "blockquote"))
# What may follow the author's link before the time: the user's talk or contributions link
# in brackets, separators.
AFTER_NAME = re.compile(
    r"^[\s(),|·–—-]*(?:(?:talk|contribs|discussion|讨论|討論)[\s()|·,]*)*", re.I
)
# The user's own pages linked beside the name, never the name.
USER_PAGE_WORDS = re.compile(r"^(?:talk|contribs|discussion|讨论|討論)$", re.I)
# A clock written before the date ("10:20, 12 May 2019").
CLOCK_FIRST = re.compile(r"^\s*(?:\d{1,2}:\d{2}(?::\d{2})?\s*,?\s*)?$")
# What may follow the time: a zone in brackets ("(UTC)", "(CEST)").
AFTER_TIME = re.compile(r"^\s*(?:\(\s*[A-Z]{2,5}(?:[+-]\d{1,2})?\s*\))?[\s.]*$")
_DIGIT = re.compile(r"\d")
# Signed comments a page needs for them to be its comments (one signature is an article's
# byline or a quotation's source).
MIN_SIGNED = 3


def signed_comments(
    body: etree._Element, now: datetime | None = None
) -> tuple[list[CommentRecord], list[etree._Element]]:
    """The page's signed comments, in document order, each replying to the signed comment it
    is nested in; and their elements. Nothing where fewer than MIN_SIGNED are signed."""
    holders = set()  # (cheap first: the elements holding a link to a person, a time after it)
    for link in body.iter("a"):
        after = link.getnext()
        if not _DIGIT.search(link.tail or "") and not (
            after is not None and _DIGIT.search(after.tail or "")
        ):
            continue  # no time follows (the time's digits come after the link or its "(talk)")
        if PERSON_LINK.search(link.get("href") or ""):
            holder = next(link.iterancestors(*COMMENT_TAGS), None)
            if holder is not None:
                holders.add(holder)
    if len(holders) < MIN_SIGNED:
        return [], []
    found: list[tuple[etree._Element, str, str, str, etree._Element]] = []
    for element in body.iter(*COMMENT_TAGS):
        signed = _signature(element) if element in holders else None
        if signed is not None:
            found.append((element, *signed))
    if len(found) < MIN_SIGNED:
        return [], []
    authors = {element: name for element, _, name, _, _ in found}
    comments = []
    for element, text, name, when, link in found:
        parent = next((a for a in element.iterancestors() if a in authors), None)
        comments.append(
            CommentRecord(
                text=text,
                author=name,
                author_url=link.get("href"),
                time=when,
                published_at=parse_time(when, now=now),
                reply_to=authors[parent] if parent is not None else None,
            )
        )
    return comments, [element for element, *_ in found]


def _signature(element: etree._Element) -> tuple[str, str, str, etree._Element] | None:
    """(text, author, time, author's link) where the element's own text (nested comments
    left out) ends with a link to a person and the time; None otherwise."""
    pieces: list[tuple[str, etree._Element | None]] = [(element.text or "", None)]
    for child in element:
        if isinstance(child.tag, str) and child.tag in NESTED_TAGS:
            break  # what follows a nested list is the replies', not this comment's
        if child.tag == "a":
            pieces.append((normalize_space("".join(child.itertext())), child))
        elif isinstance(child.tag, str):
            pieces.append(("".join(child.itertext()), None))
        pieces.append((child.tail or "", None))
    for i in range(len(pieces) - 1, 0, -1):
        shown, link = pieces[i]
        if link is None or not PERSON_LINK.search(link.get("href") or ""):
            continue
        if USER_PAGE_WORDS.match(shown):
            continue  # "(talk)" after the name
        name = clean_author(shown, linked=True)
        rest = AFTER_NAME.sub("", " ".join(text for text, _ in pieces[i + 1 :]), count=1)
        when = find_time(rest)
        if name is None or when is None:
            return None
        at = rest.find(when)
        if not CLOCK_FIRST.match(rest[:at]) or not AFTER_TIME.match(rest[at + len(when) :]):
            return None  # more than a clock before the date, or more than a zone after it
        text = normalize_space(" ".join(t for t, _ in pieces[:i])).rstrip(" –—-")
        return (text, name, normalize_space(rest[: at + len(when)]), link) if text else None
    return None
