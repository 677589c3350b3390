"""The meta-key check: undeclared request.meta keys are logged once and counted."""

from __future__ import annotations

import io
import logging
import tokenize
from pathlib import Path

import pytest
from scrapy import Request
from scrapy.exceptions import NotConfigured
from scrapy.utils.test import get_crawler

from topiccrawler.extensions.meta_keys import MetaKeysCheck
from topiccrawler.meta import DECLARED, ENTRANCE, FRONTIER, HOPS, PROJECT_KEYS, SCRAPY_KEYS


def test_undeclared_keys_are_logged_once_and_counted(caplog):
    crawler = get_crawler(settings_dict={"META_KEYS_CHECK": True})
    check = MetaKeysCheck.from_crawler(crawler)
    declared = {HOPS: 1, ENTRANCE: "link", "download_slot": "a", FRONTIER: {}}
    with caplog.at_level(logging.WARNING):
        for _ in range(2):
            check.request_scheduled(Request("http://a.test/", meta={**declared, "my_key": 1}))
    assert crawler.stats.get_value("topiccrawler/meta/undeclared/my_key") == 2
    assert len([r for r in caplog.records if "'my_key'" in r.getMessage()]) == 1
    assert not any(HOPS in r.getMessage() for r in caplog.records)


def test_off_unless_asked_for():
    with pytest.raises(NotConfigured):
        MetaKeysCheck.from_crawler(get_crawler())


def test_declarations_are_whole_and_clash_with_nothing_of_scrapys():
    assert len(DECLARED) == len(PROJECT_KEYS)  # each declared once
    assert not DECLARED & SCRAPY_KEYS
    assert all(key.written_by and key.read_by and key.meaning for key in PROJECT_KEYS)


def test_every_project_key_is_prefixed_and_named_through_its_constant():
    """`topiccrawler_<name>`, so no key clashes with Scrapy's or an add-on's; and no module but
    the declarations spells a key out (they import its constant)."""
    assert all(key.name.startswith("topiccrawler_") for key in PROJECT_KEYS)
    package = Path(__file__).resolve().parents[2] / "topiccrawler"
    owners = {package / "meta.py", package / "discovery" / "meta.py"}
    spelt = []
    for path in package.rglob("*.py"):
        if path in owners:
            continue
        source = path.read_text(encoding="utf-8")
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.STRING and token.string.strip("\"'") in DECLARED:
                spelt.append(f"{path.relative_to(package)}:{token.start[0]}: {token.string}")
    assert spelt == []
