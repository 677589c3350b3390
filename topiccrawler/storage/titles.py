"""Fill and refresh a TitleIndex from the pages already stored (a restart, or other crawler
processes writing to the same database)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from topiccrawler.dedup.index import TitleIndex
from topiccrawler.storage.models import Page

BATCH = 20_000


def load_stored_titles(session: Session, index: TitleIndex, topic: str, after_id: int = 0) -> int:
    """Add the topic's stored titles with id > `after_id`, oldest first; returns the last id."""
    last = after_id
    statement = (
        select(Page.id, Page.url, Page.title_key, Page.body_hash)
        .where(Page.topic == topic, Page.id > after_id, Page.title_key.is_not(None))
        .order_by(Page.id)
    )
    for chunk in _batches(session, statement):
        ids, urls, keys, bodies = zip(*chunk, strict=True)  # columns, in C
        # Signed BIGINTs back to the unsigned fingerprints (from_signed), all at once.
        fingerprints = np.array([b or 0 for b in bodies], dtype=np.int64).view(np.uint64).tolist()
        titles = zip(urls, keys, fingerprints, strict=True)  # keys joined by spaces, as stored
        index.add_many([title for title in titles if title[1]])  # vectorised: seconds a million
        last = ids[-1]
    return last


def _batches(session: Session, statement) -> Iterator[Sequence[tuple]]:
    """The statement's rows, BATCH at a time, as plain tuples. On SQLite straight from the
    driver's cursor: SQLAlchemy's rows cost as much again as the whole index build (they are
    made and taken apart a million times at start-up). Elsewhere (PostgreSQL) Core rows,
    streamed (yield_per: a server-side cursor)."""
    connection = session.connection()
    if connection.dialect.name != "sqlite":
        result = connection.execute(statement.execution_options(yield_per=BATCH))
        yield from result.partitions()
        return
    compiled = statement.compile(dialect=connection.dialect)
    params = compiled.construct_params()
    arguments = tuple(params[name] for name in compiled.positiontup or ())
    cursor = connection.connection.cursor()  # the driver's cursor, in this session's transaction
    try:
        cursor.execute(str(compiled), arguments)
        while rows := cursor.fetchmany(BATCH):
            yield rows
    finally:
        cursor.close()
