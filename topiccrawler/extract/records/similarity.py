"""How alike two DOM subtrees are, in [0, 1]: the comment paper's Paths of Leaves (POL) and the
four measures it compares against (SPEC §4). Pure functions over lxml elements.

Every measure answers for a whole set of siblings at once (`matrix`), because that is how
detection asks: "which children of this node look like each other?". Siblings with the same
shape (the same multiset of leaf paths) are compared once, which keeps a list of 2,000
identical items as cheap as a list of one.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterator, Sequence
from difflib import SequenceMatcher

import numpy as np
from lxml import etree

logger = logging.getLogger(__name__)

# A node on a leaf path: its tag and its 1-based index among its parent's element children.
# The subtree's own root is written with index 0, so that siblings (which differ in index)
# are compared by shape, not by position.
Step = tuple[str, int]
LeafPath = tuple[Step, ...]

# A subtree with more leaves than this is compared on its first MAX_LEAF_PATHS leaves: such a
# subtree is a page section, never a single comment, and the cut keeps the cost bounded.
MAX_LEAF_PATHS = 300


def children(element: etree._Element) -> list[etree._Element]:
    """Element children only (no comments or processing instructions)."""
    return list(element.iterchildren(etree.Element))


def leaf_paths(root: etree._Element, limit: int = MAX_LEAF_PATHS) -> list[LeafPath]:
    """Every root-to-leaf path of the subtree as ⟨tag, sibling index⟩ steps (iterative, so deep
    pages do not hit the recursion limit)."""
    paths: list[LeafPath] = []
    stack: list[tuple[etree._Element, LeafPath]] = [(root, ((root.tag, 0),))]
    pop, push, element = stack.pop, stack.append, etree.Element
    while stack and len(paths) < limit:
        node, path = pop()
        kids = list(node.iterchildren(element)) if len(node) else None
        if not kids:
            paths.append(path)
            continue
        for index in range(len(kids), 0, -1):  # reversed onto the stack: document order out
            kid = kids[index - 1]
            push((kid, (*path, (kid.tag, index))))
    return paths


def path_similarity(first: LeafPath, second: LeafPath) -> float:
    """Cosine of the two paths as binary vectors over their ⟨tag, index⟩ steps (unweighted,
    as the paper chose: depth weights pushed every score to one end of the range)."""
    a, b = set(first), set(second)
    return len(a & b) / (len(a) * len(b)) ** 0.5 if a and b else 0.0


def pol_directed(first: Sequence[LeafPath], second: Sequence[LeafPath]) -> float:
    """Σ len(p) · max_q sim(p, q) / Σ len(p), p over `first`, q over `second`."""
    if not first or not second:
        return 0.0
    total = sum(len(p) for p in first)
    return sum(len(p) * max(path_similarity(p, q) for q in second) for p in first) / total


def pol_similarity(first: etree._Element, second: etree._Element) -> float:
    """POL subtree similarity, symmetric: the mean of the two directed scores.

    The paper's formula (an image in the source) weights each leaf path of one tree by its
    length and takes its best match in the other; read one way only, a short subtree matches a
    long one perfectly (all its few paths find a partner). Averaging both directions makes a
    one-line comment and a long comment of the same template alike, and a one-line menu item
    and a long comment not.
    """
    a, b = leaf_paths(first), leaf_paths(second)
    return (pol_directed(a, b) + pol_directed(b, a)) / 2


class SubtreeSimilarity:
    """A similarity measure over sibling subtrees; subclasses give `pair` or `matrix`."""

    name = ""

    def pair(self, first: etree._Element, second: etree._Element) -> float:
        raise NotImplementedError

    def matrix(self, siblings: Sequence[etree._Element]) -> np.ndarray:
        """n × n similarities between siblings (diagonal 1)."""
        groups, members = shape_groups(siblings)
        reps = [siblings[m[0]] for m in members]
        small = np.eye(len(reps))
        for i in range(len(reps)):
            for j in range(i + 1, len(reps)):
                small[i, j] = small[j, i] = self.pair(reps[i], reps[j])
        return small[np.ix_(groups, groups)]


def shape_key(element: etree._Element) -> tuple:
    """Siblings with equal keys have the same tree shape (tag and index on every path)."""
    return tuple(sorted(Counter(leaf_paths(element)).items()))


def shape_groups(siblings: Sequence[etree._Element]) -> tuple[list[int], list[list[int]]]:
    """The group number of each sibling, and each group's members, grouping equal shapes."""
    index: dict[tuple, int] = {}
    groups: list[int] = []
    members: list[list[int]] = []
    for position, element in enumerate(siblings):
        key = shape_key(element)
        if key not in index:
            index[key] = len(members)
            members.append([])
        groups.append(index[key])
        members[index[key]].append(position)
    return groups, members


