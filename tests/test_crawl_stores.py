"""The crawl's stores (crawl/stores.py) without Redis: in this process's memory, one of each
for every component that asks. With REDIS_URL: tests/distributed/test_state.py."""

from __future__ import annotations

from tests.crawl import make_crawler
from topiccrawler.crawl.stores import CrawlStores, crawl_stores
from topiccrawler.frontier.queries import QueryYields
from topiccrawler.middlewares.frontier import FrontierMiddleware
from topiccrawler.spiders.topic import TopicSpider


def test_a_crawl_without_redis_keeps_its_stores_in_memory(seeds_file):
    crawler = make_crawler({"STORAGE_ENABLED": False})
    crawler.spider = TopicSpider.from_crawler(crawler, topic="tax", seeds=str(seeds_file()))
    stores = crawl_stores(crawler)
    assert type(stores) is CrawlStores and stores.shared is None
    assert type(crawler.spider.query_yields) is QueryYields
    assert crawler.spider.query_yields is stores.query_yields  # one record, the frontier's too


def test_the_frontier_ranks_search_hits_by_the_spiders_query_yields(seeds_file):
    crawler = make_crawler({"STORAGE_ENABLED": False})
    crawler.spider = TopicSpider.from_crawler(crawler, topic="tax", seeds=str(seeds_file()))
    frontier = FrontierMiddleware.from_crawler(crawler)
    frontier.spider_opened(crawler.spider)
    assert frontier.query_yields is crawler.spider.query_yields
    assert frontier.rediscoveries is not None  # one process's bookkeeping
