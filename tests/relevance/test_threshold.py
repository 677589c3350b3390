"""η estimated from the crawl's own scores (relevance/threshold.py)."""

from __future__ import annotations

import random

import pytest

from topiccrawler.relevance.threshold import ThresholdEstimator


def bimodal(n_low: int, n_high: int, low: float, high: float, seed: int = 1) -> list[float]:
    """Scores of a focused crawl: many off-topic pages around `low`, topic pages around `high`
    (log-normal, as page scores are), and pages without a library word at zero."""
    rng = random.Random(seed)
    scores = [10 ** rng.gauss(low, 0.35) for _ in range(n_low)]
    scores += [10 ** rng.gauss(high, 0.25) for _ in range(n_high)]
    scores += [0.0] * (n_low // 2)
    rng.shuffle(scores)
    return scores


def test_threshold_falls_between_the_two_groups_whatever_their_place():
    for low, high in ((-2.7, -1.3), (-2.0, -0.6), (-3.5, -2.2)):
        estimator = ThresholdEstimator()
        estimator.extend(bimodal(400, 80, low, high))
        eta = estimator.threshold
        assert 10 ** (low + 0.3) < eta < 10 ** (high - 0.2), (low, high, eta)
        assert estimator.stable
        assert estimator.probability(10**high) > 0.5 > estimator.probability(10**low)
        assert estimator.probability(0.0) == pytest.approx(0.3)  # as sure as a score gets


def test_no_estimate_before_enough_scores_and_zeros_are_not_sampled():
    estimator = ThresholdEstimator(min_scores=40)
    for score in bimodal(20, 5, -2.5, -1.2)[:30]:
        estimator.add(score)
        if estimator.seen < estimator.early_scores:
            assert estimator.threshold is None and estimator.probability(0.1) is None
            assert estimator.confident(0.1) is None
    assert estimator.zeros > 0 and estimator.seen + estimator.zeros == 30
    # From `early_scores` on, an early estimate for provisional verdicts: neither sure enough
    # for a lasting verdict nor counted towards stability.
    assert estimator.seen >= estimator.early_scores and estimator.threshold is not None
    assert not estimator.sure and not estimator.stable and not estimator.history


def test_confident_verdicts_only_beyond_the_groups_means():
    estimator = ThresholdEstimator()
    estimator.extend(bimodal(400, 80, -2.7, -1.3))
    assert estimator.confident(10**-1.0) is True
    assert estimator.confident(10**-3.0) is False and estimator.confident(0.0) is False
    assert estimator.confident(estimator.threshold) is None  # in between: unsure


def test_stable_only_once_the_estimate_stops_moving():
    """A focused crawl sees its topic pages first: η starts high and falls as the crawl reaches
    the rest of the web; it is not called stable while it moves."""
    estimator = ThresholdEstimator()
    for score in sorted(bimodal(100, 60, -2.7, -1.3, seed=2), reverse=True):
        estimator.add(score)  # topic pages first, then ever less relevant ones
    first = estimator.threshold
    assert not estimator.stable
    for score in bimodal(400, 80, -2.7, -1.3, seed=3):  # the rest of the web, mixed
        estimator.add(score)
    assert estimator.stable and estimator.threshold < first


def test_sample_is_bounded():
    estimator = ThresholdEstimator(max_scores=500)
    estimator.extend(bimodal(3000, 600, -2.7, -1.3))
    assert len(estimator.sample) == 500 and estimator.seen > 3000
    assert 10**-2.4 < estimator.threshold < 10**-1.5
