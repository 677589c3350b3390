"""Idempotent writes on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import func, select

from topiccrawler.items import CommentRecord, LinkFailureItem, PageItem, PostRecord, ThreadRecord
from topiccrawler.storage import Database, store_page
from topiccrawler.storage.models import Comment, DeadLink, ForumPost, ForumThread, Page
from topiccrawler.storage.writer import store_failure


def page(**fields) -> PageItem:
    base = dict(
        url="http://news.example/a?b=2&a=1#top",
        topic="tax",
        status=200,
        fetched_at=datetime.now(UTC),
        title="增值税新政",
        body="正文",
    )
    return PageItem(**{**base, **fields})


def counts(db: Database) -> dict[str, int]:
    with db.session() as session:
        return {
            m.__tablename__: session.scalar(select(func.count()).select_from(m))
            for m in (Page, Comment, ForumPost, ForumThread)
        }


def store(db: Database, item: PageItem):
    with db.session() as session, session.begin():
        return store_page(session, item)


def test_page_upsert_is_keyed_by_canonical_url_and_topic(database):
    store(database, page())
    store(database, page(url="http://news.example/a?a=1&b=2", title="改过的标题"))
    store(database, page(topic="other"))
    with database.session() as session:
        rows = session.scalars(select(Page).order_by(Page.id)).all()
    assert [(r.topic, r.title) for r in rows] == [("tax", "改过的标题"), ("other", "增值税新政")]
    assert rows[0].canonical_url == "http://news.example/a?a=1&b=2"
    assert rows[0].site == "news.example"


def test_comments_and_posts_are_added_once(database):
    comments = [CommentRecord("好文章", "张三", "2026-01-01 10:00"), CommentRecord("同意", "李四")]
    store(database, page(comments=comments, posts=[PostRecord("主帖", "楼主")]))
    written = store(
        database,
        page(
            comments=[*comments, CommentRecord("新评论", "王五")],
            posts=[PostRecord("主帖", "楼主")],
        ),
    )
    assert (written.comments, written.posts) == (1, 0)
    assert counts(database) == {"pages": 1, "comments": 3, "forum_posts": 1, "forum_threads": 0}


def test_an_accepted_answer_is_stored_as_accepted_with_each_posts_votes(database):
    posts = [
        PostRecord("How do I file a VAT return?", "asker", votes=3),
        PostRecord("Online, before the 15th.", "helper", accepted=True, votes=12),
        PostRecord("By post works too.", "other"),
    ]
    store(database, page(posts=posts))
    with database.session() as session:
        rows = session.scalars(select(ForumPost).order_by(ForumPost.position)).all()
    assert [(r.author, r.accepted, r.votes) for r in rows] == [
        ("asker", False, 3),
        ("helper", True, 12),
        ("other", False, None),
    ]


def test_threads_update_their_counts(database):
    thread = ThreadRecord("求助：发票怎么开", "http://bbs.example/t/1", "小王", replies=3, views=10)
    store(database, page(threads=[thread]))
    thread.replies, thread.views = 5, 40
    store(database, page(threads=[thread]))
    with database.session() as session:
        row = session.scalars(select(ForumThread)).one()
    assert (row.replies, row.views, row.title) == (5, 40, "求助：发票怎么开")


def test_duplicate_of_points_at_the_earlier_page(database):
    store(database, page(url="http://a.example/story"))
    store(database, page(url="http://b.example/repost", duplicate_of="http://a.example/story"))
    with database.session() as session:
        first, repost = session.scalars(select(Page).order_by(Page.id)).all()
    assert repost.duplicate_of_id == first.id and first.duplicate_of_id is None


def test_dead_links_count_up_and_heal(database):
    def failure(url, permanent=False):
        with database.session() as session, session.begin():
            store_failure(session, LinkFailureItem(url, "timeout", permanent), max_failures=2)
        with database.session() as session:
            return session.scalars(select(DeadLink).where(DeadLink.url == url)).one_or_none()

    assert failure("http://slow.example/a").dead is False
    assert failure("http://slow.example/a").dead is True  # the second failure
    assert failure("http://gone.example/b", permanent=True).dead is True  # 404 at once
    store(database, page(url="http://slow.example/a"))  # it answered after all
    with database.session() as session:
        assert [d.url for d in session.scalars(select(DeadLink))] == ["http://gone.example/b"]
