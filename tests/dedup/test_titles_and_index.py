"""Title normalisation, the TF-IDF index and the body fingerprint."""

from __future__ import annotations

import doctest
import math
import random
from collections import Counter

import pytest

from tests.dedup.texts import FILM_STORY, MARKET_STORY, TAX_STORY
from topiccrawler.dedup import simhash as simhash_module
from topiccrawler.dedup import titles
from topiccrawler.dedup.index import TitleIndex
from topiccrawler.dedup.simhash import distance, from_signed, same_body, simhash, to_signed
from topiccrawler.dedup.titles import normalize_title
from topiccrawler.relevance.tokenizer import Tokenizer

TOKENIZER = Tokenizer()
# Background titles so IDF is meaningful (written for this test: everyday news headlines).
BACKGROUND = [
    "北京今日迎来降雪 交通部门提醒注意安全", "上海国际电影节开幕 多部华语片入围",
    "国足客场逆转取胜 晋级下一阶段比赛", "科技公司发布新款手机 续航提升明显",
    "教育部发布通知 规范校外培训", "华侨华人举办春节联欢活动", "孔子学院举办中文比赛",
    "台湾灾区重建工作进展顺利", "缅甸发生地震 当地华人积极救援", "韩国华社举行新年团拜会",
]  # fmt: skip


def tokens(title: str) -> list[str]:
    return TOKENIZER.tokens(normalize_title(title))


@pytest.fixture
def index() -> TitleIndex:
    built = TitleIndex()
    for n, title in enumerate(BACKGROUND):
        built.add(f"bg{n}", tokens(title))
    return built


def test_the_papers_examples(index):
    index.add("a", tokens("新华侨涌入:为韩国华社带来新希望-移民-滴答网"))
    match = index.best_match(tokens("新华侨涌入:为韩国华社带来新希望 - 无忧雅思网 无忧雅思网"))
    assert match is not None and match.key == "a" and match.similarity == pytest.approx(1.0)
    index.add("c", tokens("缅甸华侨华人为孔子课堂捐款组图-教育频道-新华网"))
    assert index.best_match(tokens("缅甸华侨华人为台湾灾区同胞捐款-华人-新华网")) is None
    # A lax threshold (the paper tried 0.5) would merge two different stories: their cosine.
    index.threshold = 0.45
    assert reference_best(index, tokens("缅甸华侨华人为台湾灾区同胞捐款-华人-新华网"))[0] == "c"


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("某公司偷税案件曝光_财经频道_新浪网", "某公司偷税案件曝光"),
        ("Tax evasion case exposed | Reuters", "tax evasion case exposed"),
        ("【转载】增值税新规解读 | 财经频道 | 东方财经网", "增值税新规解读"),
        ("热点：增值税新规解读-严选新闻网", "增值税新规解读"),
        ("ＶＡＴ　新规", "vat 新规"),
        ("", ""),
    ],
)
def test_normalize_title(raw, normal):
    assert normalize_title(raw) == normal


def test_exclusion_skip_and_ties(index):
    index.add("first", tokens("税务部门曝光一批偷税典型案例"))
    index.add("second", tokens("税务部门曝光一批偷税典型案例"))
    assert index.best_match(tokens("税务部门曝光一批偷税典型案例")).key == "first"  # earliest wins
    assert index.best_match(tokens("税务部门曝光一批偷税典型案例"), exclude="first").key == "second"
    assert (
        index.best_match(
            tokens("税务部门曝光一批偷税典型案例"), skip=lambda k: k in ("first", "second")
        )
        is None
    )
    assert index.best_match([]) is None and index.best_match(["从未见过的词"]) is None
    index.add("first", tokens("别的标题"))  # a key is indexed once
    assert len(index) == len(BACKGROUND) + 2


def test_simhash_separates_stories_and_keeps_reposts():
    original = simhash(TAX_STORY)
    repost = simhash("来源：税务资讯\n" + TAX_STORY + "\n责任编辑：王五")
    assert distance(original, repost) <= 8 < distance(original, simhash(FILM_STORY))
    assert simhash("太短") == 0 and same_body(0, original)  # unknown: the title decides
    assert from_signed(to_signed(original)) == original and to_signed(2**64 - 1) == -1


def test_same_title_different_story_is_not_a_repost(index):
    title = tokens("概念股午后拉升 机构看好后市")
    index.add("a", title, simhash(TAX_STORY))
    assert index.best_match(title, fingerprint=simhash(MARKET_STORY)) is None
    assert index.best_match(title, fingerprint=simhash(TAX_STORY)).key == "a"


def test_titles_with_other_numbers_are_other_stories(index):
    index.add("oct10", tokens("10月10日天琪早盘分析摘要"))
    assert index.best_match(tokens("10月25日天琪早盘分析摘要")) is None
    assert index.best_match(tokens("10月10日天琪早盘分析摘要-新浪财经")).key == "oct10"
    index.add("plain", tokens("天琪午盘分析摘要发布"))  # no numbers on one side: words decide
    assert index.best_match(tokens("天琪午盘分析摘要发布(2)")).key == "plain"


