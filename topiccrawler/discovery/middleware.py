"""Spider middleware: an authority site's feeds and sitemaps become page requests of the one
best-first queue.

When the crawl starts it asks, for every authority site with `discover` on (the default), for
the robots.txt of its start URLs' hosts (for their `Sitemap:` lines), for the feeds and sitemaps
its seed file names, and for those an earlier crawl found — with the validators their last
answer carried (conditional GET), above the start pages in the queue: a scheduled run learns
first what is new, and an unchanged feed costs a 304. On the responses of the site's start and
hub pages (DISCOVERY_HUB_HOPS) it follows the feeds they announce (`<link rel="alternate">`).

A feed's items and a sitemap's URLs become page requests as if linked from the site's home
page (one hop): the frontier ranks each (`gate`) with the item's title and summary
(or a news sitemap's title) scored like an anchor's text, the feed's own text as the "parent"
page; a fresh entry gains DISCOVERY_FRESH_BONUS priority points, halving every
DISCOVERY_FRESH_HALF_LIFE of its age. An entry whose page is stored and dated no later than
when it was fetched is not requested; one dated after is fetched although its revisit is not due.

Bounded and guarded: every request goes through the downloader middlewares (the address guard
checks feeds, sitemaps, their redirects and every entry); bodies are capped
(DISCOVERY_FEED_MAX_BYTES, DISCOVERY_SITEMAP_MAX_BYTES, unpacked bytes too), entries per file
(DISCOVERY_MAX_ENTRIES), nested indexes (DISCOVERY_SITEMAP_DEPTH), files per site
(DISCOVERY_MAX_SOURCES) and entries per site (its max_pages); entries, feeds and sitemaps
outside the site's allowed_domains (and entry_domains) are dropped. Every page item is labelled
with how it was found (`found_by`), for the run's summary.

It sits after the relevance judge and the frontier (a lower number): the pages it sees are
judged, and the requests it adds are ranked by calling the frontier (which it learns of by the
`frontier_opened` signal), not by passing through it.
"""

from __future__ import annotations

import logging
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Iterable, Iterator
from datetime import UTC, datetime
from itertools import islice
from typing import Any
from urllib.parse import urlsplit

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response, TextResponse
from sqlalchemy.exc import SQLAlchemyError

from topiccrawler.crawl.page_output import PageOutputMiddleware
from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.discovery.entries import Entry, parse_w3c_date
from topiccrawler.discovery.feeds import announced_feeds, parse_feed
from topiccrawler.discovery.meta import CHANGED, DISCOVERY, FOUND_BY, found_by
from topiccrawler.discovery.sitemaps import (
    SitemapTooLarge,
    parse_sitemap,
    robots_sitemaps,
    sitemap_body,
)
from topiccrawler.frontier.origin import LinkOrigin
from topiccrawler.frontier.priority import ENTRANCE_PRIORITY
from topiccrawler.items import PageItem
from topiccrawler.meta import (
    AT_DEPTH_LIMIT,
    AUTHORITY_SITE,
    ENTRANCE,
    FRONTIER,
    HOP_LIMIT,
    HOPS,
    LINK_BLOCK,
    LINK_TEXT,
    SITE_BUDGET,
)
from topiccrawler.signals import frontier_opened
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.db import Database
from topiccrawler.storage.sources import (
    KnownSource,
    known_sources,
    last_run_complete,
    record_source,
    sources_by_url,
    stored_fetch_times,
)
from topiccrawler.topics import AuthoritySite
from topiccrawler.topics.limits import download_slot
from topiccrawler.urls import host_in_domains, strip_tracking

logger = logging.getLogger(__name__)

# Feeds, sitemaps and robots.txt: above the start pages (ENTRANCE_PRIORITY), below the search
# queries; a nested sitemap a little lower than the index that names it.
SOURCE_PRIORITY = ENTRANCE_PRIORITY + 500
ENTRY_TEXT_CHARS = 800  # of an entry's title and summary scored as its anchor text
CONTEXT_ENTRIES = 500  # entries whose text makes a feed's relevance
STATS = "topiccrawler/discovery"


