"""One tokenizer for relevance and dedup: jieba for Chinese (with the topic's terms added to its
dictionary, as the seeding paper §4.1 does), word runs for other scripts, NFKC folding and
lower case, stop words and punctuation removed.

The segmenter is jieba-rs through `rjieba`: the same dictionary and algorithm as Python jieba,
the same cuts, about 35 times faster (1.2 ms against 44 ms for a 5,000-character article), which
is what lets relevance scoring keep up with the crawl.

>>> Tokenizer(["华社"]).tokens("新华侨涌入：为韩国华社带来新希望")
['新', '华侨', '涌入', '韩国', '华社', '带来', '新', '希望']
"""

from __future__ import annotations

import re
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable
from importlib.util import find_spec
from pathlib import Path

import rjieba

# Chinese function words and English stop words: they carry no topic.
STOP_WORDS = frozenset(
    """的 了 和 与 及 或 在 是 为 对 把 被 从 向 于 以 之 其 而 并 等 也 都 就 将 还 又 这 那 有 个 着
    上 下 中 不 没 要 会 能 可 让 给 到 说 吗 呢 吧 啊 我 你 他 她 它 们 此 该 各 每 所 由 因 但 则 若
    a an the of to in on for and or is are was were be by with as at from that this it its""".split()
)  # fmt: skip
_NOT_WORD = re.compile(r"[\W_]+")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


# Segmenters by the extra words added to them: a crawl's scorer, dedup and briefing each make
# a Tokenizer, and a jieba dictionary costs about 25 MB and 0.13 s of CPU to load. Tokenizers
# with the same words (in any order) share one; the few most recent stay loaded for the next.
# The words go in sorted: the order of additions changed no cut of 4,000 news articles with
# any of the project's topics, in file order, sorted or reversed.
_SEGMENTERS: OrderedDict[tuple[str, ...], rjieba.Jieba] = OrderedDict()
SEGMENTERS_KEPT = 4


def _segmenter(words: tuple[str, ...]) -> rjieba.Jieba:
    """A segmenter with `words` (folded Chinese words, sorted, each once) added, shared by
    every caller."""
    segmenter = _SEGMENTERS.get(words)
    if segmenter is None:
        segmenter = rjieba.Jieba()
        for word in words:
            segmenter.add_word(word, None, None)
        _SEGMENTERS[words] = segmenter
        while len(_SEGMENTERS) > SEGMENTERS_KEPT:
            _SEGMENTERS.popitem(last=False)  # its Tokenizers keep it as long as they live
    else:
        _SEGMENTERS.move_to_end(words)
    return segmenter


class Tokenizer:
    """A jieba segmenter with extra words (the jieba module's shared one is left alone):
    one segmenter for Tokenizers made with the same words, never added to after."""

    def __init__(self, words: Iterable[str] = (), stop_words: frozenset[str] = STOP_WORDS):
        self.stop_words = stop_words
        chinese = (unicodedata.normalize("NFKC", w).lower() for w in words if _HAN.search(w))
        self._jieba = _segmenter(tuple(sorted(set(chinese))))

    def tokens(self, text: str | None) -> list[str]:
        stop_words = self.stop_words
        return [t for t in self.segments(text) if t != " " and t not in stop_words]

    def segments(self, text: str | None, hmm: bool = True) -> list[str]:
        """The segmenter's output, folded, with spaces and stop words still in (for callers
        that count first and drop those from the counts: cheaper on long texts). `hmm` False
        skips jieba's guessing of words missing from its dictionary (runs of single characters
        stay single): a tenth faster."""
        if not text:
            return []
        # Punctuation and white space become one space, which the segmenter returns as a
        # token of its own: one C-level pass instead of a test per token.
        return self._jieba.cut(_fold(text), hmm)

    def search_segments(self, text: str | None) -> list[str]:
        """Like `segments`, with the dictionary words inside a long word given after it too
        (jieba's search mode: 个人所得税 → 个人 所得 所得税 个人所得税), so that a search for
        所得税 finds the text that says 个人所得税."""
        if not text:
            return []
        return self._jieba.cut_for_search(_fold(text), True)

    def tagged(self, text: str | None) -> list[tuple[str, str]]:
        """(word, part-of-speech tag) pairs, jieba's tag set, white space and punctuation out."""
        if not text:
            return []
        text = _fold(text)
        return [(w, t) for w, t in self._jieba.tag(text) if w.strip()]


def _fold(text: str) -> str:
    """Punctuation and white space to one space, NFKC (full-width letters and digits), lower
    case. The quick check spares the NFKC pass on text that is already normal."""
    text = _NOT_WORD.sub(" ", text)
    if not unicodedata.is_normalized("NFKC", text):
        text = _NOT_WORD.sub(" ", unicodedata.normalize("NFKC", text))
    return text.lower()


def jieba_data(name: str) -> Path:
    """A data file of the jieba package (its dictionary, its IDF table), found without
    importing jieba: its import loads pkg_resources, a quarter of a second at every start."""
    return Path(find_spec("jieba").origin).parent / name
