"""Candidate terms: the thesaurus, search-result mining, the vocabulary bootstrap."""

from __future__ import annotations

from tests.relevance.test_scorer import KEYWORDS
from topiccrawler.relevance.expansion import mined_candidates, thesaurus_candidates
from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.thesaurus import synonyms_of
from topiccrawler.terms.collect import bootstrap_candidates

# Result pages for 偷税, written for this test.
RESULTS = [
    "税务稽查部门查处偷税案件，涉案企业隐匿收入，被追缴税款并处罚款。稽查人员调取账簿。",
    "某公司通过隐匿收入偷税，稽查局依法追缴税款、加收滞纳金。",
    "稽查局公布典型案例：隐匿收入、虚假申报，追缴税款三百万元。",
    "一家餐馆老板谈生意经。",
]


def test_cilin_synonym_groups():
    assert {"逃税", "漏税"} <= synonyms_of("偷税")
    assert synonyms_of("没有这个词") == frozenset()


def test_thesaurus_candidates_are_new_words_for_library_concepts():
    library = ConceptLibrary.extended(KEYWORDS)
    candidates = thesaurus_candidates(library)
    by_word = {c.word: c for c in candidates}
    assert by_word["逃税"].concept == "偷税" and by_word["逃税"].term_class == "judgement_words"
    assert all(c.provenance == "cilin" and c.word not in library.words for c in candidates)


def test_mining_ranks_words_shared_by_the_result_pages():
    library = ConceptLibrary.extended(KEYWORDS)
    candidates = mined_candidates(library, "偷税", RESULTS, top_n=5)
    words = [c.word for c in candidates]
    assert words[:3] and set(words[:3]) <= {"隐匿", "收入", "追缴", "税款", "稽查局", "稽查"}
    assert "生意经" not in words  # on one page only
    assert "偷税" not in words and "记者" not in words  # library and noise words are out
    assert all(c.concept == "偷税" and c.provenance == "search:偷税" for c in candidates)
    assert candidates == sorted(candidates, key=lambda c: -c.score)
    assert mined_candidates(library, "偷税", []) == []


def test_bootstrap_counts_content_words_once_per_page():
    library = ConceptLibrary.static(KEYWORDS)
    candidates = bootstrap_candidates(library, RESULTS + ["税款 税款 税款"], "bootstrap:x")
    counts = {c.word: c.score for c in candidates}
    assert counts["税款"] == 4.0  # four pages, however often on each
    assert "并" not in counts and "三百万" not in counts and "偷税" not in counts
    assert all(c.concept == c.word and c.provenance == "bootstrap:x" for c in candidates)
