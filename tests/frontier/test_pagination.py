"""Which links of a forum page continue it."""

from __future__ import annotations

import pytest

from topiccrawler.frontier.pagination import is_pagination


@pytest.mark.parametrize(
    ("url", "page", "anchor"),
    [
        ("http://b.test/thread-1001-2-1.html", "http://b.test/thread-1001-1-1.html", "2"),
        ("http://b.test/thread-1001-2-1.html", "http://b.test/thread-1001-1-1.html", "下一页"),
        ("http://b.test/topic/501?page=2", "http://b.test/topic/501", "2"),
        ("http://b.test/board/1?page=3", "http://b.test/board/1?page=2", "Next ›"),
        ("http://b.test/forum-2-2.html", "http://b.test/forum-2-1.html", "»"),
    ],
)
def test_pager_links(url, page, anchor):
    assert is_pagination(url, page, anchor)


@pytest.mark.parametrize(
    ("url", "page", "anchor"),
    [
        ("http://b.test/thread-1002-1-1.html", "http://b.test/thread-1001-1-1.html", "个税汇算"),
        ("http://other.test/thread-1001-2-1.html", "http://b.test/thread-1001-1-1.html", "2"),
        ("http://b.test/topic/501?sort=new", "http://b.test/topic/501", "2"),
        ("http://b.test/news/2.html", "http://b.test/thread-1001-1-1.html", "2"),
    ],
)
def test_other_links(url, page, anchor):
    assert not is_pagination(url, page, anchor)
