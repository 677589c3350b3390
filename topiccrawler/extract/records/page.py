"""All records of one page: forum posts or listed threads (SoL), else comments (POL)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urljoin

from lxml import etree

from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.comments import RecordOptions, comment_regions, extract_comments
from topiccrawler.extract.records.fields import page_evidence
from topiccrawler.extract.records.forum import extract_forum, is_forum_page, unwrap
from topiccrawler.extract.tree import clean_tree, text_stats
from topiccrawler.items import CommentRecord, PostRecord, ThreadRecord


@dataclass
class PageRecords:
    kind: str = ""  # "thread" (a forum thread page), "list" (a thread list) or ""
    comments: list[CommentRecord] = field(default_factory=list)
    posts: list[PostRecord] = field(default_factory=list)
    threads: list[ThreadRecord] = field(default_factory=list)
    # The elements of the given tree holding the comments and replies (a thread's first post,
    # its body, is not among them): what the body extractor leaves out.
    elements: list[etree._Element] = field(default_factory=list, repr=False)


def extract_records(
    page: str | etree._Element,
    options: RecordOptions = RecordOptions(),
    now: datetime | None = None,
    url: str | None = None,
) -> PageRecords:
    """Comments, posts and threads of a page (HTML text or a parsed tree, left untouched);
    the page is kept as it is for a client without JavaScript (<noscript> content shown).

    SoL decides the page's kind. On a page that says it is a forum (URL, generator) SoL goes
    first and POL only runs when it finds nothing. Elsewhere the repeated blocks of a thread
    page are posts, not comments, and comments found outside them (under each answer of a Q&A
    page) are kept; a thread list is only believed on a page without comments.
    """
    root = parse_html(page) if isinstance(page, str) else page
    url = url or root.getroottree().docinfo.URL
    generator = page_generator(root)
    if isinstance(page, str):  # the tree is this function's own: cleaned where it is
        return detect_records(clean_tree(root, unwrap=("noscript",), in_place=True),
                              options, now, url, generator)  # fmt: skip
    # Detection changes the tree it works on: a copy, mapped back to the caller's elements.
    tree = copy.deepcopy(root)
    origin = dict(zip(tree.iter(), root.iter(), strict=True))
    clean_tree(tree, unwrap=("noscript",), in_place=True)
    records = detect_records(tree, options, now, url, generator)
    records.elements = [origin[e] for e in records.elements if e in origin]
    return records


def page_generator(root: etree._Element) -> str:
    """What the page's <meta name="generator"> says (forum software names itself there)."""
    return " ".join(root.xpath("//meta[@name='generator']/@content"))


def detect_records(
    tree: etree._Element,
    options: RecordOptions = RecordOptions(),
    now: datetime | None = None,
    url: str | None = None,
    generator: str = "",
    stats: dict | None = None,
) -> PageRecords:
    """The records of a page cleaned by `clean_tree` (see extract_records), found in that tree
    and left as they were (rows detection wrapped are unwrapped again), so the caller can go on
    with it; the records' `elements` are the tree's. `stats`: its <body>'s `text_stats`, if
    the caller has them."""
    body = tree.find("body")
    if body is None:
        body = tree
    if stats is None:
        stats = text_stats(body)  # one pass each, for both detectors
    evidence = page_evidence(body, known=stats)
    try:
        records, blocks = _detect(body, options, now, url, generator, stats, evidence)
        return finish(records, blocks, stats, url)  # before the wrappers are undone
    finally:
        restore(body, stats)


