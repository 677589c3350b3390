"""Fields of repeated blocks (comments, posts, listed threads): the forum paper's semantic
nodes and rules R1–R5 (SPEC §5), shared by comment and forum extraction.

A block becomes a list of semantic nodes, depth first: an element holding only text and
inline elements (links, emphasis, <time>) is one node. Nodes are aligned across the blocks of
one region by their position key (the tag/class path from the block's root). A position whose
text is the same in every block is a label ("回复", "Reply", "says:"), not data.

The readers of each field are modules of their own beside this one: `authors`, `times`,
`chrome` (what is neither text nor author), over `nodes` (semantic nodes, the page's evidence),
`markup` and the pattern tables of `patterns`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from lxml import etree

from topiccrawler.extract.dates import (
    find_time,
)
from topiccrawler.extract.parse import normalize_space
from topiccrawler.extract.records.authors import (
    around_name,
    bold_name,
    byline_name,
    clean_author,
    record_author,
    replied_to,
    said_after_name,
    signed_name,
    to_profile,
    without_name,
)
from topiccrawler.extract.records.chrome import (
    is_chrome,
    reads_as_sentence,
    under_chrome,
    visually_hidden,
)
from topiccrawler.extract.records.markup import (
    SemanticNode,
    class_word,
    is_inside,
    is_within,
    node_text,
    profile_href,
    runs_together,
)
from topiccrawler.extract.records.nodes import (
    best_key,
    boilerplate_nodes,
    counter_keys,
    linked_labels,
    menu_nodes,
    noise_keys,
    semantic_nodes,
)
from topiccrawler.extract.records.patterns import (
    CJK,
    CONTENT_SHARE,
    HEADER_LINE,
    INLINE_TAGS,
    MAX_AUTHOR_CHARS,
    MAX_CARD_LINE_CHARS,
    MAX_CUED_CHARS,
    MAX_TIME_NODE_CHARS,
    MAX_TIME_PIECE_CHARS,
    MESSAGE_HEADER_LINES,
    MIN_LINES_CHARS,
    ONE_LINE_JOINS,
    PARAGRAPH_TAGS,
    REPLIES_CLASS,
    SIGNATURE_RULE,
    SIGNATURE_SEPARATOR,
    SKIPPED_TAGS,
)
from topiccrawler.extract.records.times import (
    as_shown,
    closing_time,
    header_line_time,
    moment_of,
    not_post_times,
    shows_time,
    time_attr_of,
    time_only,
)
from topiccrawler.extract.tree import text_stats


@dataclass
class BlockFields:
    """What one record block says: its text without chrome, author, time, reply-to."""

    element: etree._Element
    text: str
    author: str | None = None
    author_url: str | None = None  # the author's profile link, as the page gives it
    time: str | None = None  # as written
    published_at: datetime | None = None
    reply_to: str | None = None
    time_attr: str | None = None  # the time as an attribute gives it, when not as shown


_DIGITS = re.compile(r"\d+")


def block_fields(blocks: list[etree._Element], all_blocks: set, now=None) -> list[BlockFields]:
    """Text, author, time and reply-to of each block of one region; records nested in a block
    (`all_blocks` below it) are left to themselves."""
    skips = {
        b: frozenset(
            d
            for d in b.iterdescendants(etree.Element)
            if d in all_blocks and not time_only(d)  # a bare time is no record
        )
        for b in blocks
    }
    nodes = [semantic_nodes(b, skips[b]) for b in blocks]
    stops = set(blocks)
    noise = noise_keys(nodes) | counter_keys(nodes)  # labels, and the posters' counters
    actions = linked_labels(nodes)
    menus = menu_nodes(nodes)  # a poster's menu, controls: in most posts, here or there
    boilerplate = boilerplate_nodes(nodes)  # a notice or signature most posts carry
    not_post = not_post_times(nodes)
    time_key = best_key(
        nodes,
        lambda n: (
            n.time is not None
            and len(n.text) <= MAX_TIME_PIECE_CHARS  # a date inside prose is not the time
            and n.key not in noise
            and not under_chrome(n, stops)
            and id(n) not in not_post
        ),
        prefer=lambda n: not visually_hidden(n.element, stops),
    )
    # Author links: a link the same in every block ("发消息", "PM") is a label, also in a
    # thread of two; unless no other link is there (one poster twice).
    labels = noise_keys(nodes, least=2)

    def name_link(n: SemanticNode, skip: set) -> bool:
        return bool(
            n.link_text
            and n.link_text == n.text
            and clean_author(n.text) is not None
            and n.key not in skip
            and (n.key, n.text) not in actions  # ("链接", "评论": every record's action links)
        )

    # The first of these that finds a position. (A key is tested against None, not for
    # truth: a record written as one line of inline markup is a node at the block's own
    # position, whose key is "".)
    link_key = next(
        (
            key
            for find in (
                lambda: best_key(nodes, lambda n: name_link(n, labels), prefer=to_profile),
                lambda: best_key(nodes, lambda n: name_link(n, noise), prefer=to_profile),
                lambda: best_key(  # a byline opening with the name: where most records have one
                    nodes,
                    lambda n: n.key not in labels and byline_name(n) is not None,
                    len(nodes) / 2,
                ),
                lambda: best_key(  # a line signed with the name after its text: where most have one
                    nodes,
                    lambda n: n.key not in labels and signed_name(n) is not None,
                    len(nodes) / 2,
                ),
            )
            if (key := find()) is not None
        ),
        None,
    )
    # No link names the posters: a bold name opening most blocks does (atop a column of
    # their own); names that differ between blocks, not a label every block repeats.
    bold_key = None
    if link_key is None:
        opening = [n[0] for n in nodes if n and bold_name(n[0]) is not None]
        named = len({n.text for n in opening}) > 1  # ("Author" atop every block: a label)
        if 2 * len(opening) > len(nodes) and len({n.key for n in opening}) == 1 and named:
            bold_key = opening[0].key
    containers = content_elements(blocks, skips)
    authors: dict[etree._Element, str | None] = {}
    placed = []
    for block, block_nodes in zip(blocks, nodes, strict=True):
        author, author_element = record_author(block, block_nodes, skips[block], link_key, bold_key)
        authors[block] = author
        time_node = nearest(
            [
                n
                for n in block_nodes
                if n.key == time_key and n.time and len(n.text) <= MAX_TIME_PIECE_CHARS
            ],
            author_element,
        )
        if time_node is None:
            # A short text's time, or one an element of its own gives in an attribute inside a
            # line of text (a one-line comment: "Thanks! – jane <span title=…>May 12</span>"),
            # or shows whole at the line's end ("<a>jane</a>：Thanks! <span>May 12</span>").
            time_node = next(
                (
                    n
                    for n in block_nodes
                    if n.time
                    and (len(n.text) <= MAX_TIME_NODE_CHARS or n.machine_time or closing_time(n))
                ),
                None,
            )
        if time_node is None or time_node.key.endswith("#text"):
            # a text of lines whose header line holds the time: that line, not the text
            time_node = header_line_time([time_node] if time_node else block_nodes) or time_node
        candidates, said = [], []
        for n in block_nodes:
            if n.key in noise or (n.key, n.text) in actions or n is time_node:
                continue
            if (id(n) in menus and n.text != author) or id(n) in boilerplate:
                continue
            if is_chrome(n, block):
                continue
            if _holds(n, author_element) and not around_name(n, author_element, author):
                words = said_after_name(n, author)  # "晨跑的猫：终于凉快了": what follows
                if words is not None:
                    candidates.append(words)
                    said.append(words)
                continue
            candidates.append(without_name(n, author))
        container = containers[block]
        inside = sum(len(n.text) for n in candidates if is_within(n, container))
        if (
            container is not block
            and not inside
            and boilerplate.intersection(id(n) for n in block_nodes if is_within(n, container))
        ):
            container = block  # elected for a notice or replies every post repeats
        byline = is_inside(author_element, container) or (
            time_node is not None and is_inside(time_node.element, container) and inside < 10
        )
        box = None
        if container is not block and byline:
            box = byline_box(container, author_element, time_node, candidates)
            if box is None:
                container = block  # elected the byline, not the text: a short record's header won
        text_nodes = [
            n for n in candidates if is_within(n, container) and not is_inside(n.element, box)
        ]
        card = user_card(block, author_element, time_node)
        if card is not None:
            dropped = [n for n in text_nodes if is_inside(n.element, card) and n not in said]
            if all(len(n.text) <= MAX_CARD_LINE_CHARS for n in dropped):
                text_nodes = [n for n in text_nodes if n not in dropped] or text_nodes
        text_nodes = _without_replies(block, text_nodes, time_node, container)
        text_nodes = _without_byline(block, text_nodes, time_node, container)
        text_nodes = in_lines(text_nodes, time_node)
        if not text_nodes and time_node is not None:
            # nothing but the byline: a record written as one line, text, author and time
            text_nodes = [n for n in [_one_line(time_node, author, author_element)] if n]
            if text_nodes and time_node.time is not None:  # the line's time, not the line
                time_node = replace(time_node, time=find_time(time_node.time) or time_node.time)
        text = without_signature("\n".join(n.text for n in text_nodes))
        reply_to = replied_to(block, authors, text)
        placed.append(
            BlockFields(
                block,
                text,
                author=author,
                author_url=profile_href(author_element),
                time=as_shown(time_node.time) if time_node and time_node.time else None,
                published_at=moment_of(time_node, now),
                reply_to=reply_to,
                time_attr=time_attr_of(time_node),
            )
        )
    return placed


_REPLY_NAMED = etree.XPath(
    "descendant::*[contains(@class, 'epl') or contains(@class, 'omment') or "
    "contains(@class, 'EPL') or contains(@class, 'OMMENT')]"
)


def nearest(
    timed: list[SemanticNode], author_element: etree._Element | None
) -> SemanticNode | None:
    """Of the times at the time's position, the one that shares the most ancestors with the
    author's name: a post shows when it was written beside its author and when it was edited
    beside the editor, in two signature boxes alike ("edited Sep 7 … | answered Sep 7 … jane").
    The first where the author is not known or all are as near."""
    if len(timed) < 2 or author_element is None:
        return timed[0] if timed else None
    # (the elements themselves as keys: held here, each stays the one proxy of its node)
    around = {
        e: depth
        for depth, e in enumerate(reversed([author_element, *author_element.iterancestors()]))
    }

    def shared(node: SemanticNode) -> int:
        element = node.element
        while element is not None and element not in around:
            element = element.getparent()
        return around[element] if element is not None else -1

    return max(timed, key=shared)  # (max keeps the first of equals)


def _without_replies(
    block: etree._Element, nodes: list[SemanticNode], time_node, container
) -> list[SemanticNode]:
    """The nodes outside the replies shown under the post (a list named so, with times of its
    own, holding neither the post's time nor its text's element): comments on the post, not
    its text. Nothing is dropped where nothing would be left."""
    shown = time_node.element if time_node is not None else None
    lists = [
        e
        for e in _REPLY_NAMED(block)
        if any(REPLIES_CLASS.match(name) for name in e.get("class").split())
        and not is_inside(shown, e)
        and not is_inside(container, e)
        and shows_time(e)
    ]
    if not lists:
        return nodes
    kept = [n for n in nodes if not any(is_inside(n.element, e) for e in lists)]
    return kept or nodes


def in_lines(nodes: list[SemanticNode], time_node: SemanticNode | None) -> list[SemanticNode]:
    """The text of an element written in <br> lines, read as its lines in order: its own text
    (its "#text" node, which comes after all of its inline elements) and the inline elements
    among it that are text of the record (their nodes), as one node where the first of them
    was ("<br>最近…<br><span>除了xsb</span>什么都可以聊": not "除了xsb" first). A post written as a
    message also loses its frame: the header lines it opens with (two or more "label: value"
    lines, one of them dating the post: "发信人: …", "发信站: 水木社区 (Fri Mar 18 20:52:50
    2016)") and all that follows its signature separator (`SIGNATURE_SEPARATOR`: the signature,
    the source line; only in such a message: a "--" line may divide a forum post's text)."""
    members = {n.element: n for n in nodes if not n.key.endswith("#text")}
    placed: dict[int, list[SemanticNode]] = {}  # before the node at a position: merged lines
    absorbed: set[int] = set()
    first_inside: dict | None = None  # element → position of the first node in it
    positions = {id(n): i for i, n in enumerate(nodes)}
    for position, node in enumerate(nodes):
        element = node.element
        if not node.key.endswith("#text") or element is None or element.find("br") is None:
            continue
        # Each line: its text, its nodes, and its part: the lines between two blocks inside
        # the element (a code box between a post's lines) are read where they stand.
        lines: list[list] = [[element.text or "", [], 0]]
        blocks: list[etree._Element] = []
        if first_inside is None:
            first_inside = _first_nodes_inside(nodes)
        for child in element:
            if child.tag == "br":
                lines.append([child.tail or "", [], len(blocks)])
                continue
            member = members.get(child) if isinstance(child.tag, str) else None
            if member is not None:
                lines[-1][0] = joined(lines[-1][0], member.text)
                lines[-1][1].append(member)
            elif isinstance(child.tag, str) and child in first_inside:  # a block with nodes
                blocks.append(child)
                lines.append([child.tail or "", [], len(blocks)])
                continue
            lines[-1][0] = joined(lines[-1][0], child.tail or "")
        shown = [normalize_space(text) for text, _, _ in lines]
        start = header_lines(shown, element, time_node)
        end = len(lines)
        if start:  # a message: its signature ends its text
            end = next(
                (i for i in range(start, len(lines)) if SIGNATURE_SEPARATOR.match(shown[i])), end
            )
        for part in range(len(blocks) + 1):
            group = [m for _, found, at in lines if at == part for m in found]
            if part == len(blocks):
                group.insert(0, node)
            text = "\n".join(
                shown[i] for i in range(start, end) if lines[i][2] == part and shown[i]
            )
            # Where the part's first node was, else before the block that ends it (the last
            # part: where the element's own text node was).
            at = min((positions[id(m)] for m in group), default=None)
            if at is None or part < len(blocks):
                at = min(len(nodes) if at is None else at, first_inside[blocks[part]])
            if part == len(blocks) and len(group) == 1:
                at = position
            if text:
                placed.setdefault(at, []).append(replace(node, text=text))
            absorbed.update(id(m) for m in group)
    if not placed:
        return nodes
    read = []
    for position, node in enumerate(nodes):
        read.extend(placed.get(position, ()))
        if id(node) not in absorbed:
            read.append(node)
    read.extend(placed.get(len(nodes), ()))
    return read or nodes


