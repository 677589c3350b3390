"""Queries from a topic: terms, combinations, site: restrictions."""

from __future__ import annotations

from topiccrawler.seeding import build_queries
from topiccrawler.seeding.health import EngineHealth
from topiccrawler.topics import load_topic
from topiccrawler.topics.registry import SHIPPED_DIR


def topic_with(tmp_path, search: str):
    (tmp_path / "k.toml").write_text(
        '[subjects]\n"税务局" = ["税务机关"]\n[domain_terms]\n"增值税" = []\n"印花税" = []\n'
        '[judgement_words]\n"偷税" = []\n',
        encoding="utf-8",
    )
    (tmp_path / "s.toml").write_text(
        f'{search}\n[engines.e]\ntype = "searxng"\nurl = "http://127.0.0.1:1/search"\n',
        encoding="utf-8",
    )
    return load_topic("k", tmp_path, tmp_path, tmp_path / "k.toml", tmp_path / "s.toml")


def test_terms_then_site_queries(tmp_path):
    topic = topic_with(tmp_path, '[search]\nengines = ["e"]\ntarget_sites = ["gov.cn"]')
    texts = [q.text for q in build_queries(topic)]
    assert texts == [
        "税务局", "增值税", "印花税", "偷税",
        "税务局 site:gov.cn", "增值税 site:gov.cn", "印花税 site:gov.cn", "偷税 site:gov.cn",
    ]  # fmt: skip
    assert "税务机关" not in texts  # synonyms widen matching, not the query list


def test_class_choice_combinations_and_limit(tmp_path):
    topic = topic_with(
        tmp_path,
        '[search]\nengines = ["e"]\nquery_classes = ["domain_terms"]\n'
        'combine = [["domain_terms", "judgement_words"]]',
    )
    queries = build_queries(topic)
    assert [q.text for q in queries] == ["增值税", "印花税", "增值税 偷税", "印花税 偷税"]
    assert queries[2].terms == ("增值税", "偷税")
    assert len(build_queries(topic, limit=3)) == 3


def test_shipped_tax_topic_builds_queries():
    topic = load_topic("tax", SHIPPED_DIR / "keywords", SHIPPED_DIR / "seeds")
    queries = build_queries(topic)
    assert len(queries) == len({q.text for q in queries}) > 100
    assert any(q.site == "chinatax.gov.cn" for q in queries)


def test_engine_health_backs_off_and_recovers():
    health = EngineHealth(backoff=10, max_backoff=25, empty_streak_limit=2)
    assert health.record_answer(0, 0) is None  # empty before any results: nothing known yet
    assert health.record_answer(5, 1) is None
    assert health.record_answer(0, 2, broad=False) is None  # site: queries may be empty
    assert health.record_answer(0, 3) is None
    assert "2 empty answers" in health.record_answer(0, 4)
    assert health.record_block("captcha", 100) == 10 and not health.available(105)
    assert health.record_block("captcha", 110) == 20
    assert health.record_block("captcha", 130) == 25  # capped
    assert health.available(155.1)
    health.record_answer(3, 160)
    assert health.record_block("429", 170) == 10  # a success resets the doubling
