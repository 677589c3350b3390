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

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache

from lxml import etree

from topiccrawler.extract.records.authors import hinted_author
from topiccrawler.extract.records.fields import block_fields, teasers
from topiccrawler.extract.records.layout import ForumOptions
from topiccrawler.extract.records.markup import text_and_links
from topiccrawler.extract.records.nodes import Evidence, at_least, beside_content
from topiccrawler.extract.records.patterns import SKIPPED_TAGS
from topiccrawler.extract.records.similarity import MEASURES, similar_siblings
from topiccrawler.extract.records.times import shows_time
from topiccrawler.extract.tree import element_stats, text_stats
from topiccrawler.extract.words import Words
from topiccrawler.items import CommentRecord

# class/id words of comment sections and comments.
COMMENT_HINT = Words(
    r"comment|reply|replies|review|respon|discuss|feedback|kommentar|commentaire|"
    r"评论|留言|回复|跟帖|点评"
)
# class/id words of a container of comments ("comment-text" holds one comment's paragraphs).
COMMENT_LIST_HINT = Words(
    r"comments|comment-?list|replies|reviews|responses|discussion|kommentare|评论列表|评论区|留言板"
)

# Characters outside links a comment block holds at least ("好", "+1" are lost; menus and
# link lists, the bulk of a page's repeated siblings, are not compared at all).
MIN_COMMENT_CHARS = 4


@dataclass(frozen=True)
class RecordOptions:
    """Record detection parameters; the defaults are the POL paper's a = 0.8, level = 6, b = 5
    (and the SoL paper's in `forum`)."""

    measure: str = "pol"
    similarity: float = 0.8  # a: siblings more similar than this are "alike"
    level: int = 6  # only nodes deeper than this in the page (<html> is 0) are tested
    min_blocks: int = 5  # b: blocks a region needs on structure alone
    min_blocks_with_evidence: int = 2  # blocks a region needs when times/authors back it
    max_siblings: int = 400  # siblings of one tag compared at one node (the rest are skipped)
    evidence: bool = True  # False: the paper's structure test only (benchmark baseline)
    forum: ForumOptions = ForumOptions()  # SoL's parameters, for forum pages
    # The signature scorer's "no records here" (signature.py): a page that does not say it is
    # a forum and whose best sibling group scores below the model's gate skips POL and SoL.
    gate: bool = False
    # The signature scorer to use (a `signature.Model`); None: the one shipped beside it.
    model: object = field(default=None, compare=False)


@dataclass
class Region:
    """A node whose children repeat one template: the children are the records."""

    parent: etree._Element
    blocks: list[etree._Element]
    shallow: bool = False  # at depth ≤ level: the paper would not test it; needs more evidence
    nested: list[etree._Element] = field(default_factory=list)  # replies inside the blocks


def candidate_regions(
    body: etree._Element,
    options: RecordOptions,
    stats: dict | None = None,
    evidence: Evidence | None = None,
    unnamed: bool = False,
) -> Iterator[Region]:
    """Every region the structure test finds, outer ones first (the paper's walk).

    A node's depth is its distance from <html> (<body> is 1). The paper measured that menus,
    title lists and ad lists sit less than 7 deep and comment lists deeper (its one
    counter-example, Douban's menu at depth 9, was misread as comments), so nodes at depth
    ≤ `level` are walked through but not tested. Today's templates put comment lists as high
    as depth 4, so with `evidence` on such shallow regions are kept, marked, for the stricter
    evidence test. Given the page's `Evidence`, siblings are only compared under a node where
    a region could pass that test (`could_pass`): the result is the same, found faster.
    `unnamed`: regions whose authors the markup does not name are wanted too (a caller's own
    test reads them), so a group with times in most blocks is compared without them.
    """
    measure = MEASURES[options.measure]()
    minimum = options.min_blocks_with_evidence if options.evidence else options.min_blocks
    if options.evidence and stats is None:
        stats = text_stats(body)
    # Document order is the paper's walk (outer regions first); the subtrees of skipped tags
    # are not walked into.
    skipped = {e for s in body.iter(*SKIPPED_TAGS) if s is not body for e in s.iter()}
    for node in list(body.iter(etree.Element)):
        if len(node) < minimum or (skipped and node in skipped):
            continue  # (most nodes: fewer children than a region has blocks)
        kids = [c for c in node.iterchildren(etree.Element) if c.tag not in SKIPPED_TAGS]
        if len(kids) < minimum:
            continue
        if (
            evidence is not None
            and options.evidence
            and not could_have_region(node, kids, evidence, options)
        ):
            continue  # (most nodes: no group of these kids could pass could_accept)
        depth = sum(1 for _ in node.iterancestors())  # <html> is 0
        if depth > options.level or options.evidence:
            compared = (
                [k for k in kids if _stats(k, stats).clear >= MIN_COMMENT_CHARS]
                if options.evidence
                else kids
            )
            if evidence is not None and options.evidence:
                compared = could_accept(
                    node, compared, evidence, stats, depth <= options.level, options, unnamed
                )
            for blocks in similar_siblings(
                compared, measure, options.similarity, minimum, options.max_siblings
            ):
                yield Region(node, blocks, shallow=depth <= options.level)


