"""Pages fetched at the hop limit, shared over Redis: a worker that finds such a page nearer
knows it even when another worker fetched it, and only one worker takes its links on."""

from __future__ import annotations

import uuid

import pytest

from topiccrawler.distributed.hops import SharedHopLimits
from topiccrawler.distributed.state import SharedCrawl

pytestmark = pytest.mark.redis


@pytest.fixture
def two_workers(redis_server):
    name = f"test-hops-{uuid.uuid4().hex[:8]}"
    views = [SharedCrawl(redis_server, name, worker_timeout=1.0) for _ in range(2)]
    yield views
    views[0].clear()


def test_a_page_at_the_limit_is_known_to_the_other_worker_and_claimed_once(two_workers):
    fetcher, finder = (SharedHopLimits(view, refresh=0) for view in two_workers)
    fetcher.record("http://a.test/deep.html", 3)
    fetcher.record("http://a.test/other.html", 2)
    assert finder.recorded("http://a.test/deep.html") == 3
    assert finder.recorded("http://a.test/other.html") == 2
    assert finder.recorded("http://a.test/never.html") is None
    assert finder.claim("http://a.test/deep.html")  # the finder follows its links
    assert not fetcher.claim("http://a.test/deep.html")  # and the fetcher does not again
    assert fetcher.recorded("http://a.test/deep.html") is None


def test_records_are_read_on_from_where_the_worker_stopped(two_workers):
    fetcher = SharedHopLimits(two_workers[0], refresh=0)
    finder = SharedHopLimits(two_workers[1], refresh=3600)  # reads once, then waits
    fetcher.record("http://a.test/1.html", 1)
    assert finder.recorded("http://a.test/1.html") == 1
    fetcher.record("http://a.test/2.html", 1)
    assert finder.recorded("http://a.test/2.html") is None  # not read again yet
    finder.refreshed = float("-inf")
    assert finder.recorded("http://a.test/2.html") == 1
    assert finder.read == 2
