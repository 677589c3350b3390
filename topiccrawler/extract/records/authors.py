"""A record's author (R5): what the markup calls the author, a labelled name, the name link
most records hold at one position, a byline's or a signature's name; and, as data, what a
name is not and which author-named elements are not the author.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml import etree

from topiccrawler.extract.dates import (
    find_time,
)
from topiccrawler.extract.parse import normalize_space
from topiccrawler.extract.records.chrome import chrome_marked, rank_marked
from topiccrawler.extract.records.markup import (
    MARKED_BELOW,
    SemanticNode,
    anchor_of,
    anchor_text,
    author_hint,
    author_marks,
    first_text,
    is_inside,
    node_text,
    opening_link_text,
)
from topiccrawler.extract.records.patterns import (
    ACTION_TEXT,
    AUTHOR_LABEL,
    AUTHOR_TRAILER,
    BOLD_TAGS,
    BRACKETED,
    CHROME_TEXT,
    DATA_NAME_ATTRIBUTES,
    FIELD_TEXT,
    HEADER_FIELD_SEPARATOR,
    HEADER_NODES,
    IN_REPLY_TO,
    LABELLED_NAME,
    LEVEL,
    LINKED_AUTHOR_LABEL,
    MAX_AUTHOR_CHARS,
    MAX_REACTED_LINE_CHARS,
    MAX_TIME_NODE_CHARS,
    MAX_TIME_PIECE_CHARS,
    NAME_LABEL,
    NAME_SEPARATORS,
    NUMBERED_USER,
    PERSON_LINK,
    POST_NUMBER,
    POSTER_ACTION,
    QUOTE_CLASS,
    REACTED,
    REPLIES_CLASS,
    REPLIES_LIST,
    REPLY_TO,
    ROLE_TEXT,
    SAID,
    SIGNED,
    STAT_TEXT,
    TIME_CLASS,
    WEB_ADDRESS,
    WEEKDAY,
    ZERO_WIDTH,
)
from topiccrawler.extract.records.times import before_time


def to_profile(node: SemanticNode) -> bool:
    """The node is, or holds, a link to a person's page (`PERSON_LINK`)."""
    element = node.element
    return _to_person(element if element.tag == "a" else next(element.iter("a"), None))


def _to_person(anchor: etree._Element | None) -> bool:
    """The element is a link to a person's page (`PERSON_LINK`)."""
    href = anchor.get("href") if anchor is not None and anchor.tag == "a" else None
    return href is not None and PERSON_LINK.search(href) is not None


def hinted_author(
    block: etree._Element, skip: frozenset = frozenset()
) -> tuple[str, etree._Element] | None:
    """The author as the markup names it (class/id/itemprop "author", "username", "fn"…): the
    smallest such element with a short text, its link text first; one whose text is a link (a
    profile link) before others (the "poster-info" lines beside it, a user box); a profile
    box's first line only where nothing is called the author."""
    found = []
    skipped = {e for s in skip for e in s.iter()}  # the nested records' elements
    for element in MARKED_BELOW(block):
        if element in skipped:
            continue
        marks = " ".join(
            (element.get("class") or "", element.get("id") or "", element.get("itemprop") or "",
             element.get("rel") or "")
        )  # fmt: skip
        weak = author_hint(marks)  # True: a profile box, its name the author where no other
        if weak is None or not_the_author(element, block, None):
            continue
        linked, name = _linked_name(element)
        if not name:  # a byline of the name and then the time (linked or not): the name
            linked = ""
            shown = node_text(element).split("\n")[0]
            name = clean_author(shown) or clean_author(before_time(shown))
        if not name or not_the_author(element, block, name):
            continue
        # the element is a name link: all its text is the link's
        is_link = bool(linked) and normalize_space(" ".join(element.itertext())) == linked
        found.append((weak, not is_link, len(list(element.iter())), name, element))
    if not found:
        return None
    if len(found) > 1:
        # A name in a list of replies under the post (a commenter's) only where no other
        # element names anyone
        found = [(_in_replies(f[-1], block), *f) for f in found]
        *_, name, element = min(found, key=lambda f: f[:4])
    else:
        *_, name, element = found[0]
    return name, element