class PathsOfLeaves(SubtreeSimilarity):
    """The paper's measure, vectorised: every distinct leaf path among the siblings becomes a
    binary row over the ⟨tag, index⟩ steps; one matrix product gives all path cosines, and
    each sibling's best match per path is a max over that sibling's columns."""

    name = "pol"

    def pair(self, first: etree._Element, second: etree._Element) -> float:
        return pol_similarity(first, second)

    def matrix(self, siblings: Sequence[etree._Element]) -> np.ndarray:
        path_ids: dict[LeafPath, int] = {}
        shapes: dict[tuple, int] = {}
        groups: list[int] = []
        shape_paths: list[Counter] = []
        for element in siblings:
            counts = Counter(leaf_paths(element))
            key = tuple(sorted(counts.items()))
            if key not in shapes:
                shapes[key] = len(shape_paths)
                shape_paths.append(
                    Counter({path_ids.setdefault(p, len(path_ids)): n for p, n in counts.items()})
                )
            groups.append(shapes[key])
        if len(shape_paths) == 1:
            return np.ones((len(siblings), len(siblings)))  # one template, nothing to compare
        paths = sorted(path_ids, key=path_ids.get)
        steps: dict[Step, int] = {}
        rows, cols = [], []
        for row, path in enumerate(paths):
            for step in set(path):
                rows.append(row)
                cols.append(steps.setdefault(step, len(steps)))
        vectors = np.zeros((len(paths), len(steps)), dtype=np.float32)
        vectors[rows, cols] = 1.0
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        cosine = vectors @ vectors.T  # path × path
        # Columns grouped by shape: best match of every path within each shape.
        columns = [pid for counts in shape_paths for pid in counts]
        offsets = np.cumsum([0] + [len(counts) for counts in shape_paths[:-1]])
        best = np.maximum.reduceat(cosine[:, columns], offsets, axis=1)  # path × shape
        lengths = np.array([len(p) for p in paths], dtype=np.float32)
        weights = np.zeros((len(shape_paths), len(paths)), dtype=np.float32)
        for shape, counts in enumerate(shape_paths):
            for pid, n in counts.items():
                weights[shape, pid] = n * lengths[pid]
        weights /= weights.sum(axis=1, keepdims=True)
        directed = weights @ best  # shape × shape: first shape's paths matched in the second
        small = (directed + directed.T) / 2
        np.fill_diagonal(small, 1.0)
        return small[np.ix_(groups, groups)]


def tree_size(element: etree._Element) -> int:
    return sum(1 for node in element.iter() if isinstance(node.tag, str))


class _TagTree:
    """An element's shape for APTED (which tests nodes for truth: a childless lxml element is
    false)."""

    __slots__ = ("tag", "kids")

    def __init__(self, element: etree._Element):
        self.tag = element.tag
        self.kids = [_TagTree(child) for child in children(element)]


class EditDistance(SubtreeSimilarity):
    """Tree edit distance (APTED, unit costs) as 1 − distance / size of the larger tree."""

    name = "ed"

    def pair(self, first: etree._Element, second: etree._Element) -> float:
        from apted import APTED, Config

        class TagConfig(Config):
            def rename(self, a, b):
                return int(a.tag != b.tag)

            def children(self, node):
                return node.kids

        distance = APTED(_TagTree(first), _TagTree(second), TagConfig()).compute_edit_distance()
        return 1 - distance / max(tree_size(first), tree_size(second))


