"""The relevance judge's learning, shared by a crawl's workers: one η and one page classifier.

Where η sets itself (relevance/threshold.py) and the page classifier learns from the library's
confident verdicts (relevance/page_classifier.py), each worker alone would see only its own pages:
two workers of one crawl would keep pages by two different η, and each would fit its classifier
on half the examples. Shared, as the frontier's link classifier is (learning.py):

- Every worker's scores (log10) go to one Redis list, the zeros and the count to counters, a batch
  every SEND_INTERVAL seconds; the list holds the most recent `max_scores`.
- The page classifier's examples (the library score, a label where one is known, the hashed term
  indices) go to one list trimmed to the classifier's window, in a compact binary form.
- When a refit is due by the count over all workers, one worker (an NX lock) fits on the shared
  sample and publishes the result; the others adopt it instead of fitting the same one again.
"""

from __future__ import annotations

import json
import math
import struct
import time
from collections.abc import Callable

import numpy as np

from topiccrawler.distributed.learning import SEND_INTERVAL, SharedModel
from topiccrawler.distributed.state import SharedCrawl
from topiccrawler.relevance.page_classifier import N_FEATURES, PageClassifier, as_indices
from topiccrawler.relevance.threshold import FLOOR, ThresholdEstimator

_EXAMPLE = struct.Struct("<db")  # an example: library score, label (-1 none, 0, 1); indices
_WEIGHTS = struct.Struct("<dI")  # a page classifier: bias, non-zero weights; indices, values


class SharedThresholdEstimator(ThresholdEstimator):
    """η estimated on every worker's scores, by one worker at a time, adopted by the others."""

    def __init__(self, crawl: SharedCrawl, **kwargs):
        super().__init__(**kwargs)
        self.crawl = crawl
        self.model = SharedModel(crawl, "threshold")
        self.scores_key = crawl.key("threshold", "scores")
        self.unsent: list[float] = []  # log10 of non-zero scores not yet in Redis
        self.unsent_zeros = 0
        self.shared_seen = 0  # non-zero scores over all workers, when last sent
        self.tried_on = 0  # the count at this worker's last fit that could not be made
        self.sent = 0.0
        self.adopted = 0  # estimates taken from another worker

    def add(self, score: float) -> bool:
        if score <= 0:
            self.zeros += 1
            self.unsent_zeros += 1
        else:
            self.unsent.append(math.log10(max(score, FLOOR)))
            self.seen = self.shared_seen + len(self.unsent)
        if time.monotonic() - self.sent >= SEND_INTERVAL:
            self.send()
        return self._due() and self.fit()

    def _due(self) -> bool:
        last = max(self.fitted_on, self.tried_on)
        return self.seen >= max(self.early_scores, (1 + self.refit_growth) * last)

    def send(self) -> None:
        """This worker's scores into the shared sample; the counts over all workers back."""
        pipe = self.crawl.server.pipeline(transaction=True)
        if self.unsent:
            pipe.rpush(self.scores_key, *(f"{v:.5f}" for v in self.unsent))
            pipe.ltrim(self.scores_key, -self.max_scores, -1)
        pipe.incrby(self.crawl.key("threshold", "zeros"), self.unsent_zeros)
        pipe.incrby(self.crawl.key("threshold", "seen"), len(self.unsent))
        *_, zeros, seen = pipe.execute()
        self.zeros, self.shared_seen = int(zeros), int(seen)
        self.seen = self.shared_seen
        self.unsent.clear()
        self.unsent_zeros = 0
        self.sent = time.monotonic()

    def fit(self) -> bool:
        """The published estimate while it is not due again (adopted if another worker's); else
        estimated here on the shared sample and published (one worker at a time)."""
        self.send()
        if self._take_published():
            return True
        with self.model.fitting() as mine:
            if not mine:
                return False
            self.sample = [float(v) for v in self.crawl.server.lrange(self.scores_key, 0, -1)]
            if not super().fit():
                self.tried_on = self.seen
                return False
            state = {"params": self._params, "history": self.history, "stable": self.stable}
            self.model.publish(self.fitted_on, json.dumps(state).encode())
            self.sample = []  # the shared list is the sample; this copy is not needed again
            return True

    def _take_published(self) -> bool:
        """True when this worker now holds the published estimate (taken if another worker's),
        and it is not due a refit."""
        taken = to_adopt(self.model, self.fitted_on, self.seen, self.refit_growth)
        if taken is None:
            return False
        fitted_on, payload = taken
        if payload is None:
            return True  # this worker's estimate is the published one
        state = json.loads(payload)
        self._params = tuple(state["params"])
        self.threshold = self._midpoint()
        self.history = state["history"]
        self.stable = self.stable or state["stable"]
        self.fitted_on = fitted_on
        self.adopted += 1
        return True

    def state(self) -> dict:
        return {**super().state(), "adopted": self.adopted}


