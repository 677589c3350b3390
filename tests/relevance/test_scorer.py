"""The topic library as concepts, and page relevance with its reasons."""

from __future__ import annotations

import pytest

from topiccrawler.relevance.library import ConceptLibrary, Expansion
from topiccrawler.relevance.scorer import RelevanceScorer
from topiccrawler.topics.model import KeywordLibrary, Term

KEYWORDS = KeywordLibrary(
    topic="tax",
    title="税务",
    language="zh",
    threshold=0.04,
    terms=(
        Term("税务局", "subjects", ("税务机关", "国家税务总局")),
        Term("增值税", "domain_terms", ("VAT",)),
        Term("出口退税", "domain_terms", ("出口退(免)税",)),
        Term("偷税", "judgement_words", ("tax evasion",)),
    ),
)
TAX_TEXT = "税务机关近日查处一起偷税案件，涉案企业虚开增值税专用发票，骗取出口退(免)税。"
SPORTS_TEXT = "国足客场逆转取胜，晋级下一阶段比赛，球迷在现场欢呼。"


def test_static_and_extended_libraries():
    static = ConceptLibrary.static(KEYWORDS)
    extended = ConceptLibrary.extended(
        KEYWORDS, [Expansion("税局", "税务局", "cilin"), Expansion("漏税", "不存在的词", "cilin")]
    )
    assert static.words == {
        "税务局": "税务局",
        "增值税": "增值税",
        "出口退税": "出口退税",
        "偷税": "偷税",
    }
    assert extended.concept_of("税务机关") == "税务局" and extended.concept_of("vat") == "增值税"
    assert extended.concept_of("税局") == "税务局" and extended.provenance["税局"] == "cilin"
    assert extended.concept_of("漏税") is None  # an expansion of no library term is ignored
    new = ConceptLibrary.extended(
        KEYWORDS, [Expansion("金税四期", "金税四期", "bootstrap", 3, "domain_terms")]
    )
    assert new.concept_class["金税四期"] == "domain_terms"  # an accepted new term


def test_concept_replacement_counts_synonyms_and_phrases_for_their_term():
    scorer = RelevanceScorer(ConceptLibrary.extended(KEYWORDS))
    counts, found = scorer.concepts(scorer.tokenizer.tokens(TAX_TEXT + " Tax evasion"))
    assert counts["税务局"] == 1 and counts["偷税"] == 2 and counts["出口退税"] == 1
    assert ("偷税", "tax evasion") in found and ("出口退税", "出口退(免)税") in found
    assert "税务机关" not in counts and "evasion" not in +counts


def test_the_extended_library_sees_what_the_static_one_misses():
    static = RelevanceScorer(ConceptLibrary.static(KEYWORDS)).score(
        {"title": "税务机关通报VAT逃避案"}
    )
    extended = RelevanceScorer(ConceptLibrary.extended(KEYWORDS)).score(
        {"title": "税务机关通报VAT逃避案"}
    )
    assert static.score == 0 and extended.score > 0.2


def test_score_weights_blocks_and_gives_reasons():
    scorer = RelevanceScorer(ConceptLibrary.extended(KEYWORDS))
    relevant = scorer.score(
        {"title": "偷税案件查处", "body": TAX_TEXT, "navigation": "首页 体育 娱乐", "anchors": ""}
    )
    other = scorer.score({"title": "国足晋级", "body": SPORTS_TEXT})
    assert other.score == 0 and relevant.score > 0.1
    blocks = relevant.blocks
    assert set(blocks) == {"title", "body", "navigation"}  # an empty block weighs nothing
    assert sum(b["weight"] for b in blocks.values()) == pytest.approx(1.0, abs=1e-3)
    assert blocks["title"]["weight"] == pytest.approx(3 / 7.5, abs=1e-3)
    assert blocks["navigation"]["score"] == 0
    assert sum(relevant.terms.values()) == pytest.approx(relevant.score, rel=1e-3)
    assert relevant.words["税务局"] == ["税务机关"]
    detail = relevant.detail
    assert detail["score"] == pytest.approx(relevant.score) and detail["terms"] == relevant.terms
    assert scorer.score({}).score == 0 and scorer.score({"title": "！！"}).score == 0


def test_scores_do_not_depend_on_repetition_of_a_block():
    scorer = RelevanceScorer(ConceptLibrary.extended(KEYWORDS))
    once = scorer.score({"body": TAX_TEXT}).score
    assert scorer.score({"body": TAX_TEXT * 5}).score == pytest.approx(once)  # length-normalised
    assert 0 < once <= 1


def test_impact_factors_are_settable():
    scorer = RelevanceScorer(ConceptLibrary.extended(KEYWORDS), impact={"title": 1, "body": 0})
    assert set(scorer.score({"title": "偷税", "body": TAX_TEXT}).blocks) == {"title"}


SCORES_IN_A_FRESH_INTERPRETER = """
from tests.relevance.test_scorer import _scores
print(_scores())
"""


def _scores() -> list[str]:
    """Scores of forty made-up pages, each with several of the library's concepts among
    three hundred other words."""
    import random

    scorer = RelevanceScorer(ConceptLibrary.extended(KEYWORDS, []))
    chars = (
        "国家税务总局通报企业虚开发票骗取申报不实经济发展市场监管部门联合开展专项行动查处违法案件"
    )
    terms = [
        "税务局",
        "偷税",
        "增值税",
        "出口退税",
        "VAT",
        "tax evasion",
        "税务机关",
        "出口退(免)税",
    ]
    scores = []
    for seed in range(40):
        rng = random.Random(seed)
        words = ["".join(rng.choices(chars, k=rng.randint(1, 4))) for _ in range(300)]
        words += rng.choices(terms, k=20)
        rng.shuffle(words)
        page = {
            "title": "".join(rng.sample(terms, 3)),
            "body": "，".join(words),
            "anchors": " ".join(rng.sample(terms, 4)),
        }
        scores.append(repr(scorer.score(page).score))
    return scores


def test_a_score_is_the_same_to_the_last_bit_whatever_the_string_hashing():
    """A page scored in a spawned extraction worker (its own hash seed, so its own order of the
    concepts found through sets) must get the score the crawl's process would give it."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).parents[2]
    here = str(_scores())
    for seed in ("1", "2"):
        other = subprocess.run(
            [sys.executable, "-c", SCORES_IN_A_FRESH_INTERPRETER],
            capture_output=True, text=True, check=True, cwd=root,
            env={"PYTHONHASHSEED": seed, "PYTHONPATH": str(root)},
        )  # fmt: skip
        assert other.stdout.strip() == here