def _first_nodes_inside(nodes: list[SemanticNode]) -> dict:
    """Each element holding a node (the node's own and its ancestors) → the position of the
    first node inside it: one walk up from each node, stopped where an earlier one passed (the
    elements themselves as keys: held here, each stays the one proxy of its node)."""
    first: dict = {}
    for position, node in enumerate(nodes):
        element = node.element
        while element is not None and element not in first:
            first[element] = position
            element = element.getparent()
    return first


def without_signature(text: str) -> str:
    """The text before a line that opens with a rule of underscores (SIGNATURE_RULE: the
    signature below it); the whole text where the rule opens it."""
    rule = SIGNATURE_RULE.search(text)
    return text[: rule.start()].rstrip() if rule is not None and rule.start() > 0 else text


def joined(text: str, more: str) -> str:
    """Two pieces of one line, a space between them where two Latin words or numbers would
    run together (as `node_text` joins inline elements)."""
    left, right = text.rstrip(), more.lstrip()
    if left and right and runs_together(left[-1], right[0]):
        return f"{text} {more}"
    return text + more


def header_lines(shown: list[str], element: etree._Element, time_node) -> int:
    """How many of a message's first lines (`shown`, blank ones counted) are its header: two
    or more lines of a label, a colon and a value (`HEADER_LINE`) the text opens with, where
    the post's time was read from one of them (`header_line_time`); else 0."""
    if time_node is None or time_node.element is not element or not time_node.key.endswith("#line"):
        return 0
    count = labelled = 0
    for line in shown[: MESSAGE_HEADER_LINES + 2]:
        if not line:
            count += 1
        elif HEADER_LINE.match(line):
            count += 1
            labelled += 1
        else:
            break
    return count if labelled >= 2 else 0


