"""Spider middleware: the focused frontier (SPEC §6 and the frontier's own papers): what is
fetched next. Every link a page yields and every search hit gets a priority (best-first,
`frontier/priority.py`) from its anchor or title, the page's relevance, its URL and block, and
what the crawl has learnt so far (each section's yield, the online link classifier), so that
hits and links compete in one queue. Links found on irrelevant pages keep their priority only
through RELEVANCE_TUNNEL_DEPTH irrelevant pages in a row (relevant pages often sit behind an
index or a channel page that is not), then wait behind all others unless their own anchor is on
the topic.

It reads each page's verdict off the PageItem the relevance judge (middlewares/relevance.py)
passed before its links; with RELEVANCE_ENABLED False every page counts as relevant here and
best-first still ranks links by their anchors. The queue (frontier/queue.py) and the shared
Redis frontier (distributed/scheduler.py) ask `refresh_priority` when a request comes up, and
call `rescore`'s callback after a classifier refit: that is this component's public face.

It has to be a spider middleware: item pipelines run concurrently with the spider's output, so
a pipeline's verdict would come too late to gate the page's links.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from topiccrawler.crawl.page_output import PageOutputMiddleware
from topiccrawler.crawl.stores import crawl_stores
from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.frontier.classifier import LinkClassifier, place_features_memo
from topiccrawler.frontier.learning import YieldStats, places
from topiccrawler.frontier.origin import LinkOrigin
from topiccrawler.frontier.pagination import is_pagination
from topiccrawler.frontier.priority import DEFERRED, LinkPrioritizer, url_words
from topiccrawler.frontier.queries import QueryYields
from topiccrawler.items import PageItem
from topiccrawler.meta import (
    AT_DEPTH_LIMIT,
    CONTINUES_RELEVANT,
    ENGINE,
    ENTRANCE,
    FRONTIER,
    HIT_SNIPPET,
    HIT_TITLE,
    HOPS,
    LINK_BLOCK,
    LINK_TEXT,
    PAGER_HOPS,
    QUERY,
    TUNNEL,
)
from topiccrawler.middlewares.site_budget import SiteBudgetMiddleware
from topiccrawler.relevance.judge import PENDING_MAX
from topiccrawler.relevance.scorer import RelevanceScorer
from topiccrawler.signals import frontier_opened, queue_rescore_wanted, verdicts_revised
from topiccrawler.topics.limits import SiteLimits

logger = logging.getLogger(__name__)


class _JudgedPage:
    """The response's page, once judged, and what its links' anchors say."""

    __slots__ = ("page", "origin", "on_topic", "content_links")

    def __init__(self) -> None:
        self.page: PageItem | None = None
        self.origin: LinkOrigin | None = None  # where the page's links come from
        self.on_topic = 0  # content links with a word of the library in their anchor
        self.content_links = 0

    def count(self, request: Request | None) -> None:
        known = request.meta.get(FRONTIER) if request is not None else None
        if known is None or request.meta.get(LINK_BLOCK) == "navigation":
            return
        self.content_links += 1
        self.on_topic += known["features"].get("text", 0) > 0


def _remember(urls: OrderedDict[str, None], url: str) -> None:
    """`url` into a bounded set of URLs (the oldest let go past PENDING_MAX)."""
    urls[url] = None
    while len(urls) > PENDING_MAX:
        urls.popitem(last=False)


class FrontierMiddleware(PageOutputMiddleware):
    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        settings = crawler.settings
        self.stats = crawler.stats
        self.tunnel_depth = settings.getint("RELEVANCE_TUNNEL_DEPTH")
        self.defer_past_tunnel = settings.getbool("RELEVANCE_TUNNEL_DEFER")
        self.ranking = settings.getbool("FRONTIER_ENABLED")
        self.learning = (
            YieldStats(settings.getfloat("FRONTIER_EXPLORATION"))
            if self.ranking and settings.getbool("FRONTIER_LEARNING")
            else None
        )
        self.weights = settings.getdict("FRONTIER_WEIGHTS") or None
        self.use_classifier = self.ranking and settings.getbool("FRONTIER_CLASSIFIER")
        self.classifier: LinkClassifier | None = None
        self.rescore_limit = settings.getint("FRONTIER_RESCORE_LIMIT")
        self.hub_links = settings.getint("FRONTIER_HUB_LINKS")
        self.hub_share = settings.getfloat("FRONTIER_HUB_SHARE")
        self.score_hits = self.ranking and settings.getbool("FRONTIER_SCORE_HITS")
        self.scorer: RelevanceScorer | None = None
        self.prioritizer: LinkPrioritizer | None = None
        self.threshold = 0.0  # η the pages are judged by, as their verdicts say
        self.query_yields: QueryYields | None = None  # the search queries' (crawl/stores.py)
        self.budget: SiteBudgetMiddleware | None = None  # counts the links admitted later
        gain = settings.getint("FRONTIER_REDISCOVERY_GAIN")
        self.rediscoveries = (
            crawl_stores(crawler).rediscoveries(gain) if self.ranking and gain > 0 else None
        )
        # URL → the verdict learnt from, for pages judged provisionally (η still settling)
        self.provisional: OrderedDict[str, bool] = OrderedDict()
        # FRONTIER_TUNNEL_LABELS: irrelevant pages whose examples may become tunnel entries
        # (their link led to a relevant page), and those that became one
        self.tunnel_labels = settings.getbool("FRONTIER_TUNNEL_LABELS")
        self.off_topic: OrderedDict[str, None] = OrderedDict()
        self.entries: OrderedDict[str, None] = OrderedDict()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> FrontierMiddleware:
        middleware = cls(crawler)
        # URLs whose place (site, section, URL words) is remembered for rescoring: bounded.
        size = crawler.settings.getint("FRONTIER_URL_CACHE")
        places.size = place_features_memo.size = url_words.size = size
        if not middleware.ranking and middleware.tunnel_depth >= 10**6:
            raise NotConfigured("FRONTIER_ENABLED is False and links are never deferred")
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.verdicts_revised, signal=verdicts_revised)
        if middleware.rediscoveries is not None:
            crawler.signals.connect(middleware.request_dropped, signal=signals.request_dropped)
            crawler.signals.connect(
                middleware.rediscoveries.scheduled, signal=signals.request_scheduled
            )
        return middleware

    def spider_opened(self, spider) -> None:
        held = crawl_topic(self.crawler)
        topic = held.topic
        if topic is None:
            return  # not a topic spider: pass everything through
        self.scorer = held.scorer
        stores = crawl_stores(self.crawler)  # in Redis, every worker's judgements count
        self.query_yields = stores.query_yields
        if self.learning is not None:
            self.learning = stores.yield_stats(self.learning.exploration)
        if self.use_classifier:
            self.classifier = stores.link_classifier(self.scorer.tokenizer)
        if self.ranking:
            threshold = topic.keywords.threshold or 0.0
            try:
                self.prioritizer = LinkPrioritizer(
                    self.scorer,
                    threshold,
                    self.weights,
                    self.learning,
                    self.classifier,
                    topic.keywords.title,
                )
            except ValueError as exc:
                raise NotConfigured(str(exc)) from exc
            self.threshold = threshold
        logger.info(
            "Frontier: %s, tunnelling through %d irrelevant pages",
            "best-first" if self.ranking else "first in, first out",
            self.tunnel_depth,
        )
        self.crawler.signals.send_catch_log(frontier_opened, frontier=self)

    # --- a page's output (crawl/page_output.py) ----------------------------------------

    def open_page(self, response: Response) -> _JudgedPage:
        return _JudgedPage()

    def process_output(self, output: Any, response: Response, page: _JudgedPage) -> Any:
        return self._pass(output, response, page)

    def close_page(self, response: Response, page: _JudgedPage) -> tuple:
        self._learn_link(page, response)
        return ()

    def _pass(self, output: Any, response: Response, judged: _JudgedPage) -> Any:
        """Note a judged page; gate the links that follow it; None for a link not to follow."""
        if self.scorer is None:
            return output
        if isinstance(output, PageItem):
            judged.page = output
            judged.origin = LinkOrigin.of_page(response, output)
            self._page_seen(output)
        elif isinstance(output, Request):
            if judged.origin is not None:
                request = self.gate(output, judged.origin)
                judged.count(request)
                return request
            if self.score_hits and output.meta.get(ENTRANCE) == "search":
                return self.rank_hit(output)
        return output

    def _page_seen(self, page: PageItem) -> None:
        """What a judged page teaches: its place's yield; η as the page was judged by. A
        provisional verdict is remembered, so that what it taught can be corrected."""
        if page.is_relevant is None:
            return  # not judged (relevance off): nothing learnt
        if (page.relevance_detail or {}).get("verdict") == "provisional":
            self.provisional[page.url] = page.is_relevant
            while len(self.provisional) > PENDING_MAX:
                self.provisional.popitem(last=False)
        if self.learning is not None:
            self.learning.record(page.url, page.is_relevant)
        threshold = (page.relevance_detail or {}).get("threshold")
        if self.prioritizer is not None and threshold and threshold != self.threshold:
            self.threshold = threshold
            self.prioritizer.rescale(threshold)

    def verdicts_revised(self, changed: dict[str, bool]) -> None:
        """η was estimated again and pages judged provisionally read differently now: what
        they taught (their places' yield, the link classifier's labels) is replaced by the
        verdict now, and the queue is scored again with the refitted classifier."""
        corrected = {}
        for url, relevant in changed.items():
            if self.provisional.get(url, relevant) != relevant:
                self.provisional[url] = relevant
                corrected[url] = relevant
                if self.learning is not None:
                    self.learning.relabel(url, relevant)
        if not corrected:
            return
        self.stats.inc_value("topiccrawler/frontier/labels_corrected", len(corrected))
        relabel = {url: r for url, r in corrected.items() if r or url not in self.entries}
        if self.classifier is not None and self.classifier.relabel(relabel):
            if self.classifier.fit():
                self.stats.inc_value("topiccrawler/frontier/classifier_fits")
                self._rescore_queue()

    def rank_hit(self, request: Request) -> Request:
        """A search hit's priority, from its title and snippet and its query's yield so far."""
        if self.prioritizer is None:
            return request
        meta = request.meta
        features = self.prioritizer.hit_features(
            request.url,
            meta.get(HIT_TITLE, ""),
            meta.get(HIT_SNIPPET, ""),
            meta[QUERY],
            self._query_yield(meta),
        )
        meta[FRONTIER] = {"features": features, "hops": 0, "offset": 0}
        request.priority = self.prioritizer.priority_of(features)
        self.stats.inc_value("topiccrawler/frontier/hits_ranked")
        self._track(request)
        return request

    def _query_yield(self, meta: dict) -> float:
        yields = self.query_yields
        return yields.expected(meta[ENGINE], meta[QUERY]) if yields is not None else 0.5

    def refresh_priority(self, request: Request) -> int | None:
        """A queued request's priority from what is known now (the frontier queue asks when the
        request comes up): its place's learned yield, and for a search hit its query's yield.
        None for requests the frontier did not rank."""
        known = request.meta.get(FRONTIER)
        if self.prioritizer is None or known is None:
            return None
        text, kind, block = self._candidate(request.meta)
        features = self.prioritizer.current(
            known["features"], request.url, text, known.get("parent")
        )
        features["learned"] = self.prioritizer.learned(request.url)
        if request.meta.get(ENTRANCE) == "search" and not request.meta.get(HOPS):
            features["context"] = self._query_yield(request.meta)
        if "model" in features:
            features["model"] = self.prioritizer.modelled(
                request.url, text, kind, block, features["context"]
            )
        return self.prioritizer.priority_of(features, known["hops"]) + known["offset"]

    def superseded(self, request: Request) -> bool:
        """True for a queued request whose URL came up from a better place already (the queue
        drops it when it comes up)."""
        return self.rediscoveries is not None and self.rediscoveries.superseded(request)

    def request_dropped(self, request: Request) -> None:
        """A request the scheduler refused (its URL was seen): rediscovery's bookkeeping."""
        if self.rediscoveries is not None and self.rediscoveries.dropped(request):
            self.stats.inc_value("topiccrawler/frontier/copies_of_refused_link")

    def left_queue(self, request: Request) -> bool:
        """The queue dropped `request` unfetched (FRONTIER_MAX_QUEUED); True when no other
        entry of its URL is queued (then the URL may be queued again)."""
        return self.rediscoveries is None or self.rediscoveries.left_queue(request)

    def taken_up(self, request: Request) -> None:
        """The queue hands `request` to the engine (its other copies are superseded now)."""
        if self.rediscoveries is not None:
            self.rediscoveries.taken_up(request)

    def _context(self, meta: dict) -> float:
        """The context feature of a fetched request, at η as it is now (a link's parent's
        relevance over 2η; a hit's query yield as it was ranked)."""
        known = meta.get(FRONTIER) or {}
        parent = known.get("parent")
        if parent is not None and self.prioritizer is not None:
            return self.prioritizer.context(parent)
        return known.get("features", {}).get("context", 0.0)

    def _candidate(self, meta: dict) -> tuple[str, str, str]:
        """What was known of a request before it was fetched: its text (anchor, or a hit's title
        and snippet), its kind ("hit", "link" or "start") and its block."""
        if meta.get(ENTRANCE) == "search" and not meta.get(HOPS):
            text = LinkPrioritizer.hit_text(
                meta.get(HIT_TITLE, ""), meta.get(HIT_SNIPPET, ""), meta.get(QUERY, "")
            )
            return text, "hit", "content"
        if LINK_TEXT in meta:
            return meta[LINK_TEXT], "link", meta.get(LINK_BLOCK, "content")
        return "", "start", "content"

    def _learn_link(self, judged: _JudgedPage, response: Response) -> None:
        """Teach the link classifier what this page's link (or hit) looked like before it was
        fetched, and its title (an anchor to a page mostly reads its title); after a refit the
        queued requests are scored again. A page is worth fetching when it is relevant, and with
        FRONTIER_HUB_LINKS > 0 also when it is a hub: that many of its content links, and
        FRONTIER_HUB_SHARE of them, have a word of the library in their anchor (a channel's list
        page: fetching it reveals many relevant links at once, but is itself no relevant page)."""
        item = judged.page
        if self.classifier is None or item is None or item.is_relevant is None:
            return
        hub = (
            self.hub_links > 0
            and judged.on_topic >= self.hub_links
            and judged.on_topic >= self.hub_share * judged.content_links
        )
        if hub and not item.is_relevant:
            self.stats.inc_value("topiccrawler/frontier/hubs")
        meta = response.meta
        url = meta.get("redirect_urls", [response.url])[0]
        text, kind, block = self._candidate(meta)
        context = self._context(meta)
        features = self.classifier.features
        examples = [features(url, text, kind, block, context)]
        if item.title:
            examples.append(features(url, item.title, kind, block, context))
        changeable = item.url in self.provisional or (self.tunnel_labels and not item.is_relevant)
        key = item.url if changeable and not hub else None  # its label may change
        if key is not None and not item.is_relevant and self.tunnel_labels:
            _remember(self.off_topic, item.url)
        learnt = self.classifier.learn(examples, bool(item.is_relevant or hub), key)
        if item.is_relevant and self._tunnel_entry(item.referrer):
            learnt = self.classifier.fit() or learnt
        if learnt:
            self.stats.inc_value("topiccrawler/frontier/classifier_fits")
            self._rescore_queue()

    def _tunnel_entry(self, parent: str | None) -> bool:
        """FRONTIER_TUNNEL_LABELS: a relevant page found on an irrelevant one makes that page a
        tunnel entry: the link that led to it is learnt as worth fetching (its examples
        relabelled), so that links like it, to pages off the topic that lead to pages on it,
        are taken sooner. True when a label changed."""
        if not self.tunnel_labels or parent is None or parent not in self.off_topic:
            return False
        del self.off_topic[parent]
        if not self.classifier.relabel({parent: True}):
            return False
        _remember(self.entries, parent)
        self.stats.inc_value("topiccrawler/frontier/tunnel_entries")
        return True

    def _rescore_queue(self) -> None:
        """Every queued request scored again with the refitted classifier (up to
        FRONTIER_RESCORE_LIMIT requests; past that the refresh on pop does it). The scheduler
        says how (`queue_rescore_wanted`, frontier/scheduler.py and distributed/scheduler.py
        alike); a scheduler of the user's own does not answer."""
        answers = self.crawler.signals.send_catch_log(
            queue_rescore_wanted, score=self.refresh_priority, limit=self.rescore_limit
        )
        moved = [answer for _, answer in answers if isinstance(answer, int)]
        if moved:
            self.stats.inc_value("topiccrawler/frontier/rescored", sum(moved))

    def continue_pages(self, request: Request, origin: LinkOrigin) -> Request:
        request.meta[PAGER_HOPS] = origin.pager_hops + 1  # not counted
        request.meta[TUNNEL] = 0 if origin.relevant else origin.tunnel
        request.meta[CONTINUES_RELEVANT] = origin.relevant and origin.forum
        if origin.priority is not None:
            request.priority = origin.priority
        self.stats.inc_value("topiccrawler/frontier/pagination_links")
        return request

    def admit(
        self, request: Request, origin: LinkOrigin, limits: SiteLimits | None = None
    ) -> Request | None:
        """A link found outside a page's output (a link held at the hop limit and released,
        a feed's entry), through the policies a page's link meets on its way out of the spider,
        in their order: its site's budget (when `limits` are given), the tunnel gate, ranking
        and rediscovery. None for a link not to follow."""
        if limits is not None:
            if self.budget is None:  # the engine holds the spider middlewares once it runs
                self.budget = self.crawler.get_spider_middleware(SiteBudgetMiddleware)
            if self.budget is not None and not self.budget.admit(
                request, limits.key, limits.budget
            ):
                return None
        return self.gate(request, origin)

    def gate(self, request: Request, origin: LinkOrigin) -> Request | None:
        """A link of a judged page: marked with how many irrelevant pages it is behind and,
        best-first, given its priority; past the tunnelling depth it is deferred (or dropped,
        RELEVANCE_TUNNEL_DEFER = False) unless its anchor text is on the topic. A pager link
        (an article's page 2, a thread's or a board's next page) continues the page: it keeps
        the page's tunnel and priority, and on a forum its hop is not counted against the depth
        limit."""
        anchor = request.meta.get(LINK_TEXT, "")
        if is_pagination(request.url, origin.url, anchor):
            return self.continue_pages(request, origin)
        if request.meta.get(AT_DEPTH_LIMIT):
            return None  # a pager-like link past the depth limit, on a page that is no forum's
        features = (
            self.prioritizer.link_features(
                request.url,
                anchor,
                request.meta.get(LINK_BLOCK, "content"),
                origin.relevance or 0.0,
            )
            if self.prioritizer is not None
            else None
        )
        offset = 0
        if origin.relevant:
            request.meta[TUNNEL] = 0
        else:
            tunnel = origin.tunnel + 1
            request.meta[TUNNEL] = tunnel
            if tunnel > self.tunnel_depth and not self._on_topic(anchor, features):
                if not self.defer_past_tunnel:
                    self.stats.inc_value("topiccrawler/relevance/links_not_followed")
                    return None
                offset = DEFERRED
                self.stats.inc_value("topiccrawler/relevance/links_deferred")
        if features is not None:
            hops = request.meta.get(HOPS, 0)
            request.meta[FRONTIER] = {
                "features": features,
                "hops": hops,
                "offset": offset,
                "parent": origin.relevance or 0.0,
            }
            request.priority = self.prioritizer.priority_of(features, hops)
        request.priority += offset
        if features is not None:
            self._track(request)
        return request

    def _track(self, request: Request) -> None:
        """A URL already queued at a priority well below this link's is queued again
        (frontier/rediscovery.py)."""
        if self.rediscoveries is not None and self.rediscoveries.track(request):
            self.stats.inc_value("topiccrawler/frontier/rediscovered_higher")

    def _on_topic(self, anchor: str, features: dict[str, float] | None) -> bool:
        """True for anchor text with a word of the topic library (read off the link's
        features when the frontier has scored it already)."""
        if features is not None:
            return features["text"] > 0
        return bool(anchor) and self.scorer is not None and self.scorer.block_score(anchor)[0] > 0