def reference_best(index: TitleIndex, query: list[str]):
    """Every stored title scored the slow, obvious way."""
    n = len(index)
    idf = {t: math.log((1 + n) / (1 + index.df[i])) + 1 for t, i in index.vocabulary.items()}

    def vector(tokens):
        weights = {t: c * idf.get(t, math.log(1 + n) + 1) for t, c in Counter(tokens).items()}
        norm = math.sqrt(sum(w * w for w in weights.values()))
        return {t: w / norm for t, w in weights.items()}

    q = vector(query)
    names = {i: t for t, i in index.vocabulary.items()}
    scored = [
        (sum(w * q.get(t, 0.0) for t, w in vector(doc).items()), -n_doc)
        for n_doc in range(n)
        for doc in [
            [
                names[i]
                for i, c in zip(
                    index.document(n_doc),
                    index.counts[index.offsets[n_doc] : index.offsets[n_doc + 1]],
                    strict=True,
                )
                for _ in range(c)
            ]
        ]
    ]
    similarity, doc = max(scored)
    return (index.key(-doc), similarity) if similarity >= index.threshold - 1e-9 else None


def test_candidates_find_reposts_and_score_exactly():
    """Whatever the index answers is what scoring every title says of that title; a repost
    (the same words, in another order or with one word more) is always found."""
    rng = random.Random(7)
    words = [f"w{i}" for i in range(300)]
    weights = [1 / (i + 1) for i in range(300)]  # Zipf-like: common and rare words
    index = TitleIndex()
    stored = []
    for n in range(600):
        title = rng.choices(words, weights=weights, k=rng.randint(3, 9))
        index.add(f"t{n}", title)
        stored.append(title)
    for _ in range(300):
        original = rng.choice(stored)
        repost = rng.sample(original, len(original)) + (
            [rng.choice(words)] if rng.random() < 0.5 else []
        )
        random_query = rng.choices(words, weights=weights, k=rng.randint(1, 8))
        for query in (repost, random_query):
            match = index.best_match(query)
            expected = reference_best(index, query)
            if match is not None:
                assert expected is not None
                assert match.similarity == pytest.approx(expected[1]) or (
                    match.similarity <= expected[1] and match.similarity >= index.threshold
                )
                assert match.similarity >= index.threshold - 1e-9
        if reference_best(index, repost) is not None:
            match = index.best_match(repost)
            assert match is not None, repost


def test_a_bucket_is_bounded_and_the_index_grows():
    """Thousands of titles on the same rare pair: a query looks at the newest MAX_BUCKET."""
    from topiccrawler.dedup import index as index_module

    index = TitleIndex()
    for n in range(3 * index_module.MAX_BUCKET):
        index.add(f"k{n}", ["稀有词甲", "稀有词乙", f"w{n}"])
    assert len(index) == 3 * index_module.MAX_BUCKET and "k5" in index and "k-1" not in index
    candidates = index._candidates([index.vocabulary["稀有词甲"], index.vocabulary["稀有词乙"]])
    assert len(candidates) == index_module.MAX_BUCKET
    assert candidates.min() == 2 * index_module.MAX_BUCKET  # the newest
    assert index.key(0) == "k0" and index.best_match(["稀有词甲", "稀有词乙", "w700"]).key == "k700"


def test_doctests():
    assert doctest.testmod(titles).failed == 0
    assert doctest.testmod(simhash_module).failed == 0


def test_loading_in_bulk_builds_what_adding_one_by_one_builds():
    rng = random.Random(11)
    words = [f"w{i}" for i in range(50)] + ["7", "2026"]
    titles = [
        (f"t{n}", rng.choices(words, k=rng.randint(0, 7)), rng.getrandbits(64)) for n in range(3000)
    ]
    titles.append(("t5", ["w1", "w2"], 0))  # a key seen before: ignored, as by add
    one_by_one, bulk = TitleIndex(), TitleIndex()
    for key, toks, fingerprint in titles:
        one_by_one.add(key, toks, fingerprint)
    bulk.add_many(titles[:1000])
    bulk.add_many(titles[1000:])  # crosses a growth of the chains' buckets
    for name in ("df", "tokens", "counts", "offsets", "fingerprints", "rank", "_key_bytes"):
        assert getattr(bulk, name) == getattr(one_by_one, name), name
    for name in ("hashes", "next", "heads"):
        assert getattr(bulk._pairs, name) == getattr(one_by_one._pairs, name), name
        assert getattr(bulk._keys, name) == getattr(one_by_one._keys, name), name
    query = titles[42][1] + ["w3"]
    assert bulk.best_match(query) == one_by_one.best_match(query)
    assert "t2999" in bulk and bulk.key(2999) == "t2999"
