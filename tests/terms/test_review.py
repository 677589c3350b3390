"""The review queue (SQLite and PostgreSQL): at a terminal and through a file."""

from __future__ import annotations

import io
import re

import pytest

from topiccrawler.relevance.expansion import Candidate
from topiccrawler.storage import Database
from topiccrawler.storage.terms import accepted_expansions, pending, propose
from topiccrawler.terms.review import (
    ReviewFileError,
    apply_file,
    export_queue,
    review_interactively,
)

CANDIDATES = [
    Candidate("逃税", "偷税", "judgement_words", "cilin", 1.0),
    Candidate("漏税", "偷税", "judgement_words", "cilin", 1.0),
    Candidate("隐匿收入", "偷税", "judgement_words", "search:偷税", 7.5),
    Candidate("金税四期", "金税四期", "domain_terms", "bootstrap:http://x", 12.0),
]


@pytest.fixture
def database(database_url):
    db = Database(database_url)
    db.upgrade()
    with db.session() as session:
        assert propose(session, "tax", CANDIDATES) == 4
        session.commit()
    yield db
    db.dispose()


def test_queue_proposes_each_word_once(database):
    with database.session() as session:
        assert propose(session, "tax", CANDIDATES[:2]) == 0
        assert [r.term for r in pending(session, "tax")][:2] == [
            "金税四期",
            "隐匿收入",
        ]  # best first
        assert accepted_expansions(session, "tax") == []


def test_terminal_review(database):
    answers = iter(["a", "e", "偷漏税", "a", "x", "c", "domain_terms", "o", "金税工程", "a", "q"])
    said: list[str] = []
    with database.session() as session:
        counts = review_interactively(session, "tax", lambda _: next(answers), said.append)
        session.commit()
    assert counts == {"accepted": 3, "rejected": 0, "skipped": 1}
    with database.session() as session:
        accepted = {e.word: e for e in accepted_expansions(session, "tax")}
    assert set(accepted) == {"金税四期", "偷漏税", "漏税"}  # 逃税 skipped
    assert accepted["偷漏税"].provenance == "search:偷税" and accepted["偷漏税"].concept == "偷税"
    assert accepted["漏税"].concept == "金税工程" and accepted["漏税"].term_class == "domain_terms"
    assert said[0] == "4 candidate terms for 'tax'"


def test_file_review_round_trip(database, tmp_path):
    path = tmp_path / "tax.candidates.tsv"
    with database.session() as session:
        out = io.StringIO()
        assert export_queue(session, "tax", out) == 4
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("# Candidate terms for topic 'tax'")
    body = [line for line in lines if not line.startswith("#")]
    marked = [
        "+" + body[0][1:],
        "-" + body[1][1:],
        body[2],
        "+" + body[3][1:].replace("judgement_words", "subjects"),
    ]
    path.write_text("\n".join(lines[:4] + marked) + "\n", encoding="utf-8")
    with database.session() as session:
        assert apply_file(session, "tax", path) == {"accepted": 2, "rejected": 1, "skipped": 1}
        session.commit()
        assert len(pending(session, "tax")) == 1
        assert {e.word for e in accepted_expansions(session, "tax")} == {
            body[0].split("\t")[1],
            body[3].split("\t")[1],
        }


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("+\t逃税\t偷税\tjudgement_words\tcilin\t1", "expected 7 tab-separated fields"),
        ("!\t逃税\t偷税\tjudgement_words\tcilin\t1\t1", "decision must be +, - or ?"),
        ("+\t逃税\t偷税\tverbs\tcilin\t1\t1", "unknown class 'verbs'"),
        ("+\t逃税\t偷税\tjudgement_words\tcilin\t1\t999", "no candidate '999'"),
        ("+\t\t偷税\tjudgement_words\tcilin\t1\t1", "may not be empty"),
    ],
)
def test_bad_review_lines_name_file_and_line_and_change_nothing(database, tmp_path, line, message):
    path = tmp_path / "review.tsv"
    path.write_text(
        "# header\n+\t逃税\t偷税\tjudgement_words\tcilin\t1\t1\n" + line + "\n", encoding="utf-8"
    )
    with database.session() as session:
        with pytest.raises(ReviewFileError, match=rf"review\.tsv:3: .*{re.escape(message)}"):
            apply_file(session, "tax", path)
        assert accepted_expansions(session, "tax") == []