# Elements the markup names like an author that are not the record's author, case by case as
# data (applied in this order by `not_the_author`): each case's name, and its test of the
# element, the record's block and the name read from it (None: before the name is read,
# the element's own cases).
NOT_THE_AUTHOR: tuple[tuple[str, bool, Callable[..., bool]], ...] = (
    ("chrome (a user box's lines, buttons, a signature)", False,
     lambda element, block, name: chrome_marked(element)),
    ("a group or rank link in the poster's title box", False,
     lambda element, block, name: rank_marked(element)),
    ("the time's element ('user-action-time')", False,
     lambda element, block, name: TIME_CLASS.found(author_marks(element))),
    ("one of a list of people ('萧瑶、Winter、任红雷 等人赞同': those who liked the post)", False,
     lambda element, block, name: _one_of_people(element)),
    ("a name on a line that says they reacted ('洪哥 赞同', 'jane liked this')", False,
     lambda element, block, name: _reacted(element, block)),
    ("the quoted post's author", True, lambda element, block, name: _quoted(element, block)),
    ("a name mentioned in the text", True,
     lambda element, block, name: name[0] == "@" and _mention(element)),
    ("whom the post answers ('in reply to jane')", True,
     lambda element, block, name: bool(IN_REPLY_TO.match(first_text(element)))),
)  # fmt: skip


def _linked_name(element: etree._Element) -> tuple[str, str | None]:
    """The text of the links an author-marked element holds, and the name they give: of the
    first link that gives one (a byline box holding the name link, then the poster's level,
    "举报", "只看此人" links: not all their words), else of them all."""
    linked = anchor_text(element)
    if element.tag != "a":
        shown = [normalize_space("".join(a.itertext())) for a in element.iter("a")]
        shown = [text for text in shown if text]
        for text in shown if len(shown) > 1 else ():
            name = clean_author(text, linked=True) or _numbered_user(text)  # (a user number)
            if name:
                return text, name
    return linked, clean_author(linked, linked=True) if linked else None


def not_the_author(element: etree._Element, block: etree._Element, name: str | None) -> str | None:
    """The NOT_THE_AUTHOR case the element is: its own cases when `name` is None, else the
    cases of the name read from it."""
    named = name is not None
    for case, needs_name, test in NOT_THE_AUTHOR:
        if needs_name == named and test(element, block, name):
            return case
    return None


def _one_of_people(element: etree._Element) -> bool:
    """The element is one of two or more alike beside each other (same tag and class), each a
    link to a person's page or holding one: a list of people (who liked or voted for the
    post, who took part), where a byline names one."""
    parent = element.getparent()
    if parent is None:
        return False
    alike = [c for c in parent if c.tag == element.tag and c.get("class") == element.get("class")]
    if len(alike) < 2:
        return False
    people = sum(_to_person(c if c.tag == "a" else next(c.iter("a"), None)) for c in alike)
    return people >= 2


def _reacted(element: etree._Element, block: etree._Element) -> bool:
    """The element stands on a short line (itself or an ancestor below the block) of linked
    names and then a reaction ("洪哥 赞同", "<a>jane</a>, <a>bo</a> liked this")."""
    for line in (element, *element.iterancestors()):
        if line is block:
            return False
        text = normalize_space(" ".join(line.itertext()))
        if len(text) > MAX_REACTED_LINE_CHARS:
            return False
        found = REACTED.search(text)
        if found is None or found.start() == 0:
            continue
        names = text[: found.start()]
        for link in line.iter("a"):
            names = names.replace(normalize_space("".join(link.itertext())), " ", 1)
        return not NAME_SEPARATORS.sub("", names)  # (nothing but the names before it)
    return False


def _mention(element: etree._Element) -> bool:
    """An "@name" in a line of text (its parent says more), not a byline's name."""
    text = normalize_space(" ".join(element.itertext()))
    if not text.startswith("@"):
        return False
    parent = element.getparent()
    around = normalize_space(" ".join(parent.itertext())) if parent is not None else text
    rest = around.replace(text, "", 1).strip(" :：")
    return len(rest) > 2 and not AUTHOR_TRAILER.fullmatch(" " + rest)


def _quoted(element: etree._Element, block: etree._Element) -> bool:
    """The element sits in a quotation inside the block (<blockquote>, class "quote")."""
    for ancestor in element.iterancestors():
        if ancestor is block:
            return False
        if ancestor.tag == "blockquote" or QUOTE_CLASS.search(ancestor.get("class") or ""):
            return True
    return False


