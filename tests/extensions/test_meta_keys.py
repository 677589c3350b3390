"""The meta-key check: undeclared request.meta keys are logged once and counted."""

from __future__ import annotations

import logging

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from topiccrawler.extensions.meta_keys import MetaKeysCheck
from topiccrawler.meta import DECLARED, PROJECT_KEYS, SCRAPY_KEYS


def test_undeclared_keys_are_logged_once_and_counted(caplog):
    crawler = get_crawler(settings_dict={"META_KEYS_CHECK": True})
    check = MetaKeysCheck.from_crawler(crawler)
    declared = {"hops": 1, "entrance": "link", "download_slot": "a", "frontier": {}}
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            check.request_scheduled(Request("http://a.test/", meta={**declared, "my_key": 1}))
    assert crawler.stats.get_value("topiccrawler/meta/undeclared/my_key") == 2
    assert len([r for r in caplog.records if "'my_key'" in r.getMessage()]) == 1
    assert not any("hops" in r.getMessage() for r in caplog.records)


def test_off_unless_asked_for():
    with pytest.raises(NotConfigured):
        MetaKeysCheck.from_crawler(get_crawler())


def test_declarations_are_whole_and_clash_with_nothing_of_scrapys():
    assert len(DECLARED) == len(PROJECT_KEYS)  # each declared once
    assert not DECLARED & SCRAPY_KEYS
    assert all(key.written_by and key.read_by and key.meaning for key in PROJECT_KEYS)
