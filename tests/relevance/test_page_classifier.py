"""The page classifier learnt from the library's confident verdicts, and the judge that combines
it with η (relevance/page_classifier.py, relevance/judge.py)."""

from __future__ import annotations

import random

from topiccrawler.relevance.judge import PageJudge
from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.page_classifier import PageClassifier, combine
from topiccrawler.relevance.scorer import RelevanceScorer
from topiccrawler.relevance.threshold import ThresholdEstimator
from topiccrawler.topics.model import KeywordLibrary, Term

KEYWORDS = KeywordLibrary(
    topic="finance",
    title="财经",
    language="zh",
    threshold=None,
    terms=(
        Term("股市", "subjects"),
        Term("银行", "subjects"),
        Term("利率", "domain_terms"),
        Term("上涨", "judgement_words"),
    ),
)
# Words of the topic the library lacks (a fund article uses few library words per character),
# and of two other topics.
FUND = "基金 净值 申购 赎回 债券 基金经理 收益率 配置 仓位 私募 公募".split()
SPORTS = "球队 比赛 进球 教练 联赛 球员 冠军 赛季 主场 客场 球迷".split()
HOMES = "楼盘 开发商 户型 装修 业主 物业 小区 房价 楼市 家居 建材".split()
FILLER = "记者 今日 表示 目前 已经 方面 进行 工作 情况 发展 市场 相关".split()


def article(rng: random.Random, words: list[str], library_words: int) -> dict[str, str]:
    body = [rng.choice(words + FILLER) for _ in range(200)]
    for _ in range(library_words):
        body.insert(rng.randrange(len(body)), rng.choice(["股市", "银行", "利率", "上涨"]))
    return {"title": "".join(rng.sample(words, 3)), "body": "，".join(body)}


def crawl_pages(seed: int = 3) -> list[tuple[dict[str, str], bool]]:
    """A focused crawl's pages: finance articles with many library words, fund articles with
    few (relevant all the same), other topics with none or a few in passing (a mortgage's bank)."""
    rng = random.Random(seed)
    pages = [(article(rng, FUND, rng.randint(8, 14)), True) for _ in range(80)]
    pages += [(article(rng, FUND, rng.randint(1, 2)), True) for _ in range(30)]
    pages += [(article(rng, SPORTS, rng.choice([0, 0, 1])), False) for _ in range(150)]
    pages += [(article(rng, HOMES, rng.randint(0, 2)), False) for _ in range(150)]
    rng.shuffle(pages)
    return pages


def test_classifier_learns_the_topics_wider_vocabulary_from_confident_pages_only():
    pages = crawl_pages()
    scorer = RelevanceScorer(ConceptLibrary.static(KEYWORDS))
    judge = PageJudge(scorer, None, PageClassifier(scorer.tokenizer))
    for i, (blocks, _) in enumerate(pages):
        judge.judge(str(i), blocks)
    judge.refit()
    classifier = judge.classifier
    assert classifier.ready and classifier.fits >= 2
    # A fund article with one library word in passing, as a home page may have: the words say
    # which is which.
    fund = article(random.Random(99), FUND, 1)
    homes = article(random.Random(98), HOMES, 1)
    fund_p = classifier.probability(classifier.terms(fund["title"], fund["body"]))
    homes_p = classifier.probability(classifier.terms(homes["title"], homes["body"]))
    assert fund_p > 2 * homes_p and homes_p < 0.1
    strongest = [word for word, _ in classifier.strongest(scorer.library.words)]
    assert set(strongest[:10]) & set(FUND) and not set(strongest) & set(SPORTS + HOMES)
    assert not set(strongest) & set(scorer.library.words)  # candidates the library lacks


def f1_of(pages, classifier) -> tuple[float, dict]:
    scorer = RelevanceScorer(ConceptLibrary.static(KEYWORDS))
    judge = PageJudge(scorer, None, classifier(scorer.tokenizer) if classifier else None)
    verdicts = {str(i): judge.judge(str(i), blocks).relevant for i, (blocks, _) in enumerate(pages)}
    texts = {str(i): (blocks["title"], blocks["body"]) for i, (blocks, _) in enumerate(pages)}
    settled = judge.settle(lambda keys: {key: texts[key] for key in keys})
    assert settled and not judge.pending  # the provisional verdicts, made final
    verdicts.update({key: relevant for key, (relevant, _) in settled.items()})
    truth = {str(i): relevant for i, (_, relevant) in enumerate(pages)}
    kept = [k for k, v in verdicts.items() if v]
    precision = sum(truth[k] for k in kept) / len(kept)
    recall = sum(truth[k] for k in kept) / sum(truth.values())
    return 2 * precision * recall / (precision + recall), judge.state()