def _in_replies(element: etree._Element, block: etree._Element) -> bool:
    """The element sits in a list of replies or comments shown under the post in the block
    ("comments-list", "sub-replies", "comments"): a commenter's name, not the post's author."""
    for ancestor in element.iterancestors():
        if ancestor is block:
            return False
        if is_replies_list(ancestor):
            return True
    return False


def is_replies_list(element: etree._Element) -> bool:
    """The element is named as the list of replies or comments shown under a post
    ("comments", "answer-comments", "replies", "comment-list", "sub-replies")."""
    classes = element.get("class")
    if not classes:
        return False
    lowered = classes.lower()
    if "comment" not in lowered and "repl" not in lowered:
        return False  # (nearly every element: no name of replies)
    return any(REPLIES_LIST.match(name) or REPLIES_CLASS.match(name) for name in classes.split())


# What a name cannot be, case by case as data (applied in this order by `not_a_name`, the
# cheap tests first): each case's name, its test of the text, and whether a profile link
# makes the text a name after all (a profile named after its role, "Moderator").
NOT_A_NAME: tuple[tuple[str, Callable[[str], object], bool], ...] = (
    ("too long", lambda text: len(text) > MAX_AUTHOR_CHARS, False),
    ("a web address", WEB_ADDRESS.match, False),
    ("a time", lambda text: find_time(text), False),
    ("chrome words", CHROME_TEXT.match, False),
    ("a poster's statistics", STAT_TEXT.match, False),
    ("a labelled field of the poster's card ('Join Date: Dec 2005')", FIELD_TEXT.match, True),
    ("what a menu does to the poster ('View Profile', '查看详细资料')", POSTER_ACTION.match, False),
    ("a rank or role", ROLE_TEXT.match, True),
    ("what was done, before its time ('edited', '发表于')", ACTION_TEXT.match, False),
)


def not_a_name(text: str, linked: bool = False) -> str | None:
    """The NOT_A_NAME case the text is, or None."""
    for case, test, link_makes_a_name in NOT_A_NAME:
        if not (linked and link_makes_a_name) and test(text):
            return case
    return None


# Data attributes that hold the name an element shows ("data-display-name", "data-author").
_DATA_NAMED = etree.XPath(
    "descendant::*[" + " or ".join(f"@{a}" for a in DATA_NAME_ATTRIBUTES) + "]"
)


def data_named(
    block: etree._Element, skip: frozenset = frozenset()
) -> tuple[str, etree._Element] | None:
    """The name an element shows where a data attribute of its says that is the name
    (`<div class="title" data-display-name="magani">magani <a>@magani</a></div>`): the
    attribute's value is the element's own first text, so it names who the element shows,
    not a quoted post's author (whose box opens with "jane said:")."""
    skipped = {e for s in skip for e in s.iter()}
    for element in _DATA_NAMED(block):
        if element in skipped:
            continue
        own = normalize_space(element.text or "")
        for attribute in DATA_NAME_ATTRIBUTES:
            value = normalize_space(element.get(attribute) or "")
            if value and value == own and (name := clean_author(value)) is not None:
                return name, element
    return None


def _labelled_link(node: SemanticNode) -> str | None:
    """The name a labelled byline gives as a link right after its label ("Submitted by
    <a>jane</a> on Wed, 19/12/2012 - 16:03"): the link's text, whatever words come between
    the name and the time."""
    if not node.link_text or node.element is None:
        return None
    first = next(node.element.iter("a"), None)
    shown = normalize_space("".join(first.itertext())) if first is not None else ""
    after_label = AUTHOR_LABEL.sub("", node.text, count=1)
    if not shown or not after_label.startswith(shown):
        return None
    return clean_author(shown, linked=True)


def clean_author(text: str | None, linked: bool = False) -> str | None:
    """An author's name without labels and trailers; None when it cannot be a name
    (`NOT_A_NAME`)."""
    if not text:
        return None
    text = normalize_space(ZERO_WIDTH.sub("", text.split("\n")[0]))
    label = LINKED_AUTHOR_LABEL if linked else AUTHOR_LABEL
    text = AUTHOR_TRAILER.sub("", label.sub("", text)).strip(" :：|·-")
    text = BRACKETED.sub(r"\1", text)  # a name shown in brackets: "[清风徐来]"
    if not text or not_a_name(text, linked):
        return None
    return text


