"""A page classifier learnt during the crawl from the library's confident verdicts.

The library's score ranks pages well (ROC AUC 0.99 on a real news web) but judges a page only by
the topic's own words: a fund or pension article, long and with few of them per character, scores
near η. The pages the library is sure of, far above η and far below it, say much more: every word
they use. A logistic regression (scikit-learn, class-balanced) on those pages' words, jieba tokens
and Chinese character pairs, hashed into a fixed number of features (bounded memory, and the same
features in every worker), learns the topic's wider vocabulary, and its probability is combined
with the library's for the verdict (`combine`).

It is fitted again on a bounded window of recent examples each time they have grown by a share,
as the frontier's link classifier is. Examples can also come before the first page: the topic
file's `[examples]` (relevant and irrelevant URLs or saved files, as ACHE's training samples).
"""

from __future__ import annotations

import math
import re
import warnings
from collections import Counter, deque
from collections.abc import Callable, Iterable, Sequence
from functools import cache

from topiccrawler.relevance.expansion import Candidate
from topiccrawler.relevance.tokenizer import Tokenizer

CJK_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,}")
N_FEATURES = 2**18  # hashed feature space: 2 MB of weights
MAX_TEXT = 6000  # characters of a body read (the start says what a page is about)
VOCABULARY = 20_000  # words of confident relevant pages remembered, to name the strongest
SELF_TRAINING = ("em", "confident")
EM_ROUNDS = 15  # rounds of expectation-maximisation (it stops sooner when no label changes)
# The naive Bayes model's additive smoothings: the self-training is run with each, and a text is
# relevant when more than half of the runs say so (no one smoothing holds on every topic)
SMOOTHINGS = (0.1, 0.2, 0.5, 1.0)
# A text with fewer distinct terms (words and character pairs) than this is short: a news title
# has 20 to 40, an article of the news testbed 80 or more (1 % under 95)
SHORT_TEXT_TERMS = 60


def self_training_setting(settings) -> str:
    """RELEVANCE_CLASSIFIER_SELF_TRAINING of Scrapy `settings`, checked."""
    value = str(settings.get("RELEVANCE_CLASSIFIER_SELF_TRAINING") or "em").strip().lower()
    if value not in SELF_TRAINING:
        raise ValueError(
            f"RELEVANCE_CLASSIFIER_SELF_TRAINING must be one of {', '.join(SELF_TRAINING)}, "
            f"not {value!r}"
        )
    return value


def logit(probability: float) -> float:
    probability = min(max(probability, 1e-6), 1 - 1e-6)
    return math.log(probability / (1 - probability))


def combine(library: float, classifier: float | None) -> float:
    """The verdict's probability: the two opinions' log-odds averaged (where the library is
    unsure, the words decide; where both are sure, they agree)."""
    if classifier is None:
        return library
    z = 0.5 * logit(library) + 0.5 * logit(classifier)
    return 1.0 / (1.0 + math.exp(-z))


def page_terms(tokenizer: Tokenizer, title: str | None, body: str | None) -> list[str]:
    """A page's features: the distinct words and Chinese character pairs of its title and its
    body's start, sorted."""
    text = f"{title or ''}\n{(body or '')[:MAX_TEXT]}"
    stop_words = tokenizer.stop_words
    found = {
        f"w:{word}"
        for word in tokenizer.segments(text, hmm=False)
        if word.strip() and word not in stop_words
    }
    for run in CJK_RUN.findall(text):
        found.update(f"c:{run[i : i + 2]}" for i in range(len(run) - 1))
    return sorted(found)


@cache
def _feature_hasher():
    from sklearn.feature_extraction import FeatureHasher

    return FeatureHasher(N_FEATURES, input_type="string", alternate_sign=False)


def term_indices(terms: Sequence[str]):
    """Terms' hashed feature indices (int32), sorted and distinct: the same in every process."""
    import numpy as np

    if not terms:
        return np.zeros(0, dtype=np.int32)
    return np.unique(_feature_hasher().transform([terms]).indices).astype(np.int32)


def as_indices(terms):
    """Terms as feature indices: hashed, unless they are indices already (a numpy array)."""
    import numpy as np  # (imported when first needed: the crawl starts sooner)

    return terms if isinstance(terms, np.ndarray) else term_indices(terms)