def _without_byline(
    block: etree._Element, nodes: list[SemanticNode], time_node, container
) -> list[SemanticNode]:
    """The nodes outside the time's byline: a short element (a post's tail: "via Android",
    "2楼", the time) whose other pieces are no text of the post, when it does not hold the
    post's text element. Nothing is dropped where nothing would be left."""
    if time_node is None or time_node.element is None:
        return nodes
    loose = time_node.key.endswith("#text")  # the element's own text: it is the byline
    byline = time_node.element if loose else time_node.element.getparent()
    if byline is None or is_inside(container, byline) or is_inside(block, byline):
        return nodes
    if sum(map(len, byline.itertext())) > 4 * MAX_TIME_NODE_CHARS:
        return nodes  # (a cheap bound first: white space counted)
    if len(node_text(byline)) > MAX_TIME_NODE_CHARS:
        return nodes
    if next(byline.iter(*PARAGRAPH_TAGS), None) is not None:
        return nodes
    dropped = [n for n in nodes if is_inside(n.element, byline)]
    if any(len(n.text) > MAX_AUTHOR_CHARS for n in dropped):
        return nodes  # a line of text, not a byline's piece
    kept = [n for n in nodes if n not in dropped]
    return kept or nodes


def byline_box(
    container: etree._Element,
    author: etree._Element | None,
    time_node: SemanticNode | None,
    candidates: list[SemanticNode],
) -> etree._Element | None:
    """The box of the message element that holds its byline (the poster's name and the time
    shown above the paragraphs, inside the element that holds the text), when the text is the
    rest: a child of the container holding the author (and the time, if the container holds
    it) with less text than the container's other children. None when the byline is the
    container's text, or most of it (a short record's header)."""
    held = [
        e for e in (author, time_node.element if time_node else None) if is_inside(e, container)
    ]
    if not held:
        return None
    box = None
    for child in container:
        if all(is_inside(e, child) for e in held):
            box = child
            break
    if box is None or box.tag in PARAGRAPH_TAGS:
        return None
    inside = sum(len(n.text) for n in candidates if is_inside(n.element, box))
    rest = sum(
        len(n.text) for n in candidates if is_within(n, container) and not is_inside(n.element, box)
    )
    return box if rest >= MIN_LINES_CHARS and rest > inside else None