def record_author(
    block: etree._Element,
    nodes: list[SemanticNode],
    skip: frozenset,
    link_key: str | None,
    bold_key: str | None = None,
) -> tuple[str | None, etree._Element | None]:
    """R5: the element the markup calls the author, else a labelled name, else the earliest
    short link at the position that holds one in most blocks, else a link to a person's page,
    else the bold name that opens the block where most blocks open with one (`bold_key`).
    A name the markup calls the author inside a list of replies under the post is a
    commenter's: the post's author where the position of the others' names holds none."""
    hinted = hinted_author(block, skip)
    if hinted and _in_replies(hinted[1], block):
        keyed = _keyed_author(nodes, link_key)
        if keyed is not None and keyed[0]:
            return keyed
    if hinted:
        return hinted
    shown = data_named(block, skip)
    if shown is not None:
        return shown
    keyed = _keyed_author(nodes, link_key)
    for node, following in zip(nodes[:6], [*nodes[1:7], None], strict=False):
        if LABELLED_NAME.match(node.text):
            name = _labelled_link(node) or clean_author(before_time(node.text))
            if name:
                # a labelled line beside a link to a person's page where the other posts
                # have theirs is a field of the poster's card ("From: NYC"), not the name
                if keyed is not None and keyed[0] and _to_person(keyed[1]):
                    return keyed
                return name, node.element
        elif following is not None and NAME_LABEL.match(node.text):
            # the label in a cell of its own, the name in the next ("From:" | "Ada Park <…>")
            name = clean_author(before_time(following.text), linked=bool(following.link_text))
            if name:
                return name, following.element
    if keyed is not None:
        return keyed
    for node in nodes:  # no link where the others' authors are: a link to a person's page
        if node.link_text == node.text and to_profile(node):
            name = clean_author(node.link_text, linked=True)
            if name and not _in_replies(node.element, block):
                return name, anchor_of(node.element)
    if bold_key is not None and nodes and nodes[0].key == bold_key:
        name = bold_name(nodes[0])
        if name:
            return name, nodes[0].element
    for node in nodes[:HEADER_NODES]:
        name = header_field_name(node)
        if name:
            return name, node.element
    return None, None


def header_field_name(node: SemanticNode) -> str | None:
    """The name a header line of fields gives ("#143003 - eKid - Tue Oct 16, 2007 12:47 am",
    "3楼 | 山间行者 | 2024-04-20"): split at its separators, the time's field and a post's
    number left out, one field is left, and it is a name. No link, no class needed."""
    if node.time is None or node.link_text or len(node.text) > MAX_TIME_NODE_CHARS:
        return None
    fields = [f.strip() for f in HEADER_FIELD_SEPARATOR.split(node.text) if f.strip()]
    if len(fields) < 2:
        return None
    when = find_time(node.time) or node.time
    left = [
        f for f in fields
        if f not in when and when not in f and not find_time(f) and not POST_NUMBER.match(f)
        and not WEEKDAY.match(f)
    ]  # fmt: skip
    if len(left) != 1 or len(left) == len(fields):
        return None
    return clean_author(left[0])


def bold_name(node: SemanticNode) -> str | None:
    """The name a short bold line gives where it opens a record: the poster's name atop a
    column of their own ("<b>Waldo</b><br>Valve<br>Registered: Apr 2003"), no link, no class
    saying so; None for a line that is a link, holds a time or is no name."""
    element = node.element
    if element is None or node.link_text or node.time is not None:
        return None
    bold = element.tag in BOLD_TAGS or (
        len(element) == 1
        and element[0].tag in BOLD_TAGS
        and normalize_space("".join(element[0].itertext())) == node.text
    )
    return clean_author(node.text) if bold else None


def _keyed_author(
    nodes: list[SemanticNode], link_key: str | None
) -> tuple[str | None, etree._Element] | None:
    """The name at the position that holds the author's link in most blocks (`link_key`),
    and its link; None where the block has nothing there."""
    for node in nodes:
        if node.key == link_key:
            signed = signed_name(node)
            if signed is not None:
                return signed, [*node.element.iter("a")][-1]
            name = (
                clean_author(node.link_text) or _numbered_user(node.link_text) or byline_name(node)
            )
            return name, anchor_of(node.element)
    return None


