"""The dedup stage: marks reposts across sites, survives restarts, sees other processes' titles."""

from __future__ import annotations

from datetime import UTC, datetime

from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from tests.crawl import PROJECT_SETTINGS
from tests.dedup.texts import FILM_STORY, MARKET_STORY, TAX_STORY
from topiccrawler.items import PageItem
from topiccrawler.pipelines.dedup import DedupPipeline
from topiccrawler.storage import Database, store_page
from topiccrawler.topics.model import KeywordLibrary, SeedList, Topic


def page(url: str, title: str, body: str = TAX_STORY) -> PageItem:
    return PageItem(
        url=url, topic="tax", status=200, fetched_at=datetime.now(UTC), title=title, body=body
    )


def pipeline(settings: dict) -> DedupPipeline:
    crawler = get_crawler(settings_dict={**PROJECT_SETTINGS, **settings})
    built = build_from_crawler(DedupPipeline, crawler)
    # A topic without words: titles are keyed by the tokenizer's own segmentation.
    library = KeywordLibrary("tax", "tax", "zh", None, ())
    topic = Topic("tax", library, SeedList("tax"))
    crawler.spider = type("S", (), {"topic_name": "tax", "topic": topic})()
    built.open_spider()
    return built


def test_reposts_across_sites_are_marked(sqlite_url):
    dedup = pipeline({"DATABASE_URL": sqlite_url})
    first = dedup.process_item(page("http://a.example/1", "税务部门曝光一批偷税典型案例-A网"))
    repost = dedup.process_item(
        page("http://b.example/9", "【转载】税务部门曝光一批偷税典型案例 | B网")
    )
    same_site = dedup.process_item(
        page("http://a.example/1?page=2", "税务部门曝光一批偷税典型案例-A网", MARKET_STORY)
    )
    other = dedup.process_item(page("http://c.example/2", "上海国际电影节开幕", FILM_STORY))
    assert first.duplicate_of is None and repost.duplicate_of == "http://a.example/1"
    assert same_site.duplicate_of is None  # page 2: same title, other body, no other site has it
    assert other.duplicate_of is None and other.title_key == "上海 国际 电影节 开幕"
    assert dedup.crawler.stats.get_value("topiccrawler/dedup/duplicates") == 1


def test_same_site_pages_are_matched_when_asked(tmp_path):
    """DEDUP_SAME_SITE: a site that reposts its own story under another URL is marked too."""
    for same_site, expected in ((False, None), (True, "http://a.example/1")):
        url = f"sqlite:///{tmp_path / f'{same_site}.db'}"
        dedup = pipeline({"DATABASE_URL": url, "DEDUP_SAME_SITE": same_site})
        dedup.process_item(page("http://a.example/1", "税务部门曝光一批偷税典型案例-A网"))
        again = dedup.process_item(page("http://a.example/7", "税务部门曝光一批偷税典型案例"))
        assert again.duplicate_of == expected


def test_index_is_rebuilt_from_storage_and_refreshed(sqlite_url):
    database = Database(sqlite_url)
    database.upgrade()
    first = pipeline({"DATABASE_URL": sqlite_url}).process_item(
        page("http://a.example/1", "增值税新政解读：申报流程全解析")
    )
    with database.session() as session, session.begin():
        store_page(session, first)
    # A new crawler process (a restart) finds the stored title.
    restarted = pipeline({"DATABASE_URL": sqlite_url, "DEDUP_REFRESH_INTERVAL": 0})
    assert len(restarted.index) == 1
    # Another process stores a page meanwhile; the next item triggers a refresh and sees it.
    other = page("http://b.example/2", "出口退税新规发布")
    other.title_key, other.body_hash = "出口 退税 新规 发布", 0
    with database.session() as session, session.begin():
        store_page(session, other)
    repost = restarted.process_item(page("http://c.example/3", "出口退税新规发布-C网"))
    assert repost.duplicate_of == "http://b.example/2"
    database.dispose()


def test_a_failure_in_dedup_never_loses_the_page(sqlite_url):
    dedup = pipeline({"DATABASE_URL": sqlite_url})
    dedup.index = None  # a bug in the stage
    item = page("http://a.example/1", "标题")
    assert dedup.process_item(item) is item
    assert dedup.crawler.stats.get_value("topiccrawler/dedup/failed") == 1


def test_off_switch():
    import pytest
    from scrapy.exceptions import NotConfigured

    with pytest.raises(NotConfigured):
        DedupPipeline.from_crawler(get_crawler(settings_dict={"DEDUP_ENABLED": False}))


def test_the_index_keeps_its_newest_titles_past_its_bound(sqlite_url):
    """DEDUP_MAX_TITLES: past it the index keeps its newest half; reposts of those are still
    found, of older titles not any more, and the index stops growing."""
    dedup = pipeline({"DATABASE_URL": sqlite_url, "DEDUP_MAX_TITLES": 4})
    stories = ["偷税典型案例", "电影节开幕", "增值税留抵退税", "个人所得税汇算", "高温天气预警"]
    for n, story in enumerate(stories):
        dedup.process_item(page(f"http://a.example/{n}", f"税务部门通报{story}情况-A网"))
    assert len(dedup.index) == 2  # the fifth title passed four: the newest two kept
    assert dedup.crawler.stats.get_value("topiccrawler/dedup/index_trimmed") == 1
    recent = dedup.process_item(page("http://b.example/4", "【转载】税务部门通报高温天气预警情况"))
    old = dedup.process_item(page("http://b.example/0", "【转载】税务部门通报偷税典型案例情况"))
    assert recent.duplicate_of == "http://a.example/4" and old.duplicate_of is None
