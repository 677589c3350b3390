"""Where a topic name is found: the project, configured folders, the package; and the starter
files of `topiccrawler topics new`."""

from __future__ import annotations

import pytest
from scrapy.settings import Settings

from topiccrawler.cli import main
from topiccrawler.topics import UnknownTopicError, load_topic, load_topic_from_settings
from topiccrawler.topics.registry import SHIPPED_DIR, topic_folders
from topiccrawler.topics.starter import StarterExists, write_starter

SMALL_KEYWORDS = '[topic]\ntitle = "{title}"\n[subjects]\n"{term}" = []\n'
SMALL_SEEDS = '[[authority]]\nname = "a"\nstart_urls = ["http://127.0.0.1:1/"]\n'


def write_topic(root, name: str, title: str, term: str = "词") -> None:
    (root / "keywords").mkdir(parents=True, exist_ok=True)
    (root / "seeds").mkdir(parents=True, exist_ok=True)
    (root / "keywords" / f"{name}.toml").write_text(
        SMALL_KEYWORDS.format(title=title, term=term), encoding="utf-8"
    )
    (root / "seeds" / f"{name}.toml").write_text(SMALL_SEEDS, encoding="utf-8")


def settings_in(project, **values) -> Settings:
    settings = Settings()
    settings.setmodule("topiccrawler.settings")
    settings.set("TOPIC_KEYWORDS_DIR", str(project / "keywords"))
    settings.set("TOPIC_SEEDS_DIR", str(project / "seeds"))
    settings.setdict(values)
    return settings


def test_shipped_topics_load_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no scrapy.cfg, no keywords/ here
    monkeypatch.delenv("TOPICCRAWLER_TOPICS_DIR", raising=False)
    settings = Settings()
    settings.setmodule("topiccrawler.settings")
    topic = load_topic_from_settings(settings, "tax")
    assert topic.keywords.path == SHIPPED_DIR / "keywords" / "tax.toml"
    assert topic.seeds.path == SHIPPED_DIR / "seeds" / "tax.toml"
    assert [e.type for e in topic.seeds.engines] == ["bing"]  # needs no server of the user's


def test_project_then_configured_folders_then_package(tmp_path, monkeypatch):
    project, configured = tmp_path / "project", tmp_path / "more"
    write_topic(project, "tax", "the project's tax")
    write_topic(configured, "tax", "configured tax")
    write_topic(configured, "fishing", "configured fishing")
    monkeypatch.setenv("TOPICCRAWLER_TOPICS_DIR", str(configured))
    settings = settings_in(project)
    assert [f.origin for f in topic_folders(settings)] == ["project", "configured", "shipped"]
    assert load_topic_from_settings(settings, "tax").keywords.title == "the project's tax"
    assert load_topic_from_settings(settings, "fishing").keywords.title == "configured fishing"
    assert load_topic_from_settings(settings, "overseas-chinese").seeds.path.is_relative_to(
        SHIPPED_DIR
    )
    # The setting wins over the environment.
    other = tmp_path / "other"
    write_topic(other, "fishing", "set fishing")
    settings = settings_in(project, TOPIC_DIRS=[str(other)])
    assert load_topic_from_settings(settings, "fishing").keywords.title == "set fishing"


def test_unknown_topic_names_every_folder_and_the_topics(tmp_path, monkeypatch):
    monkeypatch.delenv("TOPICCRAWLER_TOPICS_DIR", raising=False)
    with pytest.raises(UnknownTopicError) as error:
        load_topic_from_settings(settings_in(tmp_path), "nope")
    message = str(error.value)
    assert str(tmp_path / "keywords" / "nope.toml") in message
    assert str(SHIPPED_DIR / "keywords" / "nope.toml") in message
    assert "tax" in message and "overseas-chinese" in message


def test_starter_files_load_and_validate(tmp_path):
    written = write_starter("river-fishing", tmp_path / "keywords", tmp_path / "seeds")
    assert [p.name for p in written] == ["river-fishing.toml", "river-fishing.toml", "scrapy.cfg"]
    topic = load_topic("river-fishing", tmp_path / "keywords", tmp_path / "seeds")
    assert [t.text for t in topic.keywords.terms] == ["river fishing"]
    assert [e.name for e in topic.seeds.engines] == ["bing"]
    text = written[0].read_text(encoding="utf-8")
    assert text.count("\n# ") >= 5  # commented for the user to edit
    with pytest.raises(StarterExists):
        write_starter("river-fishing", tmp_path / "keywords", tmp_path / "seeds")


def test_topics_new_from_the_command_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TOPICCRAWLER_TOPICS_DIR", raising=False)
    assert main(["topics", "new", "birds", "--language", "en"]) == 0
    out = capsys.readouterr().out
    assert f"wrote {tmp_path / 'keywords' / 'birds.toml'}" in out
    assert (tmp_path / "scrapy.cfg").is_file()  # `scrapy crawl topic -a topic=birds` works here
    assert main(["topics"]) == 0
    listing = capsys.readouterr().out
    assert "birds" in listing and "project" in listing and "shipped" in listing
    assert main(["topics", "new", "birds"]) == 2  # never overwrites: choose another name
    assert main(["topics", "new", "no good"]) == 2
