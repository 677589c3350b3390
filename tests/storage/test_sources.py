"""What storage says of feeds and sitemaps: a source is asked conditionally only after a crawl
that ran to its end (a killed or stopped one may have left entries of a feed it read
unfetched: the next run reads it whole)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from topiccrawler.storage import Database
from topiccrawler.storage.models import CrawlRun
from topiccrawler.storage.sources import last_run_complete


def test_conditional_only_after_a_complete_run(sqlite_url):
    database = Database(sqlite_url)
    database.upgrade()
    start = datetime(2026, 11, 1, tzinfo=UTC)
    with database.session() as session:
        assert last_run_complete(session, "tax")  # no run yet: nothing stored to ask about
        for n, reason in enumerate(("finished", "killed")):
            session.add(CrawlRun(topic="tax", spider="topic", started_at=start + timedelta(n),
                                 finished_at=start + timedelta(n, 60), finish_reason=reason))  # fmt: skip
        session.add(CrawlRun(topic="tax", spider="topic", started_at=start + timedelta(3)))
        session.commit()
        assert not last_run_complete(session, "tax")  # the last finished one was killed
        session.add(CrawlRun(topic="tax", spider="topic", started_at=start + timedelta(4),
                             finished_at=start + timedelta(4, 60), finish_reason="finished"))  # fmt: skip
        session.add(CrawlRun(topic="other", spider="topic", started_at=start + timedelta(5),
                             finished_at=start + timedelta(5, 60), finish_reason="shutdown"))  # fmt: skip
        session.commit()
        assert last_run_complete(session, "tax") and not last_run_complete(session, "other")
    database.dispose()
