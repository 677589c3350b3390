"""The `topiccrawler` command: topics, db, stats."""

from __future__ import annotations

from datetime import UTC, datetime

from topiccrawler.cli import main
from topiccrawler.items import CommentRecord, PageItem
from topiccrawler.storage import Database, store_page
from topiccrawler.storage.db import head_revision


def test_topics_lists_and_validates(capsys):
    assert main(["topics"]) == 0
    out = capsys.readouterr().out
    assert "tax" in out and "overseas-chinese" in out and "ERROR" not in out


def test_topics_reports_a_broken_file(tmp_path, capsys):
    (tmp_path / "keywords").mkdir()
    (tmp_path / "seeds").mkdir()
    (tmp_path / "keywords/bad.toml").write_text('[subjects]\n"a" = 1\n', encoding="utf-8")
    code = main(
        [
            "-s",
            f"TOPIC_KEYWORDS_DIR={tmp_path / 'keywords'}",
            "-s",
            f"TOPIC_SEEDS_DIR={tmp_path / 'seeds'}",
            "topics",
        ]
    )
    assert code == 1
    assert "bad.toml:2: 'subjects.a' must be a list of strings" in capsys.readouterr().out


def test_db_upgrade_and_stats(sqlite_url, capsys):
    assert main(["-s", f"DATABASE_URL={sqlite_url}", "db", "upgrade"]) == 0
    head = head_revision()
    assert f"schema revision {head} (head {head})" in capsys.readouterr().out

    db = Database(sqlite_url)
    with db.session() as session, session.begin():
        for n, site in enumerate(["a.example", "a.example", "b.example"]):
            store_page(session, PageItem(
                url=f"http://{site}/{n}", topic="tax", status=200, fetched_at=datetime.now(UTC),
                is_relevant=n != 1, comments=[CommentRecord("评论一"), CommentRecord("评论二")],
            ))  # fmt: skip
    db.dispose()
    assert main(["-s", f"DATABASE_URL={sqlite_url}", "stats"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].split() == ["tax", "a.example", "2", "1", "0", "4", "0", "0"]
    assert lines[3].split() == ["tax", "b.example", "1", "1", "0", "2", "0", "0"]
    assert lines[4].split() == ["total", "3", "2", "0", "6", "0", "0"]


def test_stats_on_an_empty_database_says_what_to_do(tmp_path, capsys):
    assert main(["-s", f"DATABASE_URL=sqlite:///{tmp_path / 'none.db'}", "stats"]) == 1
    assert "topiccrawler db upgrade" in capsys.readouterr().err
