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
    cleaned: tuple[etree._Element, dict] | None = None,
) -> PageRecords:
    """Comments, posts and threads of a page (HTML text or a parsed tree, left untouched);
    the page is kept as it is for a client without JavaScript (<noscript> content shown).

    SoL decides the page's kind. On a page that says it is a forum (URL, generator) SoL goes
    first and POL only runs when it finds nothing. Elsewhere the repeated blocks of a thread
    page are posts, not comments, and comments found outside them (under each answer of a Q&A
    page) are kept; a thread list is only believed on a page without comments.

    `cleaned`: the page as `clean_tree` leaves it and its <body>'s `text_stats`, which the
    caller shares with the body extractor (see `shared_records`): detection runs in that tree
    and the records' elements are its own.
    """
    root = parse_html(page) if isinstance(page, str) else page
    url = url or root.getroottree().docinfo.URL
    if cleaned is not None:
        tree, stats = cleaned
        origin = None
    else:
        # Detection changes the tree it works on: a copy, mapped back to the caller's elements
        # (text given: no caller's elements, the copy's are given).
        tree = copy.deepcopy(root)
        origin = None if isinstance(page, str) else dict(zip(tree.iter(), root.iter(), strict=True))
        clean_tree(tree, unwrap=("noscript",), in_place=True)
        stats = None
    body = tree.find("body")
    if body is None:
        body = tree
    if stats is None:
        stats = text_stats(body)  # one pass each, for both detectors
    if origin is None:  # the tree's own elements are given
        origin = Known(stats)
    evidence = page_evidence(body, known=stats)
    generator = " ".join(root.xpath("//meta[@name='generator']/@content"))
    if is_forum_page(url, generator):
        records, blocks = forum_records(body, options, now, url, generator, stats, evidence)
        return finish(records, blocks, origin, url)
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
    return finish(records, blocks, origin, url)


def shared_records(
    root: etree._Element,
    tree: etree._Element,
    stats: dict,
    options: RecordOptions = RecordOptions(),
    now: datetime | None = None,
    url: str | None = None,
) -> PageRecords:
    """`extract_records` of `root` in `tree`, `clean_tree(root)` made by the caller, with its
    <body>'s `stats`: the tree is left as it was (rows detection wrapped given back to their
    parents), for the caller to go on with; the records' elements are the tree's."""
    body = tree.find("body")
    try:
        return extract_records(root, options, now, url, cleaned=(tree, stats))
    finally:
        restore(body if body is not None else tree, stats)


class Known:
    """The elements a page had when its statistics were taken, each standing for itself (in
    the place of a copy's map to the caller's elements): what `finish` reads."""

    def __init__(self, stats: dict):
        self.stats = stats

    def __contains__(self, element: etree._Element) -> bool:
        return element in self.stats

    def __getitem__(self, element: etree._Element) -> etree._Element:
        return element


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


def finish(records: PageRecords, blocks: list, origin: dict, url: str | None) -> PageRecords:
    """The records with their blocks as elements of the caller's tree (a block `interleaved`
    made stands for its members), and thread links made absolute; posts without author and
    time dropped where the others have both (`attributed`)."""
    records.posts = attributed(records.posts)
    for block in blocks:
        members = [block] if block in origin else list(block)
        records.elements.extend(origin[m] for m in members if m in origin)
    return absolute_links(records, url)


def absolute_links(records: PageRecords, base: str | None) -> PageRecords:
    """Thread links resolved against the page's address (they are crawled and stored by it).
    Author links stay as written; storage resolves them."""
    if base:
        for thread in records.threads:
            thread.url = urljoin(base, thread.url)
    return records
