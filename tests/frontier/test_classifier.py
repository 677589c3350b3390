"""The online link classifier: features of a link before it is fetched, learning from judged
pages, refits that get rarer."""

from __future__ import annotations

from topiccrawler.frontier.classifier import LinkClassifier
from topiccrawler.relevance.tokenizer import Tokenizer

FINANCE = [
    "基金公司发行债券基金",
    "央行下调存款准备金率",
    "股票基金净值普遍上涨",
    "银行理财产品收益率走低",
    "证监会批准新基金发行",
    "沪指收涨 券商股领涨",
    "外汇储备再创新高",
    "上市公司年报披露业绩",
]
OTHER = [
    "湖人客场击败火箭",
    "新片首映 女星亮相红毯",
    "留学签证申请须知",
    "手游新服今日开启",
    "家居卖场国庆打折",
    "国足主帅赛后发布会",
    "组图：时装周新款发布",
    "高考志愿填报指南",
]


def taught(classifier: LinkClassifier) -> LinkClassifier:
    for i, title in enumerate(FINANCE):
        page = f"http://news.test/finance/2024/{i}.html"
        classifier.learn([classifier.features(page, title, "link", "content", 0.8)], True)
    for i, title in enumerate(OTHER):
        page = f"http://news.test/ent/2024/{i}.html"
        classifier.learn([classifier.features(page, title, "link", "content", 0.8)], False)
    return classifier


def test_features_say_words_character_pairs_place_kind_and_context():
    classifier = LinkClassifier()
    features = classifier.features(
        "http://news.test/money/funds/2024/1.html?x=1", "外汇局批准额度", "hit", "content", 0.25
    )
    assert {"c:外汇", "c:汇局", "c:额度"} <= set(features)  # pairs find 外汇 inside 外汇局
    assert any(name.startswith("w:") for name in features)
    assert {
        "site:news.test",
        "sec1:news.test/money",
        "sec2:news.test/money/funds",
        "u:money",
        "u:funds",
        "kind:hit",
        "block:content",
    } <= set(features)
    assert features["context:hit"] == 0.25
    assert "text:none" in classifier.features("http://news.test/", "", "start")


def test_no_opinion_until_both_kinds_of_page_are_seen():
    classifier = LinkClassifier(min_examples=4, min_per_class=2)
    for i, title in enumerate(FINANCE):
        classifier.learn([classifier.features(f"http://a.test/{i}", title, "link")], True)
    assert not classifier.ready  # only relevant pages so far: nothing to tell apart
    assert classifier.probability(classifier.features("http://a.test/x", "基金", "link")) is None


def test_learnt_words_rank_unseen_anchors_and_sections():
    classifier = taught(LinkClassifier(min_examples=8, min_per_class=3))
    assert classifier.ready and classifier.fits >= 1

    def p(url: str, anchor: str) -> float:
        return classifier.probability(classifier.features(url, anchor, "link", "content", 0.8))

    # Anchors with no word of any topic library, but the words of earlier judged titles:
    assert p("http://news.test/x/1.html", "基金发行提速") > p(
        "http://news.test/x/2.html", "火箭主帅发布会"
    )
    # The same anchor under a section that brought relevant pages ranks higher.
    assert p("http://news.test/finance/2025/9.html", "今日要闻") > p(
        "http://news.test/ent/2025/9.html", "今日要闻"
    )


def test_refits_get_rarer_as_examples_grow():
    classifier = LinkClassifier(min_examples=10, min_per_class=1, refit_growth=0.5)
    fits_at = []
    for i in range(200):
        features = classifier.features(
            f"http://a.test/{i}", FINANCE[i % 8] if i % 2 else OTHER[i % 8], "link"
        )
        if classifier.learn([features], bool(i % 2)):
            fits_at.append(classifier.seen)
    assert fits_at[0] == 10
    gaps = [b - a for a, b in zip(fits_at, fits_at[1:], strict=False)]
    assert gaps == sorted(gaps) and gaps[-1] > gaps[0]  # geometric: O(log n) refits
    assert len(fits_at) < 15


def test_old_examples_leave_the_window():
    classifier = LinkClassifier(min_examples=2, min_per_class=1, window=5)
    for i in range(12):
        classifier.learn([classifier.features(f"http://a.test/{i}", "基金", "link")], bool(i % 2))
    assert len(classifier.examples) == 5


class CountingTokenizer(Tokenizer):
    def __init__(self) -> None:
        super().__init__()
        self.segmented: list[str] = []

    def segments(self, text, hmm=True):
        self.segmented.append(text)
        return super().segments(text, hmm)


def test_an_anchor_is_segmented_once_however_often_it_is_scored():
    tokenizer = CountingTokenizer()
    classifier = LinkClassifier(tokenizer)
    first = classifier.features("https://a.test/fund/1.html", "基金公司发行债券基金", "link")
    again = classifier.features("https://b.test/x/2.html", "基金公司发行债券基金", "link")
    assert tokenizer.segmented == ["基金公司发行债券基金"]
    words = {name for name in first if name.startswith(("w:", "c:"))}
    assert words == {name for name in again if name.startswith(("w:", "c:"))}
    assert "w:基金" in words and "c:债券" in words


def test_a_pages_examples_are_relabelled_not_added_again():
    """A page learnt from while its verdict was provisional, found relevant after all: its
    examples carry the new label, the count of examples is what it was."""
    classifier = LinkClassifier(Tokenizer(), min_examples=1000)  # no refit in the way
    url = "http://news.test/finance/1.html"
    examples = [
        classifier.features(url, FINANCE[0], "link"),
        classifier.features(url, "标题", "link"),
    ]
    classifier.learn(examples, False, key=url)
    classifier.learn([classifier.features("http://news.test/x.html", OTHER[0], "link")], False)
    assert classifier.relabel({url: True, "http://news.test/unknown.html": True}) == 1
    assert [label for _, label in classifier.examples] == [True, True, False]
    assert classifier.seen == 3 and len(classifier.examples) == 3
    assert classifier.relabel({url: True}) == 0  # already so: nothing to change
