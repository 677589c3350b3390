"""Link priority (best-first): how promising a link is, from what is known before fetching it.

    score = Σ weight_f · f,  every f in [0, 1]:
      parent   the relevance of the page the link was found on, over 2η
      anchor   the link's anchor text (and title) scored against the topic library, over 2η
      url      the words of the URL's path, scored the same way
      block    1 for a link in the page's content, 0 in navigation, menus, footers
      learned  the expected share of relevant pages in the link's section (learning.py)
    priority = round(100 · score) − depth penalty

The weights are a setting (FRONTIER_WEIGHTS). Without learning, `learned` is the neutral 0.5.
Scrapy's scheduler takes the highest priority first, so the same ordering works with
scrapy-redis's priority queue.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from topiccrawler.frontier.learning import YieldStats
from topiccrawler.relevance.scorer import RelevanceScorer

DEFAULT_WEIGHTS = {"parent": 0.25, "anchor": 0.3, "url": 0.05, "block": 0.1, "learned": 0.3}
DEPTH_PENALTY = 2  # priority points per hop from the entrance
URL_WORDS = re.compile(r"[^\W\d_]{2,}")


class LinkPrioritizer:
    def __init__(
        self,
        scorer: RelevanceScorer,
        threshold: float,
        weights: dict[str, float] | None = None,
        learning: YieldStats | None = None,
    ):
        self.scorer = scorer
        self.scale = 2 * threshold if threshold > 0 else 0.1
        self.weights = {**DEFAULT_WEIGHTS, **(weights or {})}
        self.learning = learning

    def _topical(self, text: str) -> float:
        return min(1.0, self.scorer.block_score(text)[0] / self.scale) if text else 0.0

    def features(
        self, url: str, anchor: str, block: str, parent_relevance: float
    ) -> dict[str, float]:
        path = unquote(urlsplit(url).path)
        return {
            "parent": min(1.0, parent_relevance / self.scale),
            "anchor": self._topical(anchor),
            "url": self._topical(" ".join(URL_WORDS.findall(path))),
            "block": 0.0 if block == "navigation" else 1.0,
            "learned": self.learning.expected(url) if self.learning else 0.5,
        }

    def priority(
        self, url: str, anchor: str, block: str, parent_relevance: float, hops: int
    ) -> int:
        features = self.features(url, anchor, block, parent_relevance)
        score = sum(self.weights.get(name, 0.0) * value for name, value in features.items())
        return max(0, round(100 * score) - DEPTH_PENALTY * hops)
