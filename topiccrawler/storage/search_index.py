"""The full-text index kept true as pages are stored, judged again and fetched again.

Every page is one entry (its title and body), every stored comment and forum post one more
(`SearchDocument`), with the page's topic, site, verdict and relevance beside it for filters
and ranking. The words are the index's own (search/text.py: Chinese segmented, English
stemmed) and live in the store's own full-text index:

- SQLite: a contentless FTS5 table `search_index` (rowid = the document's id), so the text is
  not stored twice. Before SQLite 3.43 such a table forgets an entry only when given the words
  it was given, so those are kept beside it, compressed (`SearchDocument.indexed`).
- PostgreSQL: a `tsvector` column `document` on `search_documents` with a GIN index. The
  vector is written as a literal (lexemes with positions, the title's weighted A), never
  through PostgreSQL's parser, which does not split Chinese and depends on the locale.

`index_page` is called in the transaction that writes the page (storage/writer.py,
storage/verdicts.py), so a page is in the index exactly when it is stored, a kill -9
included. Text that did not change is not segmented again.
"""

from __future__ import annotations

import hashlib
import zlib
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import Connection, bindparam, cast, column, delete, select, table, text
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.exc import OperationalError

from topiccrawler.search.text import index_words
from topiccrawler.storage.models import Comment, ForumPost, Page, SearchDocument

FTS_TABLE = "search_index"
MAX_WORDS = 65536  # words of one entry that are indexed: a tsvector holds 1 MB at most
_PG_MAX_POSITION = 16383  # positions past it are all this one (PostgreSQL's limit)
_PG_MAX_POSITIONS = 256  # positions kept per lexeme (PostgreSQL keeps no more)
_SEPARATOR = "\x1f"

documents = SearchDocument.__table__
_pg_documents = table("search_documents", column("id"), column("document", TSVECTOR))


def outside_models(obj, name, type_, reflected, compare_to) -> bool:
    """For Alembic's comparison of the schema with the models: False for the full-text
    structures the models do not describe (the FTS5 table and its shadow tables, the tsvector
    column and its index), True for everything else."""
    if type_ == "table" and name and name.startswith(FTS_TABLE):
        return False
    if type_ == "column" and name == "document" and obj.table.name == "search_documents":
        return False
    return not (type_ == "index" and name == "ix_search_documents_document")


def create_index(connection: Connection) -> None:
    """The store's own full-text structures beside `search_documents` (the migration's part
    that depends on the dialect)."""
    dialect = connection.dialect.name
    if dialect == "sqlite":
        connection.execute(
            text(
                f"CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(title, body, content='', "
                "tokenize='unicode61 remove_diacritics 2')"
            )
        )
    elif dialect == "postgresql":
        connection.execute(text("ALTER TABLE search_documents ADD COLUMN document tsvector"))
        connection.execute(
            text(
                "CREATE INDEX ix_search_documents_document ON search_documents USING gin (document)"
            )
        )


def drop_index(connection: Connection) -> None:
    if connection.dialect.name == "sqlite":
        connection.execute(text(f"DROP TABLE IF EXISTS {FTS_TABLE}"))


def index_pages(connection: Connection, page_ids: Iterable[int]) -> None:
    for page_id in page_ids:
        index_page(connection, page_id)


