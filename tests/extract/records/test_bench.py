"""Regression guard on the records benchmark pages (read in place, never copied), scored by
the benchmark's own scorer: the issue targets, a little under what benchmarks/records.py
measured."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest

from tests.conftest import SHARED
from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.records.page import extract_records

BENCH = SHARED / "bench" / "records"
pytestmark = pytest.mark.skipif(
    not BENCH.is_dir(), reason="../shared/bench is not beside this checkout"
)


@pytest.fixture(scope="module")
def scored(tmp_path_factory):
    """The scorer's figures by source, and its row per page."""
    predictions = {}
    with open(BENCH / "manifest.csv", encoding="utf-8") as manifest:
        for row in csv.DictReader(manifest):
            data = (BENCH / "data" / row["source"] / f"{row['stem']}.html").read_bytes()
            found = extract_records(decode_html(data)[1], url=row["url"])
            predictions[f"{row['source']}/{row['stem']}"] = [
                {
                    "text": r.text,
                    "author": " ".join(x for x in (r.author, r.author_url) if x),
                    "time": " ".join(
                        x
                        for x in (
                            r.time,
                            r.time_attr,
                            r.published_at and r.published_at.isoformat(),
                        )
                        if x
                    ),
                }
                for r in found.posts or found.comments
            ]
    out = tmp_path_factory.mktemp("records")
    (out / "pred.json").write_text(json.dumps(predictions, ensure_ascii=False), encoding="utf-8")
    subprocess.run(
        [sys.executable, str(BENCH / "score.py"), str(out / "pred.json"), "--data",
         str(BENCH / "data"), "--manifest", str(BENCH / "manifest.csv"), "--by", "source",
         "--json", str(out / "scores.json"), "--per-page", str(out / "pages.csv")],
        check=True, capture_output=True,
    )  # fmt: skip
    with open(out / "pages.csv", encoding="utf-8") as pages:
        by_page = {row["key"]: row for row in csv.DictReader(pages)}
    return json.loads((out / "scores.json").read_text()), by_page


@pytest.fixture(scope="module")
def scores(scored):
    return scored[0]


@pytest.fixture(scope="module")
def scores_by_page(scored):
    return scored[1]


def test_comment_pages_meet_the_targets(scores):
    row = scores["source=trafilatura"]  # measured F1 0.952, author 0.991, time 1.000
    assert row["macro_f1"] >= 0.94 and row["author_acc"] >= 0.97 and row["time_acc"] >= 0.95


def test_forum_pages_meet_the_targets(scores):
    row = scores["source=harvest"]  # measured F1 0.959, author 0.915, time 0.895
    assert row["macro_f1"] >= 0.94 and row["author_acc"] >= 0.9 and row["time_acc"] >= 0.88


def test_the_chinese_forum_pages_give_their_posts(scores):
    assert scores["source=magichtml"]["macro_f1"] >= 0.95  # measured 0.967, all three pages


def test_forum_pages_of_unseen_software(scores):
    # issue 24: 30 pages of 20 platforms; measured F1 0.942, author 0.981, time 0.877
    row = scores["source=magichtml-forums"]
    assert row["macro_f1"] >= 0.93 and row["author_acc"] >= 0.96 and row["time_acc"] >= 0.86


def test_every_chinese_forum_page_gives_its_posts(scores_by_page):
    # issue 24: every Chinese forum page at F1 0.8 or more (measured 0.90–1.00, 8 pages)
    chinese = {k: v for k, v in scores_by_page.items() if v["lang"] == "zh"}
    assert len(chinese) >= 8
    assert {k: v["f1"] for k, v in chinese.items() if float(v["f1"]) < 0.8} == {}
