"""Blocks as semantic nodes aligned across a region by position (SPEC §5), and the page's text
evidence (times, digits, links, author names below each element) the detectors test before
they compare siblings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from lxml import etree

from topiccrawler.extract.dates import (
    TIME_ATTRIBUTES,
    find_time,
)
from topiccrawler.extract.parse import normalize_space
from topiccrawler.extract.records.chrome import reads_as_sentence
from topiccrawler.extract.records.markup import (
    SemanticNode,
    anchor_text,
    author_hint,
    author_marks,
    author_named,
    class_word,
    holding_blocks,
    node_text,
)
from topiccrawler.extract.records.patterns import (
    COUNTER_VALUE,
    HAS_DIGIT,
    INLINE_TAGS,
    LANDMARK_ROLES,
    LANDMARK_TAGS,
    MAX_MENU_ITEM_CHARS,
    MAX_TIME_PIECE_CHARS,
    SKIPPED_TAGS,
)
from topiccrawler.extract.records.times import (
    cued_time,
    piece_has_time,
    short_time,
    shows_time,
    time_of,
)
from topiccrawler.extract.tree import TextStats, summed


class Evidence:
    """What an element of a cleaned page holds below it, so that the detectors compare
    siblings only under a node where records can pass their tests: `timed`, the elements
    `shows_time` is true of; `authored`, those with a descendant the markup names as an
    author; `named`, those with a descendant named like an author or a profile box (what
    `hinted_author` needs to find anyone); `numbered`, those with a digit and a link (what a
    thread-list row needs); `lends`, the elements that give their parent a time of their own
    (in their tail, or as an attribute of theirs): what a row wrapped with its siblings brings
    to the wrapper beside its own `timed`. Each is asked as `element in evidence.timed`.

    Times, digits and links are found for every element in one pass (`text_evidence`); author
    names, asked of few elements (siblings that passed the other tests), when asked."""

    def __init__(self, below: dict, gives: dict, known: dict | set = frozenset()):
        # The elements the page had when the evidence was taken (its text_stats): detection
        # may wrap rows since, which adds no text, so their `timed` still answers `shows_time`.
        self.known = known
        self.timed = _Flagged(below, _TIMED)
        self.numbered = _Flagged(below, _DIGITS | _LINKS)
        self.lends = _Flagged(gives, _TIMED)
        self.authored = _Holds(_names_author)
        self.named = _Holds(_names_someone)

    def shows_time(self, block: etree._Element) -> bool:
        """`shows_time` of the block, looked up for an element the page had."""
        return block in self.timed if block in self.known else shows_time(block)


# What an element holds below it (its text, its children's tails, what its descendants hold
# or give), or gives its parent (its tail, its own attributes), one bit each.
_TIMED, _DIGITS, _LINKS = 1, 2, 4


class _Flagged:
    """`element in flagged`: the element's flags hold all of `bits`."""

    __slots__ = ("flags", "bits")

    def __init__(self, flags: dict, bits: int):
        self.flags, self.bits = flags, bits

    def __contains__(self, element) -> bool:
        return self.flags.get(element, 0) & self.bits == self.bits


def _names_author(element) -> bool:
    return isinstance(element.tag, str) and author_named(author_marks(element))


def _names_someone(element) -> bool:
    return isinstance(element.tag, str) and author_hint(author_marks(element)) is not None


class _Holds:
    """`element in holds`: a descendant of the element passes `test`. Answers are kept per
    element; a subtree is walked once however many of its ancestors are asked about, without
    recursion (pages nest thousands deep), and no further than the first descendant that
    passes."""

    __slots__ = ("test", "memo")

    def __init__(self, test):
        self.test, self.memo = test, {}

    def __contains__(self, root) -> bool:
        memo, test = self.memo, self.test
        known = memo.get(root)
        if known is not None:
            return known
        stack = [(root, root.iterchildren(etree.Element))]
        while stack:
            node, kids = stack[-1]
            deeper = found = False
            for kid in kids:
                known = memo.get(kid)
                if known or test(kid):
                    found = True
                    break
                if known is None:
                    if len(kid):
                        stack.append((kid, kid.iterchildren(etree.Element)))
                        deeper = True
                        break
                    memo[kid] = False
            if found:
                for element, _ in stack:
                    memo[element] = True
                return True
            if not deeper:
                memo[node] = False
                stack.pop()
        return False