class DiscoveryMiddleware(PageOutputMiddleware):
    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        settings = crawler.settings
        self.stats = crawler.stats
        self.enabled = settings.getbool("DISCOVERY_ENABLED")
        self.hub_hops = settings.getint("DISCOVERY_HUB_HOPS")
        self.hub_link_density = settings.getfloat("REVISIT_HUB_LINK_DENSITY")
        self.feed_max_bytes = settings.getint("DISCOVERY_FEED_MAX_BYTES")
        self.sitemap_max_bytes = settings.getint("DISCOVERY_SITEMAP_MAX_BYTES")
        self.max_entries = settings.getint("DISCOVERY_MAX_ENTRIES")
        self.max_sources = settings.getint("DISCOVERY_MAX_SOURCES")
        self.max_depth = settings.getint("DISCOVERY_SITEMAP_DEPTH")
        self.fresh_bonus = settings.getfloat("DISCOVERY_FRESH_BONUS")
        self.half_life = settings.getfloat("DISCOVERY_FRESH_HALF_LIFE")
        self.tracking_parameters = tuple(settings.getlist("URL_TRACKING_PARAMETERS"))
        self.sites: dict[str, AuthoritySite] = {}
        self.topic: str | None = None
        self.database: Database | None = None
        self.ready = False
        self.conditional = True  # sources asked with their validators (a complete last run)
        self.sources: dict[str, set[str]] = defaultdict(set)  # site → feed/sitemap URLs asked
        self.robots: set[str] = set()  # origins whose robots.txt was asked
        self.entries: dict[str, set[str]] = defaultdict(set)  # site → entry URLs requested
        self.unchanged: dict[str, set[str]] = defaultdict(set)  # site → entries not requested
        self.warned: Counter[tuple[str, str]] = Counter()  # (site, what): logged once
        self.frontier: Any = None  # the frontier (middlewares/frontier.py), once it is open

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> DiscoveryMiddleware:
        middleware = cls(crawler)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.frontier_opened, signal=frontier_opened)
        return middleware

    def spider_opened(self, spider) -> None:
        self._setup()

    def _setup(self) -> None:
        """The topic's sites with discovery on, and storage when there is one (once)."""
        if self.ready:
            return
        self.ready = True
        topic = crawl_topic(self.crawler).topic
        if topic is None or not self.enabled:
            return  # not the topic spider, or discovery off: pages are only labelled
        self.topic = topic.name
        self.sites = {site.name: site for site in topic.seeds.authority if site.discover}
        try:
            self.database = database_for(self.crawler)
        except NotConfigured:
            self.database = None  # no conditional GET, every entry is requested
        if self.database is not None:
            with self.database.session() as session:
                self.conditional = last_run_complete(session, self.topic)
            if not self.conditional:
                logger.info(
                    "Discovery: the last crawl did not run to its end; feeds and sitemaps are "
                    "read whole again"
                )

    # --- the first requests: robots.txt, the seed file's feeds and sitemaps, known ones ----------

    async def process_start(self, start: AsyncIterator[Any]) -> AsyncIterator[Any]:
        """The spider's first start request, then the sources (queued above every start page),
        then the rest: the spider has set up its sites' download slots by its first one."""
        self._setup()
        first = True
        async for output in start:
            yield output
            if first:
                first = False
                for request in self._first_requests():
                    yield request
        if first:
            for request in self._first_requests():
                yield request

    def _first_requests(self) -> Iterator[Request]:
        known = self._known_sources()
        for site in self.sites.values():
            for url in site.start_urls:
                request = self._robots_request(site, url)
                if request is not None:
                    yield request
            named = [(url, "feed") for url in site.feeds]
            named += [(url, "sitemap") for url in site.sitemaps]
            for url, kind in named:  # the seed file's: trusted whatever their host
                request = self._source_request(site, url, kind, 0, trusted=True)
                if request is not None:
                    yield request
            for source in known.get(site.name, []):  # found by earlier crawls: on the site
                request = self._source_request(site, source.url, source.kind, 0, known=source)
                if request is not None:
                    yield request

    def _known_sources(self) -> dict[str, list[KnownSource]]:
        """Feeds and sitemaps earlier crawls found directly, by site."""
        if self.database is None or self.topic is None:
            return {}
        try:
            with self.database.session() as session:
                rows = known_sources(session, self.topic)
        except SQLAlchemyError as exc:
            logger.warning("Discovery: known feeds and sitemaps could not be read: %s", exc)
            return {}
        by_site: dict[str, list[KnownSource]] = defaultdict(list)
        for row in rows:
            by_site[row.site].append(row)
        return by_site

    # --- requests for robots.txt, feeds and sitemaps --------------------------------------------

    def _robots_request(self, site: AuthoritySite, page_url: str) -> Request | None:
        parts = urlsplit(page_url)
        origin = f"{parts.scheme}://{parts.netloc}"
        if origin in self.robots:
            return None
        self.robots.add(origin)
        return Request(
            f"{origin}/robots.txt",
            callback=self.crawler.spider.parse,
            priority=SOURCE_PRIORITY,
            meta={
                DISCOVERY: {"kind": "robots", "site": site.name, "depth": 0},
                "dont_obey_robotstxt": True,
                "download_maxsize": 512 * 1024,
                **self._slot(site),
            },
        )

    def _source_request(
        self,
        site: AuthoritySite,
        url: str,
        kind: str,
        depth: int,
        trusted: bool = False,
        known: KnownSource | None = None,
        lastmod: datetime | None = None,
    ) -> Request | None:
        """A feed or sitemap request, conditional when its validators are known; None when it
        was asked already, is off the site (unless the seed file names it) or past the site's
        DISCOVERY_MAX_SOURCES."""
        asked = self.sources[site.name]
        if url in asked:
            return None
        if not trusted and not self._in_site(site, url):
            self.stats.inc_value(f"{STATS}/sources_offsite")
            self._once(site, "offsite-source", "Discovery: %s %s is off the site %r; not read",
                       kind, url, site.name)  # fmt: skip
            return None
        if len(asked) >= self.max_sources:
            self.stats.inc_value(f"{STATS}/sources_over_limit")
            self._once(site, "sources", "Discovery: %r has more than %d feeds and sitemaps "
                       "(DISCOVERY_MAX_SOURCES); the rest are not read", site.name,
                       self.max_sources)  # fmt: skip
            return None
        asked.add(url)
        if known is None and self.database is not None and self.topic is not None:
            known = self._lookup_sources([url]).get(url)
        headers = {}
        if known is not None and known.etag and self.conditional:
            headers["If-None-Match"] = known.etag
        if known is not None and known.last_modified and self.conditional:
            headers["If-Modified-Since"] = known.last_modified
        limit = self.feed_max_bytes if kind == "feed" else self.sitemap_max_bytes
        return Request(
            url,
            callback=self.crawler.spider.parse,
            headers=headers,
            priority=SOURCE_PRIORITY - depth,
            meta={
                DISCOVERY: {
                    "kind": kind,
                    "site": site.name,
                    "depth": depth,
                    "lastmod": lastmod.isoformat() if lastmod else None,
                },
                "handle_httpstatus_list": [304],
                "download_maxsize": limit,
                **self._slot(site),
            },
        )

    def _slot(self, site: AuthoritySite) -> dict[str, str]:
        """The site's own download slot, when the seed file gives it a delay or concurrency."""
        slot = download_slot(site)
        return {"download_slot": slot} if slot is not None else {}

    def _in_site(self, site: AuthoritySite, url: str) -> bool:
        return host_in_domains(url, (*site.allowed_domains, *site.entry_domains))

    # --- responses ------------------------------------------------------------------------------

    # A page's output (crawl/page_output.py): each page item labelled, then what the page
    # announces.
    def open_page(self, response: Response) -> list[PageItem]:
        return []

    def process_output(self, output: Any, response: Response, pages: list[PageItem]) -> Any:
        return self._label(output, response, pages)

    def close_page(self, response: Response, pages: list[PageItem]) -> Iterator[Request]:
        return self._discover(response, pages[0] if pages else None)

    def _label(self, output: Any, response: Response, pages: list[PageItem]) -> Any:
        if isinstance(output, PageItem):
            pages.append(output)
            if output.found_by is None:
                output.found_by = found_by(response.meta)
        return output

    def _is_hub(self, response: Response, page: PageItem | None) -> bool:
        """A start page, or a list page near one (DISCOVERY_HUB_HOPS; link density from
        REVISIT_HUB_LINK_DENSITY up, when extraction measured it): where a site announces its
        feeds. An article's own feed (its comments) is not wanted."""
        hops = response.meta.get(HOPS, 0)
        if hops == 0:
            return True
        if hops > self.hub_hops:
            return False
        density = page.link_density if page is not None else None
        return density is None or density >= self.hub_link_density

    def _discover(self, response: Response, page: PageItem | None = None) -> Iterator[Request]:
        self._setup()
        source = response.meta.get(DISCOVERY)
        if source is not None:
            site = self.sites.get(source["site"])
            if site is None:
                return
            if source["kind"] == "robots":
                yield from self._read_robots(site, response)
            elif response.status == 304:
                self.stats.inc_value(f"{STATS}/not_modified")
                self._record(site, source, response, entries=None)
            elif response.status == 200:
                yield from self._read_source(site, source, response)
            return
        site = self.sites.get(response.meta.get(AUTHORITY_SITE) or "")
        if (
            site is None
            or response.status != 200
            or not self._is_hub(response, page)
            or not isinstance(response, TextResponse)
            or b"html" not in response.headers.get(b"Content-Type", b"text/html").lower()
        ):
            return
        robots = self._robots_request(site, response.url)  # a start page on another host
        if robots is not None:
            yield robots
        try:
            feeds = announced_feeds(response.selector, response.url)
        except ValueError:  # undecodable markup: no feed links to read
            return
        for url in feeds:
            request = self._source_request(site, url, "feed", 0)
            if request is not None:
                self.stats.inc_value(f"{STATS}/feeds_announced")
                yield request

    def _read_robots(self, site: AuthoritySite, response: Response) -> Iterator[Request]:
        if response.status != 200:
            return
        for url in robots_sitemaps(response.body, response.url):
            request = self._source_request(site, url, "sitemap", 0)
            if request is not None:
                self.stats.inc_value(f"{STATS}/sitemaps_in_robots")
                yield request

    def _read_source(self, site: AuthoritySite, source: dict, response: Response):
        kind, depth = source["kind"], source["depth"]
        if kind == "feed":
            feed = parse_feed(
                response.body,
                response.url,
                response.headers.get(b"Content-Type", b"").decode("latin-1") or None,
                self.max_entries,
            )
            problem, entries, more, title = feed.problem, feed.entries, feed.more, feed.title
            children: list[tuple[str, datetime | None]] = []
        else:
            try:
                xml = sitemap_body(response.body, self.sitemap_max_bytes)
            except SitemapTooLarge as exc:
                self.stats.inc_value(f"{STATS}/too_large")
                logger.warning("Discovery: sitemap %s not read: %s (DISCOVERY_SITEMAP_MAX_BYTES)",
                               response.url, exc)  # fmt: skip
                return
            sitemap = parse_sitemap(xml, response.url, self.max_entries)
            problem, entries, more, title = sitemap.problem, sitemap.entries, sitemap.more, ""
            children = sitemap.children
        if problem:
            self.stats.inc_value(f"{STATS}/unreadable")
            logger.info("Discovery: %s %s not read: %s", kind, response.url, problem)
            return
        if more:
            self.stats.inc_value(f"{STATS}/truncated")  # files cut at DISCOVERY_MAX_ENTRIES
            logger.warning("Discovery: %s %s lists more than %d entries "
                           "(DISCOVERY_MAX_ENTRIES); the rest are not read",
                           kind, response.url, self.max_entries)  # fmt: skip
        self.stats.inc_value(f"{STATS}/{kind}s_read")
        self.stats.inc_value(f"{STATS}/entries", len(entries) + len(children))
        self._record(site, source, response, entries=len(entries) + len(children))
        yield from self._nested(site, response.url, children, depth)
        requests = list(self._entry_requests(site, kind, response.url, title, entries))
        logger.info("Discovery: %s %s: %d entries, %d requested",
                    kind, response.url, len(entries) + len(children), len(requests))  # fmt: skip
        yield from requests

    def _nested(
        self, site: AuthoritySite, url: str, children: list[tuple[str, datetime | None]], depth: int
    ) -> Iterator[Request]:
        """The sitemaps an index lists, unless nested too deep or unchanged since last read."""
        if not children:
            return
        if depth + 1 > self.max_depth:
            self.stats.inc_value(f"{STATS}/sitemaps_too_deep", len(children))
            self._once(site, "depth", "Discovery: sitemap index %s is nested %d deep "
                       "(DISCOVERY_SITEMAP_DEPTH = %d); the sitemaps it lists are not read",
                       url, depth + 1, self.max_depth)  # fmt: skip
            return
        parent_host = urlsplit(url).hostname or ""
        in_site = [
            (child, lastmod)
            for child, lastmod in children
            if self._in_site(site, child) or urlsplit(child).hostname == parent_host
        ]
        self.stats.inc_value(f"{STATS}/sources_offsite", len(children) - len(in_site))
        known = self._lookup_sources([child for child, _ in in_site])
        for child, lastmod in in_site:
            stored = known.get(child)
            if (
                self.conditional
                and stored is not None
                and stored.status in (200, 304)
                and lastmod is not None
                and stored.lastmod is not None
                and lastmod <= stored.lastmod
            ):
                # The index dates it as when it was last read (the site's clock both times).
                self.stats.inc_value(f"{STATS}/sitemaps_unchanged")
                continue
            request = self._source_request(site, child, "sitemap", depth + 1, True, stored, lastmod)
            if request is not None:
                yield request

    def _record(self, site: AuthoritySite, source: dict, response: Response, entries) -> None:
        if self.database is None or self.topic is None:
            return
        url = response.meta.get("redirect_urls", [response.url])[0]
        try:
            with self.database.session() as session, session.begin():
                record_source(
                    session, self.topic, site.name, source["kind"], url, source["depth"],
                    response.status, datetime.now(UTC),
                    etag=_header(response, b"ETag"),
                    last_modified=_header(response, b"Last-Modified"),
                    entries=entries,
                    lastmod=parse_w3c_date(source.get("lastmod")),
                )  # fmt: skip
        except SQLAlchemyError as exc:
            self._once(site, "record", "Discovery: %s could not be recorded (%s); the next "
                       "crawl reads it whole", url, exc)  # fmt: skip

    def _lookup_sources(self, urls: list[str]) -> dict[str, KnownSource]:
        if self.database is None or self.topic is None or not urls:
            return {}
        try:
            with self.database.session() as session:
                return sources_by_url(session, self.topic, urls)
        except SQLAlchemyError:
            return {}

    # --- entries --------------------------------------------------------------------------------

    def _entry_requests(
        self, site: AuthoritySite, kind: str, source_url: str, title: str, entries: list[Entry]
    ) -> Iterator[Request]:
        tracking = self.tracking_parameters
        taken = self.entries[site.name]  # requested: they count against max_pages
        settled = self.unchanged[site.name]
        wanted: dict[str, Entry] = {}
        for entry in entries:
            url = strip_tracking(entry.url, tracking) if tracking else entry.url
            if not self._in_site(site, url):
                self.stats.inc_value(f"{STATS}/entries_offsite")
                continue
            if url not in taken and url not in settled and url not in wanted:
                wanted[url] = entry
        fetched = self._fetch_times(list(wanted))
        changed: set[str] = set()
        for url, entry in list(wanted.items()):
            last = fetched.get(url)
            if last is None or entry.date is None:
                continue  # new, or undated: the revisit policy decides (KnownUrlsMiddleware)
            if entry.date <= last:
                self.stats.inc_value(f"{STATS}/entries_unchanged")
                settled.add(url)
                del wanted[url]  # stored since it was last dated: nothing new to fetch
            else:
                changed.add(url)
        room = max(0, site.max_pages - len(taken))
        if len(wanted) > room:
            self.stats.inc_value(f"{STATS}/entries_over_budget", len(wanted) - room)
            self._once(site, "budget", "Discovery: the feeds and sitemaps of %r list more pages "
                       "than its max_pages (%d); the freshest are requested", site.name,
                       site.max_pages)  # fmt: skip
            newest_first = sorted(
                wanted.items(),
                key=lambda pair: pair[1].date or datetime.min.replace(tzinfo=UTC),
                reverse=True,
            )
            wanted = dict(newest_first[:room])
        context = self._context(title, wanted.values())
        now = datetime.now(UTC)
        for url, entry in wanted.items():
            taken.add(url)
            if url in changed:
                self.stats.inc_value(f"{STATS}/entries_changed")
            request = self._page_request(site, kind, url, entry, url in changed)
            request = self._ranked(request, source_url, context, entry.date, now)
            if request is not None:
                self.stats.inc_value(f"{STATS}/requested/{kind}")
                yield request

    def _page_request(
        self, site: AuthoritySite, kind: str, url: str, entry: Entry, changed: bool
    ) -> Request:
        """A page request as the spider makes one for a link on the site's start page."""
        spider = self.crawler.spider
        in_site = host_in_domains(url, site.allowed_domains)
        meta: dict[str, Any] = {
            ENTRANCE: "authority",
            HOPS: 1,
            AUTHORITY_SITE: site.name if in_site else None,
            LINK_TEXT: entry.text[:ENTRY_TEXT_CHARS],
            LINK_BLOCK: "content",
            AT_DEPTH_LIMIT: False,
            HOP_LIMIT: site.depth_limit,
            FOUND_BY: kind,
        }
        if in_site:
            meta[SITE_BUDGET] = (site.name, site.max_pages)
            meta.update(self._slot(site))
        if changed:
            meta[CHANGED] = True
        return Request(url, callback=spider.parse, errback=spider.on_error, meta=meta)

    def _ranked(
        self, request: Request, source_url: str, context: float, date: datetime | None,
        now: datetime,
    ) -> Request | None:  # fmt: skip
        """The entry's priority from the frontier (its text as an anchor's, the
        feed's relevance as the parent page's), plus its freshness bonus."""
        if self.frontier is not None:
            # The feed as the page the entry is linked from: relevant, its text's relevance.
            admitted = self.frontier.admit(request, LinkOrigin(source_url, context))
            if admitted is None:
                return None
            request = admitted
        bonus = self.freshness(date, now)
        if bonus:
            request.priority += bonus
            known = request.meta.get(FRONTIER)
            if known is not None:  # kept when the frontier scores the request again
                known["offset"] = known.get("offset", 0) + bonus
        return request

    def freshness(self, date: datetime | None, now: datetime) -> int:
        """Priority points for an entry of this date: DISCOVERY_FRESH_BONUS for one dated now
        (or later), half that DISCOVERY_FRESH_HALF_LIFE ago, and so on; 0 undated."""
        if date is None or self.fresh_bonus <= 0 or self.half_life <= 0:
            return 0
        age = max(0.0, (now - date).total_seconds())
        return round(self.fresh_bonus * 0.5 ** (age / self.half_life))

    def _context(self, title: str, entries: Iterable[Entry]) -> float:
        """The feed's (or news sitemap's) relevance from its title and entries' text, as a
        page's; η (neither for nor against) for a sitemap of bare URLs."""
        if self.frontier is None or self.frontier.scorer is None:
            return 0.0
        text = "\n".join(islice((e.text for e in entries if e.text), CONTEXT_ENTRIES))
        if not text:
            return float(self.frontier.threshold or 0.0)
        return self.frontier.scorer.score({"title": title, "body": text}).score

    def frontier_opened(self, frontier) -> None:
        """`frontier_opened`: entries are ranked by the frontier, as links are."""
        self.frontier = frontier

    def _fetch_times(self, urls: list[str]) -> dict[str, datetime]:
        if self.database is None or self.topic is None or not urls:
            return {}
        try:
            with self.database.session() as session:
                return stored_fetch_times(session, self.topic, urls)
        except SQLAlchemyError:
            return {}

    def _once(self, site: AuthoritySite, what: str, message: str, *args: Any) -> None:
        self.warned[site.name, what] += 1
        if self.warned[site.name, what] == 1:
            logger.warning(message, *args)


def _header(response: Response, name: bytes) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1").strip() or None if value else None
