"""Keywords, summaries and entities of two pages we wrote (Chinese and English); the expected
outputs were read and checked by hand against the pages."""

from __future__ import annotations

from pathlib import Path

import pytest

from topiccrawler.briefing import brief
from topiccrawler.briefing.entities import entities
from topiccrawler.briefing.keywords import keywords
from topiccrawler.briefing.summary import sentences, summarize
from topiccrawler.extract.page import extract_page
from topiccrawler.relevance.tokenizer import Tokenizer

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "briefing"
ZH_TERMS = ["偷税", "个人所得税", "增值税"]
EN_TERMS = ["tax", "refund"]


def briefed(name: str, terms: list[str]):
    page = extract_page((FIXTURES / f"{name}.html").read_text(encoding="utf-8"))
    return brief(page.title, page.body, Tokenizer(terms), terms)


def test_chinese_keywords_put_the_topic_term_first_and_skip_function_words():
    found = briefed("zh_article", ZH_TERMS)
    words = [w for w, _ in found.keywords]
    assert words[:2] == ["偷税", "国家税务总局"]
    assert {"税务局", "个人所得税", "主播"} <= set(words)
    assert not {"的", "了", "通过", "1200"} & set(words)
    assert found.keywords[0][1] == 1.0 and all(0 < v <= 1 for _, v in found.keywords)


def test_english_keywords_without_stop_words():
    words = [w for w, _ in briefed("en_article", EN_TERMS).keywords]
    assert words[:2] == ["tax", "delay"]
    assert {"backlog", "filers", "irs", "refunds"} <= set(words)
    assert not {"the", "said", "would", "this"} & set(words)


def test_topic_terms_are_weighted_up():
    text = "偷税 偷税 发票 发票 发票"
    plain = dict(keywords(text, Tokenizer(), []))
    boosted = dict(keywords(text, Tokenizer(["偷税"]), ["偷税"]))
    assert plain["发票"] == 1.0 and boosted["偷税"] == 1.0


def test_chinese_summary_is_three_of_the_pages_own_sentences_in_order():
    found = briefed("zh_article", ZH_TERMS)
    assert found.summary == (
        "国家税务总局11月20日在北京通报了三起偷税案件，涉及上海、广州的两家公司和一名网络主播。"
        "国家税务总局有关负责人王军表示，税务部门将持续加强对高收入人群的税收监管，依法查处偷税行为。"
        "专家认为，此次通报释放了严查偷税的信号，纳税人应当依法如实申报。"
    )


def test_english_summary_keeps_the_lead_and_the_weightiest_sentences():
    found = briefed("en_article", EN_TERMS)
    assert found.summary == (
        "The Internal Revenue Service said on Monday that tax refunds for millions of Americans "
        "would arrive later than usual this year. Rettig said the delay would affect filers who "
        "claimed the earned income tax credit. Senator Ron Wyden, chairman of the Senate Finance "
        "Committee, called the delay unacceptable."
    )


def test_sentences_do_not_split_abbreviations_or_decimals():
    text = "U.S. officials said rates rose 3.5 per cent. The Fed met today. 税率上调了一个百分点。市场总体平稳！"
    assert sentences(text) == [
        "U.S. officials said rates rose 3.5 per cent.",
        "The Fed met today.",
        "税率上调了一个百分点。",
    ]  # 市场总体平稳！ is under the 8 characters a summary sentence needs


def test_a_short_text_is_its_own_summary():
    assert summarize("税率上调。", Tokenizer(), {}, 3) == ""  # under the sentence minimum
    assert summarize("今年起个人所得税专项附加扣除标准提高。", Tokenizer(), {}, 3) == (
        "今年起个人所得税专项附加扣除标准提高。"
    )


def test_chinese_entities_people_places_organisations():
    found = {(e.name, e.kind): e.mentions for e in briefed("zh_article", ZH_TERMS).entities}
    assert found == {
        ("国家税务总局", "organisation"): 3,
        ("税务局", "organisation"): 2,
        ("上海", "place"): 2,  # 上海 and 上海市 are one place
        ("广州", "place"): 2,
        ("北京", "place"): 1,
        ("王军", "person"): 1,  # 张某 is withheld, 广州某 is no one
    }


def test_english_entities_by_their_context():
    found = {(e.name, e.kind): e.mentions for e in briefed("en_article", EN_TERMS).entities}
    assert found == {
        ("Charles Rettig", "person"): 2,  # "IRS Commissioner Charles Rettig", then "Rettig"
        ("IRS", "organisation"): 2,
        ("Internal Revenue Service", "organisation"): 1,
        ("Senate Finance Committee", "organisation"): 1,
        ("Treasury Department", "organisation"): 1,
        ("Ron Wyden", "person"): 1,
        ("Austin", "place"): 1,
        ("Washington", "place"): 1,
    }


@pytest.mark.parametrize("text", ["", "   ", "1234 5678", "<>&"])
def test_nothing_to_brief_gives_an_empty_briefing(text):
    found = brief(None, text, Tokenizer(), [])
    assert found.keywords == [] and found.entities == []
    assert entities(text, Tokenizer()) == []