def beside_content(body: etree._Element, stats: dict) -> set:
    """The elements inside landmarks beside the page's content (`LANDMARK_TAGS`, `LANDMARK_ROLES`), for the
    detectors to leave alone. Cheap: pages have few landmarks."""
    global _beside_last
    asked, answer = _beside_last
    if asked == (body, id(stats)):
        return answer  # (both detectors ask of the same page)
    page = stats[body].text if body in stats else 0
    beside: set = set()
    for element in body.iter(etree.Element):
        if element.tag not in LANDMARK_TAGS and element.get("role") not in LANDMARK_ROLES:
            continue  # (read by lxml's iterator: an XPath of the three costs half as much again)
        if element not in beside:
            known = stats.get(element)
            if known is not None and known.text * 2 < page:
                beside.update(element.iter())
    _beside_last = ((body, id(stats)), beside)
    return beside


_beside_last: tuple = ((None, None), set())  # the last page's answer


def at_least(elements, holding, count: float) -> bool:
    """`count` or more of the elements are in `holding` (an evidence set), asked until that
    is known."""
    for element in elements:
        if element in holding:
            count -= 1
            if count <= 0:
                return True
    return count <= 0


def text_evidence(body: etree._Element) -> tuple[dict[etree._Element, TextStats], Evidence]:
    """The body's `text_stats` and its `Evidence` (times, digits and links of every element),
    in one pass from the leaves up: each text piece is read from the tree and split once for
    both (two walks read and split every piece twice), each time attribute read once, each
    element's counts and bits its own and its children's (a child's tail is its parent's text,
    and the time it shows is one the child lends)."""
    stats: dict[etree._Element, TextStats] = {}
    below: dict = {}
    gives: dict = {}
    lifted: dict = {}  # what each element brings its parent (but its tail): what it holds and gives
    known = stats.get
    up = lifted.get
    for element in reversed(list(body.iter(etree.Element))):
        tag = element.tag
        given = 0
        if element is not body and not TIME_ATTRIBUTES.isdisjoint(element.keys()):
            get = element.get
            title = (  # tooltip(element), written out: asked of the elements that have one
                get("title")
                or get("data-tippy-content")
                or get("data-original-title")
                or get("data-tooltip")
            )
            if (
                (tag == "time" and get("datetime") is not None)
                or get("data-time") is not None
                or get("data-timestamp") is not None
                or (title and short_time(title))
            ):
                given = _TIMED
        holds = _LINKS if tag == "a" else 0
        total = link = prose = 0
        text = element.text
        if text:
            words = text.split()
            if words:
                total = len("".join(words))
                bits = _piece(text, words, total)
                if bits == _DIGITS and cued_time(element):
                    bits |= _TIMED  # "11-02" in an element named "date"
                holds |= bits
        if len(element):
            for child in element:
                tail = child.tail
                if tail:
                    words = tail.split()
                    if words:
                        chars = len("".join(words))
                        total += chars
                        bits = _piece(tail, words, chars)
                        if bits:
                            holds |= bits
                            if child.tag.__class__ is str:  # (not a comment's tail)
                                gives[child] = gives.get(child, 0) | bits
                counted = known(child)
                if counted is not None:
                    total += counted.text
                    link += counted.link
                    prose += counted.prose
                    holds |= up(child, 0)
        stats[element] = summed(tag, total, link, prose)
        if holds:
            below[element] = holds
        if given:
            gives[element] = given
        if holds | given:
            lifted[element] = holds | given
    return stats, Evidence(below, gives, known=stats)


def _piece(text: str, words: list[str], chars: int) -> int:
    """The digit and time bits of a text piece, given its words (`text.split()`, not empty)
    and their characters."""
    short = len(text) <= MAX_TIME_PIECE_CHARS or chars + len(words) - 1 <= MAX_TIME_PIECE_CHARS
    if HAS_DIGIT.search(text):
        return _DIGITS | _TIMED if short and piece_has_time(text, digits=True) else _DIGITS
    return _TIMED if short and piece_has_time(text, digits=False) else 0


