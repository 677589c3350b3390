from __future__ import annotations

import os
import uuid

import pytest

from tests.conftest import need_service

REDIS_URL = os.environ.get("TOPICCRAWLER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def redis_server():
    """The loopback Redis (skipped without it on a laptop, a failure in CI)."""
    import redis

    server = redis.Redis.from_url(REDIS_URL)
    try:
        server.ping()
    except redis.RedisError as exc:
        need_service("Redis", f"{REDIS_URL}: {exc}")
    yield server
    server.close()


@pytest.fixture
def workers(redis_server):
    """Two workers' views of one fresh crawl (its own key prefix); its keys are deleted
    afterwards."""
    from topiccrawler.distributed.state import SharedCrawl

    name = f"unit-{uuid.uuid4().hex[:8]}"
    views = [SharedCrawl(redis_server, name, worker_timeout=1.0) for _ in range(2)]
    for view in views:
        view.beat()
    yield views
    views[0].clear()


@pytest.fixture(params=[0, 10], ids=["sorted-sets", "bands"])
def band(request):
    """The shared frontier's layout: REDIS_FRONTIER_BAND (0: a sorted set per site, else band
    lists that wide, distributed/bands.py)."""
    return request.param


def shared_frontier(crawl, spider, site_of, policy, band: int = 0):
    """A worker's shared frontier in the layout `band` names."""
    from topiccrawler.distributed.bands import BandedFrontier
    from topiccrawler.distributed.frontier import SharedFrontier

    if band:
        return BandedFrontier(crawl, spider, site_of, policy, band=band)
    return SharedFrontier(crawl, spider, site_of, policy)
