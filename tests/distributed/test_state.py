"""A worker's heartbeat on the loopback Redis: it beats from a thread, so a crawl whose reactor
is busy for longer than REDIS_WORKER_TIMEOUT is still alive; a crawl hung past the stall limit
stops beating and counts as dead."""

from __future__ import annotations

import time
import uuid

import pytest

from tests.crawl import make_crawler
from tests.distributed.conftest import REDIS_URL
from topiccrawler.crawl.stores import crawl_stores
from topiccrawler.distributed.learning import SharedQueryYields
from topiccrawler.distributed.state import Heartbeat, SharedCrawl, shared_crawl_for
from topiccrawler.distributed.stores import RedisCrawlStores
from topiccrawler.middlewares.frontier import FrontierMiddleware
from topiccrawler.spiders.topic import TopicSpider

pytestmark = pytest.mark.redis


@pytest.fixture
def crawls(redis_server):
    name = f"unit-{uuid.uuid4().hex[:8]}"
    views = [SharedCrawl(redis_server, name, worker_timeout=1.0) for _ in range(2)]
    yield views
    views[0].clear()


def test_a_busy_worker_keeps_beating(crawls):
    busy, other = crawls
    heartbeat = Heartbeat(busy, interval=0.1, stall_limit=30)
    heartbeat.start()
    try:
        time.sleep(2.5)  # the reactor ran nothing (no tick) for over twice the worker timeout
        assert busy.worker in other.alive_workers()
    finally:
        heartbeat.stop()
    assert not heartbeat.thread.is_alive()


def test_a_hung_worker_stops_beating_and_counts_as_dead(crawls):
    hung, other = crawls
    heartbeat = Heartbeat(hung, interval=0.1, stall_limit=0.3)
    heartbeat.start()
    try:
        assert hung.worker in other.alive_workers()
        deadline = time.monotonic() + 10
        while hung.worker in other.alive_workers() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert hung.worker not in other.alive_workers()  # no tick for 0.3 s: no more beats
        heartbeat.tick()  # the reactor ran again: beating again
        deadline = time.monotonic() + 10
        while hung.worker not in other.alive_workers() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hung.worker in other.alive_workers()
    finally:
        heartbeat.stop()


def test_of_two_workers_leaving_at_once_the_last_to_look_is_alone(crawls):
    first, second = crawls
    first.beat()
    second.beat()
    # Both are about to close: had each looked before leaving, each would see the other.
    assert second.worker in first.alive_workers() and first.worker in second.alive_workers()
    assert first.leave() == {second.worker}  # the other is still there: it closes the crawl
    assert second.leave() == set()  # looked after leaving: alone, so it clears the keys


def test_workers_of_a_topic_share_the_crawl_named_after_it(redis_server, seeds_file):
    """Without REDIS_CRAWL_NAME the shared crawl is the topic's: REDIS_URL gives the crawl its
    stores in Redis (the add-on decides it, once), which open it named after the topic."""
    crawler = make_crawler({"REDIS_URL": REDIS_URL, "STORAGE_ENABLED": False})
    crawler.spider = TopicSpider.from_crawler(crawler, topic="tax", seeds=str(seeds_file()))
    stores = crawl_stores(crawler)
    assert isinstance(stores, RedisCrawlStores)
    assert stores.shared.name == "tax" and stores.shared is shared_crawl_for(crawler)
    assert isinstance(crawler.spider.query_yields, SharedQueryYields)
    frontier = FrontierMiddleware.from_crawler(crawler)
    assert frontier.rediscoveries is None  # raised in Redis by the shared scheduler
