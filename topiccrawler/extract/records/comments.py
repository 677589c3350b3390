"""User comments by subtree similarity: the POL paper's detection (SPEC §4).

Walk from <body> down. At a node deeper than `level` in the page, compare its children:
a child is a comment-block candidate when at least b − 1 siblings are more similar than `a`
to it; b or more candidates make the node a comment region. Recurse into every child.

On top of that structure test, the page's own evidence decides (the paper's weak spots are
navigation, "related" lists and product lists, all link lists, and pages with few comments):
a region must be mostly non-link text, and carry times or authors or a comment-ish name in
every block. With that evidence, a region of fewer than b blocks (2 or more) is accepted too.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

from lxml import etree

from topiccrawler.extract.dates import find_time, parse_time
from topiccrawler.extract.records.fields import (
    SKIPPED_TAGS,
    SemanticNode,
    best_key,
    clean_author,
    hinted_author,
    is_chrome,
    noise_keys,
    semantic_nodes,
)
from topiccrawler.extract.records.similarity import MEASURES, SubtreeSimilarity, children
from topiccrawler.items import CommentRecord

logger = logging.getLogger(__name__)

# class/id words of comment sections and comments.
COMMENT_HINT = re.compile(
    r"comment|reply|replies|review|respon|discuss|feedback|kommentar|commentaire|"
    r"评论|留言|回复|跟帖|点评",
    re.I,
)
# class/id words of a container of comments ("comment-text" holds one comment's paragraphs).
COMMENT_LIST_HINT = re.compile(
    r"comments|comment-?list|replies|reviews|responses|discussion|kommentare|评论列表|评论区|留言板", re.I
)
# "回复 @张三：", "@Jane:", "In reply to Jane": who a comment answers.
REPLY_TO = re.compile(r"^(?:回复\s*@?|@|in reply to\s+|antwort auf\s+)([^\s:：,，]{1,30})", re.I)


@dataclass(frozen=True)
class RecordOptions:
    """Detection parameters; the defaults are the paper's a = 0.8, level = 6, b = 5."""

    measure: str = "pol"
    similarity: float = 0.8  # a: siblings more similar than this are "alike"
    level: int = 6  # only nodes deeper than this in the page (<html> is 0) are tested
    min_blocks: int = 5  # b: blocks a region needs on structure alone
    min_blocks_with_evidence: int = 2  # blocks a region needs when times/authors back it
    max_siblings: int = 400  # siblings of one tag compared at one node (the rest are skipped)
    evidence: bool = True  # False: the paper's structure test only (benchmark baseline)


@dataclass
class Region:
    """A node whose children repeat one template: the children are the records."""

    parent: etree._Element
    blocks: list[etree._Element]
    shallow: bool = False  # at depth ≤ level: the paper would not test it; needs more evidence
    nested: list[etree._Element] = field(default_factory=list)  # replies inside the blocks


def similar_siblings(
    parent: etree._Element, measure: SubtreeSimilarity, options: RecordOptions
) -> Iterator[list[etree._Element]]:
    """Groups of mutually similar children of `parent`, each at least the minimum size.

    Only children of one tag are compared (a template repeats its root tag); each qualifying
    child has at least (minimum − 1) siblings above the similarity threshold, and a group is a
    connected set of such children.
    """
    minimum = options.min_blocks_with_evidence if options.evidence else options.min_blocks
    by_tag: dict[str, list[etree._Element]] = {}
    for child in children(parent):
        if child.tag not in SKIPPED_TAGS:
            by_tag.setdefault(child.tag, []).append(child)
    for tag, siblings in by_tag.items():
        if len(siblings) < minimum:
            continue
        if len(siblings) > options.max_siblings:
            logger.debug(
                "comparing the first %d of %d <%s> siblings", options.max_siblings, len(siblings), tag
            )
            siblings = siblings[: options.max_siblings]
        alike = measure.matrix(siblings) > options.similarity
        qualified = {i for i, row in enumerate(alike) if row.sum() - 1 >= minimum - 1}
        while qualified:
            group, frontier = set(), [min(qualified)]
            while frontier:
                i = frontier.pop()
                if i in group:
                    continue
                group.add(i)
                frontier.extend(j for j in qualified if alike[i, j] and j not in group)
            qualified -= group
            if len(group) >= minimum:
                yield [siblings[i] for i in sorted(group)]


