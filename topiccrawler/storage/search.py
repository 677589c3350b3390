"""Searching what a crawl stored: the store's own full-text index, ranked and filtered.

Ranking is BM25 (FTS5's bm25 with the title counted three times the body; PostgreSQL's
ts_rank_cd with the title's words weighted A), raised by the page's relevance: a hit's score
is its text rank times (1 + SEARCH_RELEVANCE_WEIGHT × relevance), so of two pages that say the
words as well, the one more on the topic comes first. Filters (topic, site, dates, kind, kept)
are columns of the index's own entries: no join before the rank is known.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Connection, and_, bindparam, func, literal, not_, or_, select, text

from topiccrawler.search.query import Query, parse_query
from topiccrawler.search.snippets import Snippet, make_snippet
from topiccrawler.storage.models import Comment, ForumPost, Page
from topiccrawler.storage.search_index import FTS_TABLE

KINDS = ("page", "comment", "post")
RELEVANCE_WEIGHT = 2.0  # SEARCH_RELEVANCE_WEIGHT's default
TITLE_WEIGHT = 3.0  # FTS5: a title word counts as much as three of the body
RANK_WINDOW = 10000  # SEARCH_RANK_WINDOW's default: matches ranked at most, the newest


@dataclass(frozen=True)
class SearchFilters:
    """What a search is narrowed to; None is no narrowing."""

    topic: str | None = None
    site: str | None = None  # a host, or a domain that covers its subdomains
    since: datetime | None = None
    until: datetime | None = None  # exclusive
    kinds: tuple[str, ...] = KINDS
    kept_only: bool = True  # only pages judged relevant, and their comments and posts


@dataclass
class SearchHit:
    """One page, comment or post that matched, with what a list of hits shows of it."""

    kind: str
    document_id: int
    page_id: int
    record_id: int | None
    score: float
    url: str
    title: str | None
    site: str
    topic: str
    published_at: datetime | None
    relevance: float | None
    kept: bool
    author: str | None = None
    page_url: str | None = None  # a comment's or post's page
    snippet: Snippet = field(default_factory=lambda: Snippet(""))

    def as_dict(self) -> dict:
        """The hit as JSON-ready values (the CLI's --json, the web view's /api/search)."""
        return {
            "kind": self.kind,
            "url": self.url,
            "title": self.title,
            "score": round(self.score, 6),
            "snippet": self.snippet.text,
            "snippet_marks": [list(mark) for mark in self.snippet.marks],
            "published_at": self.published_at.isoformat() if self.published_at else None,
            "site": self.site,
            "topic": self.topic,
            "relevance": self.relevance,
            "kept": self.kept,
            "author": self.author,
            "page_id": self.page_id,
            **({"page_url": self.page_url} if self.kind != "page" else {}),
        }


@dataclass
class SearchResults:
    hits: list[SearchHit]
    total: int  # hits in all, or the rank window's size when there were more
    more: bool  # more hits than the rank window: the newest of them were ranked

    @property
    def total_text(self) -> str:
        return f"more than {self.total}" if self.more else str(self.total)


def search(
    connection: Connection,
    query: Query,
    filters: SearchFilters = SearchFilters(),
    limit: int = 20,
    offset: int = 0,
    relevance_weight: float = RELEVANCE_WEIGHT,
    rank_window: int | None = RANK_WINDOW,
) -> SearchResults:
    """The hits of `query` from `offset` on, best first, with their snippets.

    A query that matches more than `rank_window` entries (after the filters) is ranked among
    the newest `rank_window` of them (the most recently stored): what a match costs is then
    bounded whatever the store's size, and the total says "more than". None ranks them all."""
    where, params = _filters(filters)
    params |= {"weight": relevance_weight, "limit": limit, "offset": offset}
    source, score = _source(connection, query, params)
    count = f"SELECT count(*) FROM (SELECT 1 {source}{where}"
    if rank_window is None:
        total = connection.execute(text(f"{count}) hits"), params).scalar_one()
    else:  # counted up to one past the window: cheap, and says whether there are more
        total = connection.execute(
            text(f"{count} LIMIT :over) hits"), params | {"over": rank_window + 1}
        ).scalar_one()
    more = rank_window is not None and total > rank_window
    if more:  # the newest `rank_window` matches are ranked, those after the bound
        if connection.dialect.name == "sqlite":  # FTS5 reads its lists backwards: no sort
            newest = f"SELECT d.id {source}{where} ORDER BY {FTS_TABLE}.rowid DESC"
        else:  # the matches first (by the GIN index), then their ids in order
            newest = (
                f"WITH matches AS MATERIALIZED (SELECT d.id {source}{where}) "
                "SELECT id FROM matches ORDER BY id DESC"
            )
        params["bound"] = connection.execute(
            text(f"{newest} LIMIT 1 OFFSET :window"), params | {"window": rank_window}
        ).scalar_one()
        where += " AND d.id > :bound"
        total = rank_window
    rows = connection.execute(
        text(
            f"SELECT d.id, d.kind, d.page_id, d.record_id, d.site, d.topic, d.published_at, "
            f"d.relevance, d.kept, {score} * (1 + :weight * coalesce(d.relevance, 0)) AS score "
            f"{source}{where} ORDER BY score DESC, d.id LIMIT :limit OFFSET :offset"
        ),
        params,
    ).all()
    return SearchResults(_hits(connection, rows, query), total, more)


