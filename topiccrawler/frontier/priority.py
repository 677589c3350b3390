"""Priorities of the one best-first queue: search queries, entrance pages, search hits and links.

Every page the crawl may fetch, whether a search engine named it or a page linked to it, gets a
score in [0, 1] from what is known before fetching it, and competes in the same queue:

    link:  score = Σ weight_f · f,  f in [0, 1]
      text     the anchor text (and link title) scored against the topic library: 0 when no
               word of the library is in it, else 0.5 + 0.5 · min(1, score / 2η) (a library
               word in the anchor is strong evidence; its absence is weak evidence); at least
               0.75 when the anchor names the topic itself (a word of the topic's title: the
               channel 财经 of a finance topic)
      context  the relevance of the page the link was found on, over 2η
      url      the words of the URL's path, scored the same way; 1 when one of them is a word of
               the topic's title (/finance/ for a finance topic)
      block    1 for a link in the page's content, 0 in navigation, menus, footers
      learned  the expected share of relevant pages where the link points (learning.py)
      model    the online link classifier's P(relevant) (classifier.py): what the pages judged
               so far say of the link's words, URL and place; 0.5 until it is first fitted
    hit:   the same sum, with
      text     the hit's title and snippet, as for an anchor; the query's own words are taken
               out of the snippet first (the engine cut the snippet around them: they are no
               evidence)
      context  the share of relevant pages among the query's hits judged so far (queries.py)
      url      as for a link; block 1 (a result list is content); learned and model as for a
               link

    priority = round(PAGE_SCALE · score) − DEPTH_PENALTY · hops

Search queries (they cost no page fetch and fill the queue) and the authority sites' start URLs
sit above every page; links that wait behind too many irrelevant pages sit below them all
(DEFERRED). The weights are a setting (FRONTIER_WEIGHTS); without learning, `learned` is the
neutral 0.5. Scrapy's scheduler takes the highest priority first, so the same ordering works
with scrapy-redis's priority queue.
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from topiccrawler.frontier.classifier import TEXT_CACHE, LinkClassifier
from topiccrawler.frontier.learning import UrlMemo, YieldStats
from topiccrawler.relevance.scorer import RelevanceScorer

DEFAULT_WEIGHTS = {
    "text": 0.3,
    "context": 0.15,
    "url": 0.05,
    "block": 0.05,
    "learned": 0.15,
    "model": 0.3,
}
PAGE_SCALE = 1000  # priority of a page with score 1
DEPTH_PENALTY = 2  # priority points per hop from the entrance
QUERY_PRIORITY = 3000  # search queries: above every page
ENTRANCE_PRIORITY = 2000  # start URLs of authority sites: above every scored page
DEFERRED = -(PAGE_SCALE + 1)  # added to links past the relevance tunnel: last of all
WORDS = re.compile(r"[^\W\d_]{2,}")  # a URL's words, a topic title's words (财经, finance)


def _url_words(url: str) -> tuple[str, ...]:
    """The words of a URL's path, lower-cased (/finance/tax-evasion/ → finance, tax, evasion)."""
    return tuple(WORDS.findall(unquote(urlsplit(url).path).lower()))


# A queued URL's words are read again whenever it is scored again (on pop, after each refit):
# remembered as the URL's place is (FRONTIER_URL_CACHE sets the size when a crawl opens).
url_words = UrlMemo(_url_words, 100_000)


