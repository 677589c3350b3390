"""`topiccrawler topics new`: its files in the language asked for, and the README's seed
example saying what they hold."""

from __future__ import annotations

import re

from tests.conftest import ROOT
from topiccrawler.cli import main

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_topics_new_in_english_writes_english_examples(tmp_path, capsys):
    assert main(["topics", "new", "birds", "--language", "en", "--dir", str(tmp_path)]) == 0
    keywords = (tmp_path / "keywords" / "birds.toml").read_text(encoding="utf-8")
    seeds = (tmp_path / "seeds" / "birds.toml").read_text(encoding="utf-8")
    assert not CJK.search(keywords), keywords
    assert 'language = "en"' in keywords and '"value added tax"' in keywords
    assert "cn.bing.com" not in seeds
    assert main(["topics", "new", "shui", "--dir", str(tmp_path)]) == 0  # zh: the default
    assert CJK.search((tmp_path / "keywords" / "shui.toml").read_text(encoding="utf-8"))


def test_the_readme_seed_example_says_what_topics_new_writes(tmp_path, capsys):
    assert main(["topics", "new", "birds", "--language", "en", "--dir", str(tmp_path)]) == 0
    seeds = (tmp_path / "seeds" / "birds.toml").read_text(encoding="utf-8")
    written = re.search(r"^engines = (\[.*?\])", seeds, re.M).group(1)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    claim = re.search(r"^engines = \[\]\s+# `topics new` wrote (\[.*?\])", readme, re.M)
    assert claim, "the README's seed example must say what `topics new` writes for engines"
    assert claim.group(1) == written
