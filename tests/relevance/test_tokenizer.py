"""The shared tokenizer: jieba-rs segmentation, folding, stop words, extra words."""

from __future__ import annotations

import doctest

from topiccrawler.relevance import tokenizer as tokenizer_module
from topiccrawler.relevance.tokenizer import Tokenizer


def test_folding_punctuation_and_stop_words():
    tokens = Tokenizer().tokens("ＶＡＴ新规：税务局的公告，Tax Evasion！")
    assert tokens == ["vat", "新规", "税务局", "公告", "tax", "evasion"]
    assert Tokenizer().tokens("") == [] and Tokenizer().tokens(None) == []


def test_extra_words_stay_whole_in_this_tokenizer_only():
    assert "金税四期" not in Tokenizer().tokens("金税四期上线")
    assert Tokenizer(["金税四期"]).tokens("金税四期上线")[0] == "金税四期"


def test_tokenizers_with_the_same_words_share_one_dictionary():
    # A crawl's components each make one; a jieba dictionary is 25 MB and 0.13 s to load.
    first, second = Tokenizer(["金税四期", "tax", "个税"]), Tokenizer(["个税", "VAT", "金税四期"])
    assert first._jieba is second._jieba  # only the Chinese words are added, in any order
    assert Tokenizer(["金税五期"])._jieba is not first._jieba
    assert Tokenizer()._jieba is not first._jieba
    assert first.tokens("金税四期上线") == ["金税四期", "上线"]
    assert "金税四期" not in Tokenizer().tokens("金税四期上线")  # the plain one left alone
    # Bounded: past the few kept, a dictionary lives only as long as its tokenizers.
    for n in range(2 * tokenizer_module.SEGMENTERS_KEPT):
        Tokenizer([f"测试词{n}"])
    assert len(tokenizer_module._SEGMENTERS) == tokenizer_module.SEGMENTERS_KEPT
    assert first.tokens("金税四期上线") == ["金税四期", "上线"]


def test_part_of_speech_tags():
    tagged = dict(Tokenizer().tagged("税务局查处偷税案件。"))
    assert tagged["税务局"].startswith("n") and tagged["案件"] == "n"
    assert "。" not in tagged


def test_doctest():
    assert doctest.testmod(tokenizer_module).failed == 0