def to_adopt(model: SharedModel, own: int, seen: int, growth: float) -> tuple | None:
    """What a worker whose model was fitted on `own` examples should hold of the published
    one, at `seen`: None when nothing (none published, or older than its own, or due a refit),
    (fitted on, None) when it holds it already, (fitted on, payload) to take."""
    fitted_on = model.version()
    if fitted_on is None or fitted_on < own or seen >= (1 + growth) * fitted_on:
        return None
    if fitted_on == own:
        return fitted_on, None
    published = model.published()
    if published is None or published[0] < fitted_on:
        return None
    return published


def encode_example(indices: np.ndarray, score: float, label: bool | None) -> bytes:
    flag = -1 if label is None else int(label)
    return _EXAMPLE.pack(score, flag) + indices.astype("<i4").tobytes()


def decode_example(raw: bytes) -> tuple[np.ndarray, float, bool | None]:
    score, flag = _EXAMPLE.unpack_from(raw)
    indices = np.frombuffer(raw, dtype="<i4", offset=_EXAMPLE.size).astype(np.int32)
    return indices, score, None if flag < 0 else bool(flag)


class SharedPageClassifier(PageClassifier):
    """The page classifier fitted on every worker's examples, by one worker at a time."""

    def __init__(self, crawl: SharedCrawl, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.crawl = crawl
        self.model = SharedModel(crawl, "pages")
        self.examples_key = crawl.key("pages", "examples")
        self.window = self.examples.maxlen or 3000
        self.unsent: list[bytes] = []
        self.shared_seen = 0
        self.tried_on = 0
        self.sent = 0.0
        self.adopted = 0  # models taken from another worker

    def add(self, terms, score: float, label=None) -> None:
        self.unsent.append(encode_example(as_indices(terms), score, label))
        self.seen = self.shared_seen + len(self.unsent)
        if time.monotonic() - self.sent >= SEND_INTERVAL:
            self.send()

    def due(self) -> bool:
        return self.seen >= (1 + self.refit_growth) * max(self.fitted_on, self.tried_on, 10)

    def send(self) -> None:
        """This worker's examples into the shared window; the count over all workers back."""
        pipe = self.crawl.server.pipeline(transaction=True)
        if self.unsent:
            pipe.rpush(self.examples_key, *self.unsent)
            pipe.ltrim(self.examples_key, -self.window, -1)
        pipe.incrby(self.crawl.key("pages", "seen"), len(self.unsent))
        self.shared_seen = self.seen = int(pipe.execute()[-1])
        self.unsent.clear()
        self.sent = time.monotonic()

    def fit(self, confident: Callable[[float], bool | None]) -> bool:
        """The published model while it is not due again (adopted if another worker's); else
        fitted here on the shared window (labels from `confident`, which follows this worker's
        η) and published."""
        self.send()
        if self._take_published():
            return True
        with self.model.fitting() as mine:
            if not mine:
                return False
            self.examples.clear()
            shared = self.crawl.server.lrange(self.examples_key, 0, -1)
            self.examples.extend(map(decode_example, shared))
            fitted = super().fit(confident)
            self.examples.clear()  # the shared list is the window
            if not fitted:
                self.tried_on = self.seen
                return False
            nonzero = np.flatnonzero(self.weights).astype("<i4")
            payload = (
                _WEIGHTS.pack(self.bias, len(nonzero))
                + nonzero.tobytes()
                + self.weights[nonzero].astype("<f4").tobytes()
            )
            self.model.publish(self.fitted_on, payload)
            return True

    def _take_published(self) -> bool:
        """True when this worker now holds the published model (taken if another worker's),
        and it is not due a refit."""
        taken = to_adopt(self.model, self.fitted_on, self.seen, self.refit_growth)
        if taken is None:
            return False
        fitted_on, payload = taken
        if payload is None:
            return True  # this worker's model is the published one
        bias, count = _WEIGHTS.unpack_from(payload)
        start = _WEIGHTS.size
        indices = np.frombuffer(payload, dtype="<i4", count=count, offset=start)
        values = np.frombuffer(payload, dtype="<f4", count=count, offset=start + 4 * count)
        weights = np.zeros(N_FEATURES, np.float32)
        weights[indices] = values
        self.weights, self.bias, self.fitted_on = weights, bias, fitted_on
        self.adopted += 1
        return True
