"""Similarity of Layout (SoL, SPEC §5): the block-level nodes of a subtree, their layout
attributes, and how alike two subtrees are laid out, level by level.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from lxml import etree

from topiccrawler.extract.records.authors import is_replies_list
from topiccrawler.extract.records.patterns import SKIPPED_TAGS
from topiccrawler.extract.records.similarity import SubtreeSimilarity

# The nodes that make a page's layout (SPEC §5: table, tr, td, div, ul, li, form, …).
LAYOUT_TAGS = frozenset(
    ("table", "thead", "tbody", "tfoot", "tr", "td", "th", "div", "ul", "ol", "li", "dl", "dt",
     "dd", "form", "section", "article", "header", "footer", "aside", "main", "nav", "fieldset",
     "center", "blockquote")
)  # fmt: skip


# Attributes that shape the layout; class names are compared without their digits.
LAYOUT_ATTRIBUTES = ("class", "width", "align", "valign", "style", "bgcolor", "height")


@dataclass(frozen=True)
class ForumOptions:
    """SoL parameters; the defaults are the paper's N = 3, ω = (0.6, 0.3, 0.1), 0.9."""

    similarity: float = 0.9
    weights: tuple[float, ...] = (0.6, 0.3, 0.1)  # one per level compared: N = len(weights)
    min_blocks: int = 2  # K: alike children a node needs to hold topic-info blocks
    max_siblings: int = 400


def layout_children(element: etree._Element) -> list[etree._Element]:
    """The nearest layout (block-level) descendants: inline markup is looked through. A list
    of the replies shown under a post ("comments-list", "sub-replies") is no part of its
    layout: an answer with comments and one without (whose empty list cleaning removed) are
    laid out alike."""
    found = []
    for child in element.iterchildren(etree.Element):
        tag = child.tag
        if tag in SKIPPED_TAGS:
            continue
        if tag in LAYOUT_TAGS:
            if is_replies_list(child):
                continue
            found.append(child)
        elif len(child):
            found.extend(layout_children(child))
    return found


_DIGITS = re.compile(r"\d+")


def layout_of(element: etree._Element) -> tuple:
    """Tag and layout attributes; the class as the set of its names without digits."""
    attributes = element.items()
    if not attributes:
        return (element.tag, _NO_CLASSES, *_NO_LAYOUT)
    values = dict(attributes)
    return (
        element.tag,
        _class_names(values.get("class") or ""),
        *(values.get(attribute) or "" for attribute in LAYOUT_ATTRIBUTES[1:]),
    )


_NO_CLASSES: frozenset = frozenset()


_NO_LAYOUT = ("",) * (len(LAYOUT_ATTRIBUTES) - 1)


@lru_cache(maxsize=8192)
def _class_names(classes: str) -> frozenset:
    """A class attribute's names without digits; a page repeats a few of them many times."""
    return frozenset(_DIGITS.sub("", classes).split()) if classes else _NO_CLASSES


def same_layout(first: tuple, second: tuple) -> bool:
    """Same tag and layout attributes; one class list may add names to the other's (a state:
    "topic-body highlighted", "post is-owner" beside "post"), never replace them."""
    if first == second:
        return True
    a, b = first[1], second[1]
    return (
        first[0] == second[0]
        and bool(a)
        and bool(b)
        and (a < b or b < a)
        and first[2:] == second[2:]
    )


def layout_levels(
    element: etree._Element, depth: int, left_out=None
) -> tuple[tuple[tuple, ...], ...]:
    """The layouts of the element's layout descendants, one tuple per level 1..depth;
    `left_out`: a test of the element's own layout children, those it holds left out with
    what is below them (a post's badge row, `badged_posts`)."""
    levels, current = [], [element]
    for _ in range(depth):
        current = [c for node in current for c in layout_children(node)]
        if left_out is not None and not levels:
            current = [c for c in current if not left_out(c)]
        levels.append(tuple(layout_of(node) for node in current))
    return tuple(levels)


def sol(first: Sequence[Sequence[tuple]], second: Sequence[Sequence[tuple]], weights) -> float:
    """Σ ω_i · (1/M_i) Σ_j S_ij: at each level the j-th nodes of both are compared
    (same tag and layout: 1), over M_i, the larger node count; a level empty in both agrees."""
    total = 0.0
    for weight, a, b in zip(weights, first, second, strict=False):
        size = max(len(a), len(b))
        agree = sum(x == y or same_layout(x, y) for x, y in zip(a, b, strict=False))
        total += weight * (agree / size if size else 1.0)
    return total


class SimilarityOfLayout(SubtreeSimilarity):
    name = "sol"

    def __init__(self, weights: tuple[float, ...] = ForumOptions.weights):
        self.weights = weights
        # Each element's layout and layout children, read once per page (one instance per
        # page): a node is on the levels of its parent's, grandparent's … comparisons too.
        self._layouts: dict[etree._Element, tuple] = {}
        self._children: dict[etree._Element, list[etree._Element]] = {}

    def pair(self, first: etree._Element, second: etree._Element) -> float:
        depth = len(self.weights)
        return sol(layout_levels(first, depth), layout_levels(second, depth), self.weights)

    def levels(self, element: etree._Element) -> tuple[tuple[tuple, ...], ...]:
        """`layout_levels` to the measure's depth, from the page's memo."""
        layouts, kids = self._layouts, self._children
        levels, current = [], [element]
        for _ in self.weights:
            following = []
            for node in current:
                found = kids.get(node)
                if found is None:
                    found = kids[node] = layout_children(node)
                following.extend(found)
            current = following
            row = []
            for node in current:
                layout = layouts.get(node)
                if layout is None:
                    layout = layouts[node] = layout_of(node)
                row.append(layout)
            levels.append(tuple(row))
        return tuple(levels)

    def matrix(self, siblings: Sequence[etree._Element]) -> np.ndarray:
        keys: dict[tuple, int] = {}
        groups = [keys.setdefault(self.levels(s), len(keys)) for s in siblings]
        distinct = list(keys)
        small = np.eye(len(distinct))
        for i in range(len(distinct)):
            for j in range(i + 1, len(distinct)):
                small[i, j] = small[j, i] = sol(distinct[i], distinct[j], self.weights)
        return small[np.ix_(groups, groups)]
