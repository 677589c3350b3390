"""Harvest rate: relevant pages over judged pages, as a curve over the crawl, per site, and as
a reason to stop. The curve and the per-site counts go into the crawl's stats, which the
crawl-run row keeps (`crawl_runs.stats`), so a report can plot them later.

- `topiccrawler/harvest/curve`: [[pages judged, relevant so far], …] every HARVEST_CURVE_EVERY;
- `topiccrawler/harvest/site/<host>/judged` and `…/relevant`;
- stop at CRAWL_MAX_PAGES judged pages, or when the rate over the last HARVEST_WINDOW pages
  falls below HARVEST_STOP_BELOW, with one log line saying why.
"""

from __future__ import annotations

import logging
from collections import deque
from urllib.parse import urlsplit

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.utils.defer import deferred_from_coro

from topiccrawler.downloader import drop_waiting
from topiccrawler.items import PageItem
from topiccrawler.signals import page_judged

logger = logging.getLogger(__name__)


class HarvestMonitor:
    def __init__(self, crawler: Crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.max_pages = settings.getint("CRAWL_MAX_PAGES")
        self.window: deque[bool] = deque(maxlen=max(1, settings.getint("HARVEST_WINDOW")))
        self.stop_below = settings.getfloat("HARVEST_STOP_BELOW")
        self.every = max(1, settings.getint("HARVEST_CURVE_EVERY"))
        self.judged = 0
        self.relevant = 0
        self.curve: list[list[int]] = []
        self.stopping = False

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HarvestMonitor:
        if not crawler.settings.getbool("RELEVANCE_ENABLED"):
            raise NotConfigured("no relevance, no harvest rate")
        monitor = cls(crawler)
        crawler.signals.connect(monitor.page_judged, signal=page_judged)
        crawler.signals.connect(monitor.spider_closed, signal=signals.spider_closed)
        return monitor

    def page_judged(self, item: PageItem, relevant: bool) -> None:
        self.judged += 1
        self.relevant += relevant
        self.window.append(relevant)
        host = urlsplit(item.url).hostname or ""
        self.stats.inc_value(f"topiccrawler/harvest/site/{host}/judged")
        if relevant:
            self.stats.inc_value(f"topiccrawler/harvest/site/{host}/relevant")
        if self.judged % self.every == 0:
            self.curve.append([self.judged, self.relevant])
            self.stats.set_value("topiccrawler/harvest/curve", list(self.curve))
        if self.stopping:
            return
        if self.max_pages and self.judged >= self.max_pages:
            self._stop("page_limit", f"{self.judged} pages judged (CRAWL_MAX_PAGES)")
        elif self.stop_below and len(self.window) == self.window.maxlen:
            rate = sum(self.window) / len(self.window)
            if rate < self.stop_below:
                self._stop(
                    "harvest_rate_low",
                    f"the harvest rate over the last {len(self.window)} pages is {rate:.2f}, "
                    f"below HARVEST_STOP_BELOW = {self.stop_below}",
                )

    def _stop(self, reason: str, why: str) -> None:
        """Close the crawl; requests still waiting in download slots are not sent (a slow or
        banned site's slot, one request a delay, would keep it open for minutes), those being
        downloaded are finished and stored."""
        self.stopping = True
        logger.warning("Stopping the crawl: %s", why)
        engine = self.crawler.engine
        dropped = sum(
            drop_waiting(slot, f"the crawl is stopping: {why}")
            for slot in list(engine.downloader.slots.values())
        )
        if dropped:
            self.stats.inc_value("topiccrawler/harvest/unsent_at_stop", dropped)
        deferred_from_coro(engine.close_spider_async(reason=reason))

    def spider_closed(self, spider, reason: str) -> None:
        if self.judged % self.every:
            self.curve.append([self.judged, self.relevant])
        self.stats.set_value("topiccrawler/harvest/curve", list(self.curve))
        self.stats.set_value("topiccrawler/harvest/judged", self.judged)
        self.stats.set_value("topiccrawler/harvest/relevant", self.relevant)
        if self.judged:
            self.stats.set_value("topiccrawler/harvest/rate", round(self.relevant / self.judged, 4))
