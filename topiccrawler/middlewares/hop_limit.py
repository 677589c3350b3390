"""Spider middleware: the hop limit, the project's DepthMiddleware (SPEC §1). A page is followed
at most its site's depth limit of hops from its entrance (an authority site's `depth_limit` in the
seed file, SEARCH_FOLLOW_DEPTH for a site the search entrance found: topics/limits.py); a thread's
or board's next page is not counted (`pager_hops`, set by the frontier).

At the limit, only a pager link goes on (marked `at_depth_limit`; the frontier follows it only
as a pager); the page's other links are held: kept, up to HOP_HELD_LINKS_MAX links in all, with
the page's verdict. Should the page come up again fewer hops away (a request the scheduler's
seen filter drops, Scrapy's `request_dropped`), its held links are followed from there, ranked by
the frontier as if the page had just been fetched there; a page whose links could not be kept is
fetched once more (`topiccrawler/links/refetched_for_fewer_hops`). A page found nearer while its
own output is still being read (in an extraction worker) waits until its links are held. Without this, which pages a
crawl reaches would depend on the order concurrent responses happen to arrive in. With
RELEVANCE_ENABLED False a page at the limit has no link followed (pagers are told by the page's
forum records, which only the judged page carries).

Links this middleware lets through carry `hop_limit` (the site's limit, read by the frontier's
rediscovery). It sits between the relevance judge (whose verdict the held links keep) and the
site budget (a held link takes no budget until it is followed).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.http import Response

from topiccrawler.crawl.page_output import PageOutputMiddleware
from topiccrawler.crawl.stores import crawl_stores
from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.frontier.held import HeldLinks, HeldPage
from topiccrawler.frontier.origin import LinkOrigin
from topiccrawler.frontier.pagination import is_pagination
from topiccrawler.items import PageItem
from topiccrawler.meta import (
    AT_DEPTH_LIMIT,
    AUTHORITY_SITE,
    ENTRANCE,
    HOP_LIMIT,
    HOPS,
    LINK_BLOCK,
    LINK_TEXT,
    PAGER_HOPS,
    TUNNEL,
)
from topiccrawler.middlewares.frontier import FrontierMiddleware
from topiccrawler.signals import frontier_opened
from topiccrawler.topics.limits import site_limits

# What a followed link's request keeps of the page's request: how the crawl got there.
IDENTITY = (ENTRANCE, AUTHORITY_SITE, "download_slot")
READING_MAX = 10_000  # pages at the limit being read at once, remembered (far more than in flight)


class _Page:
    """One response's way through the middleware."""

    __slots__ = ("item", "limits", "at_limit", "held", "first")

    def __init__(self, limits, at_limit: bool) -> None:
        self.item: PageItem | None = None
        self.limits = limits
        self.at_limit = at_limit
        self.held: list[tuple[str, str, str]] = []
        self.first: Request | None = None  # a held link, for its callbacks and identity


