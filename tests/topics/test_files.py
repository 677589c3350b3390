"""Topic files: the shipped ones load, and every broken file names its file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from topiccrawler.topics import (
    TERM_CLASSES,
    TopicFileError,
    UnknownTopicError,
    available_topics,
    load_keyword_file,
    load_seed_file,
    load_topic,
)
from topiccrawler.topics.registry import SHIPPED_DIR

KEYWORDS = SHIPPED_DIR / "keywords"
SEEDS = SHIPPED_DIR / "seeds"

GOOD_KEYWORDS = """\
[topic]
title = "税务"
threshold = 0.3

[subjects]
"税务局" = ["税务机关"]

[domain_terms]
"增值税" = ["VAT"]
"印花税" = []

[judgement_words]
"偷税" = ["逃税"]
"""


def write(tmp_path: Path, text: str, name: str = "t.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", available_topics(KEYWORDS))
def test_shipped_topics_load(name):
    topic = load_topic(name, KEYWORDS, SEEDS)
    assert topic.name == name
    for term_class in TERM_CLASSES:
        assert topic.keywords.by_class(term_class), f"{name} has no {term_class}"
    assert topic.seeds.authority and topic.seeds.engines


def test_shipped_topics_are_tax_and_one_more():
    assert "tax" in available_topics(KEYWORDS)
    assert len(available_topics(KEYWORDS)) >= 2


def test_keyword_file_model(tmp_path):
    library = load_keyword_file(write(tmp_path, GOOD_KEYWORDS), topic="t")
    assert library.topic == "t" and library.title == "税务" and library.threshold == 0.3
    assert [t.text for t in library.by_class("domain_terms")] == ["增值税", "印花税"]
    assert library.by_class("subjects")[0].synonyms == ("税务机关",)
    assert library.all_words == ("税务局", "税务机关", "增值税", "VAT", "印花税", "偷税", "逃税")
    assert all(t.provenance == "static" for t in library.terms)


def test_auto_threshold_and_example_pages(tmp_path):
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "case.html").write_text("<title>偷税案</title>", encoding="utf-8")
    text = '[topic]\nthreshold = "auto"\n[subjects]\n"a" = []\n'
    text += '[examples]\nrelevant = ["examples/case.html"]\n'
    library = load_keyword_file(write(tmp_path, text))
    assert library.threshold is None  # estimated while crawling
    assert library.relevant_examples == ((tmp_path / "examples" / "case.html").resolve(),)
    assert library.irrelevant_examples == ()
    no_line = load_keyword_file(write(tmp_path, '[subjects]\n"a" = []\n', "u.toml"))
    assert no_line.threshold is None  # no threshold line: auto as well


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('[subjects]\n"税务局" = ["a"\n', None, "invalid TOML"),
        ('[subjects]\n"税务局" = ["a"]\n"x" = \n', 3, "invalid TOML"),
        ('[topic]\nthreshold = 2\n[subjects]\n"a" = []\n', 2, "threshold"),
        ('[topic]\nlanguage = "fr"\n[subjects]\n"a" = []\n', 2, "language must be one of"),
        ('[subjects]\n"a" = []\n[judgment_words]\n"b" = []\n', 3, "unknown key 'judgment_words'"),
        ('[subjects]\n"a" = "b"\n', 2, "must be a list of strings"),
        ('[subjects]\n"a" = [1]\n', 2, "non-empty string"),
        ('[subjects]\n"a" = ["b"]\n\n[domain_terms]\n"c" = ["b"]\n', 5, "'b' appears twice"),
        ('[judgement_words]\n"a" = []\n', None, "at least one term"),
        ('[subjects]\n"a" = []\n[examples]\nrelevant = ["no.html"]\n', 4, "example file not found"),
        ('[subjects]\n"a" = []\n[examples]\nliked = []\n', 4, "unknown key 'liked'"),
        ('[topic]\nthreshold = "high"\n[subjects]\n"a" = []\n', 2, 'or "auto"'),
    ],
)
def test_broken_keyword_files_name_file_and_line(tmp_path, text, line, message):
    path = write(tmp_path, text)
    with pytest.raises(TopicFileError) as caught:
        load_keyword_file(path)
    error = caught.value
    assert error.path == path and error.line == line and message in error.message
    assert str(error).startswith(f"{path}:{line}:" if line else f"{path}:")


def test_duplicate_word_error_points_at_first_use(tmp_path):
    path = write(tmp_path, '[subjects]\n"a" = ["b"]\n\n[domain_terms]\n"c" = ["b"]\n')
    with pytest.raises(TopicFileError, match=r"first at line 2"):
        load_keyword_file(path)


def test_keyword_file_not_utf8(tmp_path):
    path = tmp_path / "gbk.toml"
    path.write_bytes('[subjects]\n"税务局" = []\n'.encode("gbk"))
    with pytest.raises(TopicFileError, match=r"gbk.toml:2: is not UTF-8"):
        load_keyword_file(path)


GOOD_SEEDS = """\
[[authority]]
name = "a"
start_urls = ["https://a.example/"]

