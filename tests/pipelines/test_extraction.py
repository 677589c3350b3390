"""The extraction stage fills pages and drops what cannot be parsed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from scrapy.exceptions import DropItem
from scrapy.utils.misc import build_from_crawler
from scrapy.utils.test import get_crawler

from topiccrawler.items import PageItem
from topiccrawler.pipelines.extraction import ExtractionPipeline
from topiccrawler.pipelines.feed import DropRawHtmlPipeline


def item(html: str) -> PageItem:
    return PageItem(
        url="http://x.example/", topic="tax", status=200, fetched_at=datetime.now(UTC), html=html
    )


def test_fills_fields_and_counts():
    crawler = get_crawler()
    pipeline = build_from_crawler(ExtractionPipeline, crawler)
    page = pipeline.process_item(item("<title>税</title><body><p>正文</p></body>"))
    assert (page.title, page.body) == ("税", "正文")
    assert crawler.stats.get_value("topiccrawler/extraction/pages") == 1


def test_unparseable_page_is_dropped_with_reason():
    crawler = get_crawler()
    pipeline = build_from_crawler(ExtractionPipeline, crawler)
    with pytest.raises(DropItem, match=r"cannot extract http://x.example/: empty document"):
        pipeline.process_item(item("   "))
    assert crawler.stats.get_value("topiccrawler/extraction/failed") == 1


def test_other_items_pass_untouched():
    pipeline = build_from_crawler(ExtractionPipeline, get_crawler())
    assert pipeline.process_item({"a": 1}) == {"a": 1}


def test_raw_html_is_dropped_last():
    page = DropRawHtmlPipeline().process_item(item("<p>x</p>"))
    assert page.html == ""
