"""η that sets itself: the relevance threshold estimated from the crawl's own scores.

A focused crawl's page scores are bimodal: the pages of the topic score an order of magnitude
above the rest, and the rest spread thinly down towards zero. Fixed by hand, η fits the web it was
set on (0.04 kept 63 % of the relevant articles of a real news web; the right value there was
0.014). Estimated, it follows the web: the logarithms of the non-zero scores are fitted with a
mixture of two normal distributions of one shared width (scikit-learn's GaussianMixture, "tied":
the topic's group is often narrow with a long tail down, which a width of its own would cut
short), the upper one the topic's pages, and η is halfway between the two groups' means (in log
scale). A page's score gives a probability that is unsure between the means and sure (up to
`certainty`) beyond them; between the means the page classifier decides (judge.py).

The estimate is made again each time the sample has grown by a share (`refit_growth`), like the
link classifier's refits, and is `stable` once `settle` estimates in a row agree within
`tolerance` (in log10 of the score): early in a focused crawl most pages are relevant and η
starts high, then falls as the crawl reaches the rest of the web. The sample is bounded
(`max_scores`, reservoir sampling), so memory does not grow with the crawl.

The first estimate is made from `early_scores` scores, for provisional verdicts only: the
frontier learns from them (and corrects what it learnt at every new estimate), and before any
estimate every page with a word of the library counts as relevant, so the link classifier has
no page to tell apart. A verdict that lasts (a final one, or a provisional one settled at the
end of the crawl) needs `min_scores` (`sure`), and only estimates made from that many count
towards `stable`.
"""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Iterable

FLOOR = 1e-6  # scores are logged; a positive score below this is taken as this


class ThresholdEstimator:
    """η from a sample of scores: the equal-odds point of a two-component log-normal mixture."""

    def __init__(
        self,
        min_scores: int = 40,
        early_scores: int = 20,
        refit_growth: float = 0.2,
        tolerance: float = 0.05,
        settle: int = 3,
        max_scores: int = 20_000,
        seed: int = 0,
        covariance: str = "tied",
        certainty: float = 0.7,
    ):
        self.covariance = covariance
        self.certainty = certainty
        self._certainty_logit = math.log(certainty / (1 - certainty))
        self.min_scores = min_scores
        self.early_scores = min(early_scores, min_scores)
        self.refit_growth = refit_growth
        self.tolerance = tolerance
        self.settle = settle
        self.history: list[float] = []  # log10 of the last `settle` estimates
        self.max_scores = max_scores
        self.sample: list[float] = []  # log10 of non-zero scores (a reservoir once full)
        self.seen = 0  # non-zero scores offered
        self.zeros = 0
        self.fitted_on = 0
        self.threshold: float | None = None
        self.stable = False
        self._params: tuple[float, float, float, float, float] | None = None  # w1 m1 s1 m2 s2
        self._random = random.Random(seed)

    # --- the sample -----------------------------------------------------------------------------
    def add(self, score: float) -> bool:
        """Count a page's score; True when η was estimated again."""
        if score <= 0:
            self.zeros += 1
            return False
        value = math.log10(max(score, FLOOR))
        self.seen += 1
        if len(self.sample) < self.max_scores:
            self.sample.append(value)
        else:
            slot = self._random.randrange(self.seen)
            if slot < self.max_scores:
                self.sample[slot] = value
        due = self.seen >= max(self.early_scores, (1 + self.refit_growth) * self.fitted_on)
        return due and self.fit()

    def extend(self, scores: Iterable[float]) -> None:
        for score in scores:
            self.add(score)
        if self.seen != self.fitted_on and self.seen >= self.early_scores:
            self.fit()

    # --- the estimate ---------------------------------------------------------------------------
    def fit(self) -> bool:
        """Fit the mixture again; False when the sample cannot give two groups yet."""
        if (
            len(self.sample) < max(self.early_scores, 4)
            or max(self.sample) - min(self.sample) < 1e-9
        ):
            return False
        import numpy as np
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.mixture import GaussianMixture

        values = np.asarray(self.sample).reshape(-1, 1)
        model = GaussianMixture(
            n_components=2,
            covariance_type=self.covariance,
            n_init=3,  # k-means starts: the groups are of very different sizes
            reg_covar=1e-3,
            random_state=0,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(values)
        order = np.argsort(model.means_[:, 0])
        weights = model.weights_[order]
        means = model.means_[order, 0]
        covariances = np.broadcast_to(np.asarray(model.covariances_).reshape(-1), (2,))
        sigmas = np.sqrt(covariances[order])
        self._params = (float(weights[1]), *map(float, (means[0], sigmas[0], means[1], sigmas[1])))
        threshold = self._midpoint()
        self.threshold = threshold
        self.fitted_on = self.seen
        if threshold is not None and self.sure:
            self.history = [*self.history, math.log10(threshold)][-self.settle :]
            settled = len(self.history) == self.settle
            self.stable = self.stable or (
                settled and max(self.history) - min(self.history) <= self.tolerance
            )
        return True

    @property
    def sure(self) -> bool:
        """Enough scores for a verdict that lasts (`min_scores`); below, estimates are early."""
        return self.seen >= self.min_scores

    def _midpoint(self) -> float | None:
        """η: halfway between the two groups' typical scores, in log scale (their geometric
        mean); None when the groups cannot be told apart."""
        _, m1, _, m2, _ = self._params
        if m2 - m1 < 1e-6:
            return None
        return 10 ** ((m1 + m2) / 2)

    def probability(self, score: float) -> float | None:
        """The score's opinion of the page, P(relevant) from 1 − `certainty` at or below the
        lower group's mean through ½ at η to `certainty` at or above the upper group's (linear
        in log-odds and log-score between them); None before the first fit. The score alone
        is never surer than `certainty`: where it is unsure, the page classifier decides."""
        if self._params is None or self.threshold is None:
            return None
        if score <= 0:
            return 1.0 - self.certainty
        value = math.log10(max(score, FLOOR))
        _, m1, _, m2, _ = self._params
        centre = math.log10(self.threshold)
        if value >= centre:
            position = min(1.0, (value - centre) / max(m2 - centre, 1e-9))
        else:
            position = -min(1.0, (centre - value) / max(centre - m1, 1e-9))
        z = position * self._certainty_logit
        return 1.0 / (1.0 + math.exp(-z))

    def confident(self, score: float) -> bool | None:
        """A verdict the score alone is sure of: True at or above the topic group's mean, False
        for zero or at or below the other group's mean; None in between and before a fit."""
        if self._params is None or self.threshold is None:
            return None
        if score <= 0:
            return False
        value = math.log10(max(score, FLOOR))
        _, m1, _, m2, _ = self._params
        if value >= m2:
            return True
        if value <= m1:
            return False
        return None

    def state(self) -> dict:
        """What is stored with the crawl run and shown in the summary."""
        return {
            "threshold": None if self.threshold is None else round(self.threshold, 6),
            "stable": self.stable,
            "scores": self.seen,
            "zeros": self.zeros,
        }