[[authority]]
start_urls = ["https://www.b.example/x"]
depth_limit = 1
render = "always"

[search]
engines = ["s"]
target_sites = ["gov.cn"]

[engines.s]
type = "searxng"
url = "http://127.0.0.1:8888/search"
"""


def test_seed_file_model(tmp_path):
    seeds = load_seed_file(write(tmp_path, GOOD_SEEDS), topic="t")
    first, second = seeds.authority
    assert first.allowed_domains == ("a.example",) and first.depth_limit == 3
    assert second.name == "www.b.example" and second.depth_limit == 1
    assert (first.render, second.render) == (None, "always")
    assert seeds.target_sites == ("gov.cn",)
    assert seeds.engines[0].type == "searxng"
    assert seeds.engines[0].options == {"url": "http://127.0.0.1:8888/search"}


@pytest.mark.parametrize(
    ("replace", "by", "line", "message"),
    [
        ("depth_limit = 1", "depth_limit = -1", 7, "whole number"),
        ("depth_limit = 1", "depth = 1", 7, "unknown key 'depth'"),
        ('render = "always"', 'render = "sometimes"', 8, "render is one of auto, always, never"),
        ('"https://www.b.example/x"', '"ftp://b.example/"', 6, "not an http(s) URL"),
        ('engines = ["s"]', 'engines = ["t"]', 11, "engine 't' is not declared"),
        ('type = "searxng"', 'type = "google"', 15, "needs type = one of"),
        ('url = "http://127.0.0.1:8888/search"', "", 14, "needs 'url'"),
        ('start_urls = ["https://www.b.example/x"]', "", 5, "needs start_urls"),
    ],
)
def test_broken_seed_files_name_file_and_line(tmp_path, replace, by, line, message):
    assert replace in GOOD_SEEDS
    path = write(tmp_path, GOOD_SEEDS.replace(replace, by))
    with pytest.raises(TopicFileError) as caught:
        load_seed_file(path)
    assert (caught.value.line, caught.value.path) == (line, path)
    assert message in caught.value.message


def test_empty_seed_file(tmp_path):
    with pytest.raises(TopicFileError, match="nothing to crawl"):
        load_seed_file(write(tmp_path, "# nothing yet\n"))


def test_unknown_topic_lists_the_known_ones():
    with pytest.raises(UnknownTopicError) as caught:
        load_topic("nope", KEYWORDS, SEEDS)
    assert "unknown topic 'nope'" in str(caught.value)
    assert "tax" in str(caught.value) and "overseas-chinese" in str(caught.value)


def test_missing_seed_file(tmp_path):
    keywords = write(tmp_path, GOOD_KEYWORDS, "solo.toml")
    with pytest.raises(TopicFileError, match="file not found"):
        load_topic("solo", tmp_path, tmp_path / "seeds")
    assert load_keyword_file(keywords).topic == "solo"


DISCOVERY_SEEDS = """\
[[authority]]
name = "a"
start_urls = ["https://a.example/"]
discover = false
feeds = ["https://a.example/rss.xml", "https://feeds.example/a.atom", "https://a.example/rss.xml"]
sitemaps = ["https://a.example/sitemap.xml"]
entry_domains = ["CDN.a-example.com"]

[[authority]]
start_urls = ["https://b.example/"]
"""


def test_seed_file_feeds_and_sitemaps(tmp_path):
    first, second = load_seed_file(write(tmp_path, DISCOVERY_SEEDS)).authority
    assert first.discover is False and second.discover is True  # on by default
    assert first.feeds == ("https://a.example/rss.xml", "https://feeds.example/a.atom")
    assert first.sitemaps == ("https://a.example/sitemap.xml",)
    assert first.entry_domains == ("cdn.a-example.com",)
    assert (second.feeds, second.sitemaps, second.entry_domains) == ((), (), ())


@pytest.mark.parametrize(
    ("replace", "by", "line", "message"),
    [
        ("discover = false", 'discover = "no"', 4, "'authority[0].discover' must be true or false"),
        ('feeds = ["https://a.example/rss.xml"', 'feeds = ["file:///etc/passwd"', 5, "not an http(s) URL"),
        ('sitemaps = ["https://a.example/sitemap.xml"]', 'sitemaps = "x"', 6, "list of strings"),
        ('entry_domains = ["CDN.a-example.com"]', 'entry_domains = ["https://cdn/"]', 7, "is not a host name"),
        ("discover = false", "discovery = false", 4, "unknown key 'discovery'"),
    ],
)  # fmt: skip
def test_broken_feed_and_sitemap_keys_name_file_and_line(tmp_path, replace, by, line, message):
    assert replace in DISCOVERY_SEEDS
    path = write(tmp_path, DISCOVERY_SEEDS.replace(replace, by))
    with pytest.raises(TopicFileError) as caught:
        load_seed_file(path)
    assert (caught.value.line, caught.value.path) == (line, path)
    assert message in caught.value.message