def user_card(
    block: etree._Element, author: etree._Element | None, time_node: SemanticNode | None
) -> etree._Element | None:
    """The poster's card beside the post (name, rank, post counts, points in a column of its
    own): the subtree holding the author but not the post's time, below the element that
    holds both. None when the author and time share one byline or either is missing."""
    if author is None or time_node is None or time_node.element is None:
        return None
    shown = time_node.element
    card = author
    for ancestor in author.iterancestors():
        if ancestor is block or is_inside(shown, ancestor):
            break
        card = ancestor
    else:
        return None
    if card is author or is_inside(shown, card):
        return None  # the name alone, or a byline with the time
    return card


def content_element(
    block: etree._Element, skip: frozenset = frozenset(), stats: dict | None = None
) -> etree._Element:
    """R1, within one block: the element holding the record's text. From the block down, go
    into the child holding most of the non-link text while it holds at least CONTENT_SHARE of
    it: a post's message box, not its user-info column (join date, post count) or signature.
    `stats`: `text_stats` of a subtree holding the block, when the caller has them."""
    stats = stats if stats is not None and block in stats else text_stats(block)
    nested_text: dict[etree._Element, int] = {}
    for nested in skip:  # nested records are not this record's text
        for ancestor in nested.iterancestors():
            nested_text[ancestor] = nested_text.get(ancestor, 0) + stats[nested].clear
            if ancestor is block:
                break

    def clear(element: etree._Element) -> int:
        return stats[element].clear - nested_text.get(element, 0)

    element = block
    while True:
        total = clear(element)
        kids = [c for c in element if isinstance(c.tag, str) and c in stats and c not in skip]
        best = max(kids, key=clear, default=None)
        if best is None or total <= 0 or clear(best) < CONTENT_SHARE * total:
            return element
        if _written_in_lines(element):
            return element  # its own lines around a code box or a quote: the text is here
        if best.tag in PARAGRAPH_TAGS or best.tag in INLINE_TAGS:
            # The text is the paragraphs' parent's, however many there are; and never a
            # <span>'s: a byline's name or time may outweigh a one-line comment.
            return element
        if best.tag in ("ol", "ul") and any(k.tag == "p" and clear(k) > 0 for k in kids):
            return element  # a list among the text's paragraphs is the text's too
        element = best