def byline_name(node: SemanticNode) -> str | None:
    """The name a byline opens with: a short line that starts with a link whose text is a
    name and goes on to the time ("<a>山间行者</a> 2024-04-20 09:02 北京", "<a>milkfan</a> · 2 天前 ·
    1024 次点击"), a line of the name, a colon and what the person said ("<a>晨跑的猫</a>：终于
    凉快了"), or the name and a level badge ("<a>老股民张三</a> Lv3"): the link is the poster's.
    The time may be a link of its own, to the record ("<a>jane</a> <a>10 hours ago</a>"): a
    line of links is a byline too when the first is a name and the rest is the time."""
    if not node.link_text:
        return None
    shown = opening_link_text(node.element, node.text)
    if shown is None:
        return None
    rest = node.text[len(shown) :]
    if len(node.text) > MAX_TIME_NODE_CHARS and not SAID.match(rest):
        return None  # a byline is short; a line of what someone said need not be
    name = clean_author(shown, linked=True)
    shown_time = find_time(rest) or (node.time is not None and node.time in rest)
    if name is None or not (shown_time or SAID.match(rest) or LEVEL.match(rest)):
        return None
    return name


def signed_name(node: SemanticNode) -> str | None:
    """The name a line is signed with after its text: the line's last link, a name, right
    after a dash and followed by nothing but the time ("Works now, thanks! — <a>jane</a> ·
    2022-05-12"): a comment written on one line, text first."""
    if not node.link_text or node.link_text == node.text or node.time is None:
        return None
    if len(node.text) > MAX_TIME_PIECE_CHARS:
        return None  # (a sentence that links a name, not a signature)
    links = list(node.element.iter("a"))
    if not links:
        return None
    last = links[-1]
    shown = normalize_space("".join(last.itertext()))
    before, found, after = node.text.rpartition(shown) if shown else ("", "", "")
    if not found or not SIGNED.search(before) or not before.rstrip(" –—-").strip():
        return None
    when = find_time(after)
    if when is None or normalize_space(after.replace(when, " ", 1)).strip(" ·|,()"):
        return None  # not the time after the name, or more than it
    return clean_author(shown, linked=True)


def _numbered_user(text: str) -> str | None:
    text = normalize_space(text)
    return text if NUMBERED_USER.match(text) else None


def around_name(node: SemanticNode, element: etree._Element | None, name: str | None) -> bool:
    """The node holds the author's element and a text of its own far longer than the name (a
    record flattened to one line of inline markup: name, counts, date and text)."""
    return (
        bool(name)
        and element is not None
        and node.element is not element
        and is_inside(element, node.element)
        and len(node.text) > 3 * len(name) + MAX_TIME_NODE_CHARS
    )


def without_name(node: SemanticNode, name: str | None) -> SemanticNode:
    """A node holding the author's name among more text, without the name (and without the
    colon after it, where the line opens with the name: "<a>jane</a>：what she said")."""
    if not name or name not in node.text or len(node.text) <= 3 * len(name) + MAX_TIME_NODE_CHARS:
        return node
    said = said_after_name(node, name)
    if said is not None:
        return said
    text = normalize_space(node.text.replace(name, " ", 1))
    return SemanticNode(node.key, text, node.link_text, node.element, node.time, node.machine_time)


def said_after_name(node: SemanticNode, name: str | None) -> SemanticNode | None:
    """The node without its opening "name：" where it goes on with what the person said."""
    if not name or not node.text.startswith(name):
        return None
    rest = node.text[len(name) :]
    if not SAID.match(rest):
        return None
    said = rest.lstrip().lstrip(":：").strip()
    return SemanticNode(node.key, said, node.link_text, node.element, node.time, node.machine_time)


def replied_to(block: etree._Element, authors: dict, text: str) -> str | None:
    """The author of the record this one is nested in, or the name it addresses."""
    for ancestor in block.iterancestors():
        if ancestor in authors:
            return authors[ancestor]
    match = REPLY_TO.match(text)
    return match.group(1) if match else None
