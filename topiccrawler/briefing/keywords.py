"""Keywords: TF-IDF over the crawl's own tokenizer (jieba-rs for Chinese, word runs for other
scripts), with jieba's IDF table as the background corpus and the topic's library terms weighted
up, so a briefing on a topic names the topic's words before merely frequent ones."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from topiccrawler.relevance.scorer import background_idf
from topiccrawler.relevance.tokenizer import Tokenizer

TOPIC_BOOST = 2.0  # a library term's weight, × its TF-IDF
# English words jieba's table does not know get its median IDF: common ones would crowd the
# list, so these are out (scikit-learn's list plus words news pages repeat on every page).
STOP_WORDS = frozenset(ENGLISH_STOP_WORDS) | frozenset(
    "said says say also would could one two new year years time just like".split()
)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_LETTERS = re.compile(r"^[^\W\d_]{3,}$")


def is_keyword(word: str) -> bool:
    """Chinese words of two or more characters; other words of three or more letters that are
    not stop words; never numbers."""
    if _HAN.search(word):
        return len(word) >= 2
    return bool(_LETTERS.match(word)) and word not in STOP_WORDS


def keywords(
    text: str,
    tokenizer: Tokenizer,
    topic_terms: Iterable[str] = (),
    k: int | None = 10,
    topic_boost: float = TOPIC_BOOST,
) -> list[tuple[str, float]]:
    """The `k` words of `text` with the highest TF-IDF (all when k is None), each with its
    weight normalised so the first is 1.0; ties in alphabetical order."""
    counts = Counter(word for word in tokenizer.tokens(text) if is_keyword(word))
    if not counts:
        return []
    idf, median = background_idf()
    boosted = {term.lower() for term in topic_terms}
    scores = {
        word: count * idf.get(word, median) * (topic_boost if word in boosted else 1.0)
        for word, count in counts.items()
    }
    ranked = sorted(scores.items(), key=lambda pair: (-pair[1], pair[0]))
    if k is not None:
        ranked = ranked[:k]
    top = ranked[0][1]
    return [(word, round(score / top, 4)) for word, score in ranked]
