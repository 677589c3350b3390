"""What a killed run stored is read again: its pages are due (for their links), its search
queries are asked again (for their hits), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from topiccrawler.items import PageItem, SearchResultsItem
from topiccrawler.storage import store_page
from topiccrawler.storage.known_urls import known_url
from topiccrawler.storage.models import CrawlRun
from topiccrawler.storage.writer import answered_queries, store_search


def run(session, reason: str | None) -> int:
    row = CrawlRun(topic="tax", spider="topic", started_at=datetime.now(UTC), finish_reason=reason)
    session.add(row)
    session.flush()
    return row.id


def test_what_a_killed_run_stored_is_read_again(database):
    now = datetime.now(UTC)
    with database.session() as session, session.begin():
        killed, finished = run(session, "killed"), run(session, "finished")
        for url, run_id in (("http://a.example/k", killed), ("http://a.example/f", finished)):
            store_page(session, PageItem(url=url, topic="tax", status=200, fetched_at=now), run_id)
        for query, run_id in (("killed query", killed), ("finished query", finished)):
            item = SearchResultsItem("tax", "searxng", query, 1, "ok", now)
            store_search(session, item, run_id)
    with database.session() as session:
        assert known_url(session, "tax", "http://a.example/k").interrupted
        assert not known_url(session, "tax", "http://a.example/f").interrupted
        answered = answered_queries(session, "tax", now - timedelta(hours=1))
    assert answered == {("searxng", "finished query", 1)}
