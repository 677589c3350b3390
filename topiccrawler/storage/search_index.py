"""The full-text index kept true as pages are stored, judged again and fetched again.

Every page is one entry (its title and body), every stored comment and forum post one more
(`SearchDocument`), with the page's topic, site, verdict and relevance beside it for filters
and ranking. The words are the index's own (search/text.py: Chinese segmented, English
stemmed) and live in the store's own full-text index:

- SQLite: a contentless FTS5 table `search_index` (rowid = the document's id), so the text is
  not stored twice. Before SQLite 3.43 such a table forgets an entry only when given the words
  it was given: they are split again from the stored text, before that text changes
  (`forget_entries`), and checked against a hash of the words first given (`words_hash`). An
  entry that cannot be taken out so (the word splitting changed since) stays in FTS5 unseen,
  its row gone, until `topiccrawler db reindex`; `index_gaps` counts such entries.
- PostgreSQL: a `tsvector` column `document` on `search_documents` with a GIN index. The
  vector is written as a literal (lexemes with positions, the title's weighted A), never
  through PostgreSQL's parser, which does not split Chinese and depends on the locale.

`index_page` is called in the transaction that writes the page (storage/writer.py,
storage/verdicts.py), so a page is in the index exactly when it is stored, a kill -9
included, and `forget_entries` before a stored text is changed or deleted. Text that did not
change is not segmented again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime

from sqlalchemy import Connection, bindparam, cast, column, delete, literal, select, table, text
from sqlalchemy.dialects.postgresql import TSVECTOR
from sqlalchemy.exc import OperationalError

from topiccrawler.search.text import index_words
from topiccrawler.storage.models import Comment, ForumPost, Page, SearchDocument

FTS_TABLE = "search_index"
MAX_WORDS = 65536  # words of one entry that are indexed: a tsvector holds 1 MB at most
_PG_MAX_POSITION = 16383  # positions past it are all this one (PostgreSQL's limit)
_PG_MAX_POSITIONS = 256  # positions kept per lexeme (PostgreSQL keeps no more)
_PG_MAX_BYTES = 900_000  # of one tsvector (PostgreSQL refuses one over 1 MB)
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


def forget_entries(
    connection: Connection, page_id: int, kinds: tuple[str, ...] = ("page", "comment", "post")
) -> None:
    """Take a page's entries of these kinds out of the index while the texts they were made
    from are still stored: called before those texts are changed or deleted."""
    for row in connection.execute(_DOCUMENTS, {"page_id": page_id}):
        if row.kind in kinds:
            _forget(connection, row)


def index_page(connection: Connection, page_id: int) -> None:
    index_pages(connection, [page_id])


def index_pages(connection: Connection, page_ids: Iterable[int]) -> None:
    """Make the index say what the store says of these pages: their titles and bodies, their
    comments and posts, their verdicts and relevance. Entries whose text changed are replaced,
    entries whose page or record is gone are taken out. One statement per table for all the
    pages (the storage pipeline indexes a batch of 50 at its end: per page, the statements'
    own cost was most of the index's)."""
    ids = list(dict.fromkeys(page_ids))
    if not ids:
        return
    pages = {page.id: page for page in connection.execute(_PAGES_IN, {"ids": ids})}
    existing = {
        (row.page_id, row.kind, row.record_id): row
        for row in connection.execute(_DOCUMENTS_IN, {"ids": ids})
    }
    wanted: dict[tuple[int, str, int], tuple] = {}
    for page in pages.values():
        wanted[(page.id, "page", 0)] = (page, page.title, page.body, page.published_at)
    for kind, model in (("comment", Comment), ("post", ForumPost)):
        rows = connection.execute(
            select(model.id, model.page_id, model.text, model.published_at).where(
                model.page_id.in_(bindparam("ids", expanding=True))
            ),
            {"ids": list(pages)},
        )
        for record_id, page_id, record_text, published_at in rows:
            page = pages[page_id]
            wanted[(page_id, kind, record_id)] = (
                page, None, record_text, published_at or page.published_at,
            )  # fmt: skip
    for key, row in existing.items():
        entry = wanted.get(key)
        if entry is None or _text_hash(*entry[1:]) != row.text_hash:
            _forget(connection, row)  # its text is gone: in FTS5 it stays, unseen (see above)
    added = []
    for (_page_id, kind, record_id), (page, title, body, published_at) in wanted.items():
        row = existing.get((page.id, kind, record_id))
        if row is None or _text_hash(title, body, published_at) != row.text_hash:
            added.append((page, kind, record_id, title, body, published_at))
    _add_many(connection, added)
    if pages:  # what search filters and ranks by, for entries whose text did not change
        connection.execute(
            _FILTERS_UPDATE,
            [
                {"entry_page": page.id, "new_kept": bool(page.is_relevant),
                 "new_relevance": page.relevance, "new_site": page.site, "new_topic": page.topic}
                for page in pages.values()
            ],
        )  # fmt: skip


def rebuild(connection: Connection, batch: int = 500) -> int:
    """Every page indexed anew from what is stored (after a change of the word splitting, or
    for a database that had none), a batch of pages at a time; returns the number of pages."""
    if connection.dialect.name == "sqlite":
        connection.execute(text(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('delete-all')"))
    connection.execute(delete(documents))
    done, last = 0, 0
    while True:
        ids = connection.execute(_PAGE_IDS_AFTER, {"last": last, "batch": batch}).scalars().all()
        if not ids:
            return done
        index_pages(connection, ids)
        done += len(ids)
        last = ids[-1]


def _add_many(connection: Connection, entries: list[tuple]) -> None:
    """Entries (page row, kind, record id, title, body, time) added with one INSERT each for
    the entries' table and the words."""
    if not entries:
        return
    rows, words = [], []
    for page, kind, record_id, title, body, published_at in entries:
        title_words, body_words = _split(title, body)
        words.append((title_words, body_words))
        rows.append(
            {
                "kind": kind, "page_id": page.id, "record_id": record_id, "topic": page.topic,
                "site": page.site, "published_at": published_at, "kept": bool(page.is_relevant),
                "relevance": page.relevance, "text_hash": _text_hash(title, body, published_at),
                "words_hash": _words_hash(title_words, body_words),
            }
        )  # fmt: skip
    # Ids matched by the entries' key, not by order: one INSERT for them all (in parameter
    # order, SQLAlchemy sends SQLite one INSERT per row).
    inserted = connection.execute(documents.insert().returning(*_ENTRY_KEY, documents.c.id), rows)
    ids = {tuple(row[:-1]): row[-1] for row in inserted}
    _write_words(
        connection,
        [(ids[row["page_id"], row["kind"], row["record_id"]], entry_words)
         for row, entry_words in zip(rows, words, strict=True)],
    )  # fmt: skip


def _write_words(connection: Connection, entries: list[tuple[int, tuple[list, list]]]) -> None:
    """The words of entries (id, (title words, body words)) into the store's own index."""
    if not entries:
        return
    if connection.dialect.name == "sqlite":
        connection.execute(
            _FTS_INSERT,
            [{"id": i, "title": " ".join(t), "body": " ".join(b)} for i, (t, b) in entries],
        )
    elif connection.dialect.name == "postgresql":
        connection.execute(
            _pg_documents.update()
            .where(_pg_documents.c.id == bindparam("entry"))
            .values(document=cast(bindparam("vector"), TSVECTOR)),
            [{"entry": i, "vector": tsvector_literal(t, b)} for i, (t, b) in entries],
        )


def _words_hash(title_words: list[str], body_words: list[str]) -> int:
    return _digest(" ".join(title_words) + _SEPARATOR + " ".join(body_words))


def _split(title: str | None, body: str | None) -> tuple[list[str], list[str]]:
    """The words an entry gives the index: its title's, then its body's, MAX_WORDS in all."""
    title_words = index_words(title)[:MAX_WORDS]
    return title_words, index_words(body)[: MAX_WORDS - len(title_words)]


def _forget(connection: Connection, row) -> None:
    """Take one entry out: its row, and on SQLite its words out of FTS5, split again from the
    text still stored (an entry whose words cannot be found so again stays there unseen)."""
    connection.execute(delete(documents).where(documents.c.id == row.id))
    if connection.dialect.name != "sqlite":
        return  # PostgreSQL's vector went with the row
    if row.kind == "page":
        stored = connection.execute(_PAGE_TEXT, {"id": row.page_id}).one_or_none()
    else:
        model = Comment if row.kind == "comment" else ForumPost
        stored = connection.execute(
            select(literal(None), model.text).where(model.id == row.record_id)
        ).one_or_none()
    if stored is None:
        return
    title_words, body_words = _split(*stored)
    if _words_hash(title_words, body_words) != row.words_hash:
        return
    connection.execute(
        _FTS_DELETE,
        {"id": row.id, "title": " ".join(title_words), "body": " ".join(body_words)},
    )


def tsvector_literal(title_words: list[str], body_words: list[str]) -> str:
    """A tsvector in PostgreSQL's input syntax: each lexeme with its positions, the title's
    weighted A (ts_rank_cd counts them more), the body's left at the default D. Lexemes past
    what one tsvector holds (1 MB) are left out."""
    positions: dict[str, list[str]] = {}
    size = 0
    for position, word in enumerate(title_words + body_words, start=1):
        kept = positions.get(word)
        if kept is None:
            size += len(word.encode("utf-8")) + 8  # the lexeme, its entry, its first position
            if size > _PG_MAX_BYTES:
                continue
            kept = positions[word] = []
        if len(kept) < _PG_MAX_POSITIONS and (position <= _PG_MAX_POSITION or not kept):
            weight = "A" if position <= len(title_words) else ""
            kept.append(f"{min(position, _PG_MAX_POSITION)}{weight}")
            size += 2
    return " ".join(
        "'" + word.replace("\\", "\\\\").replace("'", "''") + "':" + ",".join(places)
        for word, places in positions.items()
    )


def _text_hash(title: str | None, body: str | None, published_at: datetime | None) -> int:
    """Of the entry's text and time: whether it changed."""
    when = published_at.isoformat() if published_at else ""
    return _digest(_SEPARATOR.join((title or "", body or "", when)))


def _digest(value: str) -> int:
    """64 bits of a BLAKE2b digest, signed as SQL's BIGINT is."""
    digest = hashlib.blake2b(value.encode("utf-8"), digest_size=8).digest()
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
    names = [f"{FTS_TABLE}_data", f"{FTS_TABLE}_idx", f"{FTS_TABLE}_docsize", "search_documents",
             "sqlite_autoindex_search_documents_1"]  # fmt: skip
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


_PAGE_COLUMNS = (
    Page.id, Page.topic, Page.site, Page.title, Page.body, Page.published_at,
    Page.is_relevant, Page.relevance,
)  # fmt: skip
_PAGES_IN = select(*_PAGE_COLUMNS).where(Page.id.in_(bindparam("ids", expanding=True)))
_PAGE_IDS_AFTER = (
    select(Page.id).where(Page.id > bindparam("last")).order_by(Page.id).limit(bindparam("batch"))
)
_PAGE_TEXT = select(Page.title, Page.body).where(Page.id == bindparam("id"))
_STORED_ENTRIES = (
    select(Page.topic, Page.url_hash, documents.c.page_id, documents.c.text_hash)
    .join(Page, Page.id == documents.c.page_id)
    .where(Page.url_hash.in_(bindparam("keys", expanding=True)), documents.c.kind == "page")
)
_DOCUMENT_COLUMNS = (
    documents.c.id, documents.c.kind, documents.c.page_id, documents.c.record_id,
    documents.c.text_hash, documents.c.words_hash,
)  # fmt: skip
_ENTRY_KEY = (documents.c.page_id, documents.c.kind, documents.c.record_id)
_DOCUMENTS = select(*_DOCUMENT_COLUMNS).where(documents.c.page_id == bindparam("page_id"))
_DOCUMENTS_IN = select(*_DOCUMENT_COLUMNS).where(
    documents.c.page_id.in_(bindparam("ids", expanding=True))
)
# Bound names differ from the columns' (SQLAlchemy keeps those for the SET clause).
_FILTERS_UPDATE = (
    documents.update()
    .where(
        documents.c.page_id == bindparam("entry_page"),
        ~(
            documents.c.kept.is_not_distinct_from(bindparam("new_kept"))
            & documents.c.relevance.is_not_distinct_from(bindparam("new_relevance"))
            & (documents.c.site == bindparam("new_site"))
            & (documents.c.topic == bindparam("new_topic"))
        ),
    )
    .values(
        kept=bindparam("new_kept"), relevance=bindparam("new_relevance"),
        site=bindparam("new_site"), topic=bindparam("new_topic"),
    )
)  # fmt: skip
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


def forget_changed_pages(connection: Connection, pages: Iterable[tuple]) -> None:
    """Before pages (topic, url hash, title, body, time) are written again: the entry of each
    whose title, body or time changed is taken out while the old text is still stored
    (storage/writer.py). One query for all of them."""
    new_hashes = {
        (topic, key): _text_hash(title, body, published_at)
        for topic, key, title, body, published_at in pages
    }
    if not new_hashes:
        return
    keys = list({key for _topic, key in new_hashes})
    for stored in connection.execute(_STORED_ENTRIES, {"keys": keys}).all():
        new_hash = new_hashes.get((stored.topic, stored.url_hash))
        if new_hash is not None and stored.text_hash != new_hash:
            forget_entries(connection, stored.page_id, kinds=("page",))