class HopLimitMiddleware(PageOutputMiddleware):
    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        settings = crawler.settings
        self.topic = crawl_topic(crawler)
        self.stats = crawler.stats
        self.relevance = settings.getbool("RELEVANCE_ENABLED")
        # Pages whose links the hop limit cut off, by requested URL: their hop count, and (up
        # to HOP_HELD_LINKS_MAX links in all) what is needed to follow those links without a
        # second fetch should the page turn up nearer. In a shared crawl, in Redis
        # (distributed/held.py): whichever worker finds the page nearer follows them.
        self.store: HeldLinks = HeldLinks(
            settings.getint("HOP_HELD_LINKS_MAX"), settings.getint("HOP_LIMITED_MAX")
        )
        # The frontier, once open: it admits released links (their site's budget, the tunnel
        # gate, ranking) as it admits a page's links.
        self.frontier: FrontierMiddleware | None = None
        # Pages at the limit whose output is still being read (a page read in an extraction
        # worker yields its links later), by requested URL: the nearer request that turned up
        # meanwhile, if any. Their links are not held yet, so finding one nearer then would
        # fetch it a second time; it waits for `close_page` instead.
        self.reading: OrderedDict[str, Request | None] = OrderedDict()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> HopLimitMiddleware:
        middleware = cls(crawler)
        crawler.signals.connect(middleware.request_dropped, signal=signals.request_dropped)
        crawler.signals.connect(middleware.frontier_opened, signal=frontier_opened)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        return middleware

    def spider_opened(self, spider) -> None:
        if self.topic.topic is not None:  # (in Redis in a shared crawl: crawl/stores.py)
            self.store = crawl_stores(self.crawler).held_links(
                self.store.max_links, self.store.max_pages
            )

    def frontier_opened(self, frontier: FrontierMiddleware) -> None:
        self.frontier = frontier

    # --- a page's links ------------------------------------------------------------------------

    def open_page(self, response: Response) -> _Page | None:
        seeds = self.topic.seeds
        if seeds is None or HOPS not in response.meta:
            return None  # no page of a topic crawl (a search result page, a feed)
        limits = site_limits(
            seeds, self.crawler.settings, response.meta.get(AUTHORITY_SITE), response.url
        )
        hops = response.meta[HOPS]
        at_limit = hops - response.meta.get(PAGER_HOPS, 0) >= limits.max_hops
        if at_limit:
            self.store.limited(requested_url(response), hops)
            if self.relevance:
                self.reading[requested_url(response)] = None
                while len(self.reading) > READING_MAX:  # a page whose output never closed
                    self.reading.popitem(last=False)
        return _Page(limits, at_limit)

    def process_output(self, output: Any, response: Response, page: _Page | None) -> Any:
        return output if page is None or self._passes(output, response, page) else None

    def _passes(self, output: Any, response: Response, page: _Page) -> bool:
        if isinstance(output, PageItem):
            page.item = output
            return True
        if not isinstance(output, Request) or output.meta.get(HOPS) != response.meta[HOPS] + 1:
            return True  # no link of this page
        meta = output.meta
        meta[HOP_LIMIT] = page.limits.max_hops
        meta[AT_DEPTH_LIMIT] = page.at_limit
        if not page.at_limit:
            return True
        if not self.relevance:
            return False
        if is_pagination(output.url, response.url, meta.get(LINK_TEXT, "")):
            return True  # a pager may go on past the limit (if the page is a forum's)
        if page.first is None:
            page.first = output
        page.held.append((output.url, meta.get(LINK_TEXT, ""), meta.get(LINK_BLOCK, "content")))
        return False

    def close_page(self, response: Response, page: _Page | None) -> tuple:
        """Keep the held links of a page at the limit, with its verdict; a page with none to
        hold is kept without links, so that finding it nearer costs no second fetch."""
        if page is None or not page.at_limit or not self.relevance:
            return ()
        item, first = page.item, page.first
        nearer = self.reading.pop(requested_url(response), None)
        self.store.hold(
            requested_url(response),
            HeldPage(
                response.url,
                response.meta.get(AUTHORITY_SITE),
                float(item.relevance) if item is not None and item.relevance is not None else None,
                bool(item.is_relevant)
                if item is not None and item.is_relevant is not None
                else None,
                {key: first.meta[key] for key in IDENTITY if key in first.meta} if first else {},
                _name(first.callback) if first else None,
                _name(first.errback) if first else None,
                page.held,
            ),
        )
        if nearer is not None:  # found nearer while the page was read: its links go on now
            self.request_dropped(nearer)
        return ()

    # --- a page found nearer -------------------------------------------------------------------

    def request_dropped(self, request: Request) -> None:
        """A page seen again with fewer hops than when it was fetched at the hop limit: its
        links are followed now, from the links kept when it was fetched, or (past
        HOP_HELD_LINKS_MAX) by fetching it once more."""
        hops = request.meta.get(HOPS)
        if hops is None:
            return
        if request.url in self.reading:  # its links are not held yet: wait for them
            waiting = self.reading[request.url]
            if waiting is None or hops < waiting.meta[HOPS]:
                self.reading[request.url] = request
            return
        nearer, held = self.store.take(request.url, hops)
        if not nearer:
            return
        if held is not None and self._follow_held(held, request):
            return
        self.stats.inc_value("topiccrawler/links/refetched_for_fewer_hops")
        self.crawler.engine.crawl(request.replace(dont_filter=True))

    def _follow_held(self, held: HeldPage, request: Request) -> bool:
        """Follow the kept links of a page fetched at the hop limit, now found `request`'s hops
        away, admitted by the frontier (the site's budget, the tunnel gate, ranking) as if the
        page had just been fetched there; False when that cannot be done (no frontier, or the
        page is still at the limit)."""
        seeds = self.topic.seeds
        if self.frontier is None or seeds is None:
            return False
        hops = request.meta[HOPS]
        pager_hops = request.meta.get(PAGER_HOPS, 0)
        limits = site_limits(seeds, self.crawler.settings, held.site, held.url)
        if hops - pager_hops >= limits.max_hops:
            return False
        spider = self.crawler.spider
        callback = getattr(spider, held.callback) if held.callback else None
        errback = getattr(spider, held.errback) if held.errback else None
        # The page where it is now (its tunnel, its pager hops), with the verdict it was
        # fetched with.
        origin = LinkOrigin(
            held.url,
            held.relevance,
            held.is_relevant is not False,
            request.meta.get(TUNNEL, 0),
            pager_hops,
        )
        for url, text, block in held.links:
            link = Request(
                url,
                callback=callback,
                errback=errback,
                meta={
                    **held.identity,
                    HOPS: hops + 1,
                    PAGER_HOPS: pager_hops,
                    LINK_TEXT: text,
                    LINK_BLOCK: block,
                    AT_DEPTH_LIMIT: False,
                    HOP_LIMIT: limits.max_hops,
                },
            )
            link = self.frontier.admit(link, origin, limits)
            if link is not None:
                self.crawler.engine.crawl(link)
        self.stats.inc_value("topiccrawler/links/held_links_followed")
        return True


def requested_url(response: Response) -> str:
    """The URL the response's request asked for (before redirects)."""
    return response.meta.get("redirect_urls", [response.url])[0]


def _name(method: Any) -> str | None:
    """A spider method's name (held links outlive the process in a shared crawl)."""
    return method.__name__ if method is not None else None
