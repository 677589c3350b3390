"""Spider middleware: every site's page budget (the seed file's `max_pages` for an authority
site, SITE_MAX_PAGES for a site the search entrance found).

A site's budget counts distinct URLs requested on it: a page linked from every page of a site
counts once, and once the budget is spent no further link into the site is followed
(`topiccrawler/links/over_site_budget`). Counted here are an authority site's start pages and
the links a page yields (requests one hop further than the page), against the limits of the
page's site (topics/limits.py); search hits, refetches and discovery's entries are not.

Each request that counts carries `site_budget` = (key, budget): in a shared crawl the worker's
scheduler counts it again over all workers (distributed/scheduler.py), since each worker only
sees the links it found itself. The hop limit (middlewares/hop_limit.py) asks `admit` for the
links it releases later without a spider output (Scrapy's `crawler.get_spider_middleware`).
"""

from __future__ import annotations

from collections import defaultdict

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.http import Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.meta import AUTHORITY_SITE, ENTRANCE, HOPS, SITE_BUDGET
from topiccrawler.topics.limits import authority_site, site_limits
from topiccrawler.urls import strip_tracking


class SiteBudgetMiddleware(BaseSpiderMiddleware):
    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        self.topic = crawl_topic(crawler)
        self.stats = crawler.stats
        self.tracking_parameters = tuple(crawler.settings.getlist("URL_TRACKING_PARAMETERS"))
        # Distinct URLs requested per site, up to its budget, as the URLs' hashes (about 70
        # bytes each, against 150 for the URL: a crawl of many sites holds sites × budget).
        self.requested: dict[str, set[int]] = defaultdict(set)

    def admit(self, request: Request, key: str, budget: int) -> bool:
        """Count the request's URL against the budget of site `key` (once, however often it is
        linked) and mark the request with it; False once the budget is spent."""
        url = hash(strip_tracking(request.url, self.tracking_parameters))
        requested = self.requested[key]
        if url not in requested:
            if len(requested) >= budget:
                self.stats.inc_value("topiccrawler/links/over_site_budget")
                return False
            requested.add(url)
        request.meta[SITE_BUDGET] = (key, budget)  # a shared crawl counts it over all workers
        return True

    # --- start pages and links (Scrapy's BaseSpiderMiddleware: one method for both) -----------

    def get_processed_request(self, request: Request, response: Response | None) -> Request | None:
        admitted = (
            self._start_admitted(request)
            if response is None
            else self._link_admitted(request, response)
        )
        return request if admitted else None

    def _start_admitted(self, request: Request) -> bool:
        """An authority site's start page counts against its budget (a refetch does not)."""
        meta = request.meta
        seeds = self.topic.seeds
        if request.dont_filter or seeds is None:
            return True
        if meta.get(ENTRANCE) != "authority" or meta.get(HOPS, 0):
            return True
        site = authority_site(seeds, meta.get(AUTHORITY_SITE))
        return site is None or self.admit(request, site.name, site.max_pages)

    def _link_admitted(self, request: Request, response: Response) -> bool:
        """A link of the page (one hop further) counts against the budget of the page's site."""
        seeds = self.topic.seeds
        if seeds is None or request.meta.get(HOPS) != response.meta.get(HOPS, 0) + 1:
            return True  # no link of this page
        limits = site_limits(
            seeds, self.crawler.settings, response.meta.get(AUTHORITY_SITE), response.url
        )
        return self.admit(request, limits.key, limits.budget)