def _detect(body, options, now, url, generator, stats, evidence) -> tuple[PageRecords, list]:
    if is_forum_page(url, generator):
        return forum_records(body, options, now, url, generator, stats, evidence)
    regions = comment_regions(body, options, stats, evidence)
    found = extract_forum(
        body,
        url=url,
        options=options.forum,
        now=now,
        has_comments=bool(regions),
        generator=generator,
        stats=stats,
        evidence=evidence,
    )
    if found.kind:
        # Comments under the posts (under each answer of a Q&A page) stay comments; a
        # region POL took for comments that is the thread list's rows is the list.
        regions = outside(regions, found.blocks)
    comment_blocks = [b for r in regions for b in r.blocks]
    if found.kind == "thread":
        comments = extract_comments(body, options, now=now, regions=regions) if regions else []
        records = PageRecords(kind="thread", posts=found.posts, comments=comments)
        blocks = found.blocks[1:] + comment_blocks  # the first post is the thread's body
    elif found.kind == "list" and not regions:
        records = PageRecords(kind="list", threads=found.threads)
        blocks = []
    else:
        records = PageRecords(comments=extract_comments(body, options, now=now, regions=regions))
        blocks = comment_blocks
    return records, blocks


# Elements detection may have made: `interleaved` wraps rows in attribute-less <div>/<tbody>.
_MADE = etree.XPath("descendant::div[not(@*)] | descendant::tbody[not(@*)]")


def restore(body: etree._Element, stats: dict) -> None:
    """Undo what detection changed in the tree: the wrappers it made (elements the page did not
    have when its `stats` were taken) give their rows back to their parents."""
    for element in _MADE(body):
        if element not in stats and element.getparent() is not None:
            unwrap(element)


def forum_records(body, options, now, url, generator, stats, evidence) -> tuple[PageRecords, list]:
    """A page that says it is a forum: SoL first. Records POL finds where SoL found a list,
    a lone post or nothing are the forum's posts too (a layout SoL splits, a list of posts).
    Returns the records and the blocks holding the replies (all posts but the first)."""
    found = extract_forum(
        body, url=url, options=options.forum, now=now, generator=generator, stats=stats
    )  # a forum: every node compared
    if found.kind == "thread" and len(found.posts) > 1:
        return PageRecords(kind="thread", posts=found.posts), found.blocks[1:]
    regions = outside(comment_regions(body, options, stats, evidence), found.blocks)  # not rows
    comments = extract_comments(body, options, now=now, regions=regions) if regions else []
    if len(comments) > len(found.posts):
        posts = [
            PostRecord(c.text, c.author, c.author_url, c.time, c.published_at, c.time_attr)
            for c in comments
        ]
        return PageRecords(kind="thread", posts=posts), [b for r in regions for b in r.blocks][1:]
    if found.kind == "thread":
        return PageRecords(kind="thread", posts=found.posts), found.blocks[1:]
    if found.kind == "list":
        return PageRecords(kind="list", threads=found.threads), []
    return PageRecords(), []


def outside(regions: list, blocks: list) -> list:
    """The comment regions whose blocks are not, and do not hold, any of `blocks`."""
    taken = set(blocks)
    return [
        r
        for r in regions
        if not any(b in taken or any(d in taken for d in b.iterdescendants()) for b in r.blocks)
    ]


def attributed(posts: list[PostRecord]) -> list[PostRecord]:
    """Posts without author and time are dropped where (nearly) all others have both: a
    header of the reply box or a list inside a post, taken for a post of its own."""
    full = sum(bool(p.author and p.time) for p in posts)
    bare = [p for p in posts if not p.author and not p.time]
    if len(posts) < 3 or not bare or full < 0.8 * (len(posts) - len(bare)) or full < 2:
        return posts
    return [p for p in posts if p.author or p.time]


def finish(records: PageRecords, blocks: list, known: dict, url: str | None) -> PageRecords:
    """The records with their blocks as elements the page had (`known`, its elements before
    detection: a block `interleaved` made stands for its members), and thread links made
    absolute; posts without author and time dropped where the others have both
    (`attributed`)."""
    records.posts = attributed(records.posts)
    for block in blocks:
        members = [block] if block in known else list(block)
        records.elements.extend(m for m in members if m in known)
    return absolute_links(records, url)


def absolute_links(records: PageRecords, base: str | None) -> PageRecords:
    """Thread links resolved against the page's address (they are crawled and stored by it).
    Author links stay as written; storage resolves them."""
    if base:
        for thread in records.threads:
            thread.url = urljoin(base, thread.url)
    return records
