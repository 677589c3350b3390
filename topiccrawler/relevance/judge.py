"""The relevance verdict of a page: the library's score against η, and, where η sets itself, the
page classifier's opinion beside it (SPEC §6; the threshold and the classifier: threshold.py,
page_classifier.py).

A number for η (the topic file's `threshold`, or RELEVANCE_THRESHOLD) means exactly that number:
kept when score ≥ η. Without one (or `threshold = "auto"`), η is estimated from the crawl's own
scores and the verdict is the combined probability of the score's group and the classifier's
P(relevant | words) ≥ ½. Until the estimate is stable and the classifier fitted, for pages whose
score lies between the two groups' means, and for pages the score and the classifier disagree
on, verdicts are provisional: the page keeps its
text, and `settle` gives it its final verdict later (at the end of the crawl, or in
`topiccrawler rejudge`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from topiccrawler.relevance.page_classifier import PageClassifier, combine
from topiccrawler.relevance.scorer import Relevance, RelevanceScorer
from topiccrawler.relevance.threshold import ThresholdEstimator

AUTO = "auto"
PENDING_MAX = 20_000  # provisional pages remembered for settling (about 3 KB each)


@dataclass
class Verdict:
    relevance: Relevance
    relevant: bool
    final: bool
    probability: float | None = None  # the combined probability (auto η)
    classifier: float | None = None  # the page classifier's P(relevant)
    terms: list[str] = field(default_factory=list, repr=False)

    @property
    def score(self) -> float:
        return self.relevance.score


@dataclass
class _Pending:
    key: str
    score: float
    indices: object  # the page's hashed terms


class PageJudge:
    """Scores a page and says whether it is kept; learns η and the classifier as pages come."""

    def __init__(
        self,
        scorer: RelevanceScorer,
        threshold: float | None,
        classifier: PageClassifier | None = None,
        certainty: float = 0.7,
        estimator: ThresholdEstimator | None = None,
    ):
        self.scorer = scorer
        self.fixed = threshold
        self.estimator = (
            None
            if threshold is not None
            else (estimator or ThresholdEstimator(certainty=certainty))
        )
        self.classifier = classifier
        self.pending: dict[str, _Pending] = {}
        self.pending_dropped = 0  # provisional pages past PENDING_MAX, left as judged

    # --- η --------------------------------------------------------------------------------------
    @property
    def auto(self) -> bool:
        return self.estimator is not None

    @property
    def threshold(self) -> float | None:
        """η now: the fixed number, or the estimate (None before the first)."""
        return self.fixed if self.estimator is None else self.estimator.threshold

    @property
    def settled(self) -> bool:
        """Whether verdicts given now are final."""
        if self.estimator is None:
            return True
        classifier_ready = self.classifier is None or self.classifier.ready
        return self.estimator.stable and classifier_ready

    # --- verdicts -------------------------------------------------------------------------------
    def judge(self, key: str, blocks: dict[str, str | None]) -> Verdict:
        """Score a page (`blocks`: title, body and the other blocks the scorer weighs) and give
        its verdict; `key` names it for `settle` (its URL)."""
        relevance = self.scorer.score(blocks)
        if self.estimator is None:
            return Verdict(relevance, relevance.score >= self.fixed, final=True)
        score = relevance.score
        terms = []
        if self.classifier is not None:
            terms = self.classifier.terms(blocks.get("title"), blocks.get("body"))
            refitted = self.estimator.add(score)
            self.classifier.add(terms, score)
            if refitted or self.classifier.due():
                self.classifier.fit(self.estimator.confident)
        else:
            self.estimator.add(score)
        probability, from_classifier = self.probability(score, terms)
        # Final now only where the score alone is sure and the classifier agrees; a page in
        # between, or one they disagree on, waits for the η and the classifier the crawl ends
        # with (early estimates run high, and an early classifier has seen few pages).
        sure = self.estimator.confident(score)
        final = (
            self.settled
            and sure is not None
            and (from_classifier is None or (from_classifier >= 0.5) == sure)
        )
        if probability is None:  # no estimate yet: the benefit of the doubt, text kept
            relevant = score > 0
        else:
            relevant = probability >= 0.5
        if not final:
            self._remember(key, score, terms)
        elif relevant and self.classifier is not None:
            self.classifier.note_relevant(terms)
        return Verdict(relevance, relevant, final, probability, from_classifier, terms)

    def probability(self, score: float, terms) -> tuple[float | None, float | None]:
        """(combined P(relevant), the classifier's part) for a page's score and terms (or
        hashed term indices); (None, None) before η is estimated."""
        library = self.estimator.probability(score) if self.estimator is not None else None
        if library is None:
            return None, None
        classifier = (
            self.classifier.probability(terms) if self.classifier is not None else None
        )
        return combine(library, classifier), classifier

    def _remember(self, key: str, score: float, terms: list[str]) -> None:
        if len(self.pending) >= PENDING_MAX and key not in self.pending:
            self.pending_dropped += 1
            return
        indices = self.classifier.indices(terms) if self.classifier is not None else None
        self.pending[key] = _Pending(key, score, indices)

    def settle(self) -> dict[str, tuple[bool, float | None]]:
        """The final verdicts of the provisional pages, with today's η and classifier: key →
        (relevant, probability). Forgets them."""
        if self.estimator is None:
            return {}
        self.estimator.fit()
        if self.classifier is not None:
            self.classifier.fit(self.estimator.confident)
        verdicts = {}
        for entry in self.pending.values():
            probability, _ = self.probability(entry.score, entry.indices)
            relevant = entry.score > 0 if probability is None else probability >= 0.5
            verdicts[entry.key] = (relevant, probability)
        self.pending.clear()
        return verdicts

    def state(self) -> dict:
        """η and how it was set, for the crawl's stats, summary and report."""
        state = {"threshold": self.threshold, "mode": "auto" if self.auto else "fixed"}
        if self.estimator is not None:
            state |= self.estimator.state()
            state["threshold"] = self.threshold
            if self.classifier is not None:
                state["classifier_fits"] = self.classifier.fits
        return state
