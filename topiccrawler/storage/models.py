"""SQLAlchemy models for everything a crawl stores (SPEC §8).

Pages are unique per (topic, url_hash): the same URL crawled for two topics has two relevance
decisions. Comments and posts are unique per (page, content_hash), so seeing one again adds nothing.
The schema is created and upgraded by the Alembic migrations in `storage/migrations`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# Stable constraint names so migrations behave the same on SQLite and PostgreSQL.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

HASH_LENGTH = 40  # hex SHA-1


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class CrawlRun(Base):
    """One run of the spider: when, for which topic, how it ended, and its Scrapy stats."""

    __tablename__ = "crawl_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    topic: Mapped[str] = mapped_column(String(100), index=True)
    spider: Mapped[str] = mapped_column(String(100))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finish_reason: Mapped[str | None] = mapped_column(String(100))
    host: Mapped[str | None] = mapped_column(String(255))
    pid: Mapped[int | None] = mapped_column(Integer)
    stats: Mapped[dict | None] = mapped_column(JSON)


class Page(Base):
    """A fetched page with what was extracted from it and the decisions taken about it."""

    __tablename__ = "pages"
    __table_args__ = (UniqueConstraint("topic", "url_hash"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    topic: Mapped[str] = mapped_column(String(100), index=True)
    url: Mapped[str] = mapped_column(Text)
    url_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), index=True)
    canonical_url: Mapped[str] = mapped_column(Text)
    site: Mapped[str] = mapped_column(String(255), index=True)
    status: Mapped[int] = mapped_column(Integer)
    content_type: Mapped[str | None] = mapped_column(String(255))
    encoding: Mapped[str | None] = mapped_column(String(50))
    title: Mapped[str | None] = mapped_column(Text)
    title_key: Mapped[str | None] = mapped_column(Text)  # normalised title tokens, for dedup
    body_hash: Mapped[int | None] = mapped_column(BigInteger)  # SimHash of the body, for dedup
    body: Mapped[str | None] = mapped_column(Text)
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    published_text: Mapped[str | None] = mapped_column(String(255))
    author: Mapped[str | None] = mapped_column(String(255))
    source: Mapped[str | None] = mapped_column(String(255))
    entrance: Mapped[str | None] = mapped_column(String(20))
    depth: Mapped[int | None] = mapped_column(Integer)
    referrer: Mapped[str | None] = mapped_column(Text)
    link_density: Mapped[float | None] = mapped_column(Float)  # link text / text: hubs are high
    relevance: Mapped[float | None] = mapped_column(Float)
    relevance_detail: Mapped[dict | None] = mapped_column(JSON)
    is_relevant: Mapped[bool | None] = mapped_column(Boolean)
    # The briefing (pipelines/briefing.py): [[word, weight], …], a few sentences, and
    # [{"name", "kind", "mentions"}, …] for the people, places and organisations named.
    # Validators of the fetched page, sent back when it is revisited (conditional GET).
    etag: Mapped[str | None] = mapped_column(String(255))
    last_modified: Mapped[str | None] = mapped_column(String(64))
    keywords: Mapped[list | None] = mapped_column(JSON)
    summary: Mapped[str | None] = mapped_column(Text)
    entities: Mapped[list | None] = mapped_column(JSON)
    duplicate_of_id: Mapped[int | None] = mapped_column(ForeignKey("pages.id", ondelete="SET NULL"))
    first_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    crawl_run_id: Mapped[int | None] = mapped_column(
        ForeignKey("crawl_runs.id", ondelete="SET NULL"),
        index=True,  # a run's pages counted
    )
    # How the page was first found: "start", "link", "search", "feed" or "sitemap" (kept when
    # a later crawl finds it another way); None for pages stored before it was recorded.
    found_by: Mapped[str | None] = mapped_column(String(20))


class DiscoverySource(Base):
    """A feed or sitemap of an authority site (discovery/), with the validators its last answer
    carried, so that the next crawl asks for it with a conditional GET."""

    __tablename__ = "discovery_sources"
    __table_args__ = (UniqueConstraint("topic", "url_hash"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    topic: Mapped[str] = mapped_column(String(100), index=True)
    site: Mapped[str] = mapped_column(String(255))  # the authority site's name
    kind: Mapped[str] = mapped_column(String(20))  # "feed" or "sitemap"
    url: Mapped[str] = mapped_column(Text)
    url_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    depth: Mapped[int] = mapped_column(Integer)  # sitemap indexes above it (0: found directly)
    status: Mapped[int | None] = mapped_column(Integer)  # of its last answer
    etag: Mapped[str | None] = mapped_column(String(255))
    last_modified: Mapped[str | None] = mapped_column(String(64))
    entries: Mapped[int | None] = mapped_column(Integer)  # entries it listed when last read
    # The <lastmod> the sitemap index above it gave it when it was last read: while the index
    # gives the same, the sitemap is not asked for again.
    lastmod: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    first_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    fetched_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # 200 or 304
    changed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))  # last 200


class Comment(Base):
    """A user comment found on a page (SPEC §4)."""

    __tablename__ = "comments"
    __table_args__ = (UniqueConstraint("page_id", "content_hash"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("pages.id", ondelete="CASCADE"), index=True)
    content_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    author: Mapped[str | None] = mapped_column(String(255))
    author_url: Mapped[str | None] = mapped_column(Text)  # the author's profile link
    published_text: Mapped[str | None] = mapped_column(String(255))
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    reply_to: Mapped[str | None] = mapped_column(String(255))
    first_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ForumThread(Base):
    """A thread as listed on a forum's thread-list page (SPEC §5)."""

    __tablename__ = "forum_threads"
    __table_args__ = (UniqueConstraint("topic", "url_hash"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    topic: Mapped[str] = mapped_column(String(100), index=True)
    list_page_id: Mapped[int | None] = mapped_column(
        ForeignKey("pages.id", ondelete="SET NULL"), index=True
    )
    url: Mapped[str] = mapped_column(Text)
    url_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    title: Mapped[str | None] = mapped_column(Text)
    author: Mapped[str | None] = mapped_column(String(255))
    published_text: Mapped[str | None] = mapped_column(String(255))
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    replies: Mapped[int | None] = mapped_column(Integer)
    views: Mapped[int | None] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ForumPost(Base):
    """A post (main post or reply) on a forum thread page (SPEC §5)."""

    __tablename__ = "forum_posts"
    __table_args__ = (UniqueConstraint("page_id", "content_hash"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    page_id: Mapped[int] = mapped_column(ForeignKey("pages.id", ondelete="CASCADE"), index=True)
    content_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    author: Mapped[str | None] = mapped_column(String(255))
    author_url: Mapped[str | None] = mapped_column(Text)
    published_text: Mapped[str | None] = mapped_column(String(255))
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    accepted: Mapped[bool | None] = mapped_column(Boolean)  # a Q&A page's accepted answer
    votes: Mapped[int | None] = mapped_column(Integer)  # the score shown beside it (votes, likes)
    first_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SearchQuery(Base):
    """A query submitted to a search engine by the meta-search entrance (SPEC §1)."""

    __tablename__ = "search_queries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    topic: Mapped[str] = mapped_column(String(100), index=True)
    engine: Mapped[str] = mapped_column(String(100))
    query: Mapped[str] = mapped_column(Text)
    page: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(50))
    result_count: Mapped[int] = mapped_column(Integer)
    submitted_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    crawl_run_id: Mapped[int | None] = mapped_column(
        ForeignKey("crawl_runs.id", ondelete="SET NULL")
    )


class SearchResult(Base):
    """One result URL of a search query, with its rank."""

    __tablename__ = "search_results"
    __table_args__ = (UniqueConstraint("query_id", "rank"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    query_id: Mapped[int] = mapped_column(
        ForeignKey("search_queries.id", ondelete="CASCADE"), index=True
    )
    rank: Mapped[int] = mapped_column(Integer)
    url: Mapped[str] = mapped_column(Text)
    url_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), index=True)
    title: Mapped[str | None] = mapped_column(Text)
    snippet: Mapped[str | None] = mapped_column(Text)


class TopicTerm(Base):
    """A term of a topic's library, with its class, concept and provenance (SPEC §6)."""

    __tablename__ = "topic_terms"
    __table_args__ = (UniqueConstraint("topic", "term"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    topic: Mapped[str] = mapped_column(String(100), index=True)
    term: Mapped[str] = mapped_column(String(255))
    term_class: Mapped[str] = mapped_column(String(50))
    concept: Mapped[str] = mapped_column(String(255))
    provenance: Mapped[str] = mapped_column(String(255))
    status: Mapped[str] = mapped_column(String(20))
    score: Mapped[float | None] = mapped_column(Float)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DeadLink(Base):
    """A URL that failed: 404/410 at once, DNS failures and timeouts after repeated attempts.

    Dead links are facts about the web, not about a topic, so they are shared by all topics.
    """

    __tablename__ = "dead_links"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    url_hash: Mapped[str] = mapped_column(String(HASH_LENGTH), unique=True)
    url: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(String(255))
    failures: Mapped[int] = mapped_column(Integer)
    dead: Mapped[bool] = mapped_column(Boolean)
    first_failed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_failed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SearchDocument(Base):
    """One entry of the full-text index (storage/search_index.py): a page's title and body, or
    one comment or forum post, with what search filters and ranks by, copied from its page so
    that a search reads one table. The words themselves are in the store's own index: an FTS5
    table on SQLite (`search_index`, its rowid this id), a tsvector column on PostgreSQL."""

    __tablename__ = "search_documents"
    __table_args__ = (
        UniqueConstraint("page_id", "kind", "record_id"),
        # Ids are never used twice: on SQLite an index entry is taken out by its rowid.
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))  # "page", "comment" or "post"
    page_id: Mapped[int] = mapped_column(ForeignKey("pages.id", ondelete="CASCADE"))
    record_id: Mapped[int] = mapped_column(Integer)  # the comment's or post's id; 0 for a page
    topic: Mapped[str] = mapped_column(String(100))
    site: Mapped[str] = mapped_column(String(255))
    published_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    kept: Mapped[bool] = mapped_column(Boolean)  # its page is judged relevant
    relevance: Mapped[float | None] = mapped_column(Float)  # its page's
    text_hash: Mapped[int] = mapped_column(BigInteger)  # of the text as stored: changed or not
    # Of the words given to the index: SQLite's FTS5 takes an entry out only when told the same
    # words (before SQLite 3.43), split again from the stored text and checked against this.
    words_hash: Mapped[int] = mapped_column(BigInteger)