class PageClassifier:
    """P(relevant | a page's words), learnt from pages the library is sure of."""

    def __init__(
        self,
        tokenizer: Tokenizer | None = None,
        min_per_class: int = 10,
        refit_growth: float = 0.2,
        window: int = 3000,
        regularization: float = 1e5,
        self_training: str = "em",
        smoothings: Sequence[float] = SMOOTHINGS,
    ):
        if self_training not in SELF_TRAINING:
            raise ValueError(f"self_training must be one of {SELF_TRAINING}, not {self_training!r}")
        self.self_training = self_training
        self.smoothings = tuple(smoothings)
        self.tokenizer = tokenizer or Tokenizer()
        self.min_per_class = min_per_class
        self.refit_growth = refit_growth
        self.regularization = regularization
        # Examples as hashed feature indices (int32 arrays), not strings: about 2 KB a page.
        self.examples: deque[tuple[object, bool]] = deque(maxlen=window)
        self.weights = None  # numpy array of N_FEATURES once fitted
        self.bias = 0.0
        self.seen = 0
        self.fitted_on = 0
        self.fits = 0
        self.words: Counter[str] = Counter()  # words of relevant pages, bounded

    @property
    def ready(self) -> bool:
        return self.weights is not None

    # --- features -------------------------------------------------------------------------------
    def terms(self, title: str | None, body: str | None) -> list[str]:
        """Distinct words and Chinese character pairs of the title and the body's start."""
        return page_terms(self.tokenizer, title, body)

    def indices(self, terms: Sequence[str]):
        """The terms' hashed feature indices, sorted and distinct (`term_indices`)."""
        return term_indices(terms)

    # --- learning -------------------------------------------------------------------------------
    def add(self, terms, score: float, label=None) -> None:
        """Remember a judged page (its terms hashed, or their `indices`, and its library
        score); `label` True or False for a page whose verdict is known whatever the score (a
        topic file's example)."""
        self.examples.append((as_indices(terms), score, label))
        self.seen += 1

    def note_relevant(self, terms: Sequence[str]) -> None:
        """Count a relevant page's words (for `strongest`); bounded."""
        self.words.update(t[2:] for t in terms if t.startswith("w:"))
        if len(self.words) > 2 * VOCABULARY:
            self.words = Counter(dict(self.words.most_common(VOCABULARY)))

    def due(self) -> bool:
        return self.seen >= (1 + self.refit_growth) * max(self.fitted_on, 10)

    def fit(self, confident: Callable[[float], bool | None]) -> bool:
        """Fit on the window's pages that are known (examples) or that `confident` (the score's
        verdict where the score is sure) labels; the labels follow η as it moves. With
        `self_training` "em", the labels of short texts are self-trained instead
        (`self_trained_labels`): the score's verdict on them is a start, not an answer."""
        rows, labels, free = [], [], []
        for indices, score, label in self.examples:
            short = label is None and len(indices) < SHORT_TEXT_TERMS
            if label is None:
                label = confident(score)
            rows.append(indices)
            labels.append(label)
            free.append(short and self.self_training == "em")
        sure = [label for label in labels if label is not None]
        positives = sum(sure)
        if min(positives, len(sure) - positives) < self.min_per_class:
            return False
        import numpy as np
        from scipy.sparse import diags
        from sklearn.exceptions import ConvergenceWarning
        from sklearn.linear_model import LogisticRegression

        short = [i for i, f in enumerate(free) if f]
        start = [labels[i] for i in short]
        if min(start.count(True), start.count(False)) >= self.min_per_class:
            # Among the short texts only: a model of long and short texts together would take
            # the length of a topic's pages (long articles, short notices) for their topic.
            relevant = self_trained_labels([rows[i] for i in short], start, self.smoothings)
            for i, label in zip(short, relevant, strict=True):
                labels[i] = bool(label)
        kept = [i for i, label in enumerate(labels) if label is not None]
        rows = [rows[i] for i in kept]
        labels = [labels[i] for i in kept]
        positives = sum(labels)
        if min(positives, len(labels) - positives) < self.min_per_class:
            return False
        # Each page's terms weigh 1 in all (the decision is their mean weight): a long page
        # is not surer for its length, nor a short one (a notice, a thread) less sure.
        lengths = np.array([max(len(r), 1) for r in rows], dtype=np.float64)
        matrix = diags(1 / lengths) @ presence(rows, N_FEATURES)
        model = LogisticRegression(
            C=self.regularization, class_weight="balanced", max_iter=300, solver="liblinear"
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(matrix, labels)
        self.weights = model.coef_[0].astype(np.float32)
        self.bias = float(model.intercept_[0])
        self.fitted_on = self.seen
        self.fits += 1
        return True

    def probability(self, terms) -> float | None:
        """P(relevant) for a page's terms (or their `indices`); None before the first fit."""
        if self.weights is None:
            return None
        indices = as_indices(terms)
        z = self.bias
        if len(indices):
            z += float(self.weights[indices].sum()) / len(indices)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def strongest(self, known: Iterable[str], n: int = 30) -> list[tuple[str, float]]:
        """The words of relevant pages the model leans on most, that `known` (the library)
        lacks: candidates for the library, with their weight."""
        if self.weights is None:
            return []
        known = {w.lower() for w in known}
        scored = []
        for word, count in self.words.most_common(VOCABULARY):
            if count < 3 or word in known or len(word) < 2 or word.isdigit():
                continue
            indices = self.indices([f"w:{word}"])
            weight = float(self.weights[indices[0]]) if len(indices) else 0.0
            if weight > 0:
                scored.append((word, weight))
        scored.sort(key=lambda pair: -pair[1])
        return scored[:n]


def classifier_candidates(classifier: PageClassifier, library, n: int = 30) -> list:
    """The classifier's strongest words the library lacks, as `terms review` candidates: each
    its own concept (the reviewer gives it a class), scored by its weight."""
    return [
        Candidate(word, word, "domain_terms", "classifier", round(weight, 4))
        for word, weight in classifier.strongest(library.words, n)
    ]


def self_trained_labels(rows, labels, smoothings: Sequence[float] = SMOOTHINGS):
    """Whether each of the short texts `rows` (their hashed term indices) is relevant,
    self-trained from their starting `labels`: more than half of the runs of `em_posterior`,
    one for each of `smoothings`, say so. One smoothing alone is fragile: on the dev titles 0.1
    is best for education and draws finance into realty (F1 0.60), 1.0 the reverse; the
    majority of four beats every single one on sports and realty, and was what each topic would
    have been given had the rule been chosen on the other two."""
    votes = sum((em_posterior(rows, labels, a) >= 0.5).astype(int) for a in smoothings)
    return votes * 2 > len(smoothings)


def em_posterior(rows, labels, smoothing: float):
    """P(relevant) of each of the short texts `rows` (their hashed term indices), self-trained
    from their starting `labels` with one `smoothing`.

    A text starts as its label (the score's sure verdict), ½ where there is none. A naive Bayes
    model of the texts' terms (each present or not, additive `smoothing` over the terms seen) is
    fitted on these soft labels; each text's label becomes the model's posterior, and again
    (expectation-maximisation, Nigam et al. 2000) until no text changes side.

    Why for short texts: the score is sure a text with none of the topic's words is off the
    topic, and that a text with one of them belongs to the lower group, but half of a topic's
    titles have none (a match report names teams and players, not "sport") and the one-word
    ones are mostly on the topic. Trained on those verdicts, a classifier learns the words of
    the topic's own texts as off-topic ones; self-trained, the words that come with the topic's
    words (the teams beside "比赛") carry the texts that have only them. Long texts keep the
    score's verdict: a long relevant text nearly always has the topic's words, and on them the
    rounds would draw in neighbouring topics (kept precision 0.94 → 0.48 on the news testbed).
    Nor do they take part in the model: in a crawl the topic's pages are mostly long articles,
    and a model of both would judge a short text by its length (the sandbox's forum pages,
    whose text is their title, were dropped: recall 0.998 → 0.87)."""
    import numpy as np

    matrix = presence(rows, N_FEATURES)
    matrix = matrix[:, np.unique(matrix.indices)]  # the terms the texts use
    posterior = np.array([0.5 if label is None else float(label) for label in labels])
    decided = None
    for _ in range(EM_ROUNDS):
        weights = np.stack([1 - posterior, posterior])  # (2, pages)
        counts = np.asarray(weights @ matrix) + smoothing  # (2, terms)
        log_terms = np.log(counts) - np.log(counts.sum(axis=1, keepdims=True))
        prior = weights.sum(axis=1) + 1.0
        log_odds = matrix @ (log_terms[1] - log_terms[0]) + np.log(prior[1] / prior[0])
        posterior = 1.0 / (1.0 + np.exp(-np.clip(log_odds, -30.0, 30.0)))
        now = posterior >= 0.5
        if decided is not None and np.array_equal(now, decided):
            break
        decided = now
    return posterior


def presence(rows, width: int):
    """The texts `rows` (each its sorted, distinct hashed term indices) as a sparse matrix of
    `width` columns, 1 where a text has the term."""
    import numpy as np
    from scipy.sparse import csr_matrix

    pointers = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=pointers[1:])
    columns = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int32)
    return csr_matrix((np.ones(len(columns)), columns, pointers), shape=(len(rows), width))
