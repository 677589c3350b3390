"""A thread's posts laid out apart from the replies: the opening post (a question above its
answers), a best answer boxed apart, a lone post on a forum page, posts marked by schema.org
microdata, and the accepted answer.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml import etree

from topiccrawler.extract.dates import find_time
from topiccrawler.extract.parse import normalize_space
from topiccrawler.extract.records.layout import (
    LAYOUT_TAGS,
    ForumOptions,
    SimilarityOfLayout,
    layout_children,
)
from topiccrawler.extract.records.markup import class_word, text_and_links
from topiccrawler.extract.records.nodes import (
    Evidence,
)
from topiccrawler.extract.records.times import shows_time

MAX_BADGE_CHARS = 24


MAX_BADGE_SOURCE_CHARS = 200  # its text as written, indentation and all


def badge_text(row: etree._Element) -> str | None:
    """The row's text if the row is a badge (a short text alone: no link, no time, no digit)."""
    pieces, size = [], 0
    for piece in row.itertext():  # read no further than a badge can be (rows hold posts)
        pieces.append(piece)
        size += len(piece)
        if size > MAX_BADGE_SOURCE_CHARS:
            return None
    text = normalize_space("".join(pieces))
    if not 0 < len(text) <= MAX_BADGE_CHARS or any(c.isdigit() for c in text):
        return None
    if next(row.iter("a"), None) is not None or find_time(text) is not None:  # ("yesterday")
        return None
    return text


def post_like(block: etree._Element) -> bool:
    """A time, and text mostly outside links (`looks_like_posts` for one block)."""
    _, text, link = text_and_links([block])
    return text - link >= 30 and link < 0.5 * text and shows_time(block)


# A class name that calls records answers ("answer", "cma-answers-list", "answer_item").
ANSWER_NAME = re.compile(r"(?:^|[-_])answers?(?:$|[-_])", re.I)


def named_answers(block: etree._Element) -> bool:
    """The block, its parent or grandparent is named for answers: the posts of a Q&A page,
    whose question is looked for above them (off a forum URL too)."""
    element = block
    for _ in range(3):
        if element is None:
            return False
        if any(ANSWER_NAME.search(name) for name in (element.get("class") or "").split()):
            return True
        element = element.getparent()
    return False


def answers_apart(blocks: list[etree._Element], options: ForumOptions) -> list[etree._Element]:
    """Posts laid out like the replies but boxed apart before them (a Q&A page's best answer
    above "other answers"): in a box before them (`boxes_before`), elements of the first
    reply's tag and first class name, alike to it (SoL above `options.similarity`) and like
    posts (a time, text mostly outside links). The opening post is looked for before them
    (`lead_post`)."""
    first = blocks[0]
    name = class_word(first)
    if not name:
        return []  # (named like the replies, as `named_alike` takes a badge-marked post)
    measure = SimilarityOfLayout(options.weights)
    for before in boxes_before(first):
        found = [
            e
            for e in before.iter(first.tag)
            if e not in blocks
            and class_word(e) == name
            and measure.pair(e, first) > options.similarity
            and post_like(e)
        ]
        if found:
            return found
    return []


def boxes_before(first: etree._Element) -> Iterator[etree._Element]:
    """The boxes holding text before the replies' parent and each of its next LEAD_LEVELS
    ancestors (LEAD_SIBLINGS before each), nearest first: where a thread's opening post or a
    best answer is laid out apart from the replies."""
    node = first.getparent()
    for _ in range(LEAD_LEVELS):
        if node is None or node.tag == "body" or node.getparent() is None:
            return
        before = _previous_text(node)
        for _ in range(LEAD_SIBLINGS):
            if before is None:
                break
            yield before
            before = _previous_text(before)
        node = node.getparent()


# How alike (SoL) a thread's opening post must be to the replies it comes before: laid out
# with more (a share box, a title, the thread's tags) it is less alike than they are.
LEAD_SIMILARITY = 0.5


def lead_post(
    blocks: list[etree._Element], options: ForumOptions, evidence: Evidence | None
) -> list[etree._Element]:
    """The thread's opening post when it is laid out unlike the replies after it. Either the
    sibling just before the first of them, of the same tag, somewhat alike (LEAD_SIMILARITY),
    with a time and some text of its own (a share box, the title or tags in it); or a box of
    its own before the replies' box (a question above its answers, a topic above the
    "replies" card), the nearest of `boxes_before` with a time, with LEAD_PROSE characters of
    prose. [] if none."""
    first = blocks[0]
    before = _previous_text(first)
    if before is not None and before.tag == first.tag and before not in blocks:
        measure = SimilarityOfLayout(options.weights)
        if measure.pair(before, first) >= LEAD_SIMILARITY:
            _, text, link = text_and_links([before])
            timed = evidence.shows_time(before) if evidence else shows_time(before)
            return [before] if timed and text - link >= 15 else []
    longest = max(len("".join("".join(b.itertext()).split())) for b in blocks)
    for before in boxes_before(first):
        if evidence.shows_time(before) if evidence else shows_time(before):
            return [_single(before)] if _opening(before, longest) else []
    return []