def candidate_regions(body: etree._Element, options: RecordOptions) -> Iterator[Region]:
    """Every region the structure test finds, outer ones first (the paper's walk).

    A node's depth is its distance from <html> (<body> is 1). The paper measured that menus,
    title lists and ad lists sit less than 7 deep and comment lists deeper (its one
    counter-example, Douban's menu at depth 9, was misread as comments), so nodes at depth
    ≤ `level` are walked through but not tested. Today's templates put comment lists as high
    as depth 4, so with `evidence` on such shallow regions are kept, marked, for the stricter
    evidence test.
    """
    measure = MEASURES[options.measure]()
    start = len(list(body.iterancestors()))
    stack = [(body, start)]
    while stack:
        node, depth = stack.pop()
        if depth > options.level or options.evidence:
            for blocks in similar_siblings(node, measure, options):
                yield Region(node, blocks, shallow=depth <= options.level)
        kids = [c for c in children(node) if c.tag not in SKIPPED_TAGS]
        stack.extend((kid, depth + 1) for kid in reversed(kids))


def _signature(element: etree._Element) -> tuple[str, str]:
    classes = (element.get("class") or "").split()
    return element.tag, re.sub(r"\d+", "", classes[0]) if classes else ""


def _marks(element: etree._Element) -> str:
    return f"{element.get('class') or ''} {element.get('id') or ''}"


def is_comment_region(region: Region, options: RecordOptions) -> bool:
    """The page's evidence on top of the structure test (see the module docstring)."""
    if not options.evidence:
        return len(region.blocks) >= options.min_blocks
    n = len(region.blocks)
    texts = [" ".join(block.itertext()) for block in region.blocks]
    text = sum(len("".join(t.split())) for t in texts)
    link = sum(
        len("".join(a.text_content().split())) for block in region.blocks for a in block.iter("a")
    )
    if not text or link / text >= 0.5 or text / n < 10:
        return False  # navigation, related articles, product lists: links
    hinted = bool(COMMENT_LIST_HINT.search(_marks(region.parent))) or any(
        COMMENT_HINT.search(_marks(b)) for b in region.blocks
    )
    timed = sum(
        bool(find_time(_ends(t))) or any(e.get("datetime") for e in b.iter("time"))
        for t, b in zip(texts, region.blocks, strict=True)
    )
    if n >= options.min_blocks and not region.shallow:
        if hinted or timed / n >= 0.5:
            return True
    elif timed / n < 0.8:
        return False
    elif hinted:
        return True
    authored = sum(hinted_author(block) is not None for block in region.blocks)
    return authored / n >= (0.5 if n >= options.min_blocks and not region.shallow else 0.8)


def _ends(text: str, head: int = 400, tail: int = 200) -> str:
    """Where a record writes its time: its header or its footer."""
    return text if len(text) <= head + tail else f"{text[:head]}\n{text[-tail:]}"


def comment_regions(body: etree._Element, options: RecordOptions = RecordOptions()) -> list[Region]:
    """Accepted regions, each with its nested replies (descendants repeating a block's own
    template). A region inside a record of an earlier one stands on its own evidence: comments
    under each answer of a Q&A page pass, a list inside a comment does not."""
    accepted: list[Region] = []
    taken: set[etree._Element] = set()
    for region in candidate_regions(body, options):
        if region.blocks[0] in taken:
            continue
        if not is_comment_region(region, options):
            continue  # a list inside a record (not a record itself) fails here too
        _take(region, taken)
        accepted.append(region)
    for region in threaded_singles(body, taken):
        if is_comment_region(Region(region.parent, region.blocks + region.nested), options):
            _take(region, taken)
            accepted.append(region)
    return accepted


def _take(region: Region, taken: set[etree._Element]) -> None:
    """Mark the region's blocks taken and gather its nested replies."""
    signatures = {_signature(b) for b in region.blocks}
    for block in region.blocks:
        for descendant in block.iterdescendants(etree.Element):
            if _signature(descendant) in signatures and descendant not in taken:
                region.nested.append(descendant)
                taken.add(descendant)
    taken.update(region.blocks)


