"""Engine parsers on saved result pages: results, empty pages, captchas, changed layouts."""

from __future__ import annotations

import pytest

from tests.servers import FIXTURES
from topiccrawler.seeding import EngineBlocked, SearchEngine, engine_from_config
from topiccrawler.seeding.baidu import BaiduEngine
from topiccrawler.seeding.bing import BingEngine
from topiccrawler.seeding.searxng import SearxngEngine
from topiccrawler.seeding.template import TemplateEngine
from topiccrawler.topics import EngineConfig

SAVED = FIXTURES / "search"


def saved(name: str) -> str:
    return (SAVED / name).read_text(encoding="utf-8")


def test_searxng_query_url_and_results():
    engine = SearxngEngine("sx", {"url": "http://127.0.0.1:8888/search", "language": "zh-CN"})
    assert engine.query_url("增值税 site:gov.cn", 2) == (
        "http://127.0.0.1:8888/search?q=%E5%A2%9E%E5%80%BC%E7%A8%8E+site%3Agov.cn&format=json&pageno=2&language=zh-CN"
    )
    hits = engine.parse(saved("searxng-results.json"), "http://127.0.0.1:8888/search", page=2)
    assert [(h.rank, h.url[:34]) for h in hits] == [
        (11, "https://www.chinatax.gov.cn/chinat"),
        (12, "https://www.mof.gov.cn/zhengwuxinx"),
    ]
    assert hits[0].title.startswith("关于增值税小规模纳税人") and hits[0].snippet


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            "<!DOCTYPE html><html><body>Too many requests</body></html>",
            "HTML where JSON was expected",
        ),
        ('{"error": "format json not allowed"}', "without a results list"),
    ],
)
def test_searxng_not_json_is_a_block(text, reason):
    with pytest.raises(EngineBlocked, match=reason):
        SearxngEngine("sx").parse(text, "http://x/search")


def test_searxng_empty_answer_is_not_a_block():
    assert SearxngEngine("sx").parse('{"results": []}', "http://x/search") == []


def test_bing_results_with_redirects_decoded():
    engine = BingEngine("bing")
    assert (
        engine.query_url("增值税", 3)
        == "https://www.bing.com/search?q=%E5%A2%9E%E5%80%BC%E7%A8%8E&first=21"
    )
    hits = engine.parse(saved("bing-results.html"), "https://www.bing.com/search?q=x", page=1)
    assert [h.url for h in hits] == [
        "https://www.chinatax.gov.cn/chinatax/n362/c5210161/content.html",
        "http://finance.example.com.cn/tax/2026/0512/article-88.html",
        "https://www.bing.com/relative/should-be-made-absolute.html",
    ]
    assert [h.rank for h in hits] == [1, 2, 3]
    assert hits[0].title == "税务部门曝光 偷税 案件 依法追缴 增值税"
    assert "追缴" in hits[0].snippet


def test_bing_no_results_and_changed_layout():
    engine = BingEngine("bing")
    assert engine.parse(saved("bing-no-results.html"), "https://www.bing.com/search?q=x") == []
    with pytest.raises(EngineBlocked, match="layout changed"):
        engine.parse(saved("bing-changed-layout.html"), "https://www.bing.com/search?q=x")


def test_baidu_results_prefer_the_real_url():
    engine = BaiduEngine("baidu")
    assert (
        engine.query_url("出口退税", 2)
        == "https://www.baidu.com/s?wd=%E5%87%BA%E5%8F%A3%E9%80%80%E7%A8%8E&pn=10"
    )
    hits = engine.parse(saved("baidu-results.html"), "https://www.baidu.com/s?wd=x", page=2)
    assert [(h.rank, h.url) for h in hits] == [
        (11, "https://www.chinatax.gov.cn/chinatax/n810341/c101340/c101309/index.html"),
        (12, "http://www.baidu.com/link?url=Zt9QpL0mN4"),
    ]
    assert hits[0].title == "出口退(免)税政策_国家税务总局"
    assert "出口退税" in hits[1].snippet


@pytest.mark.parametrize(
    ("status", "url", "page", "reason"),
    [
        (200, "https://www.baidu.com/s?wd=x", "baidu-captcha.html", "captcha page"),
        (
            302,
            "https://wappass.baidu.com/static/captcha/tuxing.html",
            "baidu-captcha.html",
            "verification page",
        ),
        (429, "https://www.bing.com/search?q=x", "bing-results.html", "HTTP 429"),
        (202, "https://www.bing.com/search?q=x", "bing-results.html", "HTTP 202"),
    ],
)
def test_blocks_are_recognised(status, url, page, reason):
    with pytest.raises(EngineBlocked, match=reason):
        SearchEngine.check_response(status, url, saved(page))


def test_results_pages_are_not_mistaken_for_blocks():
    SearchEngine.check_response(200, "https://www.bing.com/search?q=x", saved("bing-results.html"))
    SearchEngine.check_response(200, "https://www.baidu.com/s?wd=x", saved("baidu-results.html"))


def test_template_engine_from_seed_options():
    engine = engine_from_config(
        EngineConfig(
            "site-search",
            "template",
            {
                "url": "https://search.example/s?q={query}&start={offset}",
                "results": "li.b_algo",
                "link": "h2 a::attr(href)",
                "title": "h2 a ::text",
                "snippet": ".b_caption p ::text",
            },
        )
    )
    assert isinstance(engine, TemplateEngine)
    assert (
        engine.query_url("印花税", 3)
        == "https://search.example/s?q=%E5%8D%B0%E8%8A%B1%E7%A8%8E&start=20"
    )
    hits = engine.parse(saved("bing-results.html"), "https://search.example/s?q=x", page=1)
    assert len(hits) == 3 and hits[1].url.endswith("article-88.html")
    assert engine.parse("<html><body>nothing</body></html>", "https://search.example/") == []


def test_template_engine_xpath_and_layout_change():
    engine = TemplateEngine(
        "t",
        {
            "url": "https://s.example/?q={query}",
            "results": "//li[@class='b_algo']",
            "link": ".//h2/a/@href",
        },
    )
    assert len(engine.parse(saved("bing-results.html"), "https://s.example/")) == 3
    broken = TemplateEngine(
        "t",
        {
            "url": "https://s.example/?q={query}",
            "results": "ol#b_results",
            "link": "a.gone::attr(href)",
        },
    )
    with pytest.raises(EngineBlocked, match="no links"):
        broken.parse(saved("bing-results.html"), "https://s.example/")
