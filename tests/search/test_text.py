"""What the index is given: Chinese in words (search mode), Latin words folded and stemmed."""

from __future__ import annotations

from topiccrawler.search.text import index_text, index_words


def test_chinese_is_segmented_with_the_words_inside_long_words():
    assert index_words("个人所得税改革") == ["个人", "所得", "所得税", "个人所得税", "改革"]


def test_latin_words_are_folded_and_stemmed_and_stop_words_left_out():
    assert index_words("The TAXES of Ｂirds, running") == ["tax", "bird", "run"]


def test_punctuation_markup_and_controls_are_not_words():
    assert index_text("<b>税</b>\x1b[31m；发票!!") == "b 税 b 31m 发票"


def test_no_text_no_words():
    assert index_words(None) == [] and index_words("") == []
