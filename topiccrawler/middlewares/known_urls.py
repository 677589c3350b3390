"""Skip what storage already knows: dead links, and pages not yet due for a revisit.

So a second run of a crawl does not fetch again what it has (SPEC §1), while the pages that
change keep being read (SPEC §9): hub pages (lists, homes: high link density) and pages with
comments or posts are revisited sooner than articles. Entrance pages (start URLs, search hits)
are always fetched, since new links are found through them. A page last fetched by a run that was
killed is fetched again (whole): the links found on it may have died with that run's queue.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.statscollectors import StatsCollector

from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.discovery.meta import CHANGED
from topiccrawler.meta import ENTRANCE, FRONTIER_RAISED, HOPS
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.db import Database
from topiccrawler.storage.known_urls import KnownUrl, known_url

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class RevisitPolicy:
    """How old a stored page must be before it is fetched again, by kind of page."""

    articles: timedelta
    hubs: timedelta
    discussions: timedelta
    hub_link_density: float
    dead_retry: timedelta

    def due(self, known: KnownUrl, now: datetime) -> bool:
        if known.fetched_at is None or known.interrupted:
            return True
        return now - known.fetched_at >= self.interval(known, now)

    def interval(self, known: KnownUrl, now: datetime) -> timedelta:
        """Hubs often; articles seldom; a discussion after as long as it has been quiet, between
        a quarter of REVISIT_DISCUSSIONS_AFTER and REVISIT_AFTER: a thread that got replies
        yesterday is looked at again tomorrow, one silent for a month after a week."""
        if (known.link_density or 0.0) >= self.hub_link_density:
            return self.hubs
        if not known.has_discussion:
            return self.articles
        if known.last_activity_at is None:
            return self.discussions
        quiet = max(now - known.last_activity_at, timedelta(0))
        return min(max(quiet, self.discussions / 4), max(self.articles, self.discussions))

    def dead(self, known: KnownUrl, now: datetime) -> bool:
        return (
            known.dead
            and known.last_failed_at is not None
            and now - known.last_failed_at < self.dead_retry
        )


class KnownUrlsMiddleware:
    def __init__(self, database: Database, stats: StatsCollector, policy: RevisitPolicy, topic_of):
        self.database = database
        self.stats = stats
        self.policy = policy
        self.topic_of = topic_of

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> KnownUrlsMiddleware:
        settings = crawler.settings
        if not settings.getbool("REVISIT_ENABLED"):
            raise NotConfigured("REVISIT_ENABLED is False")
        policy = RevisitPolicy(
            articles=timedelta(seconds=settings.getfloat("REVISIT_AFTER")),
            hubs=timedelta(seconds=settings.getfloat("REVISIT_HUBS_AFTER")),
            discussions=timedelta(seconds=settings.getfloat("REVISIT_DISCUSSIONS_AFTER")),
            hub_link_density=settings.getfloat("REVISIT_HUB_LINK_DENSITY"),
            dead_retry=timedelta(seconds=settings.getfloat("DEAD_LINK_RETRY_AFTER")),
        )
        return cls(
            database_for(crawler),
            crawler.stats,
            policy,
            lambda: crawl_topic(crawler).name,
        )

    def make_conditional(self, request: Request, known: KnownUrl) -> None:
        """Send the stored validators: an unchanged page answers 304 and costs no extraction."""
        if known.etag:
            request.headers.setdefault(b"If-None-Match", known.etag.encode("latin-1", "ignore"))
        if known.last_modified:
            request.headers.setdefault(
                b"If-Modified-Since", known.last_modified.encode("latin-1", "ignore")
            )
        statuses = request.meta.setdefault("handle_httpstatus_list", [])
        if 304 not in statuses:
            statuses.append(304)
        self.stats.inc_value("topiccrawler/known_urls/conditional")

    def process_request(self, request: Request) -> None:
        refetch = request.dont_filter and not request.meta.get(FRONTIER_RAISED)
        if ENTRANCE not in request.meta or refetch:
            return None  # search queries, robots.txt, deliberate refetches (a page queued
            # again at a better priority is no refetch: frontier/rediscovery.py)
        topic = self.topic_of()
        if topic is None:
            return None
        with self.database.session() as session:
            known = known_url(session, topic, request.url)
        now = datetime.now(UTC)
        if self.policy.dead(known, now):
            self.stats.inc_value("topiccrawler/known_urls/dead_skipped")
            raise IgnoreRequest(f"dead link ({known.dead_reason})")
        changed = request.meta.get(CHANGED)  # its feed or sitemap dates it after our copy
        if request.meta.get(HOPS, 0) > 0 and not changed and not self.policy.due(known, now):
            self.stats.inc_value("topiccrawler/known_urls/fresh_skipped")
            raise IgnoreRequest("fetched recently; not due for a revisit")
        hub = (known.link_density or 0.0) >= self.policy.hub_link_density
        if known.interrupted:
            self.stats.inc_value("topiccrawler/known_urls/interrupted_refetched")
        elif known.fetched_at is not None and (known.etag or known.last_modified) and not hub:
            # A hub, or a page a killed run fetched, is fetched whole: its links are needed.
            self.make_conditional(request, known)
        return None