def test_judge_with_the_classifier_does_better_than_the_score_alone():
    pages = crawl_pages()
    alone, _ = f1_of(pages, None)
    combined, state = f1_of(pages, PageClassifier)
    assert combined > alone and combined >= 0.85, (alone, combined)
    assert state["mode"] == "auto" and state["stable"] and state["threshold"] > 0
    assert state["classifier_fits"] >= 2


def test_a_number_for_eta_means_exactly_that_number():
    scorer = RelevanceScorer(ConceptLibrary.static(KEYWORDS))
    judge = PageJudge(scorer, 0.05, PageClassifier(scorer.tokenizer))
    for i, (blocks, _) in enumerate(crawl_pages()):
        verdict = judge.judge(str(i), blocks)
        assert verdict.final and verdict.relevant == (verdict.score >= 0.05)
    assert judge.settle() == {} and judge.state() == {"threshold": 0.05, "mode": "fixed"}


def test_pages_settled_relevant_give_the_library_its_candidates_too():
    # A crawl whose every verdict waited for the end (η settled late): the words of the pages
    # the settling keeps are counted as those of pages judged final at once would be.
    pages = crawl_pages()
    scorer = RelevanceScorer(ConceptLibrary.static(KEYWORDS))
    never_stable = ThresholdEstimator(settle=len(pages) + 1)
    judge = PageJudge(scorer, None, PageClassifier(scorer.tokenizer), estimator=never_stable)
    texts = {}
    for i, (blocks, _) in enumerate(pages):
        texts[str(i)] = (blocks["title"], blocks["body"])
        assert not judge.judge(str(i), blocks).final
    assert judge.classifier.ready and not judge.classifier.words
    settled = judge.settle(lambda keys: {key: texts[key] for key in keys})
    assert sum(relevant for relevant, _ in settled.values()) >= 80
    strongest = [word for word, _ in judge.classifier.strongest(scorer.library.words)]
    assert set(strongest[:10]) & set(FUND) and not set(strongest) & set(SPORTS + HOMES)


def test_early_pages_are_provisional_and_get_the_benefit_of_the_doubt():
    scorer = RelevanceScorer(ConceptLibrary.static(KEYWORDS))
    judge = PageJudge(scorer, None, PageClassifier(scorer.tokenizer))
    first = judge.judge("a", {"title": "股市上涨", "body": "银行利率"})
    nothing = judge.judge("b", {"title": "球队比赛", "body": "进球"})
    assert not first.final and first.relevant and not nothing.relevant
    assert set(judge.pending) == {"a", "b"}


def test_combine_lets_the_words_decide_where_the_library_is_unsure():
    assert combine(0.5, 0.9) > 0.7 and combine(0.5, 0.1) < 0.3
    assert combine(0.8, None) == 0.8
    assert combine(0.8, 0.2) == 0.5


# Short texts: titles of a finance topic. Half name the topic's words ("股市", "银行" …) beside
# the names a finance title carries (funds, indices, firms); the other half carry only the names.
# Titles of other topics carry their own names, and now and then a library word in passing.
NAMES = "沪指 创业板 基金经理 私募 公募 券商 央行 证监会 茅台 净值 申购 可转债".split()
OTHER = "湖人 皇马 易建联 国足 楼盘 开发商 户型 业主 学区 高考 考研 留学".split()
LIBRARY = ["股市", "银行", "利率", "上涨"]


def titles(seed: int = 5) -> list[tuple[str, bool]]:
    rng = random.Random(seed)
    rows = [("".join(rng.sample(NAMES, 2) + rng.sample(LIBRARY, rng.randint(1, 2))), True)
            for _ in range(150)]  # fmt: skip
    rows += [("".join(rng.sample(NAMES, 3)), True) for _ in range(150)]
    rows += [("".join(rng.sample(OTHER, 3)), False) for _ in range(1200)]
    rows += [("".join(rng.sample(OTHER, 2) + [rng.choice(LIBRARY)]), False) for _ in range(40)]
    rng.shuffle(rows)
    return rows


