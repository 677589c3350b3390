"""All records of one page: forum posts or listed threads (SoL), else comments (POL)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urljoin

from lxml import etree, html

from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.comments import RecordOptions, comment_regions, extract_comments
from topiccrawler.extract.records.forum import extract_forum, is_forum_page
from topiccrawler.extract.tree import clean_tree, text_stats
from topiccrawler.items import CommentRecord, PostRecord, ThreadRecord


@dataclass
class PageRecords:
    kind: str = ""  # "thread" (a forum thread page), "list" (a thread list) or ""
    comments: list[CommentRecord] = field(default_factory=list)
    posts: list[PostRecord] = field(default_factory=list)
    threads: list[ThreadRecord] = field(default_factory=list)


_PLAIN_PARSER = etree.HTMLParser(huge_tree=True, remove_comments=True, remove_pis=True)


def plain_copy(root: html.HtmlElement) -> etree._Element:
    """A copy of the page as plain lxml elements. Record detection walks the tree many times
    over; lxml.html's element classes cost a Python lookup per element visited, plain
    elements do not (a third less time per walk, for a re-parse of a few milliseconds)."""
    copy = etree.fromstring(etree.tostring(root, encoding="unicode"), _PLAIN_PARSER)
    return copy if copy is not None else etree.Element("html")


def extract_records(
    page: str | html.HtmlElement,
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
    tree = clean_tree(plain_copy(root), unwrap=("noscript",), in_place=True)
    body = tree.find("body")
    if body is None:
        body = tree
    stats = text_stats(body)  # one pass, for both detectors
    generator = " ".join(root.xpath("//meta[@name='generator']/@content"))
    if is_forum_page(url, generator):
        return absolute_links(
            forum_records(body, options, now, url, generator, stats), root.base_url or url
        )
    regions = comment_regions(body, options, stats)
    found = extract_forum(
        body,
        url=url,
        options=options.forum,
        now=now,
        has_comments=bool(regions),
        generator=generator,
        stats=stats,
    )
    if found.kind:
        # Comments under the posts (under each answer of a Q&A page) stay comments; a
        # region POL took for comments that is the thread list's rows is the list.
        regions = outside(regions, found.blocks)
    if found.kind == "thread":
        comments = extract_comments(body, options, now=now, regions=regions) if regions else []
        records = PageRecords(kind="thread", posts=found.posts, comments=comments)
    elif found.kind == "list" and not regions:
        records = PageRecords(kind="list", threads=found.threads)
    else:
        records = PageRecords(comments=extract_comments(body, options, now=now, regions=regions))
    return absolute_links(records, root.base_url or url)


def forum_records(body, options, now, url, generator, stats) -> PageRecords:
    """A page that says it is a forum: SoL first. Records POL finds where SoL found a list,
    a lone post or nothing are the forum's posts too (a layout SoL splits, a list of posts)."""
    found = extract_forum(
        body, url=url, options=options.forum, now=now, generator=generator, stats=stats
    )
    if found.kind == "thread" and len(found.posts) > 1:
        return PageRecords(kind="thread", posts=found.posts)
    regions = outside(comment_regions(body, options, stats), found.blocks)  # not the list's rows
    comments = extract_comments(body, options, now=now, regions=regions) if regions else []
    if len(comments) > len(found.posts):
        posts = [
            PostRecord(c.text, c.author, c.author_url, c.time, c.published_at) for c in comments
        ]
        return PageRecords(kind="thread", posts=posts)
    if found.kind == "thread":
        return PageRecords(kind="thread", posts=found.posts)
    if found.kind == "list":
        return PageRecords(kind="list", threads=found.threads)
    return PageRecords()


def outside(regions: list, blocks: list) -> list:
    """The comment regions whose blocks are not, and do not hold, any of `blocks`."""
    taken = set(blocks)
    return [
        r
        for r in regions
        if not any(b in taken or any(d in taken for d in b.iterdescendants()) for b in r.blocks)
    ]


def absolute_links(records: PageRecords, base: str | None) -> PageRecords:
    """Thread links resolved against the page's address (they are crawled and stored by it).
    Author links stay as written; storage resolves them."""
    if base:
        for thread in records.threads:
            thread.url = urljoin(base, thread.url)
    return records
