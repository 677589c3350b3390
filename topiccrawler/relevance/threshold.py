"""η that sets itself: the relevance threshold estimated from the crawl's own scores.

A focused crawl's page scores are bimodal: the pages of the topic score an order of magnitude
above the rest, and the rest spread thinly down towards zero. Fixed by hand, η fits the web it was
set on (0.04 kept 63 % of the relevant articles of a real news web; the right value there was
0.014). Estimated, it follows the web: the logarithms of the non-zero scores are fitted with a
mixture of two normal distributions (scikit-learn's GaussianMixture), the upper one the topic's
pages; η is the score where a page is as likely to belong to either, and each page gets the
probability that it belongs to the upper one (a page without a word of the library scores zero:
probability 0).

The estimate is made again each time the sample has grown by a share (`refit_growth`), like the
link classifier's refits, and is `stable` once there are `min_scores` non-zero scores and two
estimates in a row agree within `tolerance` (in log10 of the score). The sample is bounded
(`max_scores`, reservoir sampling), so memory does not grow with the crawl.
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
        refit_growth: float = 0.2,
        tolerance: float = 0.05,
        settle: int = 3,
        max_scores: int = 20_000,
        seed: int = 0,
    ):
        self.min_scores = min_scores
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
        due = self.seen >= max(self.min_scores, (1 + self.refit_growth) * self.fitted_on)
        return due and self.fit()

    def extend(self, scores: Iterable[float]) -> None:
        for score in scores:
            self.add(score)
        if self.seen != self.fitted_on and self.seen >= self.min_scores:
            self.fit()

    # --- the estimate ---------------------------------------------------------------------------
    def fit(self) -> bool:
        """Fit the mixture again; False when the sample cannot give two groups yet."""
        if len(self.sample) < max(self.min_scores, 4) or max(self.sample) - min(self.sample) < 1e-9:
            return False
        import numpy as np
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.mixture import GaussianMixture

        values = np.asarray(self.sample).reshape(-1, 1)
        low, high = np.percentile(values, [25, 75])
        model = GaussianMixture(
            n_components=2,
            means_init=[[low], [high]],
            reg_covar=1e-3,
            random_state=0,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(values)
        order = np.argsort(model.means_[:, 0])
        weights = model.weights_[order]
        means = model.means_[order, 0]
        sigmas = np.sqrt(model.covariances_[order].reshape(-1))
        self._params = (float(weights[1]), *map(float, (means[0], sigmas[0], means[1], sigmas[1])))
        threshold = self._equal_odds()
        self.threshold = threshold
        self.fitted_on = self.seen
        if threshold is not None:
            self.history = [*self.history, math.log10(threshold)][-self.settle :]
            settled = len(self.history) == self.settle
            self.stable = self.stable or (
                settled and max(self.history) - min(self.history) <= self.tolerance
            )
        return True

    def _log_odds(self, value: float) -> float:
        """log P(upper | x) − log P(lower | x) at log10-score x."""
        upper, m1, s1, m2, s2 = self._params
        lower = 1.0 - upper
        return (
            math.log(max(upper, 1e-12)) - math.log(s2) - 0.5 * ((value - m2) / s2) ** 2
        ) - (math.log(max(lower, 1e-12)) - math.log(s1) - 0.5 * ((value - m1) / s1) ** 2)

    def _equal_odds(self) -> float | None:
        """The score between the two means where the upper group becomes the likelier."""
        _, m1, _, m2, _ = self._params
        if m2 - m1 < 1e-6:
            return None
        low, high = m1, m2
        if self._log_odds(low) >= 0 or self._log_odds(high) <= 0:
            return 10 ** ((m1 + m2) / 2)  # odd shapes: halfway between the groups
        for _ in range(50):
            middle = (low + high) / 2
            if self._log_odds(middle) < 0:
                low = middle
            else:
                high = middle
        return 10 ** ((low + high) / 2)

    def probability(self, score: float) -> float | None:
        """P(the page belongs to the topic's group | its score); None before the first fit."""
        if self._params is None or self.threshold is None:
            return None
        if score <= 0:
            return 0.0
        value = math.log10(max(score, FLOOR))
        _, m1, _, m2, _ = self._params
        odds = self._log_odds(value)
        # Beyond the upper mean a page is upper-group; below the lower mean, lower-group (the
        # wider component would otherwise claim the far tail on its side).
        if value >= m2:
            odds = self._log_odds(m2)
        elif value <= m1:
            odds = min(odds, self._log_odds(m1))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, odds))))

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
