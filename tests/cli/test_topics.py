"""`topiccrawler topics new`: its files in the language asked for."""

from __future__ import annotations

import re

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
