"""Spider middleware: the relevance judge (SPEC §6). Every page is scored against the topic
library as it leaves the spider, after extraction (middlewares/extraction.py) and before its
links are gated and ranked by the frontier (middlewares/frontier.py), which reads the verdict off
the page. η is the topic file's number, or estimated from the crawl's own scores with a page
classifier beside it (relevance/judge.py); verdicts given while η was settling are made final at
the end of the crawl, in the database (storage/verdicts.py), before the summary is made.

It has to be a spider middleware: item pipelines run concurrently with the spider's output, so
a pipeline's verdict would come too late to gate the page's links.
"""

from __future__ import annotations

import logging
from typing import Any

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware

from topiccrawler.crawl.stores import crawl_stores
from topiccrawler.crawl.topic import crawl_topic, library_kind
from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.page import extract_page
from topiccrawler.items import PageItem
from topiccrawler.meta import CONTINUES_RELEVANT
from topiccrawler.read_ahead import SCORE, take
from topiccrawler.relevance.judge import PageJudge, blocks_texts, judged_blocks
from topiccrawler.relevance.page_classifier import (
    classifier_candidates,
    self_training_setting,
)
from topiccrawler.relevance.scorer import RelevanceScorer
from topiccrawler.signals import (
    items_stored,
    page_judged,
    verdicts_revised,
    verdicts_settled,
)
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.terms import propose
from topiccrawler.storage.verdicts import settle_verdicts, stored_texts
from topiccrawler.topics.files import threshold_override

logger = logging.getLogger(__name__)