def threaded_singles(body: etree._Element, taken: set[etree._Element]) -> Iterator[Region]:
    """A lone comment with replies nested in it (one thread of two or three comments has no
    similar siblings to find): an element named like a comment whose own template repeats
    inside it."""
    for element in body.iter(etree.Element):
        if element in taken or not COMMENT_HINT.search(element.get("class") or ""):
            continue
        if any(a in taken for a in element.iterancestors()):
            continue
        signature = _signature(element)
        replies = [d for d in element.iterdescendants(element.tag) if _signature(d) == signature]
        if replies and element.getparent() is not None:
            yield Region(element.getparent(), [element])  # the caller claims it if accepted


def extract_comments(
    body: etree._Element, options: RecordOptions = RecordOptions(), now=None
) -> list[CommentRecord]:
    """The comments of a page (its <body>, cleaned of scripts), in document order."""
    regions = comment_regions(body, options)
    records: list[CommentRecord] = []
    all_blocks = {b for r in regions for b in (*r.blocks, *r.nested)}
    for region in regions:
        blocks = region.blocks + region.nested
        records.extend(block_records(blocks, all_blocks, now))
    order = {e: i for i, e in enumerate(body.iter(etree.Element))}
    records.sort(key=lambda r: order.get(r.element, 0))
    return [r.record for r in records if r.record.text]


@dataclass
class _Placed:
    element: etree._Element
    record: CommentRecord


def block_records(blocks: list[etree._Element], all_blocks: set, now=None) -> list[_Placed]:
    """Text, author, time and reply-to of each block; nested records are left to themselves."""
    skips = {b: frozenset(d for d in b.iterdescendants(etree.Element) if d in all_blocks) for b in blocks}
    nodes = [semantic_nodes(b, skips[b]) for b in blocks]
    noise = noise_keys(nodes)
    time_key = best_key(nodes, lambda n: n.time is not None and n.key not in noise)
    link_key = best_key(
        nodes,
        lambda n: n.link_text
        and n.link_text == n.text
        and clean_author(n.text) is not None
        and n.key not in noise,
    )
    authors: dict[etree._Element, str | None] = {}
    placed = []
    for block, block_nodes in zip(blocks, nodes, strict=True):
        author, author_element = _author(block, block_nodes, skips[block], link_key)
        authors[block] = author
        time_node = next((n for n in block_nodes if n.key == time_key and n.time), None)
        if time_node is None:
            time_node = next((n for n in block_nodes if n.time and len(n.text) <= 80), None)
        text_nodes = [
            n
            for n in block_nodes
            if n.key not in noise
            and n is not time_node
            and not _holds(n, author_element)
            and not is_chrome(n, block)
        ]
        text = "\n".join(n.text for n in text_nodes)
        reply_to = _reply_to(block, authors, text)
        placed.append(
            _Placed(
                block,
                CommentRecord(
                    text=text,
                    author=author,
                    time=time_node.time if time_node else None,
                    published_at=_moment(time_node, now),
                    reply_to=reply_to,
                ),
            )
        )
    return placed


def _author(
    block: etree._Element, nodes: list[SemanticNode], skip: frozenset, link_key: str | None
) -> tuple[str | None, etree._Element | None]:
    """R5: the element the markup calls the author, else a labelled name, else the earliest
    short link at the position that holds one in most blocks."""
    hinted = hinted_author(block, skip)
    if hinted:
        return hinted
    for node in nodes[:6]:
        if re.match(r"^\s*(?:作者|楼主|by|von|posted by)\s*[:：]?\s*\S", node.text, re.I):
            name = clean_author(node.text)
            if name:
                return name, node.element
    for node in nodes:
        if node.key == link_key:
            return clean_author(node.text), node.element
    return None, None


def _moment(node: SemanticNode | None, now) -> datetime | None:
    """The record's time as a datetime: the machine-readable attribute when the page gives one
    (it carries the zone), else the text as written."""
    if node is None:
        return None
    return (node.machine_time and parse_time(node.machine_time)) or parse_time(node.time, now=now)


def _holds(node: SemanticNode, element: etree._Element | None) -> bool:
    """True when the semantic node is, holds or sits inside `element`."""
    if element is None or node.element is None:
        return False
    if node.key.endswith("#text"):
        return node.element is element
    return node.element is element or element in node.element.iterancestors() or any(
        e is element for e in node.element.iter()
    )


def _reply_to(block: etree._Element, authors: dict, text: str) -> str | None:
    """The author of the record this one is nested in, or the name it addresses."""
    for ancestor in block.iterancestors():
        if ancestor in authors:
            return authors[ancestor]
    match = REPLY_TO.match(text)
    return match.group(1) if match else None
