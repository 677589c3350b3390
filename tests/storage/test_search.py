"""Full-text search in the store, on SQLite (FTS5) and PostgreSQL (tsvector): the index is
kept true as pages are stored, fetched again and judged again, and search ranks and filters."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import event, func, select, text

from topiccrawler.items import CommentRecord, PageItem, PostRecord
from topiccrawler.search.query import parse_query
from topiccrawler.storage import Database, store_page
from topiccrawler.storage.models import Page, SearchDocument
from topiccrawler.storage.search import SearchFilters, agreement, like_scan, matches, search
from topiccrawler.storage.search_index import index_gaps, index_size, rebuild
from topiccrawler.storage.verdicts import apply_verdict
from topiccrawler.storage.writer import store_batch

MONDAY = datetime(2026, 11, 23, 9, tzinfo=UTC)


def page(url: str, title: str, body: str | None, relevant: bool = True, **fields) -> PageItem:
    return PageItem(
        url=url, topic=fields.pop("topic", "tax"), status=200, fetched_at=MONDAY, title=title,
        body=body, is_relevant=relevant, relevance=fields.pop("relevance", 0.2 if relevant else 0.01),
        **fields,
    )  # fmt: skip


def store(db: Database, *items: PageItem) -> None:
    with db.session() as session, session.begin():
        for item in items:
            store_page(session, item)


def find(db: Database, query: str, **filters) -> list[tuple[str, str]]:
    with db.engine.connect() as connection:
        results = search(connection, parse_query(query), SearchFilters(**filters), limit=50)
    return [(hit.kind, hit.url) for hit in results.hits]


def no_gaps(db: Database) -> bool:
    """The index and the store agree: no row unindexed, no entry left behind (in FTS5 too)."""
    with db.engine.connect() as connection:
        return not any(index_gaps(connection).values())


def entries(db: Database) -> int:
    with db.session() as session:
        return session.scalar(select(func.count()).select_from(SearchDocument))


def test_pages_comments_and_posts_are_found_by_their_words(database):
    store(
        database,
        page("http://a.test/1", "增值税发票新规", "国家税务总局发布增值税专用发票管理办法。",
             comments=[CommentRecord("请问电子发票怎么开？", author="小王")]),
        page("http://b.test/2", "个人所得税汇算", "个人所得税年度汇算开始了。",
             posts=[PostRecord("专项附加扣除要注意", author="老李"), PostRecord("谢谢分享")]),
    )  # fmt: skip
    assert find(database, "发票") == [("page", "http://a.test/1"), ("comment", "http://a.test/1")]
    assert find(database, "所得税") == [("page", "http://b.test/2")]  # inside 个人所得税
    assert find(database, "扣除") == [("post", "http://b.test/2")]
    assert find(database, "增值税 -电子") == [("page", "http://a.test/1")]
    assert find(database, '"专用发票"') == [("page", "http://a.test/1")]
    assert find(database, "电子发票", kinds=("page",)) == []


def test_a_title_match_ranks_first_and_relevance_raises_a_hit(database):
    store(
        database,
        page("http://a.test/body", "本地新闻", "今天谈谈退税的事情，还有别的。", relevance=0.1),
        page("http://a.test/title", "退税指南", "今天谈谈别的事情，还有很多。", relevance=0.1),
        page("http://a.test/low", "退税问答", "今天谈谈别的事情，还有很多。", relevance=0.05),
    )
    assert [url for _, url in find(database, "退税")] == [
        "http://a.test/title", "http://a.test/low", "http://a.test/body",
    ]  # fmt: skip


def test_english_is_found_by_stem_and_phrase(database):
    store(
        database,
        page(
            "http://en.test/1",
            "Taxes on birds",
            "Migratory birds are protected by law; the tax rises.",
        ),
        page("http://en.test/2", "Protected tax havens", "A haven for taxation."),
    )
    assert find(database, "taxed bird") == [("page", "http://en.test/1")]
    assert find(database, '"protected tax"') == [("page", "http://en.test/2")]


def test_filters_topic_site_dates_kind_and_kept(database):
    later = datetime(2026, 11, 26, tzinfo=UTC)
    store(
        database,
        page("http://www.gov.test/a", "发票一", "发票", published_at=MONDAY),
        page("http://news.test/b", "发票二", "发票", published_at=later),
        page("http://news.test/c", "发票三", None, relevant=False),
        page("http://news.test/d", "发票四", "发票", topic="other"),
    )
    assert len(find(database, "发票")) == 3
    assert len(find(database, "发票", kept_only=False)) == 4
    assert [u for _, u in find(database, "发票", topic="other")] == ["http://news.test/d"]
    assert [u for _, u in find(database, "发票", site="gov.test")] == ["http://www.gov.test/a"]
    assert [u for _, u in find(database, "发票", since=datetime(2026, 11, 25, tzinfo=UTC))] == [
        "http://news.test/b"
    ]
    assert [u for _, u in find(database, "发票", until=datetime(2026, 11, 25, tzinfo=UTC))] == [
        "http://www.gov.test/a"
    ]


def test_a_page_fetched_again_is_indexed_by_its_new_text_only(database):
    store(database, page("http://a.test/1", "旧标题", "旧的正文讲印花税"))
    store(database, page("http://a.test/1", "新标题", "新的正文讲契税"))
    assert find(database, "印花税") == []
    assert find(database, "契税") == [("page", "http://a.test/1")]
    store(database, page("http://a.test/1", "新标题", "新的正文讲契税"))  # unchanged
    assert entries(database) == 1 and no_gaps(database)


def test_a_page_dropped_by_rejudge_leaves_the_index_with_its_comments(database):
    store(
        database,
        page("http://a.test/1", "房产税", "房产税试点扩大", comments=[CommentRecord("房产税太高")]),
    )
    assert len(find(database, "房产税")) == 2
    with database.session() as session, session.begin():
        stored = session.scalars(select(Page)).one()
        apply_verdict(session, stored, False, None, 0.04, keep_text=False)
    assert find(database, "房产税") == []
    assert find(database, "房产税", kept_only=False) == [("page", "http://a.test/1")]  # title
    assert find(database, "试点", kept_only=False) == []  # the body is gone
    assert entries(database) == 1 and no_gaps(database)


def test_rebuild_gives_the_same_answers(database):
    store(database, page("http://a.test/1", "消费税", "消费税调整", comments=[CommentRecord("好")]))
    before = find(database, "消费税")
    with database.engine.begin() as connection:
        assert rebuild(connection) == 1
    assert find(database, "消费税") == before and entries(database) == 2


def test_like_scan_agrees_with_the_index_on_whole_words(database):
    store(
        database,
        page("http://a.test/1", "环境保护税", "环境保护税的征收"),
        page("http://a.test/2", "其他", "与此无关"),
    )
    with database.engine.connect() as connection:
        assert like_scan(connection, parse_query("保护税"), SearchFilters()) == [
            ("page", "http://a.test/1")
        ]
        assert index_size(connection) > 0


def test_matches_is_every_hit_of_search_unranked_under_the_same_filters(database):
    comment = CommentRecord("增值税发票的评论")
    store(
        database,
        *(page(f"http://a.test/{n}", f"增值税第{n}篇", "发票") for n in range(12)),
        page("http://b.test/1", "增值税", "发票", comments=[comment]),
        page("http://b.test/2", "增值税", "发票", relevant=False),
    )
    query = parse_query("增值税 发票")
    with database.engine.connect() as connection:
        for filters in (SearchFilters(), SearchFilters(site="b.test"), SearchFilters(kept_only=False),
                        SearchFilters(kinds=("comment",))):  # fmt: skip
            ranked = search(connection, query, filters, limit=100, rank_window=None).hits
            assert matches(connection, query, filters) == {(hit.kind, hit.url) for hit in ranked}
        assert matches(connection, query, SearchFilters(site="b.test")) == {
            ("page", "http://b.test/1"), ("comment", "http://b.test/1")
        }  # fmt: skip
        measured = agreement(connection, ["增值税", "发票"])
    assert (measured.queries, measured.recall, measured.precision) == (2, 1.0, 1.0)
    assert measured.exact == measured.found == 2 * (13 + 1) and measured.missed == []


def test_crawled_text_cannot_break_out_of_the_query(database):
    store(database, page("http://a.test/1", 'x" OR 1=1 --', "正文 NEAR(a b) * ^"))
    assert find(database, 'x" OR 1=1 --') == [("page", "http://a.test/1")]
    with database.engine.connect() as connection:  # the index still answers
        assert connection.execute(text("select count(*) from search_documents")).scalar() == 1


def test_a_query_matching_more_than_the_rank_window_ranks_the_newest(database):
    store(database, *(page(f"http://a.test/{n}", f"印花税第{n}篇", "印花税") for n in range(30)))
    with database.engine.connect() as connection:
        windowed = search(connection, parse_query("印花税"), limit=50, rank_window=10)
        whole = search(connection, parse_query("印花税"), limit=50, rank_window=None)
        narrow = search(
            connection, parse_query("印花税"), SearchFilters(site="nowhere.test"), rank_window=10
        )
    assert windowed.more and windowed.total == 10 and windowed.total_text == "more than 10"
    assert {hit.url for hit in windowed.hits} == {f"http://a.test/{n}" for n in range(20, 30)}
    assert not whole.more and whole.total == 30 and len(whole.hits) == 30
    assert not narrow.more and narrow.total == 0  # the window counts what passes the filters


def test_huge_pages_and_endless_words_are_indexed_within_the_stores_limits(database):
    """A 5,000-character run (base64, a hash) is no word; a body of 200,000 distinct words is
    indexed up to what one entry holds (PostgreSQL refuses a tsvector over 1 MB)."""
    blob = "QUJD" * 1250
    words = " ".join(f"w{n:06d}x" for n in range(200_000))
    store(database, page("http://a.test/huge", "巨大的页面", f"{blob} 遗产税 {words}"))
    assert find(database, "遗产税") == [("page", "http://a.test/huge")]
    assert find(database, "w000001x") == [("page", "http://a.test/huge")]
    assert no_gaps(database)


def test_a_batch_is_indexed_at_its_end_as_its_pages_would_be_one_by_one(database):
    store(database, page("http://a.test/1", "旧标题", "旧的正文讲印花税"))
    with database.session() as session, session.begin():
        store_batch(
            session,
            [
                page("http://a.test/1", "新标题", "正文讲契税", relevant=False),
                page("http://b.test/2", "车船税", "车船税怎么交", comments=[CommentRecord("车船税")]),
                page("http://a.test/1", "新标题", "正文讲资源税"),  # the same page again: it wins
            ],
        )  # fmt: skip
    assert find(database, "印花税") == [] and find(database, "契税", kept_only=False) == []
    assert find(database, "资源税") == [("page", "http://a.test/1")]
    assert sorted(find(database, "车船税")) == [
        ("comment", "http://b.test/2"),
        ("page", "http://b.test/2"),
    ]
    assert entries(database) == 3 and no_gaps(database)


def test_a_batchs_index_takes_as_many_statements_for_forty_pages_as_for_four(database):
    """Per page, the statements' own cost was most of the index's: a batch's pages share them."""

    def index_statements(pages: int, start: int) -> int:
        seen = []

        def count(_conn, _cursor, statement, *_args):
            if "search_documents" in statement or "search_index" in statement:
                seen.append(statement)

        items = [page(f"http://a.test/{start + n}", "城建税", f"第{n}篇讲城建税",
                      comments=[CommentRecord(f"评论{n}")]) for n in range(pages)]  # fmt: skip
        event.listen(database.engine, "before_cursor_execute", count)
        try:
            with database.session() as session, session.begin():
                store_batch(session, items)
        finally:
            event.remove(database.engine, "before_cursor_execute", count)
        return len(seen)

    assert index_statements(40, 0) == index_statements(4, 100) > 0
    assert len(find(database, "城建税")) == 44 and no_gaps(database)