class RelevanceMiddleware(BaseSpiderMiddleware):
    def __init__(self, crawler: Crawler):
        super().__init__(crawler)
        settings = crawler.settings
        self.stats = crawler.stats
        self.library_kind = library_kind(settings)
        self.threshold_setting = settings.get("RELEVANCE_THRESHOLD")
        self.use_page_classifier = settings.getbool("RELEVANCE_CLASSIFIER")
        self.certainty = settings.getfloat("RELEVANCE_LIBRARY_CERTAINTY")
        self.self_training = self_training_setting(settings)
        self.store_dropped_text = settings.getbool("RELEVANCE_STORE_DROPPED_TEXT")
        self.scorer: RelevanceScorer | None = None
        self.page_judge: PageJudge | None = None
        self.settled = False  # provisional verdicts made final (once, at the end)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RelevanceMiddleware:
        if not crawler.settings.getbool("RELEVANCE_ENABLED"):
            raise NotConfigured("RELEVANCE_ENABLED is False")
        middleware = cls(crawler)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(middleware.items_stored, signal=items_stored)
        return middleware

    def spider_opened(self, spider) -> None:
        held = crawl_topic(self.crawler)
        topic = held.topic
        if topic is None:
            return  # not a topic spider: pass everything through
        self.scorer = held.scorer
        self.page_judge = self._page_judge(self._fixed_threshold(topic.keywords.threshold))
        self._learn_examples(topic.keywords)
        library = self.scorer.library
        accepted = sum(p not in ("static", "synonym") for p in library.provenance.values())
        logger.info(
            "Relevance: %s library of %d words for %d concepts (%d accepted expansions), η = %s",
            self.library_kind, len(library), len(library.concepts), accepted,
            "auto" if self.page_judge.auto else f"{self.threshold:.3f}",
        )  # fmt: skip

    def _page_judge(self, threshold: float | None) -> PageJudge:
        """The judge; in a crawl shared over Redis with η automatic, its η and page classifier
        are learnt from every worker's pages (crawl/stores.py)."""
        stores = crawl_stores(self.crawler)
        auto = threshold is None
        classifier = None
        if self.use_page_classifier:
            classifier = stores.page_classifier(self.scorer.tokenizer, self.self_training, auto)
        estimator = stores.threshold_estimator(self.certainty) if auto else None
        return PageJudge(
            self.scorer, threshold, classifier, certainty=self.certainty, estimator=estimator
        )

    def _learn_examples(self, keywords) -> None:
        """The topic file's [examples]: saved pages that teach the page classifier before the
        first page is fetched. One that cannot be read is skipped with a logged reason."""
        learnt = 0
        for files, relevant in (
            (keywords.relevant_examples, True),
            (keywords.irrelevant_examples, False),
        ):
            for file in files:
                try:
                    _, html = decode_html(file.read_bytes(), None)
                except OSError as exc:
                    logger.warning("Example %s not read: %s", file, exc)
                    continue
                content = extract_page(html, file.as_uri(), records=None)
                learnt += self.page_judge.learn_example(content.title, content.body, relevant)
        if learnt:
            logger.info("Relevance: the page classifier starts from %d example pages", learnt)
            self.stats.set_value("topiccrawler/relevance/examples", learnt)

    def _fixed_threshold(self, topic_threshold: float | None) -> float | None:
        """η as a number (RELEVANCE_THRESHOLD, else the topic file's), None for auto."""
        try:
            return threshold_override(self.threshold_setting, topic_threshold)
        except ValueError:
            raise NotConfigured(
                f"RELEVANCE_THRESHOLD must be a number from 0 to 1 or 'auto', "
                f"not {self.threshold_setting!r}"
            ) from None

    @property
    def threshold(self) -> float | None:
        """η as pages are judged now (None while an automatic η has no estimate yet)."""
        return self.page_judge.threshold if self.page_judge is not None else None

    # --- pages (Scrapy's BaseSpiderMiddleware: one method for sync and async callbacks) --------

    def get_processed_item(self, item: Any, response: Response | None) -> Any:
        if isinstance(item, PageItem):
            self.judge(item, response)
        return item

    def judge(self, item: PageItem, response: Response | None = None) -> bool | None:
        """Score an extracted page and give its verdict; None when it cannot be judged. A later
        page of a relevant thread or board (`continues_relevant`) is kept whatever its own
        score: the replies on page 5 belong to the thread page 1 is about."""
        if self.page_judge is None:
            return None
        continues_relevant = bool(response is not None and response.meta.get(CONTINUES_RELEVANT))
        blocks = judged_blocks(item.title, item.body, item.blocks, (t.title for t in item.threads))
        # Scored where the page was read (an extraction worker), if that was this very text.
        scored = take(item.read_ahead, SCORE, *blocks_texts(blocks))
        if scored is not None:
            self.stats.inc_value("topiccrawler/relevance/scored_in_worker")
        before = self.page_judge.threshold
        verdict = self.page_judge.judge(item.url, blocks, scored and scored.value)
        item.relevance = verdict.score
        item.is_relevant = verdict.relevant
        item.relevance_detail = {
            **(item.relevance_detail or {}),  # what extraction said stays
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
            self.stats.set_value("topiccrawler/relevance/threshold", self.page_judge.state())
        if continues_relevant and not item.is_relevant and (item.posts or item.threads):
            item.is_relevant = True
            item.relevance_detail["kept_as"] = "a later page of a relevant thread or board"
        self.stats.inc_value(f"topiccrawler/relevance/{'kept' if item.is_relevant else 'dropped'}")
        self.crawler.signals.send_catch_log(
            page_judged, item=item, relevant=item.is_relevant, response=response
        )
        revised = self.page_judge.take_revisions()
        if revised:
            self.stats.inc_value("topiccrawler/relevance/revised", len(revised))
            self.crawler.signals.send_catch_log(verdicts_revised, changed=revised)
        return item.is_relevant

    # --- the end of the crawl -------------------------------------------------------------------
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
        database = None
        if store:
            try:
                database = database_for(self.crawler)
            except NotConfigured:
                pass  # nothing stored: nothing to settle there
        topic = crawl_topic(self.crawler).name
        verdicts = self.page_judge.settle(
            (lambda urls: stored_texts(database, topic, urls)) if database is not None else None
        )
        state = self.page_judge.state()
        self.stats.set_value("topiccrawler/relevance/threshold", state)
        changed: dict[str, bool] = {}
        if database is not None:
            if verdicts:
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
