"""Run the topic spider in-process, as Scrapy's own tests run crawls."""

from __future__ import annotations

from typing import Any

from scrapy.crawler import Crawler
from scrapy.utils.test import get_crawler

from topiccrawler import settings as project_settings
from topiccrawler.spiders.topic import TopicSpider

PROJECT_SETTINGS = {k: getattr(project_settings, k) for k in dir(project_settings) if k.isupper()}

# Fast and quiet on loopback; everything else is the project's real defaults.
TEST_SETTINGS = {
    "AUTOTHROTTLE_ENABLED": False,
    "DOWNLOAD_DELAY": 0,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
    "LOG_LEVEL": "INFO",
    "RETRY_TIMES": 0,
    # In the test's own process whatever the default (its servers' threads would make every
    # crawl spawn a fresh interpreter for a worker); the workers' own tests ask for them.
    "EXTRACT_PROCESSES": 0,
}


def make_crawler(settings: dict[str, Any]) -> Crawler:
    return get_crawler(TopicSpider, {**PROJECT_SETTINGS, **TEST_SETTINGS, **settings})


async def crawl(settings: dict[str, Any], **spider_args: Any) -> Crawler:
    """Crawl to completion and return the crawler (its stats and components)."""
    crawler = make_crawler(settings)
    await crawler.crawl_async(**spider_args)
    return crawler