def index_page(connection: Connection, page_id: int) -> None:
    """Make the index say what the store says of one page: its title and body, its comments
    and posts, its verdict and relevance. Entries whose text changed are replaced, entries
    whose page or record is gone are taken out."""
    page = connection.execute(_PAGE, {"page_id": page_id}).one_or_none()
    existing = {
        (row.kind, row.record_id): row
        for row in connection.execute(_DOCUMENTS, {"page_id": page_id})
    }
    wanted: dict[tuple[str, int], tuple[str | None, str | None, datetime | None]] = {}
    if page is not None:
        wanted[("page", 0)] = (page.title, page.body, page.published_at)
        for kind, model in (("comment", Comment), ("post", ForumPost)):
            rows = connection.execute(
                select(model.id, model.text, model.published_at).where(model.page_id == page_id)
            )
            for record_id, record_text, published_at in rows:
                wanted[(kind, record_id)] = (None, record_text, published_at or page.published_at)
    for key, row in existing.items():
        entry = wanted.get(key)
        if entry is None or _text_hash(*entry) != row.text_hash:
            _forget(connection, row.id, row.indexed)
            connection.execute(delete(documents).where(documents.c.id == row.id))
    if page is None:
        return
    for (kind, record_id), entry in wanted.items():
        row = existing.get((kind, record_id))
        if row is not None and _text_hash(*entry) == row.text_hash:
            continue
        title, body, published_at = entry
        _add(connection, page, kind, record_id, title, body, published_at)
    # What search filters and ranks by, for entries whose text did not change.
    connection.execute(
        documents.update()
        .where(
            documents.c.page_id == page_id,
            ~(
                documents.c.kept.is_not_distinct_from(bool(page.is_relevant))
                & documents.c.relevance.is_not_distinct_from(page.relevance)
                & (documents.c.site == page.site)
                & (documents.c.topic == page.topic)
            ),
        )
        .values(
            kept=bool(page.is_relevant), relevance=page.relevance, site=page.site,
            topic=page.topic,
        )
    )  # fmt: skip