def could_have_region(
    node: etree._Element, kids: list, evidence: Evidence, options: RecordOptions
) -> bool:
    """What `could_accept` needs to keep any of the node's kids, asked before their text is
    weighed: times in two of them, or a tag with b = 5 of them below depth `level` (the
    paper's structure test, which authors can back without times), or a kid the evidence was
    not taken of (then `could_pass` decides, as there). Comment-like names alone keep none:
    fewer than b blocks or a shallow node need times in 80% of them all the same."""
    if at_least(kids, evidence.timed, 2):
        return True
    if any(k not in evidence.known for k in kids):
        return True
    counts: dict[str, int] = {}
    for kid in kids:
        counts[kid.tag] = counts.get(kid.tag, 0) + 1
    if max(counts.values()) < options.min_blocks:
        return False
    return sum(1 for _ in node.iterancestors()) > options.level


def could_pass(node: etree._Element, kids: list, evidence: Evidence) -> bool:
    """What `is_comment_region` needs of any group of these kids: a comment-ish name, or a
    time in two of them (fewer than b blocks need times in 80%, b or more in half), or an
    author named by the markup in three (half of b = 5)."""
    if len(kids) < 2:
        return False
    if COMMENT_LIST_HINT.found(_marks(node)) or any(COMMENT_HINT.found(_marks(k)) for k in kids):
        return True
    return at_least(kids, evidence.timed, 2) or at_least(kids, evidence.authored, 3)


def could_accept(
    node: etree._Element,
    kids: list,
    evidence: Evidence,
    stats: dict,
    shallow: bool,
    options: RecordOptions,
    unnamed: bool = False,
) -> list:
    """The kids of the tags among which a region `is_comment_region` accepts could be found
    (siblings are only compared within one tag), where the node `could_pass`: each of its
    tests bounded from the blocks' text statistics first, then from the page's `Evidence`,
    which cost little beside the similarity matrix. Any group of these siblings that passes
    needs a block with text mostly outside links and one of 10 characters, and, unless the
    page names it like comments, times in half of five blocks or more or authors there (the
    paper's test passed), else times and authors in 80% of them. Tags with a block the
    evidence was not taken of are kept where the node could pass."""
    minimum = options.min_blocks_with_evidence
    by_tag: dict[str, list] = {}
    for kid in kids:
        by_tag.setdefault(kid.tag, []).append(kid)
    listed = None
    passes = None
    kept = set()
    for tag, same in by_tag.items():
        if len(same) < minimum:
            continue
        if all(k in evidence.known for k in same):
            if not any(2 * stats[k].link < stats[k].text for k in same):
                continue  # links, whichever blocks are taken
            if not any(stats[k].text >= 10 for k in same):
                continue
            if listed is None:
                listed = COMMENT_LIST_HINT.found(_marks(node))
            hinted = listed or any(COMMENT_HINT.found(_marks(k)) for k in same)
            timed = [k in evidence.timed for k in same]
            structural = len(same) >= options.min_blocks and not shallow
            if not structural and sum(timed) < 0.8 * minimum:
                continue  # (the commonest case, decided before authors are looked for)
            named = [k in evidence.named for k in same]
            if not _accepts_some(hinted or unnamed, timed, named, shallow, options):
                continue
            if len(kids) >= 2 and (hinted or sum(timed) >= 2):
                kept.add(tag)  # what could_pass asks is there
                continue
        if passes is None:
            passes = could_pass(node, kids, evidence)
        if passes:
            kept.add(tag)
    return [k for k in kids if k.tag in kept]