def semantic_nodes(block: etree._Element, skip: frozenset = frozenset()) -> list[SemanticNode]:
    """The block's semantic nodes in document order; `skip` subtrees (nested records) left out."""
    nodes: list[SemanticNode] = []
    blocky = holding_blocks(block)

    def add(element: etree._Element, key: str, text: str) -> None:
        text = normalize_space(text)
        if text:
            link = anchor_text(element) if element.tag == "a" or len(element) else ""
            nodes.append(SemanticNode(key, text, link, element, *time_of(element, text)))

    def walk(element: etree._Element, key: str) -> None:
        if element not in blocky:  # text and inline elements only: one node
            add(element, key, node_text(element))
            return
        own = [element.text or ""]
        for child in element:
            if not isinstance(child.tag, str) or child.tag in SKIPPED_TAGS or child in skip:
                own.append(child.tail or "")
                continue
            child_key = f"{key}/{child.tag}.{class_word(child)}"
            if child.tag in INLINE_TAGS and child.tag != "br":
                add(child, child_key, node_text(child))
            else:
                walk(child, child_key)  # noqa: F821 (bound while it runs; deleted after)
            own.append(child.tail or "")
        loose = normalize_space(" ".join(own))
        if loose:
            nodes.append(SemanticNode(f"{key}#text", loose, "", element, find_time(loose)))

    walk(block, "")
    del walk  # (the cycle a recursive closure makes, broken: see node_text)
    return nodes


def noise_keys(blocks_nodes: Sequence[Sequence[SemanticNode]], least: int = 3) -> set[str]:
    """Positions whose text is identical in every block (labels), given `least` or more blocks
    (three: two posts may well say the same)."""
    if len(blocks_nodes) < least:
        return set()
    texts: dict[str, set[str]] = {}
    present: Counter = Counter()
    for nodes in blocks_nodes:
        for key in {n.key for n in nodes}:
            present[key] += 1
        for node in nodes:
            texts.setdefault(node.key, set()).add(node.text)
    return {
        k for k, values in texts.items() if present[k] == len(blocks_nodes) and len(values) == 1
    }


def counter_keys(blocks_nodes: Sequence[Sequence[SemanticNode]], least: int = 3) -> set[str]:
    """Positions where every block of `least` or more shows the same labels each with its own
    number ("LV. 15", "GP 122", "Posts: 10", "积分 300"): the poster's counters, not their
    text. A label is what is left with the digits taken out, the same in every block; the
    numbers differ between blocks (the same lines throughout are labels, `noise_keys`). Times,
    links and sentences are never counters."""
    if len(blocks_nodes) < least:
        return set()
    shapes: dict[str, set[tuple[str, ...] | None]] = {}
    values: dict[str, set[tuple[str, ...]]] = {}
    present: Counter = Counter()
    for nodes in blocks_nodes:
        at: dict[str, list[SemanticNode]] = {}
        for node in nodes:
            at.setdefault(node.key, []).append(node)
        present.update(at.keys())
        for key, here in at.items():
            counters = all(
                n.time is None
                and not n.link_text
                and HAS_DIGIT.search(n.text) is not None
                and not reads_as_sentence("".join(n.text.split()))
                for n in here
            )
            shape = tuple(COUNTER_VALUE.sub("#", n.text) for n in here) if counters else None
            shapes.setdefault(key, set()).add(shape)
            values.setdefault(key, set()).add(tuple(n.text for n in here))
    return {
        key
        for key, found in shapes.items()
        if present[key] == len(blocks_nodes)
        and len(found) == 1
        and None not in found
        and len(values[key]) > 1
    }


def menu_nodes(blocks_nodes: Sequence[Sequence[SemanticNode]], least: int = 3) -> set[int]:
    """Ids of the nodes that are a poster's menu or the records' controls: whole-link lines of a
    few words that `least` or more blocks, and more than half of them, show wherever in the
    block ("Private Message", "引用"), since some posts show them and others not and their place
    shifts with the items beside them (a menu's items alternate "left" and "right"); and the
    other such lines of the lists that hold them ("Visit Homepage", for the posters who have
    one). Not the post's text; the caller keeps a poster's own name, which one who wrote most
    of a thread repeats too."""
    repeated = _in_most(blocks_nodes, _menu_item, least)
    menus: set[int] = set()
    for nodes in blocks_nodes:
        lists = set()
        for node in nodes:
            if node.text in repeated and _menu_item(node):
                menus.add(id(node))
                lists.update(_lists_above(node.element))
        if lists:
            menus.update(
                id(n)
                for n in nodes
                if _menu_item(n) and not lists.isdisjoint(_lists_above(n.element))
            )
    return menus