def rebuild(connection: Connection, batch: int = 500) -> int:
    """Every page indexed anew from what is stored (after a change of the word splitting, or
    for a database that had none); returns the number of pages."""
    if connection.dialect.name == "sqlite":
        connection.execute(text(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('delete-all')"))
    connection.execute(delete(documents))
    done, last = 0, 0
    while True:
        ids = connection.scalars(
            select(Page.id).where(Page.id > last).order_by(Page.id).limit(batch)
        ).all()
        if not ids:
            return done
        index_pages(connection, ids)
        done += len(ids)
        last = ids[-1]


def _add(connection, page, kind, record_id, title, body, published_at) -> None:
    title_words = index_words(title)[:MAX_WORDS]
    body_words = index_words(body)[: MAX_WORDS - len(title_words)]
    sqlite = connection.dialect.name == "sqlite"
    indexed = None
    if sqlite:
        indexed = zlib.compress(
            (" ".join(title_words) + _SEPARATOR + " ".join(body_words)).encode("utf-8")
        )
    document_id = connection.execute(
        documents.insert().returning(documents.c.id),
        {
            "kind": kind, "page_id": page.id, "record_id": record_id, "topic": page.topic,
            "site": page.site, "published_at": published_at, "kept": bool(page.is_relevant),
            "relevance": page.relevance, "text_hash": _text_hash(title, body, published_at),
            "indexed": indexed,
        },
    ).scalar_one()  # fmt: skip
    if sqlite:
        connection.execute(
            _FTS_INSERT,
            {"id": document_id, "title": " ".join(title_words), "body": " ".join(body_words)},
        )
    elif connection.dialect.name == "postgresql":
        connection.execute(
            _pg_documents.update()
            .where(_pg_documents.c.id == document_id)
            .values(document=cast(bindparam("vector"), TSVECTOR)),
            {"vector": tsvector_literal(title_words, body_words)},
        )


def _forget(connection: Connection, document_id: int, indexed: bytes | None) -> None:
    """Take an entry out of SQLite's FTS5 table (PostgreSQL's vector goes with its row)."""
    if connection.dialect.name != "sqlite" or indexed is None:
        return
    title, _, body = zlib.decompress(indexed).decode("utf-8").partition(_SEPARATOR)
    connection.execute(_FTS_DELETE, {"id": document_id, "title": title, "body": body})


def tsvector_literal(title_words: list[str], body_words: list[str]) -> str:
    """A tsvector in PostgreSQL's input syntax: each lexeme with its positions, the title's
    weighted A (ts_rank_cd counts them more), the body's left at the default D."""
    positions: dict[str, list[str]] = {}
    for position, word in enumerate(title_words + body_words, start=1):
        kept = positions.setdefault(word, [])
        if len(kept) < _PG_MAX_POSITIONS and (position <= _PG_MAX_POSITION or not kept):
            weight = "A" if position <= len(title_words) else ""
            kept.append(f"{min(position, _PG_MAX_POSITION)}{weight}")
    return " ".join(
        "'" + word.replace("\\", "\\\\").replace("'", "''") + "':" + ",".join(places)
        for word, places in positions.items()
    )


def _text_hash(title: str | None, body: str | None, published_at: datetime | None) -> int:
    """64 bits of a digest of the entry's text and time, signed as SQL's BIGINT is."""
    when = published_at.isoformat() if published_at else ""
    digest = hashlib.blake2b(
        _SEPARATOR.join((title or "", body or "", when)).encode("utf-8"), digest_size=8
    ).digest()
    return int.from_bytes(digest, "big", signed=True)


def index_size(connection: Connection) -> int:
    """Bytes the index takes in the store (its entries' table, and the FTS5 table or the
    vectors with their GIN index), for benchmarks and `stats`."""
    if connection.dialect.name == "postgresql":
        return connection.execute(
            text("SELECT pg_total_relation_size('search_documents')")
        ).scalar_one()
    if connection.dialect.name != "sqlite":
        return 0
    names = [f"{FTS_TABLE}_data", f"{FTS_TABLE}_idx", f"{FTS_TABLE}_docsize", "search_documents"]
    try:
        return sum(
            connection.execute(
                text("SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = :name"),
                {"name": name},
            ).scalar_one()
            for name in names
        )
    except OperationalError:  # dbstat is a compile-time option of SQLite
        return 0


_PAGE = select(
    Page.id, Page.topic, Page.site, Page.title, Page.body, Page.published_at,
    Page.is_relevant, Page.relevance,
).where(Page.id == bindparam("page_id"))  # fmt: skip
_DOCUMENTS = select(
    documents.c.id, documents.c.kind, documents.c.record_id, documents.c.text_hash,
    documents.c.indexed,
).where(documents.c.page_id == bindparam("page_id"))  # fmt: skip
_FTS_INSERT = text(f"INSERT INTO {FTS_TABLE}(rowid, title, body) VALUES (:id, :title, :body)")
_FTS_DELETE = text(
    f"INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, title, body) "
    "VALUES ('delete', :id, :title, :body)"
)


def index_gaps(connection: Connection) -> dict[str, int]:
    """What the index and the store disagree on (all zero when the index is true): stored
    pages, comments and posts with no entry, entries whose row is gone, and on SQLite entries
    the FTS5 table does not hold or holds too many of."""
    gaps = {}
    gaps["pages_missing"] = connection.execute(
        text(
            "SELECT count(*) FROM pages p WHERE NOT EXISTS (SELECT 1 FROM search_documents d "
            "WHERE d.page_id = p.id AND d.kind = 'page')"
        )
    ).scalar_one()
    for kind, table_name in (("comment", "comments"), ("post", "forum_posts")):
        gaps[f"{kind}s_missing"] = connection.execute(
            text(
                f"SELECT count(*) FROM {table_name} r WHERE NOT EXISTS (SELECT 1 FROM "
                f"search_documents d WHERE d.record_id = r.id AND d.kind = '{kind}')"
            )
        ).scalar_one()
        gaps[f"{kind}s_orphaned"] = connection.execute(
            text(
                f"SELECT count(*) FROM search_documents d WHERE d.kind = '{kind}' AND NOT EXISTS "
                f"(SELECT 1 FROM {table_name} r WHERE r.id = d.record_id)"
            )
        ).scalar_one()
    if connection.dialect.name == "sqlite":
        entries = connection.execute(text("SELECT count(*) FROM search_documents")).scalar_one()
        held = connection.execute(text(f"SELECT count(*) FROM {FTS_TABLE}_docsize")).scalar_one()
        gaps["fts_difference"] = abs(held - entries)
    return gaps
