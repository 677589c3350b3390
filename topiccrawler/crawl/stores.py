"""Where the crawl keeps what it learns and holds while it runs: the query yields, the places'
yields and the link classifier of the frontier, the links held at the hop limit, the page
classifier and η's estimate. One crawl process keeps them in its memory (`CrawlStores`); a
crawl shared over Redis keeps them in Redis so that every worker learns from all
(`RedisCrawlStores`, distributed/stores.py).

Which of the two a crawl has is decided once, by the add-on that makes a crawl shared
(distributed/addon.py puts RedisCrawlStores in this extension's place in EXTENSIONS when
REDIS_URL is set); every component asks the crawler's stores for its part
(`crawl_stores(crawler)`), never whether the crawl is shared."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.crawler import Crawler

from topiccrawler.frontier.classifier import LinkClassifier
from topiccrawler.frontier.held import HeldLinks
from topiccrawler.frontier.learning import YieldStats
from topiccrawler.frontier.queries import QueryYields
from topiccrawler.frontier.rediscovery import Rediscoveries
from topiccrawler.relevance.page_classifier import PageClassifier
from topiccrawler.relevance.threshold import ThresholdEstimator

if TYPE_CHECKING:
    from topiccrawler.relevance.tokenize import Tokenizer


class CrawlStores:
    """The crawl's stores in this process's memory (the default: no REDIS_URL)."""

    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self._query_yields: QueryYields | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlStores:
        return cls(crawler)

    @property
    def shared(self) -> Any:
        """The shared crawl this process is a worker of (distributed/state.py SharedCrawl);
        None in a crawl of one process."""
        return None

    @property
    def query_yields(self) -> QueryYields:
        """The one record of the search queries' hits and judged yields (the spider keeps it,
        the frontier ranks search hits by it)."""
        if self._query_yields is None:
            self._query_yields = self._new_query_yields()
        return self._query_yields

    def _new_query_yields(self) -> QueryYields:
        return QueryYields()

    def yield_stats(self, exploration: float) -> YieldStats:
        """The places' (site, path) yields the frontier learns links' worth from."""
        return YieldStats(exploration)

    def link_classifier(self, tokenizer: Tokenizer) -> LinkClassifier:
        return LinkClassifier(tokenizer)

    def rediscoveries(self, gain: int) -> Rediscoveries | None:
        """The bookkeeping that raises a queued page found again by more links."""
        return Rediscoveries(gain)

    def held_links(self, max_links: int, max_pages: int = 0) -> HeldLinks:
        """Links the hop limit cut off, kept to follow should their page turn up nearer."""
        return HeldLinks(max_links, max_pages)

    def page_classifier(
        self, tokenizer: Tokenizer, self_training: bool, threshold_auto: bool
    ) -> PageClassifier:
        """The page classifier; `threshold_auto`: η is estimated by the crawl (a shared crawl
        then learns it from every worker's pages)."""
        return PageClassifier(tokenizer, self_training=self_training)

    def threshold_estimator(self, certainty: float) -> ThresholdEstimator:
        """η's estimate for a crawl whose topic leaves η to it."""
        return ThresholdEstimator(certainty=certainty)


def crawl_stores(crawler: Crawler) -> CrawlStores:
    """The crawler's stores (the CrawlStores extension, or the Redis one in its place); a
    crawler made without the project's extensions gets stores of its own process, a new one at
    each call (a component holds what it is given)."""
    stores = crawler.get_extension(CrawlStores)
    return stores if stores is not None else CrawlStores(crawler)
