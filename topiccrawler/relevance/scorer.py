"""Page relevance to a topic (SPEC §6, the extended-library paper §3):

    sim(page, T) = Σ_block λ_block · cos(TF-IDF vector of the block, topic vector)

Blocks are the page's title, body, navigation, anchor texts and other key tags; λ_block is the
block's impact factor over the total impact of the blocks the page has (a page without a
navigation bar is not marked down for it). In each block, words of the library are first
replaced by their concept; weights are term frequency × inverse document frequency from a
background corpus (jieba's IDF table, about 270,000 words from a large Chinese corpus; words it
lacks get its median), and the cosine's norms make them independent of the block's length. The
topic vector gives each concept the weight 1.

Every score comes with its reasons (`Relevance.detail`): each block's weight and score, and the
concepts that contributed, with the words that stood for them.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cache
from itertools import repeat
from operator import mul

from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.tokenizer import Tokenizer, jieba_data

# Impact factors of the blocks (the paper: title and body weigh most, navigation least).
BLOCK_IMPACT: dict[str, float] = {
    "title": 3.0,
    "body": 4.0,
    "anchors": 1.0,
    "other": 1.0,
    "navigation": 0.5,
}
TOP_TERMS = 10  # concepts kept in a score's detail


@cache
def background_idf() -> tuple[dict[str, float], float]:
    """jieba's IDF table (shipped with the package, read once) and its median for other words."""
    text = jieba_data("analyse/idf.txt").read_text(encoding="utf-8")
    fields = text.split()
    if len(fields) == 2 * text.count("\n"):  # a word and its value a line: one split
        table = dict(zip(fields[0::2], map(float, fields[1::2]), strict=True))
    else:
        pairs = [line.rpartition(" ") for line in text.splitlines()]
        table = {word: float(value) for word, _, value in pairs if word}
    return table, statistics.median(table.values())


@dataclass
class Relevance:
    score: float
    blocks: dict[str, dict[str, float]] = field(default_factory=dict)  # block → weight, score
    terms: dict[str, float] = field(default_factory=dict)  # concept → share of the score
    words: dict[str, list[str]] = field(default_factory=dict)  # concept → words found for it

    @property
    def detail(self) -> dict:
        """What is stored with the page, so a user can see why it was kept or dropped."""
        return {
            "score": round(self.score, 6),
            "blocks": self.blocks,
            "terms": self.terms,
            "words": self.words,
        }


class RelevanceScorer:
    def __init__(
        self,
        library: ConceptLibrary,
        tokenizer: Tokenizer | None = None,
        impact: dict[str, float] | None = None,
    ):
        self.library = library
        self.tokenizer = tokenizer or Tokenizer(library.words)
        self.impact = dict(BLOCK_IMPACT if impact is None else impact)
        self.idf, self.default_idf = background_idf()
        # Library words as token sequences: a word the segmenter still splits (an English
        # phrase, 出口退(免)税) is matched as a run of tokens.
        self.phrases: dict[tuple[str, ...], tuple[str, str]] = {}
        for word, concept in library.words.items():
            tokens = tuple(self.tokenizer.tokens(word))
            if tokens:
                self.phrases.setdefault(tokens, (concept, word))
        self.longest = max((len(p) for p in self.phrases), default=1)
        self.long_firsts = {p[0] for p in self.phrases if len(p) > 1}
        self.single_words = {p[0] for p in self.phrases if len(p) == 1}
        self.topic_norm = math.sqrt(len(library.concepts)) or 1.0
        self.dropped = self.tokenizer.stop_words | {" "}  # counted, then removed

    def concepts(self, tokens: list[str]) -> tuple[Counter, list[tuple[str, str]]]:
        """Token counts with library words replaced by their concept (longest match first),
        and the (concept, word) pairs replaced. One-token words are swapped in the counts;
        only where a longer word can start is the token sequence looked at."""
        return self._replace(Counter(tokens), lambda: tokens)

    def _replace(self, counts: Counter, sequence) -> tuple[Counter, list[tuple[str, str]]]:
        found: list[tuple[str, str]] = []
        long_starts = self.long_firsts.intersection(counts)
        if long_starts:
            tokens = sequence()
            end = -1  # a match's last position: starts inside it are skipped
            for i in [i for i, token in enumerate(tokens) if token in long_starts]:
                if i <= end:
                    continue
                for n in range(min(self.longest, len(tokens) - i), 1, -1):
                    hit = self.phrases.get(tuple(tokens[i : i + n]))
                    if hit is not None:
                        counts.subtract(tokens[i : i + n])
                        counts[hit[0]] += 1
                        found.append(hit)
                        end = i + n - 1
                        break
        for token in self.single_words.intersection(counts):
            n = counts[token]
            if n > 0:
                concept, word = self.phrases[(token,)]
                if concept != token:
                    del counts[token]
                    counts[concept] += n
                found.extend([(concept, word)] * n)
        return counts, found

    def block_score(self, text: str) -> tuple[float, dict[str, float], list[tuple[str, str]]]:
        """cos(block, topic), each concept's part of it, and the words replaced."""
        # Without HMM: the library's words are in the dictionary, and a word jieba would guess
        # is one its IDF table lacks anyway (it gets the median): same scores, a tenth faster.
        segments = self.tokenizer.segments(text, hmm=False)
        counts = Counter(segments)
        for dropped in self.dropped.intersection(counts):
            del counts[dropped]
        counts, found = self._replace(
            counts, lambda: [t for t in segments if t not in self.dropped]
        )
        if not counts:
            return 0.0, {}, []
        # The block's norm, in C-level loops: a page has a thousand distinct words. Sums are
        # exact (fsum): the order of words found through sets follows the process's string
        # hashing, and a page scored in an extraction worker must score as it would here.
        weights = list(
            map(mul, counts.values(), map(self.idf.get, counts, repeat(self.default_idf)))
        )
        norm = math.sqrt(math.fsum(map(mul, weights, weights)))
        if not norm:
            return 0.0, {}, []
        parts = {
            concept: counts[concept]
            * self.idf.get(concept, self.default_idf)
            / (norm * self.topic_norm)
            for concept in {c for c, _ in found}
        }
        return math.fsum(parts.values()), parts, found

    def score(self, blocks: dict[str, str | None]) -> Relevance:
        present = {b: t for b, t in blocks.items() if t and self.impact.get(b, 0) > 0}
        total = sum(self.impact[b] for b in present)
        if not total:
            return Relevance(0.0)
        result = Relevance(0.0)
        terms: dict[str, float] = defaultdict(float)
        words: dict[str, set[str]] = defaultdict(set)
        for block, text in present.items():
            weight = self.impact[block] / total
            cosine, parts, found = self.block_score(text)
            result.score += weight * cosine
            result.blocks[block] = {"weight": round(weight, 4), "score": round(cosine, 6)}
            for concept, part in parts.items():
                terms[concept] += weight * part
            for concept, word in found:
                words[concept].add(word)
        top = sorted(terms.items(), key=lambda kv: -kv[1])[:TOP_TERMS]
        result.terms = {c: round(v, 6) for c, v in top}
        result.words = {c: sorted(words[c]) for c, _ in top}
        return result