def _written_in_lines(element: etree._Element) -> bool:
    """The element writes text of its own in <br> lines (its text and its children's tails,
    MIN_LINES_CHARS or more): a post's text, whatever block stands among its lines."""
    if element.find("br") is None:
        return False
    own = [element.text or ""] + [child.tail or "" for child in element]
    return sum(len("".join(piece.split())) for piece in own) >= MIN_LINES_CHARS


def _id_stem(element: etree._Element) -> str:
    """The element's id without its digits ("post_message_5768683" → "post_message_"); "" for
    none."""
    return _DIGITS.sub("", element.get("id") or "")


def _element_key(element: etree._Element, block: etree._Element) -> str:
    steps = []
    while element is not None and element is not block:
        steps.append(f"{element.tag}.{class_word(element)}")
        element = element.getparent()
    return "/".join(reversed(steps))


def content_elements(blocks: list[etree._Element], skips: dict) -> dict:
    """R1 over the region: the content element's position is the one most blocks agree on
    (a short post's own choice may be its user-info column); blocks without an element at
    that position keep their whole text."""
    stats: dict = {}
    for block in blocks:  # one pass per outermost block: nested ones are inside
        if block not in stats:
            stats.update(text_stats(block))
    chosen = {b: content_element(b, skips[b], stats) for b in blocks}
    votes = Counter(_element_key(e, b) for b, e in chosen.items() if e is not b)
    if not votes:
        return {b: b for b in blocks}
    key, count = votes.most_common(1)[0]
    if count < 0.5 * len(blocks):
        return {b: b for b in blocks}
    stems = Counter(_id_stem(e) for b, e in chosen.items() if _element_key(e, b) == key)
    stem = stems.most_common(1)[0][0] if stems else ""
    found = {}
    for block in blocks:
        element = chosen[block]
        if _element_key(element, block) != key:
            # Of the elements at that position (a path of tags and classes may name more than
            # one: the poster's menu, the message and the signature are each a classless div in
            # a div), the one named as the others' are ("post_message_123"), else the one with
            # the most text outside links.
            skip = skips[block]
            at_key = [
                e
                for e in block.iterdescendants(etree.Element)
                if _element_key(e, block) == key
                and not (e in skip or any(a in skip for a in e.iterancestors()))
            ]
            element = max(
                at_key,
                key=lambda e: (_id_stem(e) == stem, stats[e].clear if e in stats else 0),
                default=block,
            )
        found[block] = element
    return found


