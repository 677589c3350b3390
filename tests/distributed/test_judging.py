"""The relevance judge's learning shared over Redis: two workers' η and page classifier are one,
fitted by one worker and adopted by the other, from both workers' pages."""

from __future__ import annotations

import math
import random
import uuid

import pytest

from topiccrawler.distributed.judging import (
    SharedModel,
    SharedPageClassifier,
    SharedThresholdEstimator,
    decode_example,
    encode_example,
)
from topiccrawler.distributed.state import SharedCrawl
from topiccrawler.relevance.page_classifier import PageClassifier
from topiccrawler.relevance.threshold import ThresholdEstimator

pytestmark = pytest.mark.redis


@pytest.fixture
def two_workers(redis_server):
    name = f"test-judging-{uuid.uuid4().hex[:8]}"
    views = [SharedCrawl(redis_server, name, worker_timeout=1.0) for _ in range(2)]
    yield views
    views[0].clear()


def bimodal_scores(n: int, seed: int = 1) -> list[float]:
    """A focused crawl's scores: a third of the pages on the topic (around 0.1), the rest an
    order of magnitude and more below, some zero."""
    rng = random.Random(seed)
    scores = []
    for _ in range(n):
        draw = rng.random()
        if draw < 0.3:
            scores.append(10 ** rng.gauss(-1.0, 0.25))
        elif draw < 0.9:
            scores.append(10 ** rng.gauss(-2.6, 0.35))
        else:
            scores.append(0.0)
    return scores


def test_two_workers_settle_on_one_threshold_learnt_from_both(two_workers):
    estimators = [SharedThresholdEstimator(view) for view in two_workers]
    alone = ThresholdEstimator()
    scores = bimodal_scores(1200)
    for i, score in enumerate(scores):
        estimators[i % 2].add(score)  # each worker judges half the pages
        alone.add(score)
    for estimator in estimators:
        estimator.fit()
    first, second = (e.threshold for e in estimators)
    assert first is not None and second is not None
    # One η, not two: the last fit may have seen a few more scores (the stability tolerance).
    assert abs(math.log10(first / second)) <= estimators[0].tolerance
    assert first == pytest.approx(alone.threshold, rel=0.15)  # as one process over all pages
    assert 10**-2.6 < first < 10**-1.0
    assert all(e.stable for e in estimators)
    assert sum(e.adopted for e in estimators) > 0  # one fitted, the other took its estimate
    # The counts are every worker's, not one's (as of the last exchange with Redis).
    estimators[0].send()
    assert estimators[0].seen + estimators[0].zeros == len(scores)
    assert estimators[1].state()["scores"] == sum(1 for s in scores if s > 0)


def test_a_fit_that_cannot_be_made_waits_for_more_scores(two_workers):
    estimator = SharedThresholdEstimator(two_workers[0], min_scores=10)
    for _ in range(20):
        estimator.add(0.05)  # one value: no two groups to tell apart
    assert estimator.threshold is None
    assert estimator.tried_on == 18  # tried at 10, 12, 15, 18 scores: each time +20 %
    assert not estimator._due()  # not tried again on every page
    estimator.add(0.05)
    assert estimator.tried_on == 18
    estimator.add(0.05)  # 22 ≥ 1.2 × 18: tried again
    assert estimator.tried_on == 22


def test_examples_survive_their_compact_form():
    classifier = PageClassifier()
    indices = classifier.indices(["w:税收", "w:减免", "c:税收"])
    for label in (None, True, False):
        decoded, score, decoded_label = decode_example(encode_example(indices, 0.0421, label))
        assert decoded.tolist() == indices.tolist()
        assert score == 0.0421
        assert decoded_label is label


def pages(n: int, seed: int = 2):
    """Pages as (terms, score): topic pages use tax words and score high, the others do not."""
    rng = random.Random(seed)
    topic = ["w:税收", "w:减税", "w:增值税", "w:纳税人", "w:发票", "w:个税"]
    other = ["w:球队", "w:比赛", "w:电影", "w:演员", "w:股票", "w:天气"]
    common = ["w:记者", "w:报道", "w:今天", "w:表示"]
    for _ in range(n):
        relevant = rng.random() < 0.4
        words = rng.sample(topic if relevant else other, 4) + rng.sample(common, 2)
        yield words, (0.12 if relevant else 0.002) * rng.uniform(0.7, 1.3)


def confident(score: float) -> bool | None:
    return True if score >= 0.05 else False if score <= 0.005 else None


def test_two_workers_share_one_page_classifier(two_workers):
    classifiers = [SharedPageClassifier(view) for view in two_workers]
    for i, (terms, score) in enumerate(pages(200)):
        worker = classifiers[i % 2]
        worker.add(terms, score)
        if worker.due():
            worker.fit(confident)
    for classifier in classifiers:
        classifier.send()  # the end of the crawl: every example in Redis, a last fit
    for classifier in classifiers:
        classifier.fit(confident)
    assert all(c.ready for c in classifiers)
    assert sum(c.adopted for c in classifiers) > 0
    # One model, fitted on both workers' pages (more than either judged: 100 each); refitted
    # only once the examples have grown by a fifth.
    assert classifiers[0].fitted_on == classifiers[1].fitted_on > 200 / 1.2
    page = ["w:增值税", "w:发票", "w:记者"]
    first, second = (c.probability(page) for c in classifiers)
    assert first == pytest.approx(second, abs=1e-6)  # one model: the same answer
    assert first > 0.8
    assert classifiers[1].probability(["w:球队", "w:比赛", "w:今天"]) < 0.2


def test_a_model_is_fitted_by_one_worker_at_a_time(two_workers):
    first, second = (SharedModel(view, "a-model") for view in two_workers)
    with first.fitting() as mine:
        assert mine
        with second.fitting() as theirs:
            assert not theirs  # the other worker waits for the published model
    with second.fitting() as theirs:
        assert theirs  # released after the fit
    first.publish(120, b"weights")
    assert second.published() == (120, b"weights")
    classifier = SharedPageClassifier(two_workers[1])
    for terms, score in pages(40):
        classifier.add(terms, score)
    with SharedModel(two_workers[0], "pages").fitting():
        assert not classifier.fit(confident)  # locked by the other worker: no fit here
    assert not classifier.ready
