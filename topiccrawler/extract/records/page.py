"""All records of one page: comments, forum posts, listed threads."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from lxml import html

from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.comments import RecordOptions, extract_comments
from topiccrawler.extract.tree import clean_tree
from topiccrawler.items import CommentRecord, PostRecord, ThreadRecord


@dataclass
class PageRecords:
    comments: list[CommentRecord] = field(default_factory=list)
    posts: list[PostRecord] = field(default_factory=list)
    threads: list[ThreadRecord] = field(default_factory=list)


def extract_records(
    page: str | html.HtmlElement,
    options: RecordOptions = RecordOptions(),
    now: datetime | None = None,
) -> PageRecords:
    """Comments, posts and threads of a page (HTML text or a parsed tree, left untouched)."""
    root = parse_html(page) if isinstance(page, str) else page
    tree = clean_tree(root)
    body = tree.find("body")
    if body is None:
        body = tree
    return PageRecords(comments=extract_comments(body, options, now=now))