def _one_line(
    node: SemanticNode, name: str | None, element: etree._Element | None
) -> SemanticNode | None:
    """A record written as one line, its text then its author and time ("Thanks, that worked.
    – newbie Mar 1, 2020 at 10:30": signed after the text), or its author, its text and the
    time last ("<a>jane</a> Works now. 2023-05-12 09:40"): the node holding them, without
    author and time, where what is left reads as a text of its own (MIN_ONE_LINE_CHARS) and is
    not mostly a link; None for a byline (name and time, little else), a byline followed by a
    status, or a header row."""
    if not name or node.time is None or element is None or not _holds(node, element):
        return None
    when = node.time if node.time in node.text and node.time != node.text else find_time(node.time)
    when = _time_element_text(node.element, when or node.time)
    at, shown = node.text.find(name), node.text.find(when)
    before = normalize_space(node.text[:at]).strip(ONE_LINE_JOINS) if 0 < at < shown else ""
    between = (
        normalize_space(node.text[at + len(name) : shown]).strip(ONE_LINE_JOINS) if before else ""
    )
    if before and (
        reads_as_sentence(before) or (_marked_apart(node.element, before) and not between)
    ):
        rest = before  # signed after the text: all after the name is the byline's
    elif before and between and _marked_apart(node.element, before):
        rest = between  # a mark set apart before the name ("推 jane: 好 02/27"): the line's label
    else:
        rest = node.text.replace(name, " ", 1).replace(when, " ", 1)
        rest = normalize_space(rest).strip(ONE_LINE_JOINS)
    linked = normalize_space(node.link_text.replace(name, " ", 1))
    if len(linked) * 2 >= len(rest):
        return None  # (a header row's linked title: "Re: … by jane: 12:18pm")
    if not reads_as_sentence(rest) and not _marked_apart(node.element, rest):
        return None
    said = node.text.find(rest[:10])
    if at < said and shown < said:
        return None  # a byline, then a status ("spinner 2 minutes ago Viewing thread: …")
    return SemanticNode(node.key, rest, node.link_text, node.element, None, None)


