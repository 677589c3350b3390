"""The crawl's stores in Redis (crawl/stores.py says what they hold): every worker of a shared
crawl learns from every worker's pages and follows links any worker held. The add-on
(distributed/addon.py) puts this class in CrawlStores' place when REDIS_URL is set."""

from __future__ import annotations

from topiccrawler.crawl.stores import CrawlStores
from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.distributed.held import SharedHeldLinks
from topiccrawler.distributed.judging import SharedPageClassifier, SharedThresholdEstimator
from topiccrawler.distributed.learning import (
    SharedLinkClassifier,
    SharedQueryYields,
    SharedYieldStats,
)
from topiccrawler.distributed.state import SharedCrawl, shared_crawl_for
from topiccrawler.frontier.classifier import LinkClassifier
from topiccrawler.frontier.held import HeldLinks
from topiccrawler.frontier.learning import YieldStats
from topiccrawler.frontier.queries import QueryYields
from topiccrawler.relevance.page_classifier import PageClassifier
from topiccrawler.relevance.threshold import ThresholdEstimator


class RedisCrawlStores(CrawlStores):
    @property
    def shared(self) -> SharedCrawl:
        # Opened on first use, once the crawl's topic (its name names the shared crawl) is known.
        return shared_crawl_for(self.crawler, crawl_topic(self.crawler).name)

    def _new_query_yields(self) -> QueryYields:
        return SharedQueryYields(self.shared)

    def yield_stats(self, exploration: float) -> YieldStats:
        return SharedYieldStats(self.shared, exploration)

    def link_classifier(self, tokenizer) -> LinkClassifier:
        return SharedLinkClassifier(self.shared, tokenizer)

    def rediscoveries(self, gain: int) -> None:
        return None  # raised in Redis by the shared scheduler (distributed/rediscovery.py)

    def held_links(self, max_links: int, max_pages: int = 0) -> HeldLinks:
        return SharedHeldLinks(self.shared, max_links, max_pages)

    def page_classifier(
        self, tokenizer, self_training: bool, threshold_auto: bool
    ) -> PageClassifier:
        if not threshold_auto:  # η given: each worker's classifier learns from its own pages
            return super().page_classifier(tokenizer, self_training, threshold_auto)
        return SharedPageClassifier(self.shared, tokenizer, self_training=self_training)

    def threshold_estimator(self, certainty: float) -> ThresholdEstimator:
        return SharedThresholdEstimator(self.shared, certainty=certainty)
