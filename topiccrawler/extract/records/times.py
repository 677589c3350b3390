"""A record's time: where a block writes it (a short text, an attribute, a tooltip), which of
its times is the post's (not a join date, a last visit or an edit note), and its written and
machine-readable forms.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from lxml import etree

from topiccrawler.extract.dates import (
    MONTH_WORD,
    TOOLTIP_ATTRIBUTES,
    WORD_HINTS,
    find_time,
    parse_time,
    tooltip,
)
from topiccrawler.extract.parse import normalize_space
from topiccrawler.extract.records.markup import (
    SemanticNode,
    author_marks,
    node_text,
    opening_link_text,
)
from topiccrawler.extract.records.patterns import (
    AGE_IN,
    BARE_AGE,
    BYLINE_JOIN,
    CLOCK,
    CLOSING_CUED_DATE,
    COMPOUND_TIME_CLASS,
    CUED_DATE,
    EDITED_TIME,
    HAS_DIGIT,
    HEADER_LINE,
    INVISIBLE,
    MAX_COARSE_CHARS,
    MAX_CUED_CHARS,
    MAX_DATE_AND_CLOCK_CHARS,
    MAX_TIME_NODE_CHARS,
    MAX_TIME_PIECE_CHARS,
    MESSAGE_HEADER_LINES,
    MONTH_DAY,
    NOT_POST_TIME,
    NOT_POST_TIME_AFTER,
    SHOWN_YEAR,
    TIME_CLASS,
    TIME_SEPARATORS,
)


def as_shown(time: str) -> str:
    """A record's time as the page writes it, without invisible marks and separators."""
    return INVISIBLE.sub("", time).strip(TIME_SEPARATORS) or time


def _coarse(shown: str) -> bool:
    """A year, or a day and a month's name ("May 13"), in a short text: a date as shown."""
    if len(shown) > MAX_COARSE_CHARS:
        return False
    if SHOWN_YEAR.search(shown) is not None:
        return True
    return HAS_DIGIT.search(shown) is not None and MONTH_WORD.search(shown) is not None


def time_of(element: etree._Element, text: str) -> tuple[str | None, str | None]:
    """A time written in the node (as shown, from the smallest element showing it), and the
    machine-readable form a <time datetime> or a title attribute gives, if any. Shown as an
    age ("21 天") with the time in the attribute, the age is what the page writes; an empty
    element with the attribute (a script's, or microdata's) beside a written time, the
    written time."""
    for node in element.iter("time", "abbr", "span", "a"):
        for attribute in ("datetime", *TOOLTIP_ATTRIBUTES, "data-time"):
            value = node.get(attribute)
            if value and find_time(value):
                shown = normalize_space("".join(node.itertext()))
                written = (
                    find_time(shown)
                    or BARE_AGE.match(shown)
                    or _coarse(shown)
                    or _shown_by_time_element(node, shown)
                )
                if not shown and find_time(text):  # an empty element beside the written time
                    return find_time(text), value.strip()
                return (shown if written else value), value.strip()
    if not find_time(text):
        if not MONTH_DAY.search(text) and not AGE_IN.search(text):
            return None, None
        return next(filter(None, map(cued_time, element.iter(etree.Element))), None), None
    timed = [
        node
        for node in element.iterdescendants(etree.Element)
        if len(node) == 0 and len(shown := node_text(node)) <= MAX_TIME_NODE_CHARS
        and find_time(shown)
    ]  # fmt: skip
    if timed:
        # Where several elements write a date (a badge's "推荐于2023-11-03" beside the post's
        # time), the one the markup calls the time.
        node = next((n for n in timed if TIME_CLASS.found(author_marks(n))), timed[0])
        return _with_clock(node, node_text(node)), None
    if len(text) > MAX_TIME_NODE_CHARS or opening_link_text(element, text) is not None:
        return find_time(text), None  # a byline: "milkfan · 2 天前 · 1024 次点击"
    return text, None


def _shown_by_time_element(node: etree._Element, shown: str) -> bool:
    """A <time> element's short text with a number: the time as the page shows it, in words
    of any language ("pred 2 hodiny", "il y a 3 jours"); its datetime says when."""
    return (
        node.tag == "time"
        and len(shown) <= MAX_COARSE_CHARS
        and HAS_DIGIT.search(shown) is not None
    )


def cued_time(element: etree._Element) -> str | None:
    """The element's text where it is a date without its year (CUED_DATE, or closing the
    text with its clock) or an age without "ago" ("2y", "11mo", "3 天": BARE_AGE) and the
    element, or its parent, is named for a date or time ("date", "reply-time", "ipdatetime")."""
    text = element.text
    if not text or len(element) or len(text) > MAX_CUED_CHARS:
        return None
    if CUED_DATE.match(text) or BARE_AGE.match(text):
        shown = text.strip()
    elif closing := CLOSING_CUED_DATE.search(text):
        shown = closing.group(1)
    else:
        return None
    named = element
    for _ in range(2):
        if named is None or not isinstance(named.tag, str):
            return None
        marks = author_marks(named)
        if TIME_CLASS.found(marks) or COMPOUND_TIME_CLASS.found(marks):
            return shown
        named = named.getparent()
    return None


def _with_clock(node: etree._Element, shown: str) -> str:
    """The date as shown, with its clock when a sibling element writes that."""
    parent = node.getparent()
    if parent is None or CLOCK.search(shown):
        return shown
    around = node_text(parent)
    if len(around) <= MAX_DATE_AND_CLOCK_CHARS and CLOCK.search(around):
        return around
    return shown