def _accepts_some(hinted: bool, timed: list, named: list, shallow: bool, options) -> bool:
    """Some group of blocks with these times and names could pass `is_comment_region`."""
    minimum = options.min_blocks_with_evidence
    if len(timed) >= options.min_blocks and not shallow:
        if hinted or 2 * sum(timed) >= options.min_blocks or 2 * sum(named) >= options.min_blocks:
            return True
    both = sum(t and n for t, n in zip(timed, named, strict=True))
    return sum(timed) >= 0.8 * minimum and (hinted or both >= 0.6 * minimum)


def _signature(element: etree._Element) -> tuple[str, str]:
    classes = (element.get("class") or "").split()
    return element.tag, re.sub(r"\d+", "", classes[0]) if classes else ""


def _marks(element: etree._Element) -> str:
    return f"{element.get('class') or ''} {element.get('id') or ''}"


def is_comment_region(
    region: Region, options: RecordOptions, evidence: Evidence | None = None
) -> bool:
    """The page's evidence on top of the structure test (see the module docstring); times are
    looked up in the page's `Evidence` when given."""
    if not options.evidence:
        return len(region.blocks) >= options.min_blocks
    n = len(region.blocks)
    if not reads_as_records(region):
        return False
    hinted = COMMENT_LIST_HINT.found(_marks(region.parent)) or any(
        COMMENT_HINT.found(_marks(b)) for b in region.blocks
    )
    timed = sum(map(evidence.shows_time if evidence else shows_time, region.blocks))
    # The paper's test passed (b blocks, deep enough): a name, times or authors confirm it.
    # Fewer blocks or a shallow region: times in (nearly) every block, and a name or authors.
    structural = n >= options.min_blocks and not region.shallow
    if structural and (hinted or timed / n >= 0.5):
        return True
    if not structural and timed / n < 0.8:
        return False
    if not structural and hinted:
        return True
    authored = sum(hinted_author(block) is not None for block in region.blocks)
    return authored / n >= (0.5 if structural else 0.8)


def reads_as_records(region: Region) -> bool:
    """Text, not links: mostly outside links and 10 characters a block (navigation, related
    articles, product lists are links), not teasers of other pages ("latest posts", "most
    active": other threads, each under its title)."""
    _, text, link = text_and_links(region.blocks)
    if not text or link / text >= 0.5 or text / len(region.blocks) < 10:
        return False
    return not teasers(region.blocks)


def _stats(element: etree._Element, stats: dict):
    """The element's TextStats; a wrapper detection made since (rows of one post wrapped
    together) is counted from its children's (and not added: `stats` also says which
    elements the page had when its evidence was taken)."""
    known = stats.get(element)
    return known if known is not None else element_stats(element, stats)


def comment_regions(
    body: etree._Element,
    options: RecordOptions = RecordOptions(),
    stats: dict | None = None,
    evidence: Evidence | None = None,
    vouched: Callable[[Region], bool] | None = None,
) -> list[Region]:
    """Accepted regions, each with its nested replies (descendants repeating a block's own
    template). A region inside a record of an earlier one stands on its own evidence: comments
    under each answer of a Q&A page pass, a list inside a comment does not. `stats`: the
    body's `text_stats` and `evidence` (`text_evidence`), when the caller has them. A region
    of <dt>/<dd> pairs is given wrapped in the tree (`with_definitions`; `restore` undoes it).
    `vouched`: the caller's own test of a region the evidence does not accept (replies listed
    under a forum's post, whose fields the caller reads), as a second way in."""
    accepted: list[Region] = []
    taken: set[etree._Element] = set()
    beside = beside_content(body, stats) if stats is not None else set()
    unnamed = vouched is not None  # (a second way in that needs no author named by markup)
    for region in candidate_regions(body, options, stats, evidence, unnamed):
        if region.blocks[0] in taken or region.blocks[0] in beside:
            continue  # (a sidebar's "recent comments" are the site's, not the page's)
        if region.blocks[0].getparent() is not region.parent:
            continue  # (its blocks were wrapped into the entries of a region taken before)
        if not is_comment_region(region, options, evidence) and not (
            vouched is not None and vouched(region)
        ):
            continue  # a list inside a record (not a record itself) fails here too
        _take(region, taken)
        accepted.append(with_definitions(region))
    for region in threaded_singles(body, taken):
        whole = Region(region.parent, region.blocks + region.nested)
        if is_comment_region(whole, options, evidence):
            _take(region, taken)
            accepted.append(region)
    return accepted


