"""Signature-first record detection: one pass groups sibling subtrees by their tag and class
signature, a learned scorer picks the groups that are records (issue #36).

The scorer reads shallow features of each group, in the spirit of boilerpipe's shallow-text
classifier: how often the signature repeats, text per record, evidence of an author or a time
in each member (a profile link, `<time>`, a date, schema.org microdata), link density, depth,
position, what the class words and the tag say. It is a forest of 100 shallow trees (or a
logistic model) stored as a small JSON file (`signature_model.json`, 142 KB, made by
`benchmarks/records_model.py` from the dev record pages, read on first use) and applied
here in plain Python: no learning library is imported to use it.

Two uses: `signature_records` returns the blocks of the groups the model accepts (the
`signature` measure, beside the papers' POL and SoL in the benchmark), and `best_score` is
the cheap "no records here" answer an article page gets before the papers' detectors run.
"""

from __future__ import annotations

import json
import math
import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from lxml import etree

from topiccrawler.extract.records.patterns import PERSON_LINK  # a link to a person's page

MODEL_PATH = Path(__file__).with_name("signature_model.json")

# Class and id words of records (any language's forum software uses English names) and of
# the page's chrome.
RECORD_WORDS = re.compile(
    r"post|comment|reply|replies|answer|message|entry|review|thread|topic|note|item|"
    r"评论|回复|楼",
    re.I,
)
CHROME_WORDS = re.compile(
    r"nav|menu|sidebar|footer|header|widget|related|breadcrumb|pagination|pager|tags?\b|"
    r"share|social|banner|\bads?\b|promo|login|signup|toolbar|tab",
    re.I,
)
# A date or clock as forums write them, or an age ("3 days ago", "3天前").
TIME_TEXT = re.compile(
    r"\d{4}[-/.年]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d{1,2}:\d{2}|"
    r"\b(?:ago|yesterday|today|gestern|heute|hier|aujourd'hui)\b|[天时分秒月年]前|昨天|今天|"
    r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d",
    re.I,
)
MICRODATA = re.compile(r"comment|answer|question|post|message|review|person", re.I)
DIGITS = re.compile(r"\d+")
# HTML5 and ARIA landmarks of what sits beside a page's content: their lists are the
# site's (latest posts, members online, links), not the page's records; unless the landmark
# holds half the page's text or more (a stray <aside> a parser left open around the rest).
LANDMARKS = frozenset(("aside", "nav", "complementary", "navigation"))
SKIP = frozenset(("script", "style", "head", "noscript", "template", "svg", "select", "option"))

FEATURES = (
    "members", "chars", "spread", "links", "times", "persons", "microdata",
    "depth", "position", "share", "record_words", "chrome_words", "elements", "prose",
    "tag_li", "tag_tr", "tag_article", "tag_table", "tag_p", "tag_div", "classed", "role",
    "chain",
)  # fmt: skip


@dataclass
class Group:
    """Siblings of one parent sharing a signature, and their features."""

    parent: etree._Element
    members: list[etree._Element]
    features: dict[str, float]
    score: float = 0.0
    key: str = ""  # the members' tag and the class they share (`group_keys`)


def signature(element: etree._Element) -> str:
    """Tag and class names without digits (post-123 and post-124 are one signature)."""
    classes = element.get("class")
    if not classes:
        return element.tag
    return element.tag + "." + ".".join(_names(classes))


def _classes(element: etree._Element) -> tuple[str, ...]:
    """The element's class names without digits, sorted (a page repeats a few, read once)."""
    return _names(element.get("class") or "")


@lru_cache(maxsize=4096)
def _names(classes: str) -> tuple[str, ...]:
    return tuple(sorted({DIGITS.sub("", c) for c in classes.split()}))


# Two shapes are alike when they share at least this share of their inner signatures.
ALIKE = 0.5


def inner(element: etree._Element) -> frozenset:
    """The signatures of the element's children and grandchildren: its shape."""
    found = set()
    for child in element:
        if isinstance(child.tag, str):
            found.add(signature(child))
            for grandchild in child:
                if isinstance(grandchild.tag, str):
                    found.add(signature(grandchild))
    return frozenset(found)


def alike(one: frozenset, two: frozenset) -> bool:
    """Two shapes share at least ALIKE of their signatures (two bare ones are alike)."""
    union = one | two
    return not union or len(one & two) >= ALIKE * len(union)