def matches(
    connection: Connection, query: Query, filters: SearchFilters = SearchFilters()
) -> set[tuple[str, str]]:
    """(kind, URL) of every entry the index matches, unranked and without snippets: the set
    `search` ranks when its rank window is off, read in one pass (paging through ranked hits
    ranks every match again for each page: hours for a frequent word at a million pages)."""
    where, params = _filters(filters)
    source, _ = _source(connection, query, params, join="JOIN pages p ON p.id = d.page_id")
    return set(connection.execute(text(f"SELECT d.kind, p.url {source}{where}"), params))


def _source(connection: Connection, query: Query, params: dict, join: str = "") -> tuple[str, str]:
    """The FROM and WHERE that match `query` in the store's index (its parameters put in
    `params`), and the text rank of a match."""
    if connection.dialect.name == "sqlite":
        params["match"] = query.fts5()
        source = (
            f"FROM {FTS_TABLE} JOIN search_documents d ON d.id = {FTS_TABLE}.rowid {join} "
            f"WHERE {FTS_TABLE} MATCH :match"
        )
        return source, f"-bm25({FTS_TABLE}, {TITLE_WEIGHT}, 1.0)"
    if connection.dialect.name == "postgresql":
        params["tsquery"] = query.tsquery()
        # For a frequent word the planner would read every row, each vector unpacked to test
        # it: 2-5 times what the GIN index costs (benchmarks/search.py). For this transaction.
        connection.execute(text("SET LOCAL enable_seqscan = off"))
        source = (
            f"FROM search_documents d {join}, CAST(:tsquery AS tsquery) q WHERE d.document @@ q"
        )
        return source, "ts_rank_cd(d.document, q)"
    raise NotImplementedError(f"full-text search on {connection.dialect.name}")


def _filters(filters: SearchFilters) -> tuple[str, dict]:
    clauses, params = [], {}
    if filters.kept_only:
        clauses.append("d.kept")
    if filters.topic:
        clauses.append("d.topic = :topic")
        params["topic"] = filters.topic
    if filters.site:
        clauses.append("(d.site = :site OR d.site LIKE :subdomains)")
        params["site"] = filters.site.lower()
        params["subdomains"] = "%." + filters.site.lower().replace("%", "").replace("_", "")
    if filters.since:
        clauses.append("d.published_at >= :since")
        params["since"] = filters.since
    if filters.until:
        clauses.append("d.published_at < :until")
        params["until"] = filters.until
    if set(filters.kinds) != set(KINDS):
        names = [f":kind{i}" for i in range(len(filters.kinds))]
        clauses.append(f"d.kind IN ({', '.join(names)})")
        params |= {f"kind{i}": kind for i, kind in enumerate(filters.kinds)}
    return "".join(f" AND {clause}" for clause in clauses), params


