"""The hop limit's held links in a shared crawl: held by one worker, followed by another."""

from __future__ import annotations

import uuid

import pytest

from topiccrawler.distributed.held import SharedHeldLinks
from topiccrawler.distributed.state import SharedCrawl
from topiccrawler.frontier.held import HeldLinks, HeldPage

pytestmark = pytest.mark.redis

PAGE = HeldPage(
    "http://news.test/deep.html",
    "news",
    0.42,
    True,
    {"topiccrawler_entrance": "authority", "topiccrawler_authority_site": "news"},
    "parse",
    "on_error",
    [
        ("http://news.test/a.html", "偷税案件", "content"),
        ("http://news.test/", "首页", "navigation"),
    ],
)


@pytest.fixture
def stores(redis_server):
    name = f"unit-{uuid.uuid4().hex[:8]}"
    crawls = [SharedCrawl(redis_server, name) for _ in range(2)]
    yield [SharedHeldLinks(crawl, max_links=3) for crawl in crawls]
    crawls[0].clear()


def test_a_page_held_by_one_worker_is_followed_by_the_other_once(stores):
    first, second = stores
    url = "http://news.test/deep.html?from=list"
    first.limited(url, 3)
    assert first.hold(url, PAGE)
    assert second.take(url, 3) == (False, None)  # not nearer: stays held
    nearer, page = second.take(url, 1)
    assert nearer and page == PAGE
    assert first.take(url, 0) == (False, None)  # released once, by one worker
    assert int(first.crawl.server.get(first.keys[2])) == 0  # its links no longer count


def test_past_the_cap_over_all_workers_a_page_is_only_known_as_limited(stores):
    first, second = stores
    first.limited("http://a.test/1", 2)
    first.limited("http://a.test/2", 2)
    assert first.hold("http://a.test/1", PAGE)
    assert not second.hold("http://a.test/2", PAGE)  # 2 + 2 links > 3, over all workers
    assert second.take("http://a.test/2", 1) == (True, None)  # nearer: fetched once more


# The same rules for both stores: the one process's (frontier/held.py) and Redis's.


@pytest.fixture(params=["one process", "redis"])
def store(request):
    """A store of held links of each kind, capped at 3 links and 4 pages."""
    if request.param == "one process":
        yield HeldLinks(max_links=3, max_pages=4)
        return
    crawl = SharedCrawl(request.getfixturevalue("redis_server"), f"unit-{uuid.uuid4().hex[:8]}")
    yield SharedHeldLinks(crawl, max_links=3, max_pages=4)
    crawl.clear()


def test_a_page_found_nearer_gives_its_held_links_back_once(store):
    url = "http://news.test/deep.html"
    store.limited(url, 2)
    assert store.hold(url, PAGE)
    assert store.take(url, 2) == (False, None)  # as far as when fetched: not nearer
    assert store.take(url, 1) == (True, PAGE)
    assert store.take(url, 0) == (False, None)  # given back once
    assert store.take("http://news.test/other.html", 0) == (False, None)  # never limited


def test_past_the_cap_a_page_is_only_known_as_limited(store):
    store.limited("http://a.test/1", 2)
    store.limited("http://a.test/2", 2)
    assert store.hold("http://a.test/1", PAGE)
    assert not store.hold("http://a.test/2", PAGE)  # 2 + 2 links > 3
    assert store.take("http://a.test/2", 1) == (True, None)  # nearer: fetched once more
    assert store.take("http://a.test/1", 1) == (True, PAGE)  # its links leave the cap ...
    store.limited("http://a.test/3", 2)
    assert store.hold("http://a.test/3", PAGE)  # ... so another page's fit


def test_past_the_cap_of_pages_the_oldest_is_forgotten_with_its_links(store):
    store.limited("http://a.test/old", 2)
    assert store.hold("http://a.test/old", PAGE)  # 2 of the 3 links
    for number in range(3):
        store.limited(f"http://a.test/{number}", 2)
    store.limited("http://a.test/0", 2)  # known already: nothing new, nothing forgotten
    assert store.take("http://a.test/0", 1) == (True, None)  # taken: 3 pages left
    store.limited("http://a.test/3", 2)
    store.limited("http://a.test/4", 2)  # the fifth: the oldest goes, with its links
    assert store.take("http://a.test/old", 1) == (False, None)
    assert store.hold("http://a.test/4", PAGE)  # its 2 links no longer count against the cap
    for number in (1, 2, 3):
        assert store.take(f"http://a.test/{number}", 1) == (True, None)
    assert store.take("http://a.test/4", 1) == (True, PAGE)
