"""Extraction, once, as pages leave the spider: pages filled, what cannot be parsed kept with
the reason."""

from __future__ import annotations

from datetime import UTC, datetime

from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from topiccrawler.items import PageItem
from topiccrawler.middlewares.extraction import ExtractionMiddleware, record_options
from topiccrawler.pipelines.feed import DropRawHtmlPipeline


def item(html: str) -> PageItem:
    return PageItem(
        url="http://x.example/", topic="tax", status=200, fetched_at=datetime.now(UTC), html=html
    )


def test_fills_fields_and_counts():
    crawler = get_crawler()
    middleware = build_from_crawler(ExtractionMiddleware, crawler)
    page = middleware.process(item("<title>税</title><body><p>正文</p></body>"))
    assert (page.title, page.body) == ("税", "正文")
    assert crawler.stats.get_value("topiccrawler/extraction/pages") == 1


def test_unparseable_page_is_kept_with_reason_and_size():
    crawler = get_crawler()
    middleware = build_from_crawler(ExtractionMiddleware, crawler)
    page = item("<!-- only a comment, no element -->")
    page.raw_size = 40
    page.relevance_detail = {"threshold": 0.3}  # the relevance middleware's reasons stay
    kept = middleware.process(page)
    assert kept.relevance_detail == {
        "threshold": 0.3,
        "extraction": {"error": "no element in document", "raw_bytes": 40},
    }
    assert kept.title is None and kept.body == ""
    assert crawler.stats.get_value("topiccrawler/extraction/failed") == 1
    assert crawler.stats.get_value("topiccrawler/extraction/pages") == 1


def test_page_with_bytes_lxml_refuses_is_extracted_in_full():
    middleware = build_from_crawler(ExtractionMiddleware, get_crawler())
    page = middleware.process(
        item('<?xml version="1.0" encoding="ilashack, <title>税\x00</title><p>正\x01文</p>')
    )
    assert (page.title, page.body, page.extraction_error, page.relevance_detail) == (
        "税",
        "正文",
        None,
        None,
    )


def test_other_outputs_pass_untouched_and_a_page_is_read_once():
    middleware = build_from_crawler(ExtractionMiddleware, get_crawler())
    assert middleware.process({"a": 1}) == {"a": 1}
    page = middleware.process(item("<title>税</title><p>正文</p>"))
    page.body = "kept"
    assert middleware.process(page).body == "kept"  # already extracted: not read again
    assert middleware.stats.get_value("topiccrawler/extraction/pages") == 1


def test_raw_html_is_dropped_last():
    page = DropRawHtmlPipeline().process_item(item("<p>x</p>"))
    assert page.html == ""


def project_settings(**overrides):
    from scrapy.settings import Settings

    settings = Settings()
    settings.setmodule("topiccrawler.settings")
    settings.update(overrides)
    return settings


def test_record_options_come_from_the_settings():
    options = record_options(project_settings(FORUM_MIN_BLOCKS=3, COMMENT_MEASURE="stm"))
    assert (options.measure, options.similarity, options.level, options.min_blocks) == (
        "stm", 0.8, 6, 5,
    )  # fmt: skip
    assert (options.forum.min_blocks, options.forum.weights) == (3, (0.6, 0.3, 0.1))
    assert record_options(project_settings(RECORDS_ENABLED=False)) is None


def test_comments_and_posts_reach_the_item():
    from tests.extract.records.test_comments import SIX, news_page
    from tests.extract.records.test_forum import POSTS, thread_page

    crawler = get_crawler(settings_dict=dict(project_settings()))
    middleware = build_from_crawler(ExtractionMiddleware, crawler)
    news = middleware.process(item(news_page(SIX)))
    thread = middleware.process(item(thread_page(POSTS)))
    assert len(news.comments) == 6 and not news.posts
    assert [p.author for p in thread.posts] == ["清风徐来", "小王同学", "财务张姐"]
    assert crawler.stats.get_value("topiccrawler/extraction/comments") == 6