class LinkPrioritizer:
    def __init__(
        self,
        scorer: RelevanceScorer,
        threshold: float,
        weights: dict[str, float] | None = None,
        learning: YieldStats | None = None,
        classifier: LinkClassifier | None = None,
        topic_title: str = "",
    ):
        self.scorer = scorer
        self._cosine = lru_cache(maxsize=TEXT_CACHE)(self._block_cosine)
        self.rescale(threshold)
        unknown = set(weights or {}) - set(DEFAULT_WEIGHTS)
        if unknown:
            raise ValueError(
                f"FRONTIER_WEIGHTS: unknown features {sorted(unknown)}; "
                f"known: {sorted(DEFAULT_WEIGHTS)}"
            )
        self.weights = {**DEFAULT_WEIGHTS, **(weights or {})}
        self.learning = learning
        self.classifier = classifier
        folded = topic_title.lower()
        self.topic_words = {
            word for word in WORDS.findall(folded) if word not in scorer.tokenizer.stop_words
        }

    def rescale(self, threshold: float) -> None:
        """A parent's relevance is read against η: when η is estimated again, so is the scale."""
        self.scale = 2 * threshold if threshold > 0 else 0.1

    def topical(self, text: str) -> float:
        """The text's relevance to the topic, over 2η, at most 1."""
        return min(1.0, self._cosine(text) / self.scale) if text else 0.0

    def context(self, parent_relevance: float) -> float:
        """A link's context feature: the relevance of the page it was found on, over 2η."""
        return min(1.0, parent_relevance / self.scale)

    def _block_cosine(self, text: str) -> float:
        """cos(text, topic) (`_cosine` remembers it per text: the library does not change
        during a crawl, and anchors and URL words repeat from page to page)."""
        return self.scorer.block_score(text)[0]

    def evidence(self, text: str) -> float:
        """0 for text without a word of the library, else in [0.5, 1] by its score; at least
        0.75 for text that names the topic."""
        score = self.topical(text)
        evidence = 0.5 + 0.5 * score if score > 0 else 0.0
        if evidence < 0.75 and text and any(word in text.lower() for word in self.topic_words):
            return 0.75
        return evidence

    def _url_evidence(self, url: str) -> float:
        words = url_words(url)
        if self.topic_words.intersection(words):
            return 1.0
        return self.topical(" ".join(words))

    def learned(self, url: str) -> float:
        return self.learning.expected(url) if self.learning else 0.5

    def modelled(self, url: str, text: str, kind: str, block: str, context: float) -> float:
        """The link classifier's P(relevant), 0.5 (no opinion) before it is first fitted."""
        if self.classifier is None or not self.classifier.ready:
            return 0.5
        features = self.classifier.features(url, text, kind, block, context)
        return self.classifier.probability(features)  # type: ignore[return-value]

    def link_features(
        self, url: str, anchor: str, block: str, parent_relevance: float
    ) -> dict[str, float]:
        context = self.context(parent_relevance)
        return {
            "text": self.evidence(anchor),
            "context": context,
            "url": self._url_evidence(url),
            "block": 0.0 if block == "navigation" else 1.0,
            "learned": self.learned(url),
            "model": self.modelled(url, anchor, "link", block, context),
        }

    @staticmethod
    def hit_text(title: str, snippet: str, query: str) -> str:
        """A hit's evidence: its title and snippet, the query's own words taken out of the
        snippet (the engine cut the snippet around them: they are no evidence)."""
        for word in query.split():
            if not word.startswith("site:"):
                snippet = snippet.replace(word, " ")
        return f"{title}\n{snippet}"

    def current(
        self, features: dict[str, float], url: str, text: str, parent_relevance: float | None
    ) -> dict[str, float]:
        """`features` with those read against η (text, url and, for a link, context: the
        parent's relevance) computed again at η as it is now. Under an η the crawl estimates,
        2η shrinks as the estimate settles (0.1 before the first, about 0.02 at a crawl's end),
        so a link queued early would otherwise lose to the same link queued later."""
        current = dict(features)
        if "text" in current:
            current["text"] = self.evidence(text)
        if "url" in current:
            current["url"] = self._url_evidence(url)
        if parent_relevance is not None and "context" in current:
            current["context"] = self.context(parent_relevance)
        return current

    def hit_features(
        self, url: str, title: str, snippet: str, query: str, query_yield: float
    ) -> dict[str, float]:
        text = self.hit_text(title, snippet, query)
        return {
            "text": self.evidence(text),
            "context": query_yield,
            "url": self._url_evidence(url),
            "block": 1.0,
            "learned": self.learned(url),
            "model": self.modelled(url, text, "hit", "content", query_yield),
        }

    def priority_of(self, features: dict[str, float], hops: int = 0) -> int:
        score = sum(self.weights[name] * value for name, value in features.items())
        return max(0, round(PAGE_SCALE * score) - DEPTH_PENALTY * hops)

    def priority(
        self, url: str, anchor: str, block: str, parent_relevance: float, hops: int
    ) -> int:
        """A link's priority."""
        return self.priority_of(self.link_features(url, anchor, block, parent_relevance), hops)
