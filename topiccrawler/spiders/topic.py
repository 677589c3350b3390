"""The one spider: `scrapy crawl topic -a topic=tax`.

Two entrances yield the first requests (SPEC §1): the authority sites of the seed file, crawled
deeply within each site's depth limit and page budget, and the search engines, queried with the
topic's keywords. Every HTML response becomes a PageItem that the pipelines extract, dedupe,
score and store; links are followed on the same site within the entrance's limits.
"""

from __future__ import annotations

import codecs
import logging
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import (
    DownloadTimeoutError,
    IgnoreRequest,
    NotConfigured,
    UsageError,
)
from scrapy.http import Response, TextResponse
from scrapy.linkextractors import LinkExtractor
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.error import (
    TCPTimedOutError,
    TimeoutError,
)

from topiccrawler.discovery.meta import DISCOVERY
from topiccrawler.distributed.learning import SharedQueryYields
from topiccrawler.distributed.state import shared_crawl_for
from topiccrawler.extract.blocks import NAVIGATION_WORDS
from topiccrawler.extract.encoding import decode_html, looks_binary
from topiccrawler.frontier.pagination import is_pagination
from topiccrawler.frontier.priority import ENTRANCE_PRIORITY, QUERY_PRIORITY
from topiccrawler.frontier.queries import QueryYields
from topiccrawler.items import (
    LinkFailureItem,
    PageCheckedItem,
    PageItem,
    SearchHitRecord,
    SearchResultsItem,
)
from topiccrawler.seeding import EngineBlocked, SearchEngine, build_queries, engine_from_config
from topiccrawler.seeding.health import UNREACHABLE, EngineHealth, blocked_fix, unreachable_fix
from topiccrawler.signals import frontier_opened, page_judged
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.verdicts import marked_for_refetch
from topiccrawler.storage.writer import answered_queries
from topiccrawler.topics import (
    AuthoritySite,
    Topic,
    TopicFileError,
    UnknownTopicError,
    load_topic_from_settings,
)
from topiccrawler.urls import host_in_domains, strip_tracking

logger = logging.getLogger(__name__)

HTML_TYPES = ("text/html", "application/xhtml+xml")
HELD_LINKS_MAX = 50_000  # links of pages fetched at the hop limit kept, in all (about 20 MB)


class HeldLinks(NamedTuple):
    """A page fetched at the hop limit: what following its links later needs."""

    url: str  # the page's (response) URL
    entrance: str
    site: str | None  # its authority site
    page: SimpleNamespace  # its verdict: relevance, is_relevant
    links: list[tuple[str, str, str]]  # URL, anchor text, block


# Links in navigation bars, menus, breadcrumbs and footers: they lead everywhere, not onwards.
NAVIGATION_LINKS = (
    "//nav//a/@href | //footer//a/@href | //*[@role='navigation']//a/@href"
    f" | //*[re:test(@class, '{NAVIGATION_WORDS}', 'i')"
    f" or re:test(@id, '{NAVIGATION_WORDS}', 'i')]//a/@href"
)