# How far the opening post's box is looked for: ancestors of the replies' parent (four: Q&A
# themes wrap the answers' list in a tab panel, a section and a wrapper of the question's
# article), and element siblings before each; its prose (text outside links and headings),
# at least and at most.
LEAD_LEVELS = 4


LEAD_SIBLINGS = 3


LEAD_PROSE = 30


LEAD_MOST = 5  # times the longest reply


LEAD_LINK_SHARE = 0.4  # a page header or a menu is links


def _previous_text(element: etree._Element) -> etree._Element | None:
    """The nearest element sibling before `element` that holds text."""
    before = element.getprevious()
    while before is not None and (
        not isinstance(before.tag, str) or not "".join(before.itertext()).strip()
    ):
        before = before.getprevious()
    return before


def _opening(box: etree._Element, longest: int) -> bool:
    """A box that can be a thread's opening post: prose of its own, not a page's worth."""
    _, text, link = text_and_links([box])
    headings = sum(
        len("".join("".join(h.itertext()).split()))
        for h in box.iter("h1", "h2", "h3", "h4", "h5", "h6")
    )
    return (
        LEAD_PROSE <= text - link - headings
        and link < LEAD_LINK_SHARE * text
        and text <= LEAD_MOST * max(longest, 200)
    )


def _single(box: etree._Element) -> etree._Element:
    """The box's only child holding text, and so on down (a list of one item)."""
    while True:
        kids = [k for k in box.iterchildren(etree.Element) if "".join(k.itertext()).strip()]
        if len(kids) != 1 or kids[0].tag not in LAYOUT_TAGS:
            return box
        box = kids[0]


# class/id names of one post ("post", "post_1001", "reply-3", "floor"; not "postlist").
POST_NAME = re.compile(
    r"^(?:post|reply|message|floor|plhin|topic-post|forum-post)(?:[-_]?\d*)$", re.I
)


def lone_posts(body: etree._Element) -> list[etree._Element]:
    """A thread of one post (or two unlike ones) has no similar siblings to find: on a page
    that calls itself a forum, the outermost elements named like a post that carry a time
    and some text of their own are its posts."""
    found = []
    for element in body.iter(etree.Element):
        names = f"{element.get('class') or ''} {element.get('id') or ''}".split()
        if not any(POST_NAME.match(name) for name in names):
            continue
        if any(f is element or f in element.iterancestors() for f in found):
            continue
        if any(a in found for a in element.iterancestors()):
            continue
        _, text, link = text_and_links([element])
        if text - link >= 20 and shows_time(element):
            found.append(element)
    return found


# The schema.org property of a question's accepted answer, as microdata gives it.
ACCEPTED = "acceptedAnswer"


# A class name marking the accepted or best answer: "accepted-answer", "answer--accepted",
# "best_answer", "is-accepted", "bestAnswer" (whole names).
ACCEPTED_CLASS = re.compile(
    r"^(?:[\w-]*[-_])?(?:accepted|best)[-_]?answer$|^answer[-_]+(?:accepted|best)$"
    r"|^is[-_]?(?:accepted|best)$",
    re.I,
)


def is_accepted(block: etree._Element) -> bool:
    """The page marks the block as the question's accepted answer (microdata, a class, or a
    badge row that says so)."""
    if ACCEPTED in (block.get("itemprop") or "").split():
        return True
    if any(ACCEPTED_CLASS.match(name) for name in (block.get("class") or "").split()):
        return True
    return any(
        (text := badge_text(row)) is not None and ACCEPTED_BADGE.search(text) is not None
        for row in layout_children(block)
    )


# What a badge row of the accepted or best answer says (`badge_text`).
ACCEPTED_BADGE = re.compile(
    r"\b(?:accepted|best)\s+(?:answer|solution)\b|^solution$|最佳答案|已采纳|采纳答案|满意答案"
    r"|beste antwort|meilleure réponse|mejor respuesta",
    re.I,
)


# schema.org types of forum posts and answers: a page that marks them up says what they are.
POST_TYPES = re.compile(r"schema\.org/(?:Answer|DiscussionForumPosting)$", re.I)


_TYPED = etree.XPath("descendant-or-self::*[@itemtype]")


def schema_posts(body: etree._Element) -> list[etree._Element]:
    """Elements the page marks up as answers or forum posts (microdata), each with text
    of its own: Q&A pages show no time per answer, which SoL's time test would miss."""
    marked = [e for e in _TYPED(body) if POST_TYPES.search(e.get("itemtype"))]
    if not marked:
        return []
    _, text, link = text_and_links(marked)
    return marked if (text - link) / len(marked) >= 30 else []
