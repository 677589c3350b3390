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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from topiccrawler.relevance.page_classifier import (
    PageClassifier,
    combine,
    page_terms,
    term_indices,
)
from topiccrawler.relevance.scorer import Relevance, RelevanceScorer
from topiccrawler.relevance.threshold import ThresholdEstimator

AUTO = "auto"
UNHEARD_MAX = 5_000  # pages judged before the classifier was fitted, kept for its opinion
PENDING_MAX = 100_000  # provisional pages remembered for settling (their score: ~200 bytes)


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


def judged_blocks(
    title: str | None, body: str | None, blocks: dict[str, str], thread_titles: Iterable[str]
) -> dict[str, str | None]:
    """The text a page is judged on: its title, body and other blocks; a thread list's body is
    its threads' titles, whatever the body extractor kept."""
    thread_titles = list(thread_titles)
    return {"title": title, "body": "\n".join(thread_titles) if thread_titles else body, **blocks}


def blocks_texts(blocks: dict[str, str | None]) -> tuple[str | None, ...]:
    """The blocks' names and texts in order: what a `PageScore` is keyed by (read_ahead.py)."""
    return tuple(part for pair in blocks.items() for part in pair)


@dataclass
class PageScore:
    """What judging a page costs in CPU and needs nothing but the page and the library: its
    score and the page classifier's features. Computed where the page was read (an extraction
    worker, on another core), so the judge in the crawl's process does not tokenize it again."""

    relevance: Relevance
    terms: list[str] | None = None  # the page classifier's features (`page_terms`)
    indices: object = None  # and their hashed indices (`term_indices`)

    @classmethod
    def of(cls, scorer: RelevanceScorer, blocks: dict[str, str | None], features: bool):
        """`blocks` scored; with the classifier's `features` when one will read them."""
        if not features:
            return cls(scorer.score(blocks))
        terms = page_terms(scorer.tokenizer, blocks.get("title"), blocks.get("body"))
        return cls(scorer.score(blocks), terms, term_indices(terms))


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
        self.pending: dict[str, float] = {}  # provisional pages: key → score
        # … and the verdict the crawl was told, with the classifier's part of it then
        self.told: dict[str, tuple[bool, float | None]] = {}
        self.revisions: dict[str, bool] = {}  # provisional verdicts changed since last taken
        # provisional pages judged before the classifier was fitted: their hashed terms, for
        # its opinion once it is (a few hundred pages at most: it fits early)
        self.unheard: dict[str, object] = {}
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

    def learn_example(self, title: str | None, body: str | None, relevant: bool) -> bool:
        """A page the user says is (not) on the topic (the topic file's [examples]): the page
        classifier learns it whatever its score. False when there is no classifier."""
        if self.classifier is None or self.estimator is None:
            return False
        score = self.scorer.score({"title": title, "body": body}).score
        self.classifier.add(self.classifier.terms(title, body), score, label=relevant)
        return True

    # --- verdicts -------------------------------------------------------------------------------
    def judge(
        self, key: str, blocks: dict[str, str | None], scored: PageScore | None = None
    ) -> Verdict:
        """Score a page (`blocks`: title, body and the other blocks the scorer weighs) and give
        its verdict; `key` names it for `settle` (its URL). `scored`: these blocks' score (and
        features) computed elsewhere, used instead of scoring them here."""
        relevance = scored.relevance if scored is not None else self.scorer.score(blocks)
        if self.estimator is None:
            return Verdict(relevance, relevance.score >= self.fixed, final=True)
        score = relevance.score
        terms = []
        indices = None
        if self.classifier is not None:
            if scored is not None and scored.terms is not None:
                terms, indices = scored.terms, scored.indices
            else:
                terms = self.classifier.terms(blocks.get("title"), blocks.get("body"))
                indices = self.classifier.indices(terms)
            refitted = self.estimator.add(score)
            self.classifier.add(indices, score)
            if refitted or self.classifier.due():
                self.classifier.fit(self.estimator.confident)
        else:
            refitted = self.estimator.add(score)
        if refitted:
            self._revise()
        probability, from_classifier = self.probability(
            score, indices if indices is not None else terms
        )
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
            self._remember(key, score, relevant, from_classifier)
            if (
                from_classifier is None
                and self.classifier is not None
                and indices is not None
                and len(self.unheard) < UNHEARD_MAX
                and key in self.pending
            ):
                self.unheard[key] = indices
        elif relevant and self.classifier is not None:
            self.classifier.note_relevant(terms)
        return Verdict(relevance, relevant, final, probability, from_classifier, terms)

    def probability(self, score: float, terms) -> tuple[float | None, float | None]:
        """(combined P(relevant), the classifier's part) for a page's score and terms (or
        hashed term indices); (None, None) before η is estimated."""
        library = self.estimator.probability(score) if self.estimator is not None else None
        if library is None:
            return None, None
        classifier = self.classifier.probability(terms) if self.classifier is not None else None
        return combine(library, classifier), classifier

    def _remember(
        self, key: str, score: float, relevant: bool, classifier: float | None = None
    ) -> None:
        """A provisional page: its score (its text is in the database, kept for this) and the
        verdict given (with the classifier's part), for `_revise`."""
        if len(self.pending) >= PENDING_MAX and key not in self.pending:
            self.pending_dropped += 1  # judged as it was: memory stays bounded
            return
        self.pending[key] = score
        self.told[key] = (relevant, classifier)

    def _revise(self) -> None:
        """η was estimated again: the provisional verdicts given so far judged again, by their
        score against the new η and the classifier's opinion (for a page judged before the
        classifier was fitted, its opinion now, once it is). A page whose score lies between
        the groups is judged again only when the classifier's opinion of it is new; else the
        verdict stands (the classifier's call, or none yet: judged by their score alone, short
        forum pages and thread lists would flip). Those that changed are
        kept for `take_revisions`: what the frontier learnt from them (where relevant pages
        are, which links lead to them) is corrected while the crawl goes on, not at its end.
        Early estimates run high (the first pages of a focused crawl are mostly relevant), and
        before any estimate every page with a word of the library counts as relevant: the
        pages judged then are the ones that flip."""
        ready = self.classifier is not None and self.classifier.ready
        if self.estimator.probability(1.0) is None:
            return  # the estimate could not tell the groups apart
        for key, score in self.pending.items():
            told, classifier = self.told[key]
            if classifier is None and ready and key in self.unheard:
                classifier = self.classifier.probability(self.unheard.pop(key))
                self.told[key] = (told, classifier)
            elif self.estimator.confident(score) is None:
                continue  # between the groups: the classifier's call (or none yet) stands
            relevant = combine(self.estimator.probability(score), classifier) >= 0.5
            if relevant != told:
                self.told[key] = (relevant, classifier)
                self.revisions[key] = relevant

    def take_revisions(self) -> dict[str, bool]:
        """The provisional verdicts changed since last asked: key → the verdict now."""
        revisions, self.revisions = self.revisions, {}
        return revisions

    def refit(self) -> None:
        """η and the classifier fitted on everything seen."""
        if self.estimator is None:
            return
        self.estimator.fit()
        if self.classifier is not None:
            self.classifier.fit(self.estimator.confident)

    def final_verdict(
        self, score: float, title: str | None, body: str | None
    ) -> tuple[bool, float | None]:
        """(relevant, probability) of a page judged now, from its score and text (without
        text, by its score alone)."""
        if self.estimator is None:
            return score >= self.fixed, None
        if not self.estimator.sure:  # too few scores for a lasting η: as before any estimate
            return score > 0, None
        terms = None
        if self.classifier is not None and (title or body):
            terms = self.classifier.terms(title, body)
            probability, _ = self.probability(score, terms)
        else:
            probability = self.estimator.probability(score)
        if probability is None:
            return score > 0, None
        if terms and probability >= 0.5:
            # A page settled relevant counts for the library's candidates like one judged
            # final at once: in a crawl whose η settled late, most relevant pages are these.
            self.classifier.note_relevant(terms)
        return probability >= 0.5, probability

    def settle(
        self, text_of: Callable[[list[str]], dict[str, tuple[str | None, str | None]]] | None = None
    ) -> dict[str, tuple[bool, float | None]]:
        """The final verdicts of the provisional pages, with the η and classifier fitted on
        everything seen: key → (relevant, probability). `text_of` gives the pages' (title,
        body) by key (the database keeps them); without it they are judged by score alone.
        Forgets them."""
        if self.estimator is None:
            return {}
        self.refit()
        keys = list(self.pending)
        texts = text_of(keys) if text_of is not None and keys else {}
        verdicts = {
            key: self.final_verdict(score, *texts.get(key, (None, None)))
            for key, score in self.pending.items()
        }
        self.pending.clear()
        self.told.clear()
        self.revisions.clear()
        self.unheard.clear()
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
