"""An online link classifier: what the crawl has judged so far teaches it which unfetched links
and search hits lead to relevant pages (ACHE's online learning, in small).

Hand-set weights read a link's anchor against the topic library, and an anchor without a word of
the library is no evidence either way. But after a few dozen judged pages the crawl knows much
more: the words of the titles and anchors that led to relevant pages and to irrelevant ones, the
URL words and the sections where each kind lives. Every judged page becomes training examples,

- the link (or hit) that led to it: its text's words and Chinese character pairs, its URL's
  words, its block, the parent page's relevance, its site and sections;
- its own title with the same place features (an anchor to a page mostly reads its title),

labelled by the page's verdict. A logistic regression (scikit-learn, class-balanced) is fitted
again on the most recent examples each time they have grown by a share (`refit_growth`), so
refits get rarer as the crawl goes on (a fit of the full window of 5,000 examples takes about
0.3 s, a third of it before the matrix was built with numpy instead of DictVectorizer; the window holds about 14 MB, so memory stays bounded however long the crawl); scoring a
candidate is a dictionary lookup per feature (about 12 µs, 60–150 µs with building its
features), cheap enough for every link of every page.
"""

from __future__ import annotations

import math
import re
import sys
import warnings
from collections import OrderedDict, deque
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import chain, repeat
from operator import mul
from urllib.parse import unquote, urlsplit

from topiccrawler.frontier.learning import UrlMemo
from topiccrawler.relevance.tokenizer import Tokenizer

CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,}")
URL_WORD = re.compile(r"[^\W\d_]{2,}")
TEXT_CACHE = 20_000  # anchors and hit texts whose features (and scores) are remembered