def with_definitions(region: Region) -> Region:
    """A region of a definition list's entries, each a <dt> and the <dd>s after it (a post's
    header line and its text, as 2ch-like boards write them; a blog comment's author line,
    its text and its footer with the time, as Blogger does), found as the <dt>s or as one
    <dd> of each: each entry wrapped as one block, in an attribute-less <div> (what
    `restore` undoes); other regions as they are."""
    if region.parent.tag != "dl" or any(b.tag not in ("dt", "dd") for b in region.blocks):
        return region
    entries: list[list[etree._Element]] = []
    for child in region.parent.iterchildren(etree.Element):
        if child.tag == "dt":
            entries.append([child])
        elif child.tag == "dd" and entries:
            entries[-1].append(child)
    entry_of = {member: i for i, entry in enumerate(entries) for member in entry}
    taken = [entry_of.get(block) for block in region.blocks]
    if None in taken or len(set(taken)) != len(taken) or any(len(e) < 2 for e in entries):
        return region  # (not one block an entry, each a term with its descriptions)
    wrappers = []
    for i in taken:
        term = entries[i][0]
        wrapper = etree.Element("div")
        term.addprevious(wrapper)
        wrapper.extend(entries[i])
        wrappers.append(wrapper)
    return Region(region.parent, wrappers, region.shallow, region.nested)


def _take(region: Region, taken: set[etree._Element]) -> None:
    """Mark the region's blocks taken and gather its nested replies."""
    signatures = {_signature(b) for b in region.blocks}
    for block in region.blocks:
        for descendant in block.iterdescendants(etree.Element):
            if _signature(descendant) in signatures and descendant not in taken:
                region.nested.append(descendant)
                taken.add(descendant)
    taken.update(region.blocks)


_CLASSED = etree.XPath("descendant-or-self::*[@class]")


def threaded_singles(body: etree._Element, taken: set[etree._Element]) -> Iterator[Region]:
    """A lone comment with replies nested in it (one thread of two or three comments has no
    similar siblings to find): an element named like a comment whose own template repeats
    inside it."""
    for element in _CLASSED(body):  # document order
        if not _comment_named(element.get("class")) or element in taken:
            continue
        if any(a in taken for a in element.iterancestors()):
            continue
        signature = _signature(element)
        replies = [d for d in element.iterdescendants(element.tag) if _signature(d) == signature]
        if replies and element.getparent() is not None:
            yield Region(element.getparent(), [element])  # the caller claims it if accepted


@lru_cache(maxsize=8192)
def _comment_named(names: str) -> bool:
    """COMMENT_HINT in a class attribute; a page repeats a few of them thousands of times."""
    return COMMENT_HINT.found(names)


def extract_comments(
    body: etree._Element,
    options: RecordOptions = RecordOptions(),
    now: datetime | None = None,
    regions: list[Region] | None = None,
) -> list[CommentRecord]:
    """The comments of a page (its <body>, cleaned of scripts), in document order; `regions`
    when `comment_regions` already found them."""
    if regions is None:
        regions = comment_regions(body, options)
    all_blocks = {b for r in regions for b in (*r.blocks, *r.nested)}
    found = [f for r in regions for f in block_fields(r.blocks + r.nested, all_blocks, now)]
    order = {e: i for i, e in enumerate(body.iter(etree.Element))}
    found.sort(key=lambda f: order.get(f.element, 0))
    return [
        CommentRecord(
            text=f.text,
            author=f.author,
            author_url=f.author_url,
            time=f.time,
            published_at=f.published_at,
            reply_to=f.reply_to,
            time_attr=f.time_attr,
        )  # fmt: skip
        for f in found
        if f.text
    ]
