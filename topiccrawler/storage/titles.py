"""Fill and refresh a TitleIndex from the pages already stored (a restart, or other crawler
processes writing to the same database)."""

from __future__ import annotations

import numpy as np
from sqlalchemy import select
from sqlalchemy.orm import Session

from topiccrawler.dedup.index import TitleIndex
from topiccrawler.storage.models import Page

BATCH = 20_000


def load_stored_titles(session: Session, index: TitleIndex, topic: str, after_id: int = 0) -> int:
    """Add the topic's stored titles with id > `after_id`, oldest first; returns the last id."""
    last = after_id
    rows = session.connection().execute(  # Core rows: no ORM row processing
        select(Page.id, Page.url, Page.title_key, Page.body_hash)
        .where(Page.topic == topic, Page.id > after_id, Page.title_key.is_not(None))
        .order_by(Page.id)
        .execution_options(yield_per=BATCH)
    )
    for chunk in rows.partitions():
        _, urls, keys, bodies = zip(*chunk, strict=True)  # columns, in C
        # Signed BIGINTs back to the unsigned fingerprints (from_signed), all at once.
        fingerprints = np.array([b or 0 for b in bodies], dtype=np.int64).view(np.uint64).tolist()
        titles = zip(urls, keys, fingerprints, strict=True)  # keys joined by spaces, as stored
        index.add_many([title for title in titles if title[1]])  # vectorised: seconds a million
        last = chunk[-1][0]
    return last
