"""Two runs of the sandbox crawl a simulated day apart: the server's clock advances (one forum
thread gets two replies), the second run fetches only what is due, sends the stored validators,
gets 304 for every page that did not change (no extraction), and adds the thread's new posts,
nothing twice."""

from __future__ import annotations

from sqlalchemy import func, select

from tests.sandbox.test_crawl import run_crawl
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.web import FORUM_TABLE, build_web
from topiccrawler.storage.models import CrawlRun, ForumPost, Page

ACTIVE = (FORUM_TABLE, "/thread-9002-1-1.html")


def test_a_day_later_only_changes_are_fetched_and_added(tmp_path):
    with SandboxServer(build_web(1, "small"), slow_seconds=4) as server:
        first = run_crawl(server, tmp_path)
        assert server.not_modified == 0
        server.advance(1)
        # A day later: discussions and articles are due (their intervals set to 0 here: the
        # sandbox's threads are months old by the crawler's clock), hubs are not (an hour),
        # queries are asked again (a day).
        second = run_crawl(
            server, tmp_path, REVISIT_AFTER=0, REVISIT_DISCUSSIONS_AFTER=0, SEARCH_REPEAT_AFTER=0
        )
    active_url = server.url(*ACTIVE)
    with first.session() as session:
        runs = session.scalars(select(CrawlRun).order_by(CrawlRun.id)).all()
        page_id = session.scalar(select(Page.id).where(Page.url == active_url))
        posts = session.scalars(select(ForumPost).where(ForumPost.page_id == page_id)).all()
        duplicates = session.scalar(
            select(func.count()).select_from(
                select(ForumPost.page_id, ForumPost.content_hash)
                .group_by(ForumPost.page_id, ForumPost.content_hash)
                .having(func.count() > 1)
                .subquery()
            )
        )
    truth = server.web.resources[ACTIVE].truth
    assert sorted((p.text, p.author) for p in posts) == sorted(
        (r.text, r.author) for r in truth.posts
    )  # the three of day 0 and the two of day 1, each once
    assert len(posts) == 5 and duplicates == 0
    stats = runs[1].stats
    changes = stats["topiccrawler/changes"]
    assert changes["previous_run"] == runs[0].id and changes["new_posts"] >= 2
    assert stats["topiccrawler/known_urls/conditional"] > 50
    assert stats["topiccrawler/fetch/not_modified"] == server.not_modified > 50
    assert stats["topiccrawler/known_urls/fresh_skipped"] > 0  # hubs were not due
    # 304s cost no extraction: only the pages that answered 200 were extracted
    answered = stats["downloader/response_status_count/200"]
    assert stats["topiccrawler/extraction/pages"] <= answered
    assert "0 new pages" in second.log or changes["new_pages"] < 5