def _hits(connection: Connection, rows, query: Query) -> list[SearchHit]:
    """Hits with their pages' and records' text, read for this page of hits only."""
    page_ids = list({row.page_id for row in rows})
    pages = {
        row.id: row
        for row in connection.execute(
            select(Page.id, Page.url, Page.title, Page.body, Page.author).where(
                Page.id.in_(bindparam("ids", expanding=True))
            ),
            {"ids": page_ids},
        )
    }
    records: dict[tuple[str, int], tuple] = {}
    for kind, model in (("comment", Comment), ("post", ForumPost)):
        ids = [row.record_id for row in rows if row.kind == kind]
        if ids:
            for row in connection.execute(
                select(model.id, model.text, model.author).where(
                    model.id.in_(bindparam("ids", expanding=True))
                ),
                {"ids": ids},
            ):
                records[(kind, row.id)] = (row.text, row.author)
    hits = []
    for row in rows:
        page = pages.get(row.page_id)
        if page is None:  # deleted since the rank was read
            continue
        published = row.published_at
        if isinstance(published, str):  # SQLite through a text() query
            published = datetime.fromisoformat(published)
        hit = SearchHit(
            kind=row.kind, document_id=row.id, page_id=row.page_id,
            record_id=row.record_id or None, score=float(row.score), url=page.url,
            title=page.title, site=row.site, topic=row.topic, published_at=published,
            relevance=row.relevance, kept=bool(row.kept),
        )  # fmt: skip
        if row.kind == "page":
            hit.author = page.author
            hit.snippet = make_snippet(page.body or page.title, query)
        else:
            record_text, author = records.get((row.kind, row.record_id), ("", None))
            hit.author, hit.page_url = author, page.url
            hit.snippet = make_snippet(record_text, query)
        hits.append(hit)
    return hits


def like_scan(
    connection: Connection, query: Query, filters: SearchFilters = SearchFilters()
) -> list[tuple[str, str]]:
    """(kind, URL) of what holds every required term as typed, found by reading every stored
    text (LIKE, case-folded): what search would cost without an index, and the exact answer
    that the index's recall is measured against (benchmarks/search.py)."""

    def holds(column, term) -> object:
        pattern = "%" + term.surface.replace("\\", "\\\\").replace("%", r"\%").replace("_", r"\_")
        return column.ilike(pattern + "%", escape="\\")

    found: list[tuple[str, str]] = []
    page_filters = [Page.topic == filters.topic] if filters.topic else []
    if filters.kept_only:
        page_filters.append(Page.is_relevant.is_(True))
    if filters.site:
        page_filters.append(
            or_(Page.site == filters.site.lower(), Page.site.like("%." + filters.site.lower()))
        )
    if "page" in filters.kinds:
        whole = Page.title.concat(literal("\n")).concat(func.coalesce(Page.body, ""))
        conditions = [holds(whole, t) for t in query.required]
        conditions += [not_(holds(whole, t)) for t in query.excluded]
        found += [
            ("page", url)
            for (url,) in connection.execute(
                select(Page.url).where(and_(*conditions, *page_filters)).order_by(Page.id)
            )
        ]
    for kind, model in (("comment", Comment), ("post", ForumPost)):
        if kind not in filters.kinds:
            continue
        conditions = [holds(model.text, t) for t in query.required]
        conditions += [not_(holds(model.text, t)) for t in query.excluded]
        found += [
            (kind, url)
            for (url,) in connection.execute(
                select(Page.url)
                .join(model, model.page_id == Page.id)
                .where(and_(*conditions, *page_filters))
                .order_by(model.id)
            )
        ]
    return found


@dataclass
class Agreement:
    """How a search's answers compare with an exact scan's, over several queries."""

    queries: int = 0
    exact: int = 0  # hits of the exact scan
    found: int = 0  # hits of the search
    both: int = 0
    missed: list[str] = field(default_factory=list)  # queries whose answers differ

    @property
    def recall(self) -> float:
        return self.both / self.exact if self.exact else 1.0

    @property
    def precision(self) -> float:
        return self.both / self.found if self.found else 1.0


def agreement(
    connection: Connection, queries: list[str], filters: SearchFilters = SearchFilters()
) -> Agreement:
    """Search against `like_scan` for each query: what the index finds of what holds the
    words as typed (recall), and how much of what it finds holds them (precision)."""
    result = Agreement()
    for text_ in queries:
        query = parse_query(text_)
        exact = set(like_scan(connection, query, filters))
        found = matches(connection, query, filters)
        result.queries += 1
        result.exact += len(exact)
        result.found += len(found)
        result.both += len(exact & found)
        if exact != found:
            result.missed.append(text_)
    return result
