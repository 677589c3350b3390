"""Spider middleware: score every page as it leaves the spider, before its links are scheduled
(SPEC §6). This is where the crawl becomes focused: links found on a page below the topic's
threshold η wait behind the others once they are more than RELEVANCE_TUNNEL_DEPTH irrelevant
pages in a row from a relevant one (relevant pages often sit behind an index or a channel page
that is not), unless their own anchor text is on the topic; with FRONTIER_ENABLED every link and
every search hit gets a priority (best-first, `frontier/priority.py`) from what the crawl has
learnt so far, so hits and links compete in one queue.

It has to be a spider middleware: item pipelines run concurrently with the spider's output, so
a pipeline's verdict would come too late to stop the page's links.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterable
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response

from topiccrawler.distributed.learning import SharedLinkClassifier, SharedYieldStats
from topiccrawler.distributed.state import redis_url, shared_crawl_for
from topiccrawler.frontier.classifier import LinkClassifier
from topiccrawler.frontier.learning import YieldStats
from topiccrawler.frontier.pagination import is_pagination
from topiccrawler.frontier.priority import DEFERRED, LinkPrioritizer
from topiccrawler.frontier.rediscovery import Rediscoveries
from topiccrawler.items import PageItem
from topiccrawler.pipelines.extraction import extract_into, record_options
from topiccrawler.relevance.judge import PageJudge
from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.page_classifier import PageClassifier, classifier_candidates
from topiccrawler.relevance.scorer import RelevanceScorer
from topiccrawler.storage.verdicts import settle_verdicts
from topiccrawler.topics.files import AUTO_THRESHOLD
from topiccrawler.signals import items_stored, page_judged, verdicts_settled
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.terms import accepted_expansions, propose

logger = logging.getLogger(__name__)


class _JudgedPage:
    """The response's page, once judged, and what its links' anchors say."""

    __slots__ = ("page", "on_topic", "content_links")

    def __init__(self) -> None:
        self.page: PageItem | None = None
        self.on_topic = 0  # content links with a word of the library in their anchor
        self.content_links = 0

    def count(self, request: Request | None) -> None:
        known = request.meta.get("frontier") if request is not None else None
        if known is None or request.meta.get("link_block") == "navigation":
            return
        self.content_links += 1
        self.on_topic += known["features"].get("text", 0) > 0


class RelevanceMiddleware:
    def __init__(self, crawler: Crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.tunnel_depth = settings.getint("RELEVANCE_TUNNEL_DEPTH")
        self.defer_past_tunnel = settings.getbool("RELEVANCE_TUNNEL_DEFER")
        self.records = record_options(settings)
        self.library_kind = settings.get("RELEVANCE_LIBRARY")
        if self.library_kind not in ("extended", "static"):
            raise NotConfigured(
                f"RELEVANCE_LIBRARY must be 'extended' or 'static', not {self.library_kind!r}"
            )
        self.threshold_setting = settings.get("RELEVANCE_THRESHOLD")
        self.impact = settings.getdict("RELEVANCE_BLOCK_IMPACT") or None
        self.use_page_classifier = settings.getbool("RELEVANCE_CLASSIFIER")
        self.certainty = settings.getfloat("RELEVANCE_LIBRARY_CERTAINTY")
        self.store_dropped_text = settings.getbool("RELEVANCE_STORE_DROPPED_TEXT")
        self.scorer: RelevanceScorer | None = None
        self.page_judge: PageJudge | None = None
        self.settled = False  # provisional verdicts made final (once, at the end)
        self.frontier_enabled = settings.getbool("FRONTIER_ENABLED")
        self.learning = (
            YieldStats(settings.getfloat("FRONTIER_EXPLORATION"))
            if self.frontier_enabled and settings.getbool("FRONTIER_LEARNING")
            else None
        )
        self.weights = settings.getdict("FRONTIER_WEIGHTS") or None
        self.use_classifier = self.frontier_enabled and settings.getbool("FRONTIER_CLASSIFIER")
        self.classifier: LinkClassifier | None = None
        self.rescore_limit = settings.getint("FRONTIER_RESCORE_LIMIT")
        self.hub_links = settings.getint("FRONTIER_HUB_LINKS")
        self.hub_share = settings.getfloat("FRONTIER_HUB_SHARE")
        self.score_hits = self.frontier_enabled and settings.getbool("FRONTIER_SCORE_HITS")
        self.prioritizer: LinkPrioritizer | None = None
        gain = settings.getint("FRONTIER_REDISCOVERY_GAIN")
        # Its bookkeeping is one process's: a shared crawl (distributed/) goes without it.
        local = not redis_url(settings)
        self.rediscoveries = (
            Rediscoveries(gain) if self.frontier_enabled and gain > 0 and local else None
        )

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RelevanceMiddleware:
        if not crawler.settings.getbool("RELEVANCE_ENABLED"):
            raise NotConfigured("RELEVANCE_ENABLED is False")
        middleware = cls(crawler)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(middleware.items_stored, signal=items_stored)
        if middleware.rediscoveries is not None:
            crawler.signals.connect(
                middleware.rediscoveries.dropped, signal=signals.request_dropped
            )
        return middleware

    def spider_opened(self, spider) -> None:
        topic = getattr(spider, "topic", None)
        if topic is None:
            return  # not a topic spider: pass everything through
        accepted = []
        if self.library_kind == "extended":
            try:
                with database_for(self.crawler).session() as session:
                    accepted = accepted_expansions(session, topic.name)
            except NotConfigured:
                pass  # no database: the topic file's terms and synonyms only
        library = (
            ConceptLibrary.extended(topic.keywords, accepted)
            if self.library_kind == "extended"
            else ConceptLibrary.static(topic.keywords)
        )
        self.scorer = RelevanceScorer(library, impact=self.impact)
        self.page_judge = PageJudge(
            self.scorer,
            self._fixed_threshold(topic.keywords.threshold),
            PageClassifier(self.scorer.tokenizer) if self.use_page_classifier else None,
            certainty=self.certainty,
        )
        shared = shared_crawl_for(self.crawler)
        if shared is not None and self.learning is not None:  # every worker's judgements count
            self.learning = SharedYieldStats(shared, self.learning.exploration)
        if self.use_classifier:
            self.classifier = (
                SharedLinkClassifier(shared, self.scorer.tokenizer)
                if shared is not None
                else LinkClassifier(self.scorer.tokenizer)
            )
        if self.frontier_enabled:
            try:
                self.prioritizer = LinkPrioritizer(
                    self.scorer,
                    self.threshold or 0.0,
                    self.weights,
                    self.learning,
                    self.classifier,
                    topic.keywords.title,
                )
            except ValueError as exc:
                raise NotConfigured(str(exc)) from exc
        logger.info(
            "Relevance: %s library of %d words for %d concepts (%d accepted expansions), "
            "η = %s, tunnelling through %d irrelevant pages",
            self.library_kind, len(library), len(library.concepts), len(accepted),
            "auto" if self.page_judge.auto else f"{self.threshold:.3f}", self.tunnel_depth,
        )  # fmt: skip

    def _fixed_threshold(self, topic_threshold: float | None) -> float | None:
        """η as a number (RELEVANCE_THRESHOLD, else the topic file's), None for auto."""
        setting = self.threshold_setting
        if setting in (None, ""):
            return topic_threshold
        if str(setting).strip().lower() == AUTO_THRESHOLD:
            return None
        try:
            return float(setting)
        except ValueError:
            raise NotConfigured(f"RELEVANCE_THRESHOLD must be a number or 'auto', not {setting!r}")

    @property
    def threshold(self) -> float | None:
        """η as pages are judged now (None while an automatic η has no estimate yet)."""
        return self.page_judge.threshold if self.page_judge is not None else None

    def items_stored(self, pending: int = 0, final: bool = False) -> None:
        """The crawl's last items are in the database: the provisional verdicts are settled
        there, before the end-of-crawl summary is made."""
        if final and not pending:
            self._settle(store=True)

    def spider_closed(self, spider, reason: str) -> None:
        self._settle(store=False)  # without storage (or with items it could not write)

    def _settle(self, store: bool) -> None:
        """Provisional verdicts made final with the η and classifier the crawl ended with."""
        if self.page_judge is None or self.settled:
            return
        self.settled = True
        verdicts = self.page_judge.settle()
        state = self.page_judge.state()
        self.stats.set_value("topiccrawler/relevance/threshold", state)
        changed: dict[str, bool] = {}
        if verdicts and store:
            try:
                database = database_for(self.crawler)
            except NotConfigured:
                database = None  # nothing stored: nothing to settle there
            if database is not None:
                topic = self.crawler.spider.topic.name
                changed = settle_verdicts(
                    database, topic, verdicts, state["threshold"], keep_text=self.store_dropped_text
                )
                self._propose_terms(database, topic)
        self.stats.set_value("topiccrawler/relevance/settled", len(verdicts))
        self.stats.set_value("topiccrawler/relevance/settled_changed", len(changed))
        self.crawler.signals.send_catch_log(verdicts_settled, changed=changed, state=state)
        if self.page_judge.auto:
            logger.info(
                "Relevance: η settled at %s; %d provisional verdicts made final (%d changed)",
                "–" if state["threshold"] is None else f"{state['threshold']:.4f}",
                len(verdicts), len(changed),
            )  # fmt: skip

    def _propose_terms(self, database, topic: str) -> None:
        """The page classifier's strongest words that the library lacks, queued as candidates
        for `topiccrawler terms review` (provenance "classifier")."""
        classifier = self.page_judge.classifier
        if classifier is None or not classifier.ready:
            return
        candidates = classifier_candidates(classifier, self.scorer.library)
        with database.session() as session:
            added = propose(session, topic, candidates)
            session.commit()
        self.stats.set_value("topiccrawler/relevance/term_candidates", added)
        if added:
            logger.info(
                "Relevance: %d words the page classifier leans on are candidates for the "
                "library: topiccrawler terms review %s",
                added, topic,
            )  # fmt: skip

    # Scrapy calls the sync form for sync callbacks and the async one for async callbacks.
    def process_spider_output(self, response: Response, result: Iterable[Any], spider=None):
        judged = _JudgedPage()
        for output in result:
            output = self._pass(output, response, judged)
            if output is not None:
                yield output
        self._learn_link(judged, response)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider=None
    ):
        judged = _JudgedPage()
        async for output in result:
            output = self._pass(output, response, judged)
            if output is not None:
                yield output
        self._learn_link(judged, response)

    def _pass(self, output: Any, response: Response, judged: _JudgedPage) -> Any:
        """Judge a page; gate the links that follow it; None for a link not to follow."""
        if isinstance(output, PageItem):
            judged.page = output if self.judge(output, response) is not None else None
        elif isinstance(output, Request):
            if judged.page is not None:
                request = self.gate(output, response, judged.page)
                judged.count(request)
                return request
            if self.score_hits and output.meta.get("entrance") == "search":
                return self.rank_hit(output)
        return output

    def rank_hit(self, request: Request) -> Request:
        """A search hit's priority, from its title and snippet and its query's yield so far."""
        if self.prioritizer is None:
            return request
        meta = request.meta
        features = self.prioritizer.hit_features(
            request.url,
            meta.get("hit_title", ""),
            meta.get("hit_snippet", ""),
            meta["query"],
            self._query_yield(meta),
        )
        meta["frontier"] = {"features": features, "hops": 0, "offset": 0}
        request.priority = self.prioritizer.priority_of(features)
        self.stats.inc_value("topiccrawler/frontier/hits_ranked")
        self._track(request)
        return request

    def _query_yield(self, meta: dict) -> float:
        yields = getattr(self.crawler.spider, "query_yields", None)
        return yields.expected(meta["engine"], meta["query"]) if yields else 0.5

    def refresh_priority(self, request: Request) -> int | None:
        """A queued request's priority from what is known now (the frontier queue asks when the
        request comes up): its place's learned yield, and for a search hit its query's yield.
        None for requests the frontier did not rank."""
        known = request.meta.get("frontier")
        if self.prioritizer is None or known is None:
            return None
        features = dict(known["features"])
        features["learned"] = self.prioritizer.learned(request.url)
        if request.meta.get("entrance") == "search" and not request.meta.get("hops"):
            features["context"] = self._query_yield(request.meta)
        if "model" in features:
            text, kind, block = self._candidate(request.meta)
            features["model"] = self.prioritizer.modelled(
                request.url, text, kind, block, features["context"]
            )
        return self.prioritizer.priority_of(features, known["hops"]) + known["offset"]

    def _candidate(self, meta: dict) -> tuple[str, str, str]:
        """What was known of a request before it was fetched: its text (anchor, or a hit's title
        and snippet), its kind ("hit", "link" or "start") and its block."""
        if meta.get("entrance") == "search" and not meta.get("hops"):
            text = LinkPrioritizer.hit_text(
                meta.get("hit_title", ""), meta.get("hit_snippet", ""), meta.get("query", "")
            )
            return text, "hit", "content"
        if "link_text" in meta:
            return meta["link_text"], "link", meta.get("link_block", "content")
        return "", "start", "content"

    def _learn_link(self, judged: _JudgedPage, response: Response) -> None:
        """Teach the link classifier what this page's link (or hit) looked like before it was
        fetched, and its title (an anchor to a page mostly reads its title); after a refit the
        queued requests are scored again. A page is worth fetching when it is relevant, and with
        FRONTIER_HUB_LINKS > 0 also when it is a hub: that many of its content links, and
        FRONTIER_HUB_SHARE of them, have a word of the library in their anchor (a channel's list
        page: fetching it reveals many relevant links at once, but is itself no relevant page)."""
        item = judged.page
        if self.classifier is None or item is None:
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
        context = meta.get("frontier", {}).get("features", {}).get("context", 0.0)
        features = self.classifier.features
        examples = [features(url, text, kind, block, context)]
        if item.title:
            examples.append(features(url, item.title, kind, block, context))
        if self.classifier.learn(examples, bool(item.is_relevant or hub)):
            self.stats.inc_value("topiccrawler/frontier/classifier_fits")
            self._rescore_queue()

    def _rescore_queue(self) -> None:
        """Every queued request scored again with the refitted classifier (up to
        FRONTIER_RESCORE_LIMIT requests; past that the lazy refresh on pop does it)."""
        scheduler = getattr(getattr(self.crawler, "engine", None), "scheduler", None)
        if hasattr(scheduler, "rescore"):  # a shared crawl's frontier (distributed/)
            moved = scheduler.rescore(self.refresh_priority, self.rescore_limit)
            self.stats.inc_value("topiccrawler/frontier/rescored", moved)
            return
        for queue in (getattr(scheduler, "mqs", None), getattr(scheduler, "dqs", None)):
            rescore = getattr(queue, "rescore", None)
            if rescore is not None and len(queue) <= self.rescore_limit:
                moved = rescore(self.refresh_priority)
                self.stats.inc_value("topiccrawler/frontier/rescored", moved)

    def judge(self, item: PageItem, response: Response | None = None) -> bool | None:
        """Score the page (extracting it first); None when it cannot be judged. A later page
        of a relevant thread or board (`continues_relevant`) is kept whatever its own score:
        the replies on page 5 belong to the thread page 1 is about."""
        if self.page_judge is None:
            return None
        continues_relevant = bool(response is not None and response.meta.get("continues_relevant"))
        extract_into(item, self.records)  # never raises: a page it fell short on is scored on
        # what could be read, and stored with the reason
        # A thread list's content is its threads' titles, whatever the body extractor kept.
        body = "\n".join(t.title for t in item.threads) if item.threads else item.body
        before = self.page_judge.threshold
        verdict = self.page_judge.judge(
            item.url, {"title": item.title, "body": body, **item.blocks}
        )
        item.relevance = verdict.score
        item.is_relevant = verdict.relevant
        item.relevance_detail = {
            **verdict.relevance.detail,
            "threshold": self.page_judge.threshold,
            "library": self.library_kind,
            "verdict": "final" if verdict.final else "provisional",
        }
        if verdict.probability is not None:
            item.relevance_detail["probability"] = round(verdict.probability, 4)
        if verdict.classifier is not None:
            item.relevance_detail["classifier"] = round(verdict.classifier, 4)
        if self.page_judge.threshold != before:
            self._threshold_moved()
        if continues_relevant and not item.is_relevant and (item.posts or item.threads):
            item.is_relevant = True
            item.relevance_detail["kept_as"] = "a later page of a relevant thread or board"
        self.stats.inc_value(f"topiccrawler/relevance/{'kept' if item.is_relevant else 'dropped'}")
        if self.learning is not None:
            self.learning.record(item.url, item.is_relevant)
        self.crawler.signals.send_catch_log(
            page_judged, item=item, relevant=item.is_relevant, response=response
        )
        return item.is_relevant

    def _threshold_moved(self) -> None:
        """A new estimate of η: the stats say it, and link priorities scale to it."""
        threshold = self.page_judge.threshold
        self.stats.set_value("topiccrawler/relevance/threshold", self.page_judge.state())
        if self.prioritizer is not None and threshold:
            self.prioritizer.rescale(threshold)

    def continue_pages(self, request: Request, response: Response, page: PageItem) -> Request:
        request.meta["pager_hops"] = response.meta.get("pager_hops", 0) + 1  # not counted
        request.meta["tunnel"] = 0 if page.is_relevant else response.meta.get("tunnel", 0)
        request.meta["continues_relevant"] = bool(page.is_relevant and (page.posts or page.threads))
        request.priority = response.request.priority if response.request else request.priority
        self.stats.inc_value("topiccrawler/frontier/pagination_links")
        return request

    def gate(self, request: Request, response: Response, page: PageItem) -> Request | None:
        """A link of a judged page: marked with how many irrelevant pages it is behind and,
        best-first, given its priority; past the tunnelling depth it is deferred (or dropped,
        RELEVANCE_TUNNEL_DEFER = False) unless its anchor text is on the topic. A pager link
        (an article's page 2, a thread's or a board's next page) continues the page: it keeps
        the page's tunnel and priority, and on a forum its hop is not counted against the depth
        limit."""
        anchor = request.meta.get("link_text", "")
        if is_pagination(request.url, response.url, anchor):
            return self.continue_pages(request, response, page)
        if request.meta.get("at_depth_limit"):
            return None  # a pager-like link past the depth limit, on a page that is no forum's
        features = (
            self.prioritizer.link_features(
                request.url,
                anchor,
                request.meta.get("link_block", "content"),
                page.relevance or 0.0,
            )
            if self.prioritizer is not None
            else None
        )
        offset = 0
        if page.is_relevant:
            request.meta["tunnel"] = 0
        else:
            tunnel = response.meta.get("tunnel", 0) + 1
            request.meta["tunnel"] = tunnel
            if tunnel > self.tunnel_depth and not self._on_topic(anchor, features):
                if not self.defer_past_tunnel:
                    self.stats.inc_value("topiccrawler/relevance/links_not_followed")
                    return None
                offset = DEFERRED
                self.stats.inc_value("topiccrawler/relevance/links_deferred")
        if features is not None:
            hops = request.meta.get("hops", 0)
            request.meta["frontier"] = {"features": features, "hops": hops, "offset": offset}
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
