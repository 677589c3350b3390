"""`topiccrawler terms`: list, bootstrap from a crawled site, review through a file."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT
from topiccrawler.cli import main


def test_list_shows_terms_synonyms_and_provenance(sqlite_url, capsys):
    assert main(["-s", f"DATABASE_URL={sqlite_url}", "terms", "list", "tax"]) == 0
    out = capsys.readouterr().out
    assert "subjects         税务局 [static]: 税务机关 (synonym)" in out


def test_unknown_topic_is_one_clear_line(sqlite_url, capsys):
    assert main(["-s", f"DATABASE_URL={sqlite_url}", "terms", "expand", "nosuch"]) == 2
    assert "nosuch" in capsys.readouterr().err


def test_bootstrap_then_file_review_grows_the_library(site, sqlite_url, tmp_path, capsys):
    result = subprocess.run(
        [sys.executable, "-m", "topiccrawler.cli", "-s", f"DATABASE_URL={sqlite_url}", "-s", "LOG_LEVEL=WARNING",
         "terms", "bootstrap", "tax", "--site", f"{site.url}/index.html", "--max-pages", "20"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    assert "new candidates for 'tax'" in result.stdout and "from bootstrap" in result.stdout
    review = tmp_path / "review.tsv"
    assert (
        main(
            ["-s", f"DATABASE_URL={sqlite_url}", "terms", "review", "tax", "--export", str(review)]
        )
        == 0
    )
    lines = review.read_text(encoding="utf-8").splitlines()
    first = next(i for i, line in enumerate(lines) if not line.startswith("#"))
    word = lines[first].split("\t")[1]
    lines[first] = "+" + lines[first][1:]
    review.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert (
        main(["-s", f"DATABASE_URL={sqlite_url}", "terms", "review", "tax", "--apply", str(review)])
        == 0
    )
    assert "1 accepted" in capsys.readouterr().out
    assert main(["-s", f"DATABASE_URL={sqlite_url}", "terms", "list", "tax"]) == 0
    assert f"{word} [bootstrap:{site.url}/index.html]" in capsys.readouterr().out
