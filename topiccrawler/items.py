"""Items the spider yields. A page carries its comments, posts and listed threads, so that one
item passes through the pipelines (extraction → dedup → relevance → storage) as one unit."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from topiccrawler.read_ahead import Ahead

# How a page was found, in the order runs report them (PageItem.found_by, pages.found_by).
FOUND_BY_WAYS = ("start", "link", "search", "feed", "sitemap")


@dataclass
class CommentRecord:
    """A user comment under an article or post (SPEC §4)."""

    text: str
    author: str | None = None
    author_url: str | None = None  # the author's profile link, when the page gives one
    time: str | None = None  # as written on the page
    published_at: datetime | None = None
    reply_to: str | None = None
    # The time as the markup gives it (<time datetime>, title=), when that differs from the
    # shown one ("3 days ago" shown, "2024-05-21 11:04:39" in the attribute).
    time_attr: str | None = None


@dataclass
class PostRecord:
    """A forum post on a thread page (SPEC §5)."""

    text: str
    author: str | None = None
    author_url: str | None = None
    time: str | None = None
    published_at: datetime | None = None
    time_attr: str | None = None  # as in CommentRecord
    accepted: bool = False  # a Q&A page's accepted (best) answer, as the page marks it
    votes: int | None = None  # the score the page shows beside it (votes, likes), if any


@dataclass
class ThreadRecord:
    """A thread as listed on a forum's thread-list page (SPEC §5)."""

    title: str
    url: str
    author: str | None = None
    time: str | None = None
    published_at: datetime | None = None
    replies: int | None = None
    views: int | None = None


@dataclass
class PageItem:
    """A fetched page. The spider fills the fetch fields; pipelines fill the rest."""

    # What the spider knows from fetching.
    url: str
    topic: str
    status: int
    fetched_at: datetime
    html: str = field(default="", repr=False)  # decoded source; cleared before feeds see it
    raw_size: int | None = None  # bytes as fetched
    encoding: str | None = None
    content_type: str | None = None
    entrance: str | None = None  # "authority", "search" or "link"
    found_by: str | None = None  # one of FOUND_BY_WAYS (discovery/meta.py sets it)
    depth: int = 0
    referrer: str | None = None
    canonical_url: str | None = None  # the address the page names as its own (rel=canonical)
    etag: str | None = None  # validators, for conditional GET when the page is revisited
    last_modified: str | None = None
    # What extraction finds.
    title: str | None = None
    body: str | None = None
    published: str | None = None  # as written on the page
    published_at: datetime | None = None
    author: str | None = None
    source: str | None = None
    link_density: float | None = None
    blocks: dict[str, str] = field(default_factory=dict, repr=False)  # navigation, anchors, other
    extracted: bool = False
    extraction_error: str | None = None  # why extraction fell short; the page is stored anyway
    comments: list[CommentRecord] = field(default_factory=list)
    posts: list[PostRecord] = field(default_factory=list)
    threads: list[ThreadRecord] = field(default_factory=list)
    # Decisions of the later stages.
    title_key: str | None = None  # normalised title tokens (dedup), joined by spaces
    body_hash: int = 0  # SimHash of the body (dedup), 0 when unknown
    duplicate_of: str | None = None  # URL of the earlier page this one reposts
    relevance: float | None = None
    relevance_detail: dict | None = None
    is_relevant: bool | None = None
    # Work of later stages done where the page was read (an extraction worker), by stage
    # (read_ahead.py); each stage takes its part.
    read_ahead: dict[str, Ahead] = field(default_factory=dict, repr=False)
    # The briefing of a kept page (pipelines/briefing.py).
    keywords: list[tuple[str, float]] = field(default_factory=list)
    summary: str | None = None
    entities: list[dict] = field(default_factory=list)  # name, kind, mentions


@dataclass
class SearchHitRecord:
    """One result of a search query."""

    url: str
    rank: int
    title: str = ""
    snippet: str = ""


@dataclass
class SearchResultsItem:
    """One answered (or refused) result page of a query to a search engine (SPEC §1)."""

    topic: str
    engine: str
    query: str
    page: int
    status: str  # "ok", or "blocked: <reason>"
    submitted_at: datetime
    hits: list[SearchHitRecord] = field(default_factory=list)


@dataclass
class PageCheckedItem:
    """A revisited page that answered 304 Not Modified: only its check time is stored; it is
    neither extracted nor judged again."""

    url: str
    topic: str
    checked_at: datetime


@dataclass
class LinkFailureItem:
    """A URL that could not be fetched, after Scrapy's retries (storage records dead links)."""

    url: str
    reason: str
    permanent: bool  # 404/410: dead at once; DNS failures and timeouts count up
