"""What the full-text index is given: words, not characters.

Neither FTS5's tokenizers nor PostgreSQL's parsers split Chinese into words, so the text is
segmented here, when it is written and when a query is read, by the project's own tokenizer
(jieba-rs, the relevance scorer's segmenter without any topic's extra words: a page is indexed
the same way whatever topic stored it), in jieba's search mode: a long word is followed by the
dictionary words inside it, so 所得税 finds 个人所得税. A query is split the same way, so a word
the user types becomes the same run of index words as it makes in the text. Latin words are folded (NFKC, lower case) and stemmed
with the Snowball English stemmer, so "taxes" finds "tax". Stop words are left out on both
sides, so a phrase with "of" in it still matches the words around it. The store's own
tokenizer then only has to split on spaces: FTS5's `unicode61`, PostgreSQL's `simple`.
"""

from __future__ import annotations

import re
from functools import lru_cache

import Stemmer

from topiccrawler.relevance.tokenizer import STOP_WORDS, Tokenizer

_LATIN_WORD = re.compile(r"[a-z]+")
MAX_WORD_CHARS = 60  # longer runs (hashes, base64, URLs' innards) are not words anyone searches
_STEMMER = Stemmer.Stemmer("english")


@lru_cache(maxsize=1)
def _tokenizer() -> Tokenizer:
    return Tokenizer()


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    return _STEMMER.stemWord(word)


def latin_stem(word: str) -> str:
    """A Latin word as the index holds it: folded and stemmed."""
    return _stem(word.lower())


def index_words(text: str | None) -> list[str]:
    """The words of `text` as the index holds them, in order (phrases need the order)."""
    words = []
    for segment in _tokenizer().search_segments(text):
        if segment == " " or segment in STOP_WORDS or len(segment) > MAX_WORD_CHARS:
            continue
        words.append(_stem(segment) if _LATIN_WORD.fullmatch(segment) else segment)
    return words


def index_text(text: str | None) -> str:
    """`index_words` joined by spaces: what the store's space-splitting tokenizer reads."""
    return " ".join(index_words(text))