def group_keys(children: list[etree._Element]) -> list[str]:
    """Each sibling's group key. Siblings of one tag and the same class names (digits left out)
    are one group; siblings whose names differ only in state or alternation classes
    ("comment even depth-1" beside "comment odd alt depth-2", "post bg1" beside "post bg2")
    are one too when they share the class the most siblings of their tag carry and are alike
    inside (`alike`): a user cell beside a post's text cell ("cell cell--user", "cell
    cell--main") is not a group of two records. The merged group's key is its tag and that
    class (`nested` reads it)."""
    classes = [_classes(child) for child in children]
    strict = [
        f"{child.tag}.{'.'.join(names)}" if names else child.tag
        for child, names in zip(children, classes, strict=True)
    ]  # `signature`, from the names read once
    if len(set(strict)) == len({child.tag for child in children}):
        # One signature per tag (the common case): nothing to merge; each name of a
        # signature is on as many siblings, the first by name keys it.
        return with_roles(children, [
            f"{child.tag}.{names[0]}" if names else child.tag
            for child, names in zip(children, classes, strict=True)
        ])  # fmt: skip
    counts: dict[tuple[str, str], int] = {}
    for child, names in zip(children, classes, strict=True):
        for name in names:
            counts[child.tag, name] = counts.get((child.tag, name), 0) + 1
    loose: dict[str, dict[str, etree._Element]] = {}  # loose key: strict signature: example
    keys = []
    chosen: dict[str, str] = {}  # strict signature: its key
    for child, names, sig in zip(children, classes, strict, strict=True):
        key = chosen.get(sig)
        if key is None:
            if not names:
                key = child.tag
            else:
                best = min(names, key=lambda n: (-counts[child.tag, n], n))
                key = f"{child.tag}.{best}"
            chosen[sig] = key
        keys.append(key)
        loose.setdefault(key, {}).setdefault(sig, child)
    renamed: dict[tuple[str, str], str] = {}
    for key, examples in loose.items():
        if len(examples) < 2:
            continue
        sizes = {sig: strict.count(sig) for sig in examples}
        shapes = {sig: inner(e) for sig, e in examples.items()}
        first = max(examples, key=lambda sig: sizes[sig])  # the most common signature
        for sig in examples:
            if sig != first and not alike(shapes[sig], shapes[first]):
                renamed[key, sig] = f"{sig}|"  # not alike: a group of its own signature
    return with_roles(
        children, [renamed.get((key, sig), key) for key, sig in zip(keys, strict, strict=True)]
    )


# Rows in a cycle of at most this many roles are told apart (a header row, a text row, a
# row of reply links: three).
MOST_ROLES = 4


