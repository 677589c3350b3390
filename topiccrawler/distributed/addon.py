"""The switch: with REDIS_URL (or $TOPICCRAWLER_REDIS_URL) set, the crawl is a worker of a shared
crawl; without it, nothing changes. A Scrapy add-on, so that one setting on the command line
(`scrapy crawl topic -a topic=tax -s REDIS_URL=redis://127.0.0.1:6379/0`) is all a user gives;
SCHEDULER and DUPEFILTER_CLASS set by the user on the command line still win."""

from __future__ import annotations

from topiccrawler.distributed.state import redis_url


class DistributedCrawl:
    def update_settings(self, settings) -> None:
        if not redis_url(settings):
            return
        # Over the project's one-process scheduler (settings.py); a user's -s still wins.
        settings.set(
            "SCHEDULER", "topiccrawler.distributed.scheduler.DistributedScheduler", "project"
        )
        # The scheduler filters with the shared Bloom filter; Scrapy's own stays idle.
        settings.set("DUPEFILTER_CLASS", "scrapy.dupefilters.BaseDupeFilter", "project")