class TopicSpider(Spider):
    """Crawls one topic; arguments: topic (name), keywords (path), seeds (path)."""

    name = "topic"

    def __init__(
        self,
        topic: str | None = None,
        keywords: str | None = None,
        seeds: str | None = None,
        refetch: str | None = None,
        *args: Any,
        **kwargs: Any,
    ):
        super().__init__(*args, **kwargs)
        self.topic_name = topic
        # `-a refetch=yes`: first fetch again the pages `topiccrawler rejudge` found relevant
        # after they were stored without their text.
        self.refetch = (refetch or "").strip().lower() in ("yes", "true", "1")
        self.frontier = None  # the frontier component (middlewares/frontier.py), once open
        self.keywords_path = keywords
        self.seeds_path = seeds
        self.topic: Topic
        self.engines: dict[str, SearchEngine] = {}
        self.engine_health: dict[str, EngineHealth] = {}
        # Distinct URLs requested per site, up to its page budget (a page linked from every
        # page of a site counts once).
        self.site_requests: dict[str, set[str]] = defaultdict(set)
        self.link_extractor = LinkExtractor()
        # Pages whose links the hop limit cut off, by requested URL: their hop count, and (up
        # to HELD_LINKS_MAX links in all) what is needed to follow those links without a
        # second fetch should the page turn up nearer.
        self.hop_limited: dict[str, int] = {}
        self.held_links: dict[str, HeldLinks] = {}
        self.held_total = 0
        self.site_slots: dict[str, str] = {}  # authority site → its own download slot
        self.query_yields = QueryYields()  # next result pages wait in it for the yield
        self.tracking_parameters: tuple[str, ...] = ()
        self.canonical_links = True
        self.releases: dict[str, Any] = {}  # engine → the delayed call that sends held queries

    @classmethod
    def from_crawler(cls, crawler: Crawler, *args: Any, **kwargs: Any) -> TopicSpider:
        spider = super().from_crawler(crawler, *args, **kwargs)
        try:
            spider.topic = load_topic_from_settings(
                crawler.settings, spider.topic_name, spider.keywords_path, spider.seeds_path
            )
        except (UnknownTopicError, TopicFileError) as exc:
            logger.error("%s", exc)
            raise UsageError(str(exc)) from exc
        spider.topic_name = spider.topic.name
        shared = shared_crawl_for(crawler)
        if shared is not None:  # every worker's judged hits count for every query
            spider.query_yields = SharedQueryYields(shared)
        crawler.signals.connect(spider.request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(spider.page_judged, signal=page_judged)
        crawler.signals.connect(spider.frontier_opened, signal=frontier_opened)
        crawler.signals.connect(spider.spider_idle, signal=signals.spider_idle)
        settings = crawler.settings
        spider.tracking_parameters = tuple(settings.getlist("URL_TRACKING_PARAMETERS"))
        spider.canonical_links = settings.getbool("URL_CANONICAL_LINKS")
        for config in spider.topic.seeds.engines:
            spider.engines[config.name] = engine_from_config(config)
            spider.engine_health[config.name] = EngineHealth(
                backoff=settings.getfloat("SEARCH_BACKOFF"),
                max_backoff=settings.getfloat("SEARCH_BACKOFF_MAX"),
                empty_streak_limit=settings.getint("SEARCH_EMPTY_STREAK"),
            )
        logger.info(
            "Topic '%s': %d terms, %d authority sites, %d engines",
            spider.topic.name,
            len(spider.topic.keywords.terms),
            len(spider.topic.seeds.authority),
            len(spider.engines),
        )
        return spider

    async def start(self) -> AsyncIterator[Request]:
        self._apply_site_politeness()
        scheduler = self.crawler.engine.scheduler
        if getattr(scheduler, "joined_seeded_crawl", False):
            logger.info("Joining a shared crawl whose seeds another worker pushed")
            return
        # Queries go to the scheduler at once, not one by one as Scrapy reads start requests:
        # queued above every page, all are asked before the first hits are fetched, so hits
        # compete with each other rather than being fetched in the order engines answer.
        for request in self.search_requests():
            self.crawler.engine.crawl(request)
        for request in self._refetch_requests():
            yield request
        for site in self.topic.seeds.authority:
            for url in site.start_urls:
                if self._take_budget(site.name, site.max_pages, url):
                    yield self._page_request(
                        url,
                        "authority",
                        site=site.name,
                        priority=ENTRANCE_PRIORITY,
                        site_budget=(site.name, site.max_pages),
                    )
        if hasattr(scheduler, "seeds_pushed"):  # a shared crawl: other workers may finish now
            scheduler.seeds_pushed()

    def _apply_site_politeness(self) -> None:
        """Per-site delay and concurrency from the seed file, through Scrapy's own per-slot
        settings (DOWNLOAD_SLOTS): all pages of such a site share one download slot, whatever
        their host (www.…, news.…), before the first request to it."""
        per_slot = self.crawler.engine.downloader.per_slot_settings
        for site in self.topic.seeds.authority:
            settings = {
                k: v
                for k, v in (("delay", site.download_delay), ("concurrency", site.concurrency))
                if v is not None
            }
            if settings:
                self.site_slots[site.name] = f"authority:{site.name}"
                per_slot[self.site_slots[site.name]] = settings

    # --- meta-search entrance -------------------------------------------------------------------

    def search_requests(self) -> Iterator[Request]:
        """First result page of every query on every engine, engines interleaved, skipping
        queries answered within SEARCH_REPEAT_AFTER seconds (when storage is on)."""
        if not self.engines:
            return
        settings = self.crawler.settings
        limit = settings.getint("SEARCH_MAX_QUERIES") or None
        answered = self._answered_queries(settings.getfloat("SEARCH_REPEAT_AFTER"))
        for order, query in enumerate(build_queries(self.topic, limit)):
            for name, engine in self.engines.items():
                if (name, query.text, 1) in answered:
                    self.crawler.stats.inc_value("topiccrawler/search/repeat_skipped")
                    continue
                yield self._search_request(engine, query.text, 1, order)

    def _refetch_requests(self) -> Iterator[Request]:
        """The stored pages marked to be fetched again (`refetch`), each once, at the entrances'
        priority (dont_filter: the revisit check would call them fresh)."""
        if not self.refetch:
            return
        try:
            database = database_for(self.crawler)
        except NotConfigured:
            logger.warning("-a refetch=yes needs storage: no database configured")
            return
        with database.session() as session:
            urls = marked_for_refetch(session, self.topic.name)
        logger.info("Fetching again %d pages found relevant after they were stored", len(urls))
        for url, entrance in urls:
            self.crawler.stats.inc_value("topiccrawler/relevance/refetched")
            request = self._page_request(url, entrance or "link", priority=ENTRANCE_PRIORITY)
            yield request.replace(dont_filter=True)

    def _answered_queries(self, seconds: float) -> set[tuple[str, str, int]]:
        if seconds <= 0:
            return set()
        try:
            database = database_for(self.crawler)
        except NotConfigured:
            return set()
        since = datetime.now(UTC) - timedelta(seconds=seconds)
        with database.session() as session:
            return answered_queries(session, self.topic.name, since)

    def _search_request(
        self, engine: SearchEngine, query: str, page: int, order: int = 0
    ) -> Request:
        return Request(
            engine.query_url(query, page),
            callback=self.parse_search,
            errback=self.on_search_error,
            # Queries fill the frontier and cost no page fetch: asked first, in the order built.
            priority=QUERY_PRIORITY - min(order, 999),
            meta={
                "engine": engine.name,
                "query": query,
                "search_page": page,
                "dont_obey_robotstxt": not engine.obey_robots,
                "handle_httpstatus_list": [202, 403, 429, 503],
                # A hanging engine is found in seconds, not after minutes of retries.
                "download_timeout": self.crawler.settings.getfloat("SEARCH_ENGINE_TIMEOUT"),
                "dont_retry": True,  # the first refusal or timeout tells (seeding/gate.py)
            },
        )

    def parse_search(self, response: Response) -> Iterator[Any]:
        meta = response.meta
        name, query, page = meta["engine"], meta["query"], meta["search_page"]
        engine, health = self.engines[name], self.engine_health[name]
        now = time.monotonic()
        item = SearchResultsItem(self.topic.name, name, query, page, "ok", datetime.now(UTC))
        if meta.get("engine_blocked"):  # a captcha or rate limit, seen and backed off by the gate
            item.status = f"blocked: {meta['engine_blocked']}"
            yield item
            return
        try:
            # An answer that came while the engine backs off is used all the same when it is a
            # result page (its request left before the block).
            text = response.text if isinstance(response, TextResponse) else ""
            if not meta.get("engine_checked"):  # the gate (seeding/gate.py) looks first
                engine.check_response(response.status, response.url, text)
            hits = engine.parse(text, response.url, page)
            reason = health.record_answer(len(hits), now, broad="site:" not in query)
            if reason:
                raise EngineBlocked(reason)
        except EngineBlocked as blocked:
            item.status = f"blocked: {blocked.reason}"
            self._back_off(name, health, blocked.reason, now)
            yield item
            return
        self.crawler.stats.inc_value(f"topiccrawler/search/{name}/answers")
        item.hits = [SearchHitRecord(h.url, h.rank, h.title, h.snippet) for h in hits]
        yield item
        self.query_yields.add_hits(name, query, len(hits))
        for hit in hits:
            # The frontier scores the hit's title and snippet (FRONTIER_SCORE_HITS); without it,
            # hits keep the entrance priority.
            yield self._page_request(
                hit.url,
                "search",
                engine=name,
                query=query,
                hit_title=hit.title[:300],
                hit_snippet=hit.snippet[:500],
                priority=ENTRANCE_PRIORITY,
            )
        if hits and page < self.topic.seeds.pages_per_query:
            self.query_yields.hold_next_page(name, query, page + 1)

    def frontier_opened(self, frontier) -> None:
        self.frontier = frontier

    def page_judged(self, item: PageItem, relevant: bool, response: Response) -> None:
        """A search hit judged: count it for its query, and ask the query's next result page
        once half its hits so far are judged and at least SEARCH_NEXT_PAGE_YIELD of those were
        relevant (a query that brings irrelevant pages is not paged further)."""
        meta = response.meta
        if meta.get("entrance") != "search" or "query" not in meta or meta.get("hops", 0):
            return
        name, query = meta["engine"], meta["query"]
        self.query_yields.record(name, query, relevant)
        page = self.query_yields.take_next_page(name, query)
        if page is None:
            return
        threshold = self.crawler.settings.getfloat("SEARCH_NEXT_PAGE_YIELD")
        judged = self.query_yields.judged[name, query]
        share = self.query_yields.relevant[name, query] / judged
        if share < threshold:
            self.crawler.stats.inc_value("topiccrawler/search/paging_stopped")
            logger.info(
                "Query %r on %s: %d of %d judged hits relevant; no further result pages",
                query, name, self.query_yields.relevant[name, query], judged,
            )  # fmt: skip
            return
        if self.engine_health[name].available(time.monotonic()):
            self.crawler.engine.crawl(self._search_request(self.engines[name], query, page))

    def _back_off(self, name: str, health: EngineHealth, reason: str, now: float) -> None:
        self.crawler.stats.inc_value(f"topiccrawler/search/{name}/blocked")
        wait = health.record_block(reason, now)
        if not health.reported:
            health.reported = True
            logger.error(
                "Search engine '%s' looks blocked (%s): leaving it alone for %.0f s; %s",
                name, reason, wait, blocked_fix(name, self.topic.seeds.path),
            )  # fmt: skip
        else:
            logger.warning(
                "Search engine '%s' blocked again (%s): leaving it alone for %.0f s",
                name, reason, wait,
            )  # fmt: skip

    def on_search_error(self, failure) -> None:
        """A query that got no answer: the engine cannot be reached (refused, no such host, no
        answer within SEARCH_ENGINE_TIMEOUT), or it failed otherwise (backed off)."""
        if failure.check(IgnoreRequest) and not failure.check(HttpError):
            return  # held or dropped by the gate
        request = failure.request
        name = request.meta["engine"]
        self.crawler.stats.inc_value(f"topiccrawler/search/{name}/failed")
        health = self.engine_health[name]
        if health.unreachable is not None:
            return
        if failure.check(*UNREACHABLE):
            self.engine_unreachable(name, failure.value, request)
        else:
            reason = failure.getErrorMessage()[:200] or failure.type.__name__
            self._back_off(name, health, reason, time.monotonic())

    def engine_unreachable(self, name: str, error: BaseException, request: Request) -> None:
        """Said once, at ERROR, with the fix; the engine's other queries are not sent."""
        if isinstance(error, DownloadTimeoutError | TimeoutError | TCPTimedOutError):
            reason = f"no answer within {request.meta.get('download_timeout', '?')} s"
        else:
            reason = str(error)[:200] or error.__class__.__name__
        if self.engine_health[name].record_unreachable(reason):
            engine = self.engines[name]
            self.crawler.stats.set_value(f"topiccrawler/search/{name}/unreachable", reason)
            logger.error(
                "Search engine '%s' cannot be reached at %s (%s): its queries are not sent. "
                "Fix: %s",
                name, engine.url, reason,
                unreachable_fix(name, engine.kind, engine.url, self.topic.seeds.path),
            )  # fmt: skip

    def hold_query(self, name: str, request: Request) -> None:
        """Keep a query of a backing-off engine; it is sent again when the back-off ends."""
        health = self.engine_health[name]
        health.held.append(request)
        self.crawler.stats.inc_value(f"topiccrawler/search/{name}/held")
        if name not in self.releases:
            from twisted.internet import reactor

            wait = max(0.0, health.blocked_until - time.monotonic())
            self.releases[name] = reactor.callLater(wait, self._release_held, name)

    def _release_held(self, name: str) -> None:
        self.releases.pop(name, None)
        held, self.engine_health[name].held = self.engine_health[name].held, []
        for request in held:
            self.crawler.engine.crawl(request.replace(dont_filter=True))

    def spider_idle(self) -> None:
        """Nothing left but queries waiting for a blocked engine: the crawl ends rather than
        idle through the back-off; the queries stay unanswered, so the next crawl asks them."""
        for name, health in self.engine_health.items():
            if health.held:
                logger.warning(
                    "The crawl ends with %d queries of engine '%s' not asked: it is backing off "
                    "(%s); the next crawl asks them",
                    len(health.held), name, health.last_reason,
                )  # fmt: skip
                self.crawler.stats.set_value(
                    f"topiccrawler/search/{name}/not_asked_blocked", len(health.held)
                )
                health.held = []
                call = self.releases.pop(name, None)
                if call is not None and call.active():
                    call.cancel()

    def closed(self, reason: str) -> None:
        for call in self.releases.values():
            if call.active():
                call.cancel()
        self.releases.clear()

    # --- pages and links ------------------------------------------------------------------------

    def _page_request(
        self,
        url: str,
        entrance: str,
        hops: int = 0,
        priority: int = 0,
        site: str | None = None,
        **meta: Any,
    ) -> Request:
        if site is None:
            site = self._authority_site_of(url)  # a search hit on an authority site joins it
        if site is not None and site in self.site_slots:
            meta["download_slot"] = self.site_slots[site]  # the seed file's delay/concurrency
        return Request(
            strip_tracking(url, self.tracking_parameters) if self.tracking_parameters else url,
            callback=self.parse,
            errback=self.on_error,
            priority=priority,
            meta={"entrance": entrance, "hops": hops, "authority_site": site, **meta},
        )

    def _take_budget(self, key: str, limit: int, url: str) -> bool:
        """Count a URL against a site's page budget (once, however often it is linked); False
        once the budget is spent."""
        url = strip_tracking(url, self.tracking_parameters)
        requested = self.site_requests[key]
        if url in requested:
            return True
        if len(requested) >= limit:
            self.crawler.stats.inc_value("topiccrawler/links/over_site_budget")
            return False
        requested.add(url)
        return True

    def _authority_site(self, name: str | None) -> AuthoritySite | None:
        return next((s for s in self.topic.seeds.authority if s.name == name), None)

    def _authority_site_of(self, url: str) -> str | None:
        """The authority site whose domains hold the URL, if any."""
        site = next(
            (s for s in self.topic.seeds.authority if host_in_domains(url, s.allowed_domains)),
            None,
        )
        return site.name if site else None

    def parse(self, response: Response) -> Iterator[Any]:
        if DISCOVERY in response.meta:  # a feed, sitemap or robots.txt: discovery/ reads it
            return
        if response.status == 304:  # a revisit the page answered "not modified"
            self.crawler.stats.inc_value("topiccrawler/fetch/not_modified")
            yield PageCheckedItem(response.url, self.topic.name, datetime.now(UTC))
            return
        page = self.page_item(response)
        if page is None:
            return
        yield page
        decoded = _decoded(response, page.encoding)  # one parse for the canonical and the links
        if self.canonical_links:
            self._claim_canonical(decoded, page)
        yield from self.follow_links(response, page, decoded)

    def _claim_canonical(self, response: Response, page: PageItem) -> None:
        """A page that names another URL as its canonical address (`<link rel=canonical>`)
        is that page: the canonical URL is marked seen, so a link to it is not fetched again."""
        decoded = _decoded(response, page.encoding)
        href = decoded.xpath("//head/link[@rel='canonical']/@href").get()
        if not href:
            return
        canonical = decoded.urljoin(href.strip())
        if urlsplit(canonical).scheme not in ("http", "https"):
            return
        canonical = strip_tracking(canonical, self.tracking_parameters)
        if canonical == response.url:
            return
        page.canonical_url = canonical
        dupefilter = getattr(self.crawler.engine.scheduler, "df", None)
        if dupefilter is not None and not dupefilter.request_seen(Request(canonical)):
            self.crawler.stats.inc_value("topiccrawler/links/canonical_claimed")

    def follow_links(
        self, response: Response, page: PageItem, decoded: TextResponse | None = None
    ) -> Iterator[Request]:
        """Same-site links, within the authority site's depth limit and budget, or within
        SEARCH_FOLLOW_DEPTH hops and SITE_MAX_PAGES for pages the search entrance found."""
        hops = response.meta.get("hops", 0)
        counted = hops - response.meta.get("pager_hops", 0)  # a thread's later pages are free
        site = self._authority_site(response.meta.get("authority_site"))
        settings = self.crawler.settings
        if site is not None:
            max_hops, domains, key, budget = (
                site.depth_limit,
                site.allowed_domains,
                site.name,
                site.max_pages,
            )
        else:
            host = urlsplit(response.url).hostname or ""
            max_hops, domains, key = settings.getint("SEARCH_FOLLOW_DEPTH"), (host,), host
            budget = settings.getint("SITE_MAX_PAGES")
        at_limit = counted >= max_hops
        if at_limit:
            requested = response.meta.get("redirect_urls", [response.url])[0]
            self.hop_limited[requested] = hops
            if not settings.getbool("RELEVANCE_ENABLED"):
                return  # pagers past the limit are followed only for forum pages, which the
                # relevance middleware knows (it extracts the page before links leave)
        decoded = decoded or _decoded(response, page.encoding)
        navigation = {decoded.urljoin(href) for href in decoded.xpath(NAVIGATION_LINKS).getall()}
        held: list[tuple[str, str, str]] = []
        for link in self.link_extractor.extract_links(decoded):
            if at_limit and not is_pagination(link.url, response.url, link.text):
                # at the depth limit only a pager may continue (if the page is a forum's)
                if host_in_domains(link.url, domains):
                    block = "navigation" if link.url in navigation else "content"
                    held.append((link.url, link.text[:200], block))
                continue
            if host_in_domains(link.url, domains) and self._take_budget(key, budget, link.url):
                yield self._page_request(
                    link.url,
                    page.entrance or "link",
                    hops=hops + 1,
                    pager_hops=response.meta.get("pager_hops", 0),
                    site=site.name if site else None,
                    link_text=link.text[:200],
                    link_block="navigation" if link.url in navigation else "content",
                    at_depth_limit=at_limit,
                    hop_limit=max_hops,
                    site_budget=(key, budget),  # a shared crawl counts it over all workers
                )
        if held and self.held_total + len(held) <= HELD_LINKS_MAX:
            requested = response.meta.get("redirect_urls", [response.url])[0]
            verdict = SimpleNamespace(relevance=page.relevance, is_relevant=page.is_relevant)
            self.held_links[requested] = HeldLinks(
                response.url, page.entrance or "link", site.name if site else None, verdict, held
            )
            self.held_total += len(held)

    def request_dropped(self, request: Request) -> None:
        """A page seen again with fewer hops than when it was fetched at the hop limit: its
        links are followed now, from the page's links kept when it was fetched, or (past
        HELD_LINKS_MAX) by fetching it once more. Without this, which pages a crawl reaches
        would depend on the order concurrent responses happen to arrive in."""
        hops = request.meta.get("hops")
        earlier = self.hop_limited.get(request.url)
        if request.callback != self.parse or hops is None or earlier is None or hops >= earlier:
            return
        del self.hop_limited[request.url]
        held = self.held_links.pop(request.url, None)
        if held is not None:
            self.held_total -= len(held.links)
            if self._follow_held(held, request):
                return
        self.crawler.stats.inc_value("topiccrawler/links/refetched_for_fewer_hops")
        self.crawler.engine.crawl(request.replace(dont_filter=True))

    def _follow_held(self, held: HeldLinks, request: Request) -> bool:
        """Follow the kept links of a page fetched at the hop limit, now found `request`'s hops
        away, gated and ranked by the frontier as if the page had just been fetched there;
        False when that cannot be done (no frontier, or the page is still at the limit)."""
        if self.frontier is None:
            return False
        hops = request.meta["hops"]
        pager_hops = request.meta.get("pager_hops", 0)
        site = self._authority_site(held.site)
        if site is not None:
            max_hops, key, budget = site.depth_limit, site.name, site.max_pages
        else:
            settings = self.crawler.settings
            key = urlsplit(held.url).hostname or ""
            max_hops, budget = (
                settings.getint("SEARCH_FOLLOW_DEPTH"),
                settings.getint("SITE_MAX_PAGES"),
            )
        if hops - pager_hops >= max_hops:
            return False
        # What gate() reads of the response and the page: where the page now is, its verdict.
        response = SimpleNamespace(url=held.url, meta={"tunnel": request.meta.get("tunnel", 0)})
        for url, text, block in held.links:
            if not self._take_budget(key, budget, url):
                continue
            link = self._page_request(
                url,
                held.entrance,
                hops=hops + 1,
                pager_hops=pager_hops,
                site=held.site,
                link_text=text,
                link_block=block,
                at_depth_limit=False,
                hop_limit=max_hops,
            )
            link = self.frontier.gate(link, response, held.page)
            if link is not None:
                self.crawler.engine.crawl(link)
        self.crawler.stats.inc_value("topiccrawler/links/held_links_followed")
        return True

    def page_item(self, response: Response) -> PageItem | None:
        """A PageItem for an HTML response; None (with a logged reason) for anything else."""
        content_type = response.headers.get(b"Content-Type", b"").decode("latin-1")
        mime = content_type.split(";", 1)[0].strip().lower()
        if mime and mime not in HTML_TYPES:
            return self._skip(response, "not_html", f"content type {mime!r}")
        if looks_binary(response.body):
            return self._skip(response, "binary", "binary content served as HTML")
        encoding, html = decode_html(response.body, content_type or None)
        referrer = response.request.headers.get(b"Referer") if response.request else None
        return PageItem(
            url=response.url,
            topic=self.topic.name,
            status=response.status,
            fetched_at=datetime.now(UTC),
            html=html,
            raw_size=len(response.body),
            encoding=encoding,
            content_type=content_type or None,
            entrance=response.meta.get("entrance", "link"),
            depth=response.meta.get("hops", 0),
            referrer=referrer.decode("latin-1") if referrer else None,
            etag=_header(response, b"ETag"),
            last_modified=_header(response, b"Last-Modified"),
        )

    def _skip(self, response: Response, reason: str, detail: str) -> None:
        self.crawler.stats.inc_value(f"topiccrawler/skipped/{reason}")
        logger.info("Skipped %s: %s", response.url, detail)
        return None

    def on_error(self, failure) -> Iterator[LinkFailureItem]:
        """A fetch that failed after Scrapy's retries: count it, log it briefly, and record it
        for the dead-link list. Requests skipped on purpose (robots.txt, known URLs) are not
        failures."""
        if failure.check(IgnoreRequest) and not failure.check(HttpError):
            return
        request = getattr(failure, "request", None)
        url = getattr(request, "url", "?")
        self.crawler.stats.inc_value("topiccrawler/fetch/failed")
        logger.info("Failed %s: %s", url, failure.getErrorMessage())
        if request is None or "entrance" not in request.meta:
            return
        response = getattr(failure.value, "response", None)
        status = getattr(response, "status", None)
        if status is not None:
            if status in (404, 410):
                yield LinkFailureItem(url, f"HTTP {status}", permanent=True)
        elif failure.check(*UNREACHABLE):
            yield LinkFailureItem(url, failure.getErrorMessage()[:200], permanent=False)


def _decoded(response: Response, encoding: str | None) -> TextResponse:
    """The response read in the page's encoding: itself when Scrapy reads it so already (its
    parsed tree is then shared with other components), else a copy (parsed anew)."""
    if (
        isinstance(response, TextResponse)
        and encoding
        and _codec(response.encoding) == _codec(encoding)
    ):
        return response
    decoded = response.replace(encoding=encoding)
    assert isinstance(decoded, TextResponse)
    return decoded


def _codec(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return name


def _header(response: Response, name: bytes) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1").strip() or None if value else None