def boilerplate_nodes(blocks_nodes: Sequence[Sequence[SemanticNode]], least: int = 3) -> set[int]:
    """Ids of the nodes that read as a sentence and that `least` or more blocks, and more than
    half of them, carry word for word: a notice the site puts in every post, the signature it
    gives every poster (or one poster's own, under the posts of a thread they mostly wrote), an
    advertisement replied under most posts. Not a record's own text, wherever it stands:
    records seldom say one sentence word for word. (At three blocks alone, without the half,
    replies quoting one post lost their quotes: docs/benchmarks.md, fifth gathering.) A block
    with no other text of its own (not a link, not a time) keeps them."""
    repeated = _in_most(blocks_nodes, lambda n: reads_as_sentence(_without_time(n)), least)
    if not repeated:
        return set()
    found: set[int] = set()
    for nodes in blocks_nodes:
        others = any(
            n.text not in repeated and n.time is None and n.link_text != n.text for n in nodes
        )
        if others:
            found.update(id(n) for n in nodes if n.text in repeated)
    return found


def _in_most(
    blocks_nodes: Sequence[Sequence[SemanticNode]],
    counted: Callable[[SemanticNode], bool],
    least: int,
) -> set[str]:
    """Texts of `counted` nodes that `least` or more blocks, and more than half of them, show."""
    if len(blocks_nodes) < least:
        return set()
    present: Counter = Counter()
    for nodes in blocks_nodes:
        present.update({n.text for n in nodes if counted(n)})
    return {t for t, count in present.items() if count >= least and 2 * count > len(blocks_nodes)}


def _without_time(node: SemanticNode) -> str:
    """The node's text, white space and the time it shows taken out (a byline of one minute
    is no sentence; a reply repeated with its time is)."""
    text = node.text.replace(node.time, "") if node.time else node.text
    return "".join(text.split())


def _menu_item(node: SemanticNode) -> bool:
    return (
        node.link_text == node.text
        and len(node.text) <= MAX_MENU_ITEM_CHARS
        and node.time is None
        and node.element is not None
    )


def _lists_above(element: etree._Element, levels: int = 3) -> list[etree._Element]:
    """The lists (ul, ol, menu) among an element's nearest ancestors."""
    found = []
    for depth, ancestor in enumerate(element.iterancestors()):
        if depth >= levels:
            break
        if ancestor.tag in ("ul", "ol", "menu"):
            found.append(ancestor)
    return found


def linked_labels(blocks_nodes: Sequence[Sequence[SemanticNode]]) -> set[tuple[str, str]]:
    """(position, text) of the lines that every block of two or more has at one position and
    that are mostly links: the records' action rows ("Report this post | IP", "Quote Reply"),
    also in a thread of two, where `noise_keys` cannot tell a label from two posts that say
    the same (and where the position is shared with the text's paragraphs)."""
    if len(blocks_nodes) < 2:
        return set()
    present: Counter = Counter()
    for nodes in blocks_nodes:
        present.update(
            {(n.key, n.text) for n in nodes if n.link_text and 2 * len(n.link_text) >= len(n.text)}
        )
    return {line for line, count in present.items() if count == len(blocks_nodes)}


def best_key(
    blocks_nodes: Sequence[Sequence[SemanticNode]], test, least: float = 1, prefer=None
) -> str | None:
    """The position where `test(node)` holds in the most blocks (on ties, one where `prefer`
    holds of a node, then the earliest), if in `least` blocks at least."""
    hits: Counter = Counter()
    order: dict[str, int] = {}
    preferred: set = set()
    for nodes in blocks_nodes:
        seen = set()
        for position, node in enumerate(nodes):
            order.setdefault(node.key, position)
            if node.key not in seen and test(node):
                hits[node.key] += 1
                seen.add(node.key)
                if prefer is not None and prefer(node):
                    preferred.add(node.key)
    if not hits:
        return None
    key = min(hits, key=lambda k: (-hits[k], k not in preferred, order[k]))
    return key if hits[key] >= least else None