class LinkClassifier:
    """P(relevant | what is known of a link before fetching it), learnt during the crawl."""

    def __init__(
        self,
        tokenizer: Tokenizer | None = None,
        min_examples: int = 20,
        min_per_class: int = 3,
        refit_growth: float = 0.2,
        window: int = 5000,
        regularization: float = 1.0,
    ):
        self.tokenizer = tokenizer or Tokenizer()
        # A text's features, remembered: anchors repeat across pages (menus, "more"), and a
        # queued link is scored again at every pop and rescoring; segmenting its anchor each
        # time was most of a rescoring's cost.
        self._text_features = lru_cache(maxsize=TEXT_CACHE)(self._segment_features)
        # scikit-learn's model and solver (about half a second) are loaded as the crawl opens,
        # not by the first refit in the middle of it.
        import sklearn.linear_model  # noqa: F401

        self.min_examples = min_examples
        self.min_per_class = min_per_class
        self.refit_growth = refit_growth
        # [features, label]: a list, so that a page's label can be replaced (`relabel`)
        self.examples: deque[list] = deque(maxlen=window)
        # the examples of pages whose verdict may still change, by the page's key (bounded
        # like the window: the oldest are let go)
        self.keyed: OrderedDict[str, list[list]] = OrderedDict()
        self.regularization = regularization
        self.weights: dict[str, float] | None = None  # None until first fitted
        self.bias = 0.0
        self.fitted_on = 0  # examples seen at the last fit
        self.seen = 0
        self.fits = 0

    @property
    def ready(self) -> bool:
        return self.weights is not None

    # --- features -------------------------------------------------------------------------------
    def text_features(self, text: str) -> Iterator[str]:
        """Words, and the pairs of Chinese characters (jieba glues 外汇局 into one word; the
        pair 外汇 still matches)."""
        return iter(self._text_features(text))

    def _segment_features(self, text: str) -> tuple[str, ...]:
        """text_features, computed (`_text_features` remembers them per text)."""
        stop_words = self.tokenizer.stop_words
        found = [
            f"w:{word}"
            for word in set(self.tokenizer.segments(text, hmm=False))
            if word.strip() and word not in stop_words
        ]
        for run in CJK_RUN.findall(text or ""):
            found.extend(f"c:{run[i : i + 2]}" for i in range(len(run) - 1))
        # Interned: remembered texts share their words' strings (20,000 anchors: 35 -> 7 MB).
        return tuple(map(sys.intern, found))

    @staticmethod
    def place_features(url: str) -> Iterator[str]:
        """URL words, the site and its first two path levels (sections and subsections)."""
        return iter(place_features_memo(url))

    def features(
        self, url: str, text: str, kind: str, block: str = "content", context: float = 0.0
    ) -> dict[str, float]:
        """A candidate's features: `kind` "link" or "hit", `context` the parent page's relevance
        (links) or the query's yield (hits), in [0, 1]."""
        found = dict.fromkeys(self._text_features(text), 1.0)
        found.update(dict.fromkeys(place_features_memo(url), 1.0))
        found[f"kind:{kind}"] = 1.0
        found[f"block:{block}"] = 1.0
        found[f"context:{kind}"] = context
        if not text:
            found["text:none"] = 1.0
        return found

    # --- learning -------------------------------------------------------------------------------
    def learn(
        self, examples: Iterable[dict[str, float]], relevant: bool, key: str | None = None
    ) -> bool:
        """Add a judged page's examples; refit when they have grown enough. True if refitted.
        `key`: the page's, when its verdict is provisional (`relabel` may change it)."""
        added = [[features, relevant] for features in examples]
        self.examples.extend(added)
        self.seen += len(added)
        if key is not None:
            self.keyed[key] = added
            while len(self.keyed) > (self.examples.maxlen or len(self.keyed)):
                self.keyed.popitem(last=False)
        due = self.seen >= max(self.min_examples, (1 + self.refit_growth) * self.fitted_on)
        return due and self.fit()

    def relabel(self, changed: dict[str, bool]) -> int:
        """Pages whose provisional verdict changed: their examples' label replaced (not
        added again). Returns how many pages' examples changed; the caller refits."""
        relabelled = 0
        for key, relevant in changed.items():
            records = self.keyed.get(key)
            if records and records[0][1] != relevant:
                for record in records:
                    record[1] = relevant
                relabelled += 1
        return relabelled

    def fit(self) -> bool:
        labels = [relevant for _, relevant in self.examples]
        positives = sum(labels)
        if min(positives, len(labels) - positives) < self.min_per_class:
            return False  # one class only: nothing to tell apart yet
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.linear_model import LogisticRegression

        names, matrix = _vectorize([features for features, _ in self.examples])
        model = LogisticRegression(C=self.regularization, class_weight="balanced", max_iter=200)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)  # a rough fit still ranks
            model.fit(matrix, labels)
        self.weights = {
            name: float(weight)
            for name, weight in zip(names, model.coef_[0], strict=True)
            if weight
        }
        self.bias = float(model.intercept_[0])
        self.fitted_on = self.seen
        self.fits += 1
        return True

    def probability(self, features: dict[str, float]) -> float | None:
        """P(relevant) for a candidate; None before the first fit."""
        weights = self.weights
        if weights is None:
            return None
        # The same sum, in the same order, in C: map instead of a generator (3x faster; a
        # rescoring scores every queued request).
        z = self.bias + sum(map(mul, map(weights.get, features, repeat(0.0)), features.values()))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def _url_place_features(url: str) -> tuple[str, ...]:
    """LinkClassifier.place_features; remembered (`place_features_memo`): a queued URL is scored
    again at every rescoring, and its place never changes."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    found = [f"site:{host}"]
    segments = [s for s in parts.path.split("/") if s][:-1]  # folders, not the page itself
    for depth in (1, 2):
        if len(segments) >= depth:
            found.append(f"sec{depth}:{host}/{'/'.join(segments[:depth])}")
    found.extend(f"u:{word}" for word in set(URL_WORD.findall(unquote(parts.path).lower())))
    return tuple(found)


place_features_memo = UrlMemo(_url_place_features, 100_000)


def _vectorize(rows: list[dict[str, float]]):
    """The sparse matrix scikit-learn's DictVectorizer makes of `rows` (columns in sorted name
    order), built with numpy in a few C-level passes: two thirds of a refit's time went into
    DictVectorizer's per-value Python loop."""
    import numpy as np
    from scipy import sparse

    names = sorted(set().union(*rows))
    column = {name: i for i, name in enumerate(names)}
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    size = int(lengths.sum())
    indices = np.fromiter(map(column.__getitem__, chain.from_iterable(rows)), np.int64, size)
    values = np.fromiter(
        chain.from_iterable(row.values() for row in rows), dtype=np.float64, count=size
    )
    indptr = np.concatenate(([0], np.cumsum(lengths)))
    matrix = sparse.csr_matrix((values, indices, indptr), shape=(len(rows), len(names)))
    matrix.sort_indices()
    return names, matrix
