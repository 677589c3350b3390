"""The crawl's topic, held once by the crawler (an extension, CRAWL_TOPIC in EXTENSIONS) for
every component that reads it: the topic file and seed file the spider loaded from its
arguments, and the one scorer of the topic's library for the components that read text against
it, the relevance judge (pages), the frontier (anchors, search hits) and the extraction worker
(pages read ahead). The scorer is built on first use, from the topic file and the expansions a
person accepted (RELEVANCE_LIBRARY "extended"), or the topic file's terms alone ("static").

Components find it with Scrapy's `crawler.get_extension(CrawlTopic)`, through `crawl_topic`."""

from __future__ import annotations

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.scorer import RelevanceScorer
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.terms import accepted_expansions
from topiccrawler.topics.model import SeedList, Topic

LIBRARY_KINDS = ("extended", "static")


def library_kind(settings) -> str:
    kind = settings.get("RELEVANCE_LIBRARY")
    if kind not in LIBRARY_KINDS:
        raise NotConfigured(f"RELEVANCE_LIBRARY must be 'extended' or 'static', not {kind!r}")
    return kind


class CrawlTopic:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self._scorer: RelevanceScorer | None = None

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlTopic:
        return cls(crawler)

    @property
    def topic(self) -> Topic | None:
        """The topic the spider loaded; None for a spider of another project (the crawl's
        components then pass everything through)."""
        # The one place the topic is read off the spider: it loads the topic from its arguments
        # (`-a topic=…`) before any other component exists.
        return getattr(self.crawler.spider, "topic", None)

    @property
    def name(self) -> str | None:
        topic = self.topic
        return topic.name if topic is not None else None

    @property
    def seeds(self) -> SeedList | None:
        topic = self.topic
        return topic.seeds if topic is not None else None

    @property
    def scorer(self) -> RelevanceScorer | None:
        """The crawl's one scorer of the topic's library (the same object for every component)."""
        if self._scorer is None and self.topic is not None:
            self._scorer = self._build_scorer(self.topic)
        return self._scorer

    def _build_scorer(self, topic: Topic) -> RelevanceScorer:
        kind = library_kind(self.crawler.settings)
        accepted = []
        if kind == "extended":
            try:
                with database_for(self.crawler).session() as session:
                    accepted = accepted_expansions(session, topic.name)
            except NotConfigured:
                pass  # no database: the topic file's terms and synonyms only
        library = (
            ConceptLibrary.extended(topic.keywords, accepted)
            if kind == "extended"
            else ConceptLibrary.static(topic.keywords)
        )
        impact = self.crawler.settings.getdict("RELEVANCE_BLOCK_IMPACT") or None
        return RelevanceScorer(library, impact=impact)


def crawl_topic(crawler: Crawler) -> CrawlTopic:
    """The crawler's topic component; a crawl whose settings leave it out has none, like a
    spider without a topic."""
    held = crawler.get_extension(CrawlTopic)
    return held if held is not None else CrawlTopic(crawler)