def _time_element_text(element: etree._Element | None, time: str) -> str:
    """The whole text of the element of its own that shows the line's time, where it shows
    more than the time ("61.229.1.18 04/01 19:49": the poster's address beside it): what the
    element shows is the byline's, not the record's text. Else the time."""
    if element is None:
        return time
    for shown in element.iterdescendants(etree.Element):
        if len(shown) == 0 and shown.text and len(shown.text) <= MAX_CUED_CHARS:
            text = normalize_space(shown.text)
            if time in text:
                return text
    return time


def _marked_apart(element: etree._Element | None, text: str) -> bool:
    """A short text the line's markup sets apart from its author and time: an element of its
    own, not a link, holding just that text ("<span>Thanks!</span> – <a>jane</a> <span>…")."""
    if element is None:
        return False
    return any(
        child.tag != "a"
        and normalize_space("".join(child.itertext())).strip(ONE_LINE_JOINS) == text
        for child in element.iterdescendants(etree.Element)
    )


def _holds(node: SemanticNode, element: etree._Element | None) -> bool:
    """True when the semantic node is, holds or sits inside `element`."""
    if node.key.endswith("#text"):
        return element is not None and node.element is element
    return is_inside(node.element, element) or is_inside(element, node.element)


def _title_like(text: str) -> bool:
    return len(text.split()) >= 4 or len("".join(text.split())) >= 20 or len(CJK.findall(text)) >= 8


# A teaser's opening texts looked at for its title (a short label may stand before it), and
# how long such a label is at most ("home", "Tech", "New").
OPENING_TEXTS = 2
MAX_LABEL_CHARS = 15


def teasers(blocks: Sequence[etree._Element]) -> bool:
    """Blocks that each open with a title linking to a page of its own: teasers of other
    threads or articles ("latest posts", "most active", "related"), not records, whatever
    bylines, times and excerpts they carry. A post or comment opens with its byline or text."""
    hrefs = set()
    for block in blocks:
        anchor = _opening_link(block)
        if anchor is not None:
            hrefs.add((anchor.get("href") or "").split("#")[0])
    return len(blocks) >= 2 and len(hrefs) >= 0.8 * len(blocks)


def _opening_link(block: etree._Element) -> etree._Element | None:
    """The link holding the block's first text, when that text reads as a title and the link
    goes to another page (not an anchor of this one); after a short label before it (a
    teaser's category: "home", "Tech")."""
    for owner in _text_owners(block, OPENING_TEXTS):
        anchor = owner if owner.tag == "a" else next(owner.iterancestors("a"), None)
        shown = normalize_space("".join((anchor if anchor is not None else owner).itertext()))
        if anchor is not None and is_inside(anchor, block):
            href = (anchor.get("href") or "").strip()
            if href and not href.startswith(("#", "javascript:")) and not find_time(shown):
                if _title_like(shown):
                    return anchor
        if len(shown) > MAX_LABEL_CHARS or _title_like(shown):
            return None  # (a text of its own first: a post's byline or its words)
    return None


def _text_owners(element: etree._Element, most: int) -> list[etree._Element]:
    """The elements whose text (or a child's tail) are the first `most` visible texts below
    `element`, in order."""
    found: list[etree._Element] = []
    walk = etree.iterwalk(element, events=("start", "end"))
    for event, node in walk:
        if len(found) >= most:
            break
        if not isinstance(node.tag, str):
            continue
        if event == "start":
            if node.tag in SKIPPED_TAGS and node is not element:
                walk.skip_subtree()
            elif node.text and node.text.strip():
                found.append(node)
        elif node is not element and node.tail and node.tail.strip():
            found.append(node.getparent())
    return found[:most]
