"""Rows of a thread list (SPEC §5, R2–R4): each row's title link, author, time and its reply and
view counts.
"""

from __future__ import annotations

import re
from datetime import datetime

from lxml import etree

from topiccrawler.extract.dates import parse_time
from topiccrawler.extract.records.authors import clean_author, hinted_author
from topiccrawler.extract.records.markup import SemanticNode
from topiccrawler.extract.records.nodes import (
    best_key,
    noise_keys,
    semantic_nodes,
)
from topiccrawler.items import ThreadRecord

NUMBER = re.compile(r"\d[\d,.]*\s*[kKmM万千]?")


def thread_rows(blocks: list[etree._Element], now: datetime | None = None) -> list[ThreadRecord]:
    """R2 title (the link position with the longest average anchor), R5 author, R4 time, R3
    reply and view counts of each list row."""
    nodes = [semantic_nodes(b) for b in blocks]
    noise = noise_keys(nodes)

    def average(key_of, test) -> dict[str, float]:
        totals: dict[str, list[float]] = {}
        for block_nodes in nodes:
            for node in block_nodes:
                if node.key not in noise and test(node):
                    totals.setdefault(node.key, []).append(key_of(node))
        return {k: sum(v) / len(nodes) for k, v in totals.items()}

    links = average(lambda n: len(n.link_text), lambda n: bool(n.link_text))
    title_key = max(links, key=links.get) if links else None
    time_key = best_key(nodes, lambda n: n.time is not None and n.key not in noise)
    counts = _count_keys(nodes, noise, {title_key, time_key})
    rows = []
    for block, block_nodes in zip(blocks, nodes, strict=True):
        title_node = next((n for n in block_nodes if n.key == title_key), None)
        if title_node is None:
            continue
        anchor = _anchor(title_node)
        time_node = next((n for n in block_nodes if n.key == time_key and n.time), None)
        author = hinted_author(block)
        name = author[0] if author else _first_short_link(block_nodes, title_node, time_node)
        replies, views = _counts(block_nodes, counts)
        rows.append(
            ThreadRecord(
                title=anchor[1] or title_node.text,
                url=anchor[0],
                author=name,
                time=time_node.time if time_node else None,
                published_at=parse_time(time_node.machine_time or time_node.time, now=now)
                if time_node
                else None,
                replies=replies,
                views=views,
            )
        )
    return rows


def _anchor(node: SemanticNode) -> tuple[str, str]:
    """(href, text) of the longest link in the node."""
    element = node.element
    anchors = [element] if element.tag == "a" else list(element.iter("a"))
    best = max(anchors, key=lambda a: len("".join(a.itertext()).strip()), default=None)
    if best is None:
        return "", ""
    return (best.get("href") or "").strip(), " ".join("".join(best.itertext()).split())


def _first_short_link(nodes, title_node, time_node) -> str | None:
    """R5 without a label: the earliest short link that is not the title or the time."""
    for node in nodes:
        if node is title_node or node is time_node or not node.link_text:
            continue
        name = clean_author(node.link_text)
        if name and not NUMBER.fullmatch(name):
            return name
    return None


REPLIES_LABEL = re.compile(r"回复|回帖|repl|antwort|comment|posts", re.I)


VIEWS_LABEL = re.compile(r"查看|浏览|阅读|点击|人气|view|hits|read|aufruf|zugriff", re.I)


def _count_keys(nodes, noise, taken) -> list[str]:
    """R3: positions holding a number in every row, in page order."""
    keys = []
    for key in dict.fromkeys(n.key for block_nodes in nodes for n in block_nodes):
        if key in noise or key in taken:
            continue
        values = [next((n for n in b if n.key == key), None) for b in nodes]
        if all(v is not None and NUMBER.search(v.text) and not v.time for v in values):
            keys.append(key)
    return keys


def _number(text: str) -> int | None:
    match = NUMBER.search(text)
    if not match:
        return None
    raw = match.group(0).replace(",", "").strip()
    scale = {"k": 1000, "K": 1000, "m": 1000000, "M": 1000000, "万": 10000, "千": 1000}
    factor = scale.get(raw[-1], 1)
    try:
        return int(float(raw.rstrip("kKmM万千").strip() or 0) * factor)
    except ValueError:
        return None


def _counts(block_nodes: list[SemanticNode], keys: list[str]) -> tuple[int | None, int | None]:
    """Replies and views: labelled when the page labels them; two numbers in one cell
    ("12/345", "12 345") are replies then views; else the smaller of two counts is replies."""
    values = [n for n in block_nodes if n.key in keys]
    replies = views = None
    numbers: list[int] = []
    for node in values:
        if REPLIES_LABEL.search(node.text):
            replies = _number(node.text)
        elif VIEWS_LABEL.search(node.text):
            views = _number(node.text)
        else:
            found = [_number(m) for m in NUMBER.findall(node.text)]
            found = [x for x in found if x is not None]
            if len(found) >= 2 and not numbers:
                return found[0], found[1]
            numbers.extend(found)
    if replies is None and views is None and len(numbers) >= 2:
        return min(numbers[:2]), max(numbers[:2])
    if replies is None and numbers:
        replies = numbers[0]
    return replies, views
