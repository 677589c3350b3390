"""The score a page shows beside a post: its votes or likes (a Q&A answer's "12", a forum
post's "赞 85"), read as a number from where the markup puts it: schema.org's `upvoteCount`,
a data attribute that holds the count, or a short number in an element whose class (or a
box around it) names votes, a score or likes. A down-vote's count is not the score."""

from __future__ import annotations

import re

from lxml import etree

from topiccrawler.extract.words import Words

# class words of an element holding a record's score, or of the box around its number
# (whole words of a name; "zm-votebar", "vote-count-post", "js-vote-count", "like-count").
SCORE_WORDS = (
    (
        "votes?|vote-?count|votecount|votebar|vote-?box|vote-?number",
        "a Q&A site's vote box or count",
    ),
    ("score", "a post's score"),
    ("upvotes?|upvote-?count", "up-votes (the score where down-votes are shown apart)"),
    ("likes?|like-?count|liked", "a forum's or comment system's likes"),
    ("praise|zan|digg|ding", "Chinese sites' likes (赞 zan, 顶 ding, 'praise')"),
    ("points", "a link aggregator's points"),
)
SCORE_CLASS = Words(r"(?:^|[\s_-])(?:" + "|".join(w for w, _ in SCORE_WORDS) + r")(?:$|[\s_-])")
# A box of the poster's own figures (a user card's total likes, its answers accepted): a
# count there is the person's, not the post's.
PERSON_BOX = Words(
    r"(?:^|[\s_-])(?:card|usercard|user-?info|user-?card|profile|author|poster|member|"
    r"replyer|answerer|userbox|user-?box)(?:$|[\s_-])"
)
# A down-vote's box or count ("vote-down", "hate", "tread" 踩): never the score.
DOWN_CLASS = Words(r"(?:^|[\s_-])(?:down|downvotes?|dislikes?|hate|tread|cai|against)(?:$|[\s_-])")
# The count as shown: "12", "-3", "1,024", "1.3k", "2万".
SHOWN_COUNT = re.compile(r"^\s*([+\-−]?)(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*([kKmM千万w]?)\s*$")
MULTIPLIERS = {"": 1, "k": 1_000, "K": 1_000, "千": 1_000, "m": 1_000_000, "M": 1_000_000,
               "万": 10_000, "w": 10_000}  # fmt: skip
# Data attributes that hold a post's count (Zhihu's "data-votecount", "data-score").
COUNT_ATTRIBUTES = ("data-votecount", "data-vote-count", "data-score", "data-likes")
# Boxes around the number looked through for a name, from the number up.
MAX_BOX_LEVELS = 2


def shown_count(text: str | None) -> int | None:
    """The number a short text shows ("1.3k" → 1300), None for any other text."""
    found = SHOWN_COUNT.match(text or "")
    if found is None:
        return None
    sign, digits, unit = found.groups()
    value = round(float(digits.replace(",", "")) * MULTIPLIERS[unit])
    return -value if sign in ("-", "−") else value


def _named_score(element: etree._Element, block: etree._Element) -> bool:
    """The element, or a box around it up to MAX_BOX_LEVELS below the block, is named for the
    score, and none of them for a down-vote."""
    node = element
    for _ in range(MAX_BOX_LEVELS + 1):
        if node is None or node is block:
            return False
        names = f"{node.get('class') or ''} {node.get('id') or ''}"
        if DOWN_CLASS.found(names):
            return False
        if SCORE_CLASS.found(names):
            return not _in_person_box(node, block)
        node = node.getparent()
    return False


def _in_person_box(element: etree._Element, block: etree._Element) -> bool:
    """The element sits in a box of the poster's own figures (below the block)."""
    for node in (element, *element.iterancestors()):
        if node is block:
            return False
        if PERSON_BOX.found(f"{node.get('class') or ''} {node.get('id') or ''}"):
            return True
    return False


def record_votes(block: etree._Element, records: set | frozenset = frozenset()) -> int | None:
    """The score the block shows for its record (the first the markup gives, in document
    order); other `records` inside it (comments with scores of their own) left out."""
    stack = [block]
    while stack:
        element = stack.pop()
        if element is not block and element in records:
            continue
        stack.extend(reversed([c for c in element if isinstance(c.tag, str)]))
        if "upvoteCount" in (element.get("itemprop") or "").split():
            count = shown_count(element.get("content") or "".join(element.itertext()))
            if count is not None:
                return count
        for attribute in COUNT_ATTRIBUTES:
            count = shown_count(element.get(attribute))
            if count is not None and not DOWN_CLASS.found(element.get("class") or ""):
                if not _in_person_box(element, block):
                    return count
        if len(element) == 0 and element.text and _named_score(element, block):
            count = shown_count(element.text)
            if count is not None:
                return count
    return None