def title_f1(rows, self_training: str) -> tuple[float, float]:
    scorer = RelevanceScorer(ConceptLibrary.static(KEYWORDS))
    judge = PageJudge(scorer, None, PageClassifier(scorer.tokenizer, self_training=self_training))
    for i, (title, _) in enumerate(rows):
        judge.judge(str(i), {"title": title})
    judge.refit()
    kept = [judge.final_verdict(scorer.score({"title": t}).score, t, None)[0] for t, _ in rows]
    truth = [relevant for _, relevant in rows]
    true_kept = sum(k and t for k, t in zip(kept, truth, strict=True))
    recall = true_kept / sum(truth)
    precision = true_kept / max(sum(kept), 1)
    return recall, precision


def test_self_training_finds_the_short_texts_that_have_none_of_the_topics_words():
    rows = titles()
    em_recall, em_precision = title_f1(rows, "em")
    sure_recall, _ = title_f1(rows, "confident")
    # Trained on the score's sure verdicts only, the classifier learns the names as off-topic
    # (most titles that carry them score zero); self-trained, it takes them for the topic's.
    assert sure_recall < 0.6, sure_recall
    assert em_recall >= 0.9 and em_precision >= 0.85, (em_recall, em_precision)


def test_self_training_is_a_documented_choice():
    import pytest

    from topiccrawler.relevance.page_classifier import self_training_setting

    with pytest.raises(ValueError, match="self_training"):
        PageClassifier(self_training="magic")
    with pytest.raises(ValueError, match="RELEVANCE_CLASSIFIER_SELF_TRAINING must be one of"):
        self_training_setting({"RELEVANCE_CLASSIFIER_SELF_TRAINING": "magic"})
    assert (
        self_training_setting({"RELEVANCE_CLASSIFIER_SELF_TRAINING": " Confident "}) == "confident"
    )
    assert self_training_setting({}) == "em"


def test_short_pages_among_long_ones_are_judged_among_short_ones():
    """A forum's thread pages whose text is their title, in a crawl of long articles: a model
    of long and short texts together would take their shortness for being off the topic."""
    rng = random.Random(8)
    pages = [(article(rng, FUND, rng.randint(8, 14)), True) for _ in range(150)]
    pages += [(article(rng, HOMES, rng.randint(0, 1)), False) for _ in range(150)]
    pages += [({"title": "".join(rng.sample(NAMES, 2) + rng.sample(LIBRARY, 2))}, True)
              for _ in range(60)]  # fmt: skip
    pages += [({"title": "".join(rng.sample(OTHER, 3))}, False) for _ in range(60)]
    rng.shuffle(pages)
    scorer = RelevanceScorer(ConceptLibrary.static(KEYWORDS))
    judge = PageJudge(scorer, None, PageClassifier(scorer.tokenizer))
    for i, (blocks, _) in enumerate(pages):
        judge.judge(str(i), blocks)
    judge.refit()
    short = [(blocks, relevant) for blocks, relevant in pages if "body" not in blocks]
    kept = [
        judge.final_verdict(scorer.score(blocks).score, blocks["title"], None)[0]
        for blocks, _ in short
    ]
    assert all(k == relevant for k, (_, relevant) in zip(kept, short, strict=True))


def test_provisional_verdicts_are_revised_as_eta_is_estimated_again():
    """While η settles, a provisional verdict is judged again at every new estimate (by its
    score and the classifier's opinion when judged); the changes are handed out once."""
    pages = crawl_pages()
    scorer = RelevanceScorer(ConceptLibrary.static(KEYWORDS))
    never_stable = ThresholdEstimator(settle=len(pages) + 1)
    judge = PageJudge(scorer, None, PageClassifier(scorer.tokenizer), estimator=never_stable)
    told, first_told, scores = {}, {}, {}
    revised = 0
    for i, (blocks, _) in enumerate(pages):
        verdict = judge.judge(str(i), blocks)
        told[str(i)] = first_told[str(i)] = verdict.relevant
        scores[str(i)] = verdict.score
        for key, relevant in judge.take_revisions().items():
            assert told[key] != relevant  # only changes are handed out
            told[key] = relevant
            revised += 1
        assert judge.take_revisions() == {}
    assert revised
    # The pages judged before the first estimate had the benefit of the doubt: those whose
    # score the estimate calls sure to be off the topic were told so since, unless the
    # classifier, fitted meanwhile, reads them as on the topic.
    early = [str(i) for i in range(never_stable.min_scores // 2)]
    assert any(first_told[k] and not told[k] for k in early)
    for key in early:
        if never_stable.confident(scores[key]) is False and told[key]:
            classifier = judge.told[key][1]
            assert classifier is not None and classifier > 0.5, key
    assert told == {key: verdict for key, (verdict, _) in judge.told.items()}