# Elements below that give a time as an attribute (XPaths compiled once: `element.xpath(…)`
# compiles its expression at every call).
_TIMED_BELOW = etree.XPath(
    "descendant::time[@datetime] | descendant::*[@data-time or @data-timestamp]"
)


def shows_time(block: etree._Element) -> bool:
    """The block writes a time in one of its short texts (a byline, a <time>), or gives one
    as an attribute. Long prose is not read: a date inside a comment's text does not make it a
    record, and scanning prose for dates is what record detection spent most time on."""
    for piece in block.itertext():
        if _short(piece) and find_time(piece):
            return True
    if _TIMED_BELOW(block):
        return True
    if any(short_time(title) for title in _TOOLTIPS(block)):
        return True
    return any(
        cued_time(e) for e in block.iter(etree.Element) if e.text and len(e.text) <= MAX_CUED_CHARS
    )


def attribute_time(element: etree._Element) -> bool:
    """The element gives a time as an attribute (as shows_time reads them, for one element):
    a datetime, a data-time, a tooltip holding a date beside a shown age."""
    return (
        (element.tag == "time" and element.get("datetime") is not None)
        or element.get("data-time") is not None
        or element.get("data-timestamp") is not None
        or short_time(tooltip(element))
    )


_TOOLTIPS = etree.XPath(" | ".join(f".//*/@{name}" for name in TOOLTIP_ATTRIBUTES))


def _short(piece: str) -> bool:
    """The piece is short, its white space squeezed (markup indents lines by dozens)."""
    return (
        len(piece) <= MAX_TIME_PIECE_CHARS or len(" ".join(piece.split())) <= MAX_TIME_PIECE_CHARS
    )


def short_time(piece: str | None) -> bool:
    return (
        bool(piece)
        and _short(piece)
        and piece_has_time(piece, digits=HAS_DIGIT.search(piece) is not None)
    )


def piece_has_time(piece: str, digits: bool) -> bool:
    """A time in the piece (`digits`: it holds one), what find_time needs to find anything
    looked for first: a digit, or one of its words in the lowercased text (`WORD_HINTS`,
    read as find_time reads them). The words are searched apart from the digit: a pattern
    led by literals alone lets the regex engine skip to where one could start."""
    if not digits and WORD_HINTS.search(piece.lower()) is None:
        return False
    return find_time(piece) is not None


def time_only(block: etree._Element) -> bool:
    """A block whose text is a time and little more ("11 days ago"): taken for a nested record
    it would hide its record's time."""
    text = " ".join("".join(block.itertext()).split())
    if len(text) > MAX_TIME_NODE_CHARS:
        return False
    time = find_time(text)
    return bool(time) and len(text.replace(time, "").strip()) < 10


def not_post_times(blocks_nodes: Sequence[Sequence[SemanticNode]]) -> set[int]:
    """ids of the nodes whose time is not the post's: a join or last-seen date, labelled in
    the node ("Joined: …", "Member Joined: …") or in the one before it ("Registriert seit:" | "17. Dezember
    2019"), and an edit note's time."""
    found = set()
    for nodes in blocks_nodes:
        for i, node in enumerate(nodes):
            if node.time is None:
                continue
            label = nodes[i - 1].text if i else ""
            at = node.text.find(find_time(node.time) or node.time)
            if (
                NOT_POST_TIME.match(node.text)
                or (at > 0 and NOT_POST_TIME_AFTER.search(node.text[:at]))
                or (len(label) <= 30 and NOT_POST_TIME.match(label) and not find_time(label))
                or EDITED_TIME.search(node.text)
            ):
                found.add(id(node))
    return found


def before_time(text: str) -> str:
    """A byline's text before the time it gives ("By jane On 2020.03.12 13:17": "By jane")."""
    time = find_time(text)
    if not time or time not in text:
        return text
    before = text.split(time)[0]
    return BYLINE_JOIN.sub("", before) if before.strip() else text


def time_attr_of(node: SemanticNode | None) -> str | None:
    """The attribute's form of the record's time, when it is not the one shown."""
    if node is None or not node.machine_time or node.machine_time == node.time:
        return None
    return node.machine_time


def header_line_time(nodes: list[SemanticNode]) -> SemanticNode | None:
    """A time written on a header line of a post's text (`HEADER_LINE`): a text of lines
    broken by <br> is one node (long as prose, or the time's node where short), whose own
    lines are read one by one."""
    for node in nodes:
        if node.time is None or node.element is None:
            continue
        element = node.element
        lines = [element.text, *(child.tail for child in element if child.tag == "br")]
        shown = [line for line in lines if line and not line.isspace()][:MESSAGE_HEADER_LINES]
        for line in shown:
            if len(line) <= MAX_TIME_NODE_CHARS and HEADER_LINE.match(line):
                found = find_time(line)
                if found is not None:
                    return SemanticNode(f"{node.key}#line", line.strip(), "", element, found)
    return None


def moment_of(node: SemanticNode | None, now) -> datetime | None:
    """The record's time as a datetime: the machine-readable attribute when the page gives one
    (it carries the zone), else the text as written."""
    if node is None:
        return None
    return (node.machine_time and parse_time(node.machine_time)) or parse_time(node.time, now=now)


def closing_time(node: SemanticNode) -> bool:
    """The line ends with its time, which an element of its own shows whole: a record
    written on one line of inline markup, its time last ("<a>jane</a>：Works now, thanks!
    <span>2023-05-12 09:40</span>", replies listed under a post). A date inside a sentence
    does not end it, nor stand in an element of its own."""
    time, element = node.time, node.element
    if time is None or element is None or not node.text.rstrip().endswith(time):
        return False
    return any(
        len(shown) == 0 and normalize_space(node_text(shown)) == time
        for shown in element.iterdescendants(etree.Element)
    )
