"""The switch: with REDIS_URL (or $TOPICCRAWLER_REDIS_URL) set, the crawl is a worker of a shared
crawl; without it, nothing changes. A Scrapy add-on, so that one setting on the command line
(`scrapy crawl topic -a topic=tax -s REDIS_URL=redis://127.0.0.1:6379/0`) is all a user gives;
a SCHEDULER of the user's own is left alone."""

from __future__ import annotations

from topiccrawler.crawl.stores import CrawlStores
from topiccrawler.distributed.state import redis_url
from topiccrawler.distributed.stores import RedisCrawlStores

# The schedulers a shared crawl replaces: the project's and Scrapy's default.
ONE_PROCESS_SCHEDULERS = (
    "topiccrawler.frontier.scheduler.FrontierScheduler",
    "scrapy.core.scheduler.Scheduler",
)


class DistributedCrawl:
    def update_settings(self, settings) -> None:
        if not redis_url(settings):
            return
        # What the crawl learns and holds, in Redis for every worker (crawl/stores.py).
        try:
            settings.replace_in_component_priority_dict("EXTENSIONS", CrawlStores, RedisCrawlStores)
        except KeyError:  # settings without the project's extensions: nothing to share
            pass
        if str(settings.get("SCHEDULER")) not in ONE_PROCESS_SCHEDULERS:
            return  # the user's own scheduler: left alone
        # In place of the one-process scheduler (settings.py), at its priority.
        priority = settings.getpriority("SCHEDULER") or 0
        settings.set(
            "SCHEDULER", "topiccrawler.distributed.scheduler.DistributedScheduler", priority
        )
        # The scheduler filters with the shared Bloom filter; Scrapy's own stays idle.
        priority = max(priority, settings.getpriority("DUPEFILTER_CLASS") or 0)
        settings.set("DUPEFILTER_CLASS", "scrapy.dupefilters.BaseDupeFilter", priority)
