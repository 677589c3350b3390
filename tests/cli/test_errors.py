"""Every command × every kind of mistake a user makes, each in a subprocess as the user runs
it: the exit status from the one table (topiccrawler/errors.py), exactly one line on stderr
naming the culprit, no traceback, and the database as it was (bytes and time, or still
absent)."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.servers import closed_port
from topiccrawler.errors import EXIT_USAGE
from topiccrawler.items import PageItem
from topiccrawler.storage import Database, store_page

TOPICCRAWLER = [sys.executable, "-m", "topiccrawler.cli"]
SCRAPY_CRAWL = [sys.executable, "-m", "scrapy", "crawl", "topic"]
BROKEN_TOPIC = '[topic]\nthreshold = "high"\n[subjects]\n"a" = []\n'

# (case, command line, what the one line must name, the database the case starts from).
# {db}: the database URL; {dir}: the test's folder; {bad}: a folder with a broken topic "bad".
READERS = [["stats"], ["search", "tax"], ["stories", "tax"], ["runs", "tax"], ["report", "tax", "--out", "{dir}/r.html"],
           ["db", "current"]]  # fmt: skip
WRITERS = [["db", "upgrade"], ["rejudge", "tax"], ["terms", "list", "tax"]]
DATABASE_CASES = [
    ("unknown scheme", "foo://bar", "unknown database kind 'foo'"),
    ("missing driver", "mysql://user@127.0.0.1/x", "pip install mysqlclient"),
    ("not a URL", "no-scheme-at-all", "is not a database URL"),
    ("folder is a file", "sqlite:///{dir}/a-file/x.db", "a-file is a file, not a folder"),
    ("not a database", "sqlite:///{dir}/garbage.db", "not a topiccrawler SQLite database"),
    ("unreachable server", "postgresql://127.0.0.1:{port}/test", "is the database server running"),
]


def cases():
    for name, url, culprit in DATABASE_CASES:
        for argv in READERS + WRITERS:
            yield f"{' '.join(argv[:2])}: {name}", ["-s", f"DATABASE_URL={url}", *argv], culprit
        crawl = [*SCRAPY_CRAWL, "-a", "topic=tax", "-s", f"DATABASE_URL={url}"]
        yield f"scrapy crawl: {name}", crawl, culprit
        demo = ["demo", "--db", url if "://" in url else "{dir}/a-file/demo.db"]
        yield f"demo: {name}", demo, culprit if "://" in url else "a-file is a file"
    for argv in (*READERS[:-1], *WRITERS[:2]):  # a schema of a later version
        yield (
            f"{' '.join(argv[:2])}: newer schema",
            ["-s", "DATABASE_URL={newer}", *argv],
            ("upgrade topiccrawler"),
        )
    yield (
        "scrapy crawl: newer schema",
        [*SCRAPY_CRAWL, "-a", "topic=tax", "-s", "DATABASE_URL={newer}"],
        ("upgrade topiccrawler"),
    )
    for argv in READERS:  # a command that only reads never creates a database
        yield (
            f"{' '.join(argv[:2])}: no database",
            ["-s", "DATABASE_URL={missing}", *argv],
            ("no database at"),
        )
    for argv in (["stories", "nosuchtopic"], ["runs", "nosuchtopic"], ["stats", "--topic", "nope"],
                 ["report", "nosuchtopic", "--out", "{dir}/r.html"]):  # fmt: skip
        yield f"{argv[0]}: unknown topic", ["-s", "DATABASE_URL={good}", *argv], "unknown topic"
    for argv in (
        ["rejudge", "nope"],
        ["terms", "list", "nope"],
        ["schedule", "nope", "--every", "6h"],
    ):
        yield (
            f"{argv[0]}: unknown topic",
            ["-s", "DATABASE_URL={good}", *argv],
            "unknown topic 'nope'",
        )
    yield "scrapy crawl: unknown topic", [*SCRAPY_CRAWL, "-a", "topic=nope"], "unknown topic 'nope'"
    broken = ["-s", "TOPIC_KEYWORDS_DIR={bad}/keywords", "-s", "TOPIC_SEEDS_DIR={bad}/seeds"]
    for argv in (
        ["rejudge", "bad"],
        ["terms", "list", "bad"],
        ["schedule", "bad", "--every", "1d"],
    ):
        yield (
            f"{argv[0]}: broken topic file",
            [*broken, "-s", "DATABASE_URL={good}", *argv],
            ("bad.toml:2: 'topic.threshold' must be a number"),
        )
    yield (
        "scrapy crawl: broken topic file",
        [*SCRAPY_CRAWL, "-a", "keywords={bad}/keywords/bad.toml"],
        ("bad.toml:2: 'topic.threshold' must be a number"),
    )
    for name, argv, culprit in (
        ("rejudge --threshold abc", ["rejudge", "tax", "--threshold", "abc"], "--threshold"),
        ("rejudge --threshold 7", ["rejudge", "tax", "--threshold", "7"], "--threshold"),
        ("runs --limit x", ["runs", "tax", "--limit", "x"], "--limit"),
        ("stories --limit 0", ["stories", "tax", "--limit", "0"], "--limit"),
        (
            "report --since March",
            ["report", "tax", "--out", "{dir}/r.html", "--since", "March"],
            "--since",
        ),
        ("report without --out", ["report", "tax"], "--out"),
        ("schedule --every often", ["schedule", "tax", "--every", "often"], "--every"),
        ("sandbox --port 99999", ["sandbox", "serve", "--port", "99999"], "--port"),
        ("demo --port x", ["demo", "--port", "x"], "--port"),
        ("demo --log-level LOUD", ["demo", "--log-level", "LOUD"], "--log-level"),
        ("terms --max-pages -1", ["terms", "bootstrap", "tax", "--max-pages", "-1"], "--max-pages"),
        ("terms bootstrap without --site", ["terms", "bootstrap", "tax"], "--site"),
        (
            "terms bootstrap --site notaurl",
            ["terms", "bootstrap", "tax", "--site", "x"],
            "--site x",
        ),
        ("extract --format xml", ["extract", "x.html", "--format", "xml"], "--format"),
        ("unknown command", ["fly"], "invalid choice: 'fly'"),
        ("-s without =", ["-s", "DATABASE_URL", "stats"], "NAME=VALUE"),
        ("topics new with a bad name", ["topics", "new", "no good"], "topic name 'no good'"),
    ):
        yield name, ["-s", "DATABASE_URL={good}", *argv], culprit
    for name, argv, culprit in (
        (
            "report --out in no folder",
            ["report", "tax", "--out", "{dir}/none/r.html"],
            "does not exist",
        ),
        ("report --out a folder", ["report", "tax", "--out", "{dir}"], "is a folder"),
        (
            "terms review --apply missing",
            ["terms", "review", "tax", "--apply", "{dir}/no.txt"],
            "no.txt",
        ),
    ):
        yield f"output: {name}", ["-s", "DATABASE_URL={good}", *argv], culprit
    for name, option in (("-o", ["-o", "{dir}/a-file/out.jsonl"]),
                         ("JOBDIR", ["-s", "JOBDIR={dir}/a-file/job"]),
                         ("LOG_FILE", ["-s", "LOG_FILE={dir}/a-file/crawl.log"])):  # fmt: skip
        crawl = [*SCRAPY_CRAWL, "-a", "topic=tax", "-s", "DATABASE_URL={good}", *option]
        yield (
            f"scrapy crawl {name} in a file",
            crawl,
            f"{name} {{dir}}/a-file" if name == "-o" else f"{name}={{dir}}/a-file",
        )


CASES = list(cases())


@pytest.fixture(scope="module")
def good_database(tmp_path_factory) -> Path:
    """A database at the head schema with one page of the topic 'tax'."""
    path = tmp_path_factory.mktemp("good") / "good.db"
    database = Database(f"sqlite:///{path}")
    database.upgrade()
    with database.session() as session, session.begin():
        store_page(session, PageItem(url="http://a.example/1", topic="tax", status=200,
                                     fetched_at=datetime.now(UTC), is_relevant=True))  # fmt: skip
    database.dispose()
    return path


def snapshot(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file of the folder with its time and bytes: a command that fails changes none."""
    return {
        str(p.relative_to(folder)): (p.stat().st_mtime_ns, p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize(("argv", "culprit"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_mistake_gives_one_line_and_status_2(argv, culprit, tmp_path, good_database):
    (tmp_path / "a-file").write_text("not a folder", encoding="utf-8")
    (tmp_path / "garbage.db").write_bytes(b"this is no database, but a user's notes\n" * 100)
    shutil.copy(good_database, tmp_path / "good.db")
    shutil.copy(good_database, tmp_path / "newer.db")
    with sqlite3.connect(tmp_path / "newer.db") as connection:
        connection.execute("update alembic_version set version_num = 'ffff9999'")
    connection.close()
    bad = tmp_path / "bad"
    (bad / "keywords").mkdir(parents=True)
    (bad / "seeds").mkdir()
    (bad / "keywords" / "bad.toml").write_text(BROKEN_TOPIC, encoding="utf-8")
    values = {"dir": tmp_path, "bad": bad, "port": closed_port(),
              "good": f"sqlite:///{tmp_path / 'good.db'}", "missing": f"sqlite:///{tmp_path / 'missing.db'}",
              "newer": f"sqlite:///{tmp_path / 'newer.db'}"}  # fmt: skip
    command = [part.format(**values) for part in argv]
    if command[0] != sys.executable:
        command = [*TOPICCRAWLER, *command]
    before = snapshot(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "TOPICCRAWLER_DATABASE_URL"}
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == EXIT_USAGE, (done.stdout[-2000:], done.stderr[-3000:])
    assert len(lines) == 1, done.stderr[-3000:]
    assert culprit.format(**values) in lines[0], lines[0]
    assert "Traceback" not in done.stdout + done.stderr
    assert snapshot(tmp_path) == before  # nothing created, nothing changed


def test_every_option_has_help():
    from topiccrawler.cli import build_parser

    parser = build_parser()
    (subparsers,) = [a for a in parser._actions if a.choices and a.dest == "command"]
    for name, sub in [("topiccrawler", parser), *subparsers.choices.items()]:
        for action in sub._actions:
            if action.dest != "help":
                assert action.help, f"{name}: {action.option_strings or action.dest} has no help"


def test_version():
    from topiccrawler import __version__

    done = subprocess.run([*TOPICCRAWLER, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == f"topiccrawler {__version__}"


def test_the_documented_exit_statuses_are_the_table():
    from topiccrawler.errors import EXIT_STATUSES

    text = (ROOT / "docs" / "crawling" / "index.md").read_text(encoding="utf-8")
    section = text.split("## Exit status", 1)[1].split("\n## ", 1)[0]
    documented = [int(m) for m in re.findall(r"^\| (\d+) \|", section, re.M)]
    assert documented == sorted(EXIT_STATUSES)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/crawling/index.md" in readme  # where the README sends readers for them


@pytest.mark.skipif(
    os.geteuid() == 0, reason="root may read and write any file: no permission to lack"
)
@pytest.mark.parametrize("argv", [["stats"], ["db", "upgrade"]], ids=["reader", "writer"])
def test_a_database_without_permission(argv, tmp_path, good_database):
    shutil.copy(good_database, tmp_path / "good.db")
    (tmp_path / "good.db").chmod(0)
    try:
        done = subprocess.run(
            [*TOPICCRAWLER, "-s", f"DATABASE_URL=sqlite:///{tmp_path / 'good.db'}", *argv],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    finally:
        (tmp_path / "good.db").chmod(0o644)
    assert done.returncode == EXIT_USAGE, done.stderr
    assert done.stderr.count("\n") == 1 and "no permission" in done.stderr