class SimpleTreeMatching(SubtreeSimilarity):
    """Yang's simple tree matching: the largest order-preserving matching of same-tag nodes
    (a dynamic programme over children), as 2 · matched / (size₁ + size₂)."""

    name = "stm"

    def pair(self, first: etree._Element, second: etree._Element) -> float:
        return 2 * _stm(first, second) / (tree_size(first) + tree_size(second))


def _stm(first: etree._Element, second: etree._Element) -> int:
    if first.tag != second.tag:
        return 0
    a, b = children(first), children(second)
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = max(
                table[i - 1][j], table[i][j - 1], table[i - 1][j - 1] + _stm(a[i - 1], b[j - 1])
            )
    return table[-1][-1] + 1


def bfs_tags(element: etree._Element) -> list[str]:
    """The subtree's tags in breadth-first order."""
    order, queue = [], [element]
    while queue:
        node = queue.pop(0)
        order.append(node.tag)
        queue.extend(children(node))
    return order


class LongestCommonSubstring(SubtreeSimilarity):
    """The longest common run of the two breadth-first tag strings (difflib), as
    2 · run / (length₁ + length₂)."""

    name = "lcs"

    def pair(self, first: etree._Element, second: etree._Element) -> float:
        a, b = bfs_tags(first), bfs_tags(second)
        match = SequenceMatcher(None, a, b, autojunk=False).find_longest_match(0, len(a), 0, len(b))
        return 2 * match.size / (len(a) + len(b))


def node_paths(element: etree._Element) -> set[LeafPath]:
    """Every node of the subtree named by its ⟨tag, index⟩ path from the root."""
    return {path[:depth] for path in leaf_paths(element) for depth in range(1, len(path) + 1)}


class MaximalCombinedTree(SubtreeSimilarity):
    """The two trees laid over each other (nodes identified by their ⟨tag, index⟩ path): the
    shared nodes over the nodes of the combined tree."""

    name = "mct"

    def pair(self, first: etree._Element, second: etree._Element) -> float:
        a, b = node_paths(first), node_paths(second)
        return len(a & b) / len(a | b)


def similar_siblings(
    siblings: Sequence[etree._Element],
    measure: SubtreeSimilarity,
    threshold: float,
    minimum: int,
    max_siblings: int,
) -> Iterator[list[etree._Element]]:
    """Groups of mutually similar siblings, each of at least `minimum`.

    Only siblings of one tag are compared (a template repeats its root tag); a sibling
    qualifies with at least (minimum − 1) others above `threshold`, and a group is a connected
    set of qualifying siblings. Past `max_siblings` of one tag the rest are left out, logged.
    """
    by_tag: dict[str, list[etree._Element]] = {}
    for sibling in siblings:
        by_tag.setdefault(sibling.tag, []).append(sibling)
    for tag, same in by_tag.items():
        if len(same) < minimum:
            continue
        if len(same) > max_siblings:
            logger.debug("comparing the first %d of %d <%s> siblings", max_siblings, len(same), tag)
            same = same[:max_siblings]
        # Read as lists: the walk below asks one cell at a time, which numpy answers slowly.
        alike = (measure.matrix(same) > threshold).tolist()
        qualified = {i for i, row in enumerate(alike) if sum(row) - 1 >= minimum - 1}
        while qualified:
            group, frontier = set(), [min(qualified)]
            while frontier:
                i = frontier.pop()
                if i in group:
                    continue
                group.add(i)
                row = alike[i]
                frontier.extend(j for j in qualified if row[j] and j not in group)
            qualified -= group
            if len(group) >= minimum:
                yield [same[i] for i in sorted(group)]


MEASURES: dict[str, type[SubtreeSimilarity]] = {
    cls.name: cls
    for cls in (
        PathsOfLeaves,
        EditDistance,
        SimpleTreeMatching,
        LongestCommonSubstring,
        MaximalCombinedTree,
    )
}
