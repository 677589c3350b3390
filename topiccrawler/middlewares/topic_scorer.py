"""One scorer of the crawl's topic for the components that read text against it: the relevance
judge (pages) and the frontier (anchors, search hits). Built once per crawl, on first use, from
the topic file and the expansions a person accepted (RELEVANCE_LIBRARY "extended"), or the
topic file's terms alone ("static")."""

from __future__ import annotations

from weakref import WeakKeyDictionary

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.scorer import RelevanceScorer
from topiccrawler.storage.crawler import database_for
from topiccrawler.storage.terms import accepted_expansions
from topiccrawler.topics.model import Topic

LIBRARY_KINDS = ("extended", "static")
_SCORERS: WeakKeyDictionary[Crawler, RelevanceScorer] = WeakKeyDictionary()


def library_kind(crawler: Crawler) -> str:
    kind = crawler.settings.get("RELEVANCE_LIBRARY")
    if kind not in LIBRARY_KINDS:
        raise NotConfigured(f"RELEVANCE_LIBRARY must be 'extended' or 'static', not {kind!r}")
    return kind


def topic_scorer(crawler: Crawler, topic: Topic) -> RelevanceScorer:
    """The crawl's scorer for `topic` (the same object for every component of the crawl)."""
    scorer = _SCORERS.get(crawler)
    if scorer is not None:
        return scorer
    kind = library_kind(crawler)
    accepted = []
    if kind == "extended":
        try:
            with database_for(crawler).session() as session:
                accepted = accepted_expansions(session, topic.name)
        except NotConfigured:
            pass  # no database: the topic file's terms and synonyms only
    library = (
        ConceptLibrary.extended(topic.keywords, accepted)
        if kind == "extended"
        else ConceptLibrary.static(topic.keywords)
    )
    impact = crawler.settings.getdict("RELEVANCE_BLOCK_IMPACT") or None
    scorer = _SCORERS[crawler] = RelevanceScorer(library, impact=impact)
    return scorer
