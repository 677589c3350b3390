"""Fill and refresh a TitleIndex from the pages already stored (a restart, or other crawler
processes writing to the same database)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from topiccrawler.dedup.index import TitleIndex
from topiccrawler.dedup.simhash import from_signed
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
        index.add_many(  # vectorised: a million titles in seconds
            [(url, key.split(" "), from_signed(body)) for _, url, key, body in chunk if key]
        )
        last = chunk[-1][0]
    return last