def with_roles(children: list[etree._Element], keys: list[str]) -> list[str]:
    """Keys with siblings of one key split by role where they take turns in a fixed cycle of
    shapes: a table forum's bare <tr> rows (a header row with author and time, the row of the
    text, a row of reply links, over and over) are two or three groups, not one group of
    rows each a third of a record. A member's role is the first shape (`inner`) it is alike
    of, in page order; the roles must repeat with one period of two to four over all members
    (one row out of step in ten allowed: a heading row) for the key to be split."""
    at: dict[str, list[int]] = {}
    for i, key in enumerate(keys):
        at.setdefault(key, []).append(i)
    for key, places in at.items():
        if len(places) < 4:
            continue
        shapes: list[frozenset] = []
        roles = []
        for i in places:
            shape = inner(children[i])
            role = next((r for r, s in enumerate(shapes) if alike(shape, s)), None)
            if role is None:
                shapes.append(shape)
                role = len(shapes) - 1
            roles.append(role)
        if len(shapes) < 2 or len(shapes) > 2 * MOST_ROLES:
            continue  # one shape, or members of one role that vary
        for period in range(2, min(MOST_ROLES, len(roles) // 2) + 1):
            out_of_step = sum(roles[j] != roles[j - period] for j in range(period, len(roles)))
            if out_of_step <= len(roles) // 10 and len(set(roles[-period:])) == period:
                for i, role in zip(places, roles, strict=True):
                    keys[i] = f"{key}|{role}"  # "|": a group of its own, no nested records
                break
    return keys


def groups(body: etree._Element, stats: dict | None = None) -> list[Group]:
    """Every sibling group of two or more members with the same signature, with features.

    `stats`: `text_stats` of the tree (text and link characters per element); computed here
    when not given."""
    if stats is None:
        from topiccrawler.extract.tree import text_stats

        stats = text_stats(body)
    elements = [e for e in body.iter(etree.Element)]
    order = {e: i for i, e in enumerate(elements)}
    total = max(1, len(elements))
    page_chars = max(1, stats[body].text if body in stats else 1)
    found = []
    depth = {body: 0}
    aside = {body: False}  # in a landmark beside the page's content (`LANDMARKS`)
    alone = []  # classed elements without a sibling of their key (`chains`)
    for parent in elements:
        if parent.tag in SKIP:
            continue
        level = depth.get(parent, 0)
        beside = aside.get(parent, False)
        buckets: dict[str, list] = {}
        children = []
        for child in parent:
            if not isinstance(child.tag, str):
                continue
            depth[child] = level + 1
            aside[child] = beside or (
                (child.tag in LANDMARKS or child.get("role") in LANDMARKS)
                and child in stats
                and stats[child].text * 2 < page_chars
            )
            if child.tag in SKIP:
                continue
            children.append(child)
        if beside:
            continue  # the lists beside the page's content
        if len(children) < 2:
            alone.extend((child, level) for child in children if child.get("class"))
            continue  # no siblings, no group
        keys = group_keys(children)
        for child, key in zip(children, keys, strict=True):
            buckets.setdefault(key, []).append(child)
        rows = _record_rows(children, keys)
        for key, members in buckets.items():
            if len(members) < 2:
                if members[0].get("class") and not _kin(members[0], children):
                    alone.append((members[0], level))
                continue
            texts = [stats[m].text if m in stats else 0 for m in members]
            if sum(texts) < 20 * len(members) / 2:
                continue  # empty or one-word siblings: no record holds so little
            words = " ".join(sorted({n for m in members for n in _classes(m)}))
            found.append(
                Group(
                    parent,
                    members,
                    _features(
                        key, words, members, texts, stats, level, order, total, page_chars, rows
                    ),
                    key=key,
                )  # fmt: skip
            )
    for members, key, level in chains(alone, elements, order):
        texts = own_texts(members, stats)
        if sum(texts) < 20 * len(members) / 2:
            continue
        words = " ".join(sorted({n for m in members for n in _classes(m)}))
        features = _features(key, words, members, texts, stats, level, order, total, page_chars, {})
        features["chain"] = 1.0
        found.append(Group(members[0].getparent(), members, features, key=key))
    return found


# A chain longer than this is a layout's wrappers, not a comment and its replies.
MOST_CHAINED = 100


def _kin(element: etree._Element, siblings: list) -> bool:
    """A sibling of the element's tag shares a class name with it (a record of its list
    whose classes differ, not one alone)."""
    names = set(_classes(element))
    return any(
        s is not element and s.tag == element.tag and names.intersection(_classes(s))
        for s in siblings
    )


def chains(alone: list, elements: list, order: dict) -> list[tuple[list, str, int]]:
    """Records that have no sibling record: an element alone among its siblings with
    descendants of its tag sharing a class name and alike inside (`alike`), a comment and
    the replies nested in it (a blog post's one comment and its one answer). Each chain's
    members (the element first, then the nested ones in page order), key (tag and the class
    the most members carry) and the element's depth."""
    if not alone:
        return []
    end = {}  # the page-order index of each element's last descendant
    for element in reversed(elements):
        last = element[-1] if len(element) else None
        while last is not None and not isinstance(last.tag, str):
            last = last.getprevious()
        end[element] = end[last] if last is not None and last in end else order[element]
    named: dict[tuple[str, str], list[int]] = {}
    for i, element in enumerate(elements):
        for name in _classes(element):
            named.setdefault((element.tag, name), []).append(i)
    found = []
    for element, level in alone:
        start, stop = order.get(element), end.get(element)
        if start is None or stop == start:
            continue
        below = set()
        for name in _classes(element):
            places = named.get((element.tag, name), ())
            below.update(places[bisect_right(places, start) : bisect_right(places, stop)])
        if not below or len(below) > MOST_CHAINED:
            continue
        shape = inner(element)
        if not shape:
            continue
        nested = [elements[i] for i in sorted(below) if alike(inner(elements[i]), shape)]
        if not nested:
            continue
        members = [element, *nested]
        counts: dict[str, int] = {}
        for member in members:
            for name in _classes(member):
                counts[name] = counts.get(name, 0) + 1
        best = min(counts, key=lambda n: (-counts[n], n))
        found.append((members, f"{element.tag}.{best}", level))
    return found


def own_texts(members: list, stats: dict) -> list[int]:
    """Each member's text without the text of members nested in it."""
    chars = {m: stats[m].text if m in stats else 0 for m in members}
    own = dict(chars)
    inside = set(members)
    for member in members:
        holder = next((a for a in member.iterancestors() if a in inside), None)
        if holder is not None:
            own[holder] -= chars[member]
    return [max(0, own[m]) for m in members]


def role_base(key: str) -> str | None:
    """The key a role of rows was split from (`with_roles`), None for a key of no role."""
    base, bar, role = key.rpartition("|")
    return base if bar and role.isdigit() else None


def _record_rows(children: list, keys: list[str]) -> dict:
    """For each sibling of a role of rows (`with_roles`), the rows of its record: itself
    and its neighbours of the other roles (a text row's header row above it)."""
    rows = {}
    for i, (child, key) in enumerate(zip(children, keys, strict=True)):
        base = role_base(key)
        if base is None:
            continue
        near = [
            children[j]
            for j in (i - 1, i + 1)
            if 0 <= j < len(keys) and keys[j] != key and role_base(keys[j]) == base
        ]
        rows[child] = [child, *near]
    return rows


def _evidence(element: etree._Element) -> tuple[bool, bool, bool, int]:
    """A time, a link to a person, schema.org microdata of a record below the element, and
    how many elements are there."""
    text = " ".join(element.itertext())[:2000]
    has_time = bool(TIME_TEXT.search(text))
    has_person = has_micro = False
    descendants = 0
    for d in element.iter(etree.Element):
        descendants += 1
        if d.tag == "time" or d.get("datetime"):
            has_time = True
        elif d.tag == "a":
            href = d.get("href") or ""
            if PERSON_LINK.search(href) or d.get("rel") == "author":
                has_person = True
        if d.get("itemtype") and MICRODATA.search(d.get("itemtype")):
            has_micro = True
    return has_time, has_person, has_micro, descendants


def _features(key, words, members, texts, stats, level, order, total, page_chars, rows) -> dict:
    """The group's features; evidence of a role of rows is read in its record's rows."""
    n = len(members)
    chars = sum(texts) / n
    spread = (sum((t - chars) ** 2 for t in texts) / n) ** 0.5 / (chars + 1)
    links = sum(stats[m].link if m in stats else 0 for m in members) / (sum(texts) + 1)
    prose = sum(stats[m].prose if m in stats else 0 for m in members) / (sum(texts) + 1)
    times = persons = micro = descendants = 0
    for member in members:
        found = [_evidence(e) for e in rows.get(member, (member,))]
        times += any(f[0] for f in found)
        persons += any(f[1] for f in found)
        micro += any(f[2] for f in found)
        descendants += found[0][3]
    tag = members[0].tag
    return {
        "members": math.log(n),
        "chars": math.log1p(chars),
        "spread": min(spread, 3.0),
        "links": links,
        "times": times / n,
        "persons": persons / n,
        "microdata": micro / n,
        "depth": min(level, 30) / 30,
        "position": order.get(members[0], 0) / total,
        "share": sum(texts) / page_chars,
        "record_words": float(bool(RECORD_WORDS.search(words))),
        "chrome_words": float(bool(CHROME_WORDS.search(words))),
        "elements": math.log1p(descendants / n),
        "prose": prose,
        "tag_li": float(tag == "li"),
        "tag_tr": float(tag == "tr"),
        "tag_article": float(tag == "article"),
        "tag_table": float(tag == "table"),
        "tag_p": float(tag in ("p", "br", "span", "a", "b", "strong", "em", "i")),  # text-level
        "tag_div": float(tag == "div"),
        "classed": float("." in key),  # the siblings carry a class name
        "role": float(members[0] in rows),  # one role of rows taking turns (`with_roles`)
        "chain": 0.0,  # records nested in one another, none with a sibling (`chains`)
    }


@dataclass(frozen=True)
class Model:
    """A logistic model over standardised features, as `benchmarks/records_model.py` fits it."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]
    intercept: float
    threshold: float = 0.5  # groups at or above are records
    gate: float = 0.05  # a page whose best group is below this has no records

    def score(self, features: dict) -> float:
        z = self.intercept
        for name, mean, scale, coef in zip(FEATURES, self.mean, self.scale, self.coef, strict=True):
            z += coef * (features[name] - mean) / scale
        return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))

    @classmethod
    def from_dict(cls, data: dict) -> Model:
        if list(data["features"]) != list(FEATURES):
            raise ValueError(f"{MODEL_PATH}: features {data['features']} are not {FEATURES}")
        return cls(
            tuple(data["mean"]), tuple(data["scale"]), tuple(data["coef"]),
            float(data["intercept"]), float(data.get("threshold", 0.5)),
            float(data.get("gate", 0.05)),
        )  # fmt: skip

    def to_dict(self) -> dict:
        return {"features": list(FEATURES), "mean": list(self.mean), "scale": list(self.scale),
                "coef": list(self.coef), "intercept": self.intercept,
                "threshold": self.threshold, "gate": self.gate}  # fmt: skip


@dataclass(frozen=True)
class Forest:
    """A forest of decision trees over the raw features (the mean of the trees' leaf shares
    of record groups is the score), as `benchmarks/records_model.py --kind forest` fits it.
    Each tree is a tuple of nodes: (feature index, or -1 at a leaf; threshold; left; right;
    the leaf's share)."""

    trees: tuple
    threshold: float = 0.5  # groups at or above are records
    gate: float = 0.05  # a page whose best group is below this has no records

    def score(self, features: dict) -> float:
        values = [features[name] for name in FEATURES]
        total = 0.0
        for nodes in self.trees:
            i = 0
            while nodes[i][0] >= 0:
                feature, cut, left, right, _ = nodes[i]
                i = left if values[feature] <= cut else right
            total += nodes[i][4]
        return total / len(self.trees)

    def to_dict(self) -> dict:
        return {"kind": "forest", "features": list(FEATURES),
                "trees": [[list(node) for node in tree] for tree in self.trees],
                "threshold": self.threshold, "gate": self.gate}  # fmt: skip

    @classmethod
    def from_dict(cls, data: dict) -> Forest:
        if list(data["features"]) != list(FEATURES):
            raise ValueError(f"{MODEL_PATH}: features {data['features']} are not {FEATURES}")
        trees = tuple(tuple(tuple(node) for node in tree) for tree in data["trees"])
        return cls(trees, float(data.get("threshold", 0.5)), float(data.get("gate", 0.05)))


def load_model(data: dict) -> Model | Forest:
    """A model from its JSON form: a forest, or the logistic model."""
    return Forest.from_dict(data) if data.get("kind") == "forest" else Model.from_dict(data)


@lru_cache(maxsize=1)
def shipped_model() -> Model | Forest | None:
    """The model shipped beside this module (None, with detection falling back to the papers'
    methods, when the file is missing)."""
    try:
        return load_model(json.loads(MODEL_PATH.read_text(encoding="utf-8")))
    except FileNotFoundError:
        return None


def scored(body: etree._Element, stats: dict | None = None, model: Model | None = None) -> list:
    """The page's groups, each with its score, best first."""
    model = model or shipped_model()
    found = groups(body, stats)
    if model is None:
        return found
    for group in found:
        group.score = model.score(group.features)
    found.sort(key=lambda g: -g.score)
    return found


def best_score(
    body: etree._Element, stats: dict | None = None, model: Model | None = None
) -> float:
    """The best group's score: below the model's gate the page has no records."""
    found = scored(body, stats, model)
    return found[0].score if found else 0.0


def signature_records(
    body: etree._Element, stats: dict | None = None, model: Model | None = None
) -> list[etree._Element]:
    """The blocks of the groups the model takes for records, in page order: accepted groups,
    best first, each kept unless it lies inside or holds one kept before."""
    return signature_groups(body, stats, model)[0]


def signature_groups(
    body: etree._Element, stats: dict | None = None, model: Model | None = None
) -> tuple[list[etree._Element], list[list[etree._Element]]]:
    """The records' blocks (`signature_records`), and the accepted groups inside a kept
    group's records that are not replies of their kind (`nested`, or a group alike the
    records inside): the comments under a Q&A page's question and answers, or lists inside
    posts (the caller tells them apart by their fields), each group's blocks in page
    order."""
    model = model or shipped_model()
    if model is None:
        return [], []
    accepted = [g for g in scored(body, stats, model) if g.score >= model.threshold]
    lists = [g for g in accepted if not g.features["chain"]]
    kept, inner_groups, replies = _picked(lists)
    # A comment and the replies nested in it (a chain) are the records where every list
    # kept outside it scores lower (a blog's one comment and its answer); a chain inside a
    # kept list's records is their replies, found by `nested`.
    for chain in (g for g in accepted if g.features["chain"]):
        if any(_within(chain.parent, k.members) for k in kept):
            continue
        if all(
            k.score < chain.score or any(_within(k.parent, [m]) for m in chain.members)
            for k in kept
        ):
            kept, inner_groups, replies = _picked([chain, *lists])
            break
    blocks = {m for g in kept for m in g.members}
    for group in kept:
        blocks.update(nested(group))
    for group in replies:
        blocks.update(group.members)
    order = {e: i for i, e in enumerate(body.iter(etree.Element))}
    under = [
        sorted({*g.members, *nested(g)} - blocks, key=lambda e: order.get(e, 0))
        for g in inner_groups
    ]
    return sorted(blocks, key=lambda e: order.get(e, 0)), [u for u in under if u]


def _picked(ordered: list[Group]) -> tuple[list[Group], list[Group], list[Group]]:
    """The groups kept as records (each unless it lies inside or holds one kept before, or
    copies them), the groups inside them not of their kind, and their replies, taking
    `ordered` in turn."""
    kept: list[Group] = []
    inner_groups: list[Group] = []
    replies: list[Group] = []
    for group in ordered:
        if any(other_role(group, k) for k in kept):
            continue  # the other rows of records kept before (their header rows)
        held = [k for k in kept if _within(k.parent, group.members)]
        if held:
            if not all(_kindred(k, group) for k in held):
                continue  # holds records kept before
            # Replies kept before the list of records they answer: that list is the
            # records, they its replies.
            kept = [k for k in kept if k not in held]
            replies.extend(held)
        outer = next((k for k in kept if _within(group.parent, k.members)), None)
        if outer is not None:
            shape = inner(group.members[0])
            if group.key == outer.key or any(alike(shape, inner(m)) for m in outer.members[:5]):
                replies.append(group)  # records of the outer kind nested in them
            elif not any(_within(group.parent, i.members) for i in inner_groups):
                inner_groups.append(group)
            continue
        if kept and copied(group, kept):
            continue  # the records again (a copy for clients without scripts)
        if kept and not any(_kindred(group, k) for k in kept):
            continue  # a list of another layout elsewhere (related threads, latest posts)
        kept.append(group)
    return kept, inner_groups, replies


def _kindred(group: Group, kept: Group) -> bool:
    """The group's records are laid out as the kept ones: the same key or alike inside."""
    return group.key == kept.key or alike(inner(group.members[0]), inner(kept.members[0]))


def copied(group: Group, kept: list[Group]) -> bool:
    """Most of the group's members are the text of records kept before, again: a page that
    renders its posts twice (a script's view and a plain copy for clients without one)."""
    seen = {w for k in kept for m in k.members for w in _words(m)}
    again = 0
    for member in group.members:
        words = _words(member)
        again += bool(words) and sum(w in seen for w in words) >= COPIED * len(words)
    return again * 2 > len(group.members)


# A member is a copy when this share of its words is in records kept before.
COPIED = 0.9
WORD = re.compile(r"\w+")


def _words(element: etree._Element) -> list[str]:
    return WORD.findall(" ".join(element.itertext()))


def other_role(group: Group, kept: Group) -> bool:
    """The two groups are roles of one cycle of rows (`with_roles`) under one parent."""
    base = role_base(group.key)
    return base is not None and group.parent is kept.parent and role_base(kept.key) == base


def nested(group: Group) -> list[etree._Element]:
    """Records nested in the group's members: descendants of their tag carrying the class
    that keys the group, or of their custom element's tag (<x-comment>, whose name says
    what it is), and alike inside (a reply under a comment, alone in its list or among
    siblings)."""
    if "|" in group.key:
        return []  # a signature of its own or a role of rows: nothing nested of its kind
    tag, _, name = group.key.partition(".")
    shape = inner(group.members[0])
    if not shape:
        return []  # a bare shape is alike any other
    found = []
    for member in group.members:
        for d in member.iterdescendants(tag):
            if (name in _classes(d) if name else "-" in tag) and alike(inner(d), shape):
                found.append(d)
    return found


def _within(element: etree._Element, members: list) -> bool:
    """`element` is one of `members` or below one."""
    ancestors = set(element.iterancestors())
    ancestors.add(element)
    return any(m in ancestors for m in members)
