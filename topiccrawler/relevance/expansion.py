"""Candidate terms for the extended library (SPEC §6, DTFL → ETFL), two ways:

1. the thesaurus: Cilin synonyms of each library term;
2. search-result mining: for a static term, the bodies of its top-L search results, stop words
   and topic noise words removed, each word weighted by augmented TF × IDF,
   W = (0.5 + 0.5 · f / f_max) · idf, summed over the pages; the top n are candidates.

Candidates only ever go to the review queue: a person accepts, edits, classifies or rejects
them (`topiccrawler terms review`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from topiccrawler.relevance.library import ConceptLibrary, fold
from topiccrawler.relevance.scorer import background_idf
from topiccrawler.relevance.thesaurus import synonyms_of
from topiccrawler.relevance.tokenizer import Tokenizer

TOP_L = 10  # result pages read per term
TOP_N = 10  # candidates kept per term
MIN_PAGES = 2  # a word on one result page only is that page's, not the term's
# Words on every kind of page: they never describe a topic.
NOISE_WORDS = frozenset(
    """记者 报道 表示 认为 目前 今年 去年 日前 近日 相关 进行 工作 问题 情况 没有 已经 可以 我们 他们
    自己 一个 一些 这个 那个 如果 因为 所以 但是 还是 通过 以及 其中 今天 昨天 时间 发布 新闻 来源
    编辑 责任编辑 网友 评论 点击 图片 视频 首页 更多 中国 全国 一是 二是 三是""".split()
)  # fmt: skip


@dataclass(frozen=True)
class Candidate:
    word: str
    concept: str  # the library term it would stand for
    term_class: str
    provenance: str  # "cilin" or "search:<term>"
    score: float


def thesaurus_candidates(library: ConceptLibrary) -> list[Candidate]:
    """Cilin synonyms of the library's concepts that the library does not have yet."""
    found = []
    for concept, term_class in library.concept_class.items():
        for word in sorted(synonyms_of(concept)):
            if len(word) >= 2 and fold(word) not in library.words:
                found.append(Candidate(word, concept, term_class, "cilin", 1.0))
    return found


def mined_candidates(
    library: ConceptLibrary,
    term: str,
    pages: Iterable[str],
    tokenizer: Tokenizer | None = None,
    top_n: int = TOP_N,
    min_pages: int = MIN_PAGES,
) -> list[Candidate]:
    """The top words of a term's result pages by summed augmented TF × IDF."""
    concept = fold(term)
    tokenizer = tokenizer or Tokenizer(library.words)
    idf, default = background_idf()
    weights: dict[str, float] = defaultdict(float)
    seen_on: Counter = Counter()
    for text in pages:
        counts = Counter(
            t
            for t in tokenizer.tokens(text)
            if len(t) >= 2 and not t.isdigit() and t not in NOISE_WORDS and t not in library.words
        )
        if not counts:
            continue
        f_max = max(counts.values())
        for word, f in counts.items():
            weights[word] += (0.5 + 0.5 * f / f_max) * idf.get(word, default)
            seen_on[word] += 1
    ranked = sorted(
        ((w, s) for w, s in weights.items() if seen_on[w] >= min_pages),
        key=lambda ws: (-ws[1], ws[0]),
    )
    term_class = library.concept_class.get(concept, "domain_terms")
    return [
        Candidate(word, concept, term_class, f"search:{term}", round(score, 4))
        for word, score in ranked[:top_n]
    ]
