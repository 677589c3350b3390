"""The one spider: `scrapy crawl topic -a topic=tax`.

Two entrances yield the first requests (SPEC §1): the authority sites of the seed file, crawled
deeply within each site's depth limit and page budget, and the search engines, queried with the
topic's keywords. Every HTML response becomes a PageItem that the pipelines extract, dedupe,
score and store; links are followed on the same site within the entrance's limits.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlparse

from scrapy import Request, Spider
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured, UsageError
from scrapy.http import Response, TextResponse
from scrapy.linkextractors import IGNORED_EXTENSIONS
from scrapy.spidermiddlewares.httperror import HttpError

from topiccrawler.crawl.stores import CrawlStores, crawl_stores
from topiccrawler.discovery.meta import DISCOVERY
from topiccrawler.extract.encoding import decode_html, looks_binary
from topiccrawler.extract.links import page_links
from topiccrawler.frontier.priority import ENTRANCE_PRIORITY, QUERY_PRIORITY
from topiccrawler.frontier.queries import QueryYields
from topiccrawler.items import (
    LinkFailureItem,
    PageCheckedItem,
    PageItem,
    SearchHitRecord,
    SearchResultsItem,
)
from topiccrawler.meta import (
    AUTHORITY_SITE,
    ENGINE,
    ENGINE_BLOCKED,
    ENGINE_CHECKED,
    ENTRANCE,
    HIT_SNIPPET,
    HIT_TITLE,
    HOPS,
    LINK_BLOCK,
    LINK_TEXT,
    PAGER_HOPS,
    QUERY,
    SEARCH_PAGE,
)
from topiccrawler.read_ahead import LINKS, take
from topiccrawler.relevance.judge import PENDING_MAX
from topiccrawler.responses import in_encoding
from topiccrawler.seeding import EngineBlocked, SearchEngine, build_queries, engine_from_config
from topiccrawler.seeding.gate import SearchEngineHealthMiddleware
from topiccrawler.seeding.health import UNREACHABLE
from topiccrawler.signals import page_judged, seeds_queued, seeds_wanted, verdicts_revised
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.verdicts import marked_for_refetch
from topiccrawler.storage.writer import answered_queries
from topiccrawler.topics import (
    Topic,
    TopicFileError,
    UnknownTopicError,
    load_topic_from_settings,
)
from topiccrawler.topics.limits import download_slot, site_limits
from topiccrawler.urls import host_in_domains, strip_tracking

logger = logging.getLogger(__name__)

HTML_TYPES = ("text/html", "application/xhtml+xml")


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
        self.keywords_path = keywords
        self.seeds_path = seeds
        self.topic: Topic
        self.engines: dict[str, SearchEngine] = {}
        self.site_slots: dict[str, str] = {}  # authority site → its own download slot
        self._stores: CrawlStores | None = None
        # hits judged provisionally (η settling): URL → (engine, query, the verdict counted)
        self.provisional_hits: OrderedDict[str, tuple[str, str, bool]] = OrderedDict()
        self.tracking_parameters: tuple[str, ...] = ()
        self._search_health: SearchEngineHealthMiddleware | None = None

    @property
    def query_yields(self) -> QueryYields:
        """The search queries' hits and judged yields (next result pages wait in it for the
        yield); the crawl's stores hold it, in Redis for a shared crawl (crawl/stores.py)."""
        if self._stores is None:
            self._stores = crawl_stores(self.crawler)
        return self._stores.query_yields

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
        crawler.signals.connect(spider.page_judged, signal=page_judged)
        crawler.signals.connect(spider.verdicts_revised, signal=verdicts_revised)
        spider.tracking_parameters = tuple(crawler.settings.getlist("URL_TRACKING_PARAMETERS"))
        for config in spider.topic.seeds.engines:
            spider.engines[config.name] = engine_from_config(config)
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
        signals = self.crawler.signals
        if any(answer is False for _, answer in signals.send_catch_log(seeds_wanted)):
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
            for url in site.start_urls:  # within its page budget (middlewares/site_budget.py)
                yield self._page_request(
                    url, "authority", site=site.name, priority=ENTRANCE_PRIORITY
                )
        signals.send_catch_log(seeds_queued)  # a shared crawl: other workers may finish now

    def _apply_site_politeness(self) -> None:
        """Per-site delay and concurrency from the seed file, through Scrapy's own per-slot
        settings (DOWNLOAD_SLOTS): all pages of such a site share one download slot, whatever
        their host (www.…, news.…), before the first request to it."""
        per_slot = self.crawler.engine.downloader.per_slot_settings
        for site in self.topic.seeds.authority:
            slot = download_slot(site)
            if slot is not None:
                self.site_slots[site.name] = slot
                per_slot[slot] = {
                    k: v
                    for k, v in (("delay", site.download_delay), ("concurrency", site.concurrency))
                    if v is not None
                }

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
                ENGINE: engine.name,
                QUERY: query,
                SEARCH_PAGE: page,
                "dont_obey_robotstxt": not engine.obey_robots,
                "handle_httpstatus_list": [202, 403, 429, 503],
                # A hanging engine is found in seconds, not after minutes of retries.
                "download_timeout": self.crawler.settings.getfloat("SEARCH_ENGINE_TIMEOUT"),
                "dont_retry": True,  # the first refusal or timeout tells (seeding/gate.py)
            },
        )

    def parse_search(self, response: Response) -> Iterator[Any]:
        meta = response.meta
        name, query, page = meta[ENGINE], meta[QUERY], meta[SEARCH_PAGE]
        engine, health = self.engines[name], self.search_health()
        item = SearchResultsItem(self.topic.name, name, query, page, "ok", datetime.now(UTC))
        if meta.get(ENGINE_BLOCKED):  # a captcha or rate limit, seen and backed off by the gate
            item.status = f"blocked: {meta[ENGINE_BLOCKED]}"
            yield item
            return
        try:
            # An answer that came while the engine backs off is used all the same when it is a
            # result page (its request left before the ban).
            text = response.text if isinstance(response, TextResponse) else ""
            if not meta.get(ENGINE_CHECKED):  # the gate (seeding/gate.py) looks first
                engine.check_response(response.status, response.url, text)
            hits = engine.parse(text, response.url, page)
        except EngineBlocked as blocked:
            item.status = f"blocked: {blocked.reason}"
            if health is not None:
                health.blocked(name, blocked.reason)
            yield item
            return
        reason = health.answered(name, query, len(hits)) if health is not None else None
        if reason:  # empty answers in a row after results: backed off
            item.status = f"blocked: {reason}"
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
                priority=ENTRANCE_PRIORITY,
                meta={
                    ENGINE: name,
                    QUERY: query,
                    HIT_TITLE: hit.title[:300],
                    HIT_SNIPPET: hit.snippet[:500],
                },
            )
        if hits and page < self.topic.seeds.pages_per_query:
            self.query_yields.hold_next_page(name, query, page + 1)

    def search_health(self) -> SearchEngineHealthMiddleware | None:
        """The search engines' health component (seeding/gate.py), if it is on."""
        if self._search_health is None:
            try:
                self._search_health = self.crawler.get_downloader_middleware(
                    SearchEngineHealthMiddleware
                )
            except RuntimeError:  # no engine yet (a spider built for a test)
                return None
        return self._search_health

    def page_judged(self, item: PageItem, relevant: bool, response: Response) -> None:
        """A search hit judged: count it for its query, and ask the query's next result page
        once half its hits so far are judged and at least SEARCH_NEXT_PAGE_YIELD of those were
        relevant (a query that brings irrelevant pages is not paged further)."""
        meta = response.meta
        if meta.get(ENTRANCE) != "search" or QUERY not in meta or meta.get(HOPS, 0):
            return
        name, query = meta[ENGINE], meta[QUERY]
        self.query_yields.record(name, query, relevant)
        if (item.relevance_detail or {}).get("verdict") == "provisional":
            self.provisional_hits[item.url] = (name, query, relevant)
            while len(self.provisional_hits) > PENDING_MAX:
                self.provisional_hits.popitem(last=False)
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
        health = self.search_health()
        if health is None or health.available(name):
            self.crawler.engine.crawl(self._search_request(self.engines[name], query, page))

    def verdicts_revised(self, changed: dict[str, bool]) -> None:
        """Hits judged provisionally whose verdict changed as η settled: their queries' yields
        counted with the verdict now (not counted twice)."""
        for url, relevant in changed.items():
            counted = self.provisional_hits.get(url)
            if counted is not None and counted[2] != relevant:
                self.provisional_hits[url] = (counted[0], counted[1], relevant)
                self.query_yields.relabel(counted[0], counted[1], relevant)

    def on_search_error(self, failure) -> None:
        """A query that got no answer: the search engines' health component judges why."""
        health = self.search_health()
        if health is not None:
            health.failed(failure.request.meta[ENGINE], failure)

    # --- pages and links ------------------------------------------------------------------------

    def _page_request(
        self,
        url: str,
        entrance: str,
        hops: int = 0,
        priority: int = 0,
        site: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Request:
        meta = dict(meta or {})
        if site is None:
            site = self._authority_site_of(url)  # a search hit on an authority site joins it
        if site is not None and site in self.site_slots:
            meta["download_slot"] = self.site_slots[site]  # the seed file's delay/concurrency
        return Request(
            strip_tracking(url, self.tracking_parameters) if self.tracking_parameters else url,
            callback=self.parse,
            errback=self.on_error,
            priority=priority,
            meta={ENTRANCE: entrance, HOPS: hops, AUTHORITY_SITE: site, **meta},
        )

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
        yield from self.follow_links(response, page)

    def follow_links(self, response: Response, page: PageItem) -> Iterator[Request]:
        """The page's links on its own site (an authority site's domains, or the page's host:
        topics/limits.py), one hop further. Spider middlewares decide which are followed: the
        hop limit (middlewares/hop_limit.py), the site's page budget (middlewares/site_budget.py)
        and the frontier (middlewares/frontier.py)."""
        meta = response.meta
        limits = site_limits(
            self.topic.seeds, self.crawler.settings, meta.get(AUTHORITY_SITE), response.url
        )
        read = take(page.read_ahead, LINKS, page.html, response.url, page.encoding)
        if read is not None:  # read by an extraction worker
            self.crawler.stats.inc_value("topiccrawler/links/read_in_worker")
            links = read.value
        else:
            links = page_links(in_encoding(response, page.encoding))  # Scrapy's own parse
        for link in links:
            if not host_in_domains(link.url, limits.domains) or links_to_a_file(link.url):
                continue
            yield self._page_request(
                link.url,
                page.entrance or "link",
                hops=meta.get(HOPS, 0) + 1,
                site=limits.site.name if limits.site else None,
                meta={
                    PAGER_HOPS: meta.get(PAGER_HOPS, 0),
                    LINK_TEXT: link.text[:200],
                    LINK_BLOCK: "navigation" if link.navigation else "content",
                },
            )

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
            entrance=response.meta.get(ENTRANCE, "link"),
            depth=response.meta.get(HOPS, 0),
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
        request = failure.request  # Scrapy sets it on every errback's failure
        self.crawler.stats.inc_value("topiccrawler/fetch/failed")
        logger.info("Failed %s: %s", request.url, failure.getErrorMessage())
        if ENTRANCE not in request.meta:
            return
        # An HTTP error answer (HttpError, past HTTPERROR_ALLOWED_CODES) has a status.
        status = failure.value.response.status if failure.check(HttpError) else None
        if status is not None:
            if status in (404, 410):
                yield LinkFailureItem(request.url, f"HTTP {status}", permanent=True)
        elif failure.check(*UNREACHABLE):
            yield LinkFailureItem(request.url, failure.getErrorMessage()[:200], permanent=False)


FILE_EXTENSIONS = tuple(f".{extension}" for extension in IGNORED_EXTENSIONS)


def links_to_a_file(url: str) -> bool:
    """The URL's path ends in an extension of a file that is no page (.pdf, .jpg, .zip …),
    as LinkExtractor's deny_extensions tells it."""
    return urlparse(url).path.lower().endswith(FILE_EXTENSIONS)


def _header(response: Response, name: bytes) -> str | None:
    value = response.headers.get(name)
    return value.decode("latin-1").strip() or None if value else None
