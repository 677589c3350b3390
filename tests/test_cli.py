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


def test_stats_on_no_database_says_what_to_do_and_creates_none(tmp_path, capsys):
    assert main(["-s", f"DATABASE_URL=sqlite:///{tmp_path / 'none.db'}", "stats"]) == 2
    assert "topiccrawler db upgrade" in capsys.readouterr().err
    assert not (tmp_path / "none.db").exists()


def test_extract_many_files_and_bad_ones(tmp_path, capsys):
    import json

    from tests.servers import FIXTURES

    binary = tmp_path / "image.html"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    code = main(
        ["extract", str(FIXTURES / "site/news"), str(binary), str(tmp_path / "missing.html")]
    )
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1  # some inputs failed; the others were still extracted
    by_name = {r["source"].rsplit("/", 1)[-1]: r for r in records}
    assert by_name["vat-reform.html"]["title"] == "增值税改革新政解读"
    assert by_name["vat-reform.html"]["author"] == "李明"
    assert by_name["vat-reform.html"]["published_at"] == "2026-03-15T09:30:00+08:00"
    assert set(by_name["vat-reform.html"]) >= {
        "source",
        "title",
        "body",
        "published",
        "author",
        "comments",
        "posts",
        "threads",
    }
    assert "虚开增值税专用发票" in by_name["evasion-case.html"]["body"]  # GBK, decoded
    assert by_name["image.html"]["error"] == "binary content, not an HTML page"
    assert by_name["missing.html"]["error"].startswith("cannot read")


def test_stories_lists_first_publisher_and_reposts(sqlite_url, capsys):
    db = Database(sqlite_url)
    db.upgrade()
    times = [
        datetime(2026, 3, 1, 8, tzinfo=UTC),
        datetime(2026, 3, 1, 12, tzinfo=UTC),
        datetime(2026, 3, 2, tzinfo=UTC),
    ]
    with db.session() as session, session.begin():
        for url, when, original in [
            ("http://first.example/a", times[0], None),
            ("http://second.example/b", times[1], "http://first.example/a"),
            ("http://third.example/c", times[2], "http://second.example/b"),
        ]:
            store_page(session, PageItem(url=url, topic="tax", status=200, fetched_at=when, published_at=when,
                                         title="增值税新政解读", duplicate_of=original,
                                         keywords=[("增值税", 1.0), ("新政", 0.5)],
                                         entities=[{"name": "国家税务总局", "kind": "organisation", "mentions": 2}],
                                         comments=[CommentRecord(f"{url} 的评论")]))  # fmt: skip
    db.dispose()
    assert main(["-s", f"DATABASE_URL={sqlite_url}", "stories", "tax"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "增值税新政解读  (3 pages on 3 sites, 3 comments and posts)"
    assert lines[1] == "  keywords: 增值税, 新政"
    assert lines[2] == "  names:    国家税务总局 (organisation)"
    assert lines[3].split()[:2] == ["first", "2026-03-01"] and "first.example" in lines[3]
    assert [line.split()[0] for line in lines[3:]] == ["first", "repost", "repost"]


def test_extract_gives_comments_and_posts(tmp_path, capsys):
    import json

    from tests.extract.records.test_comments import SIX, news_page
    from tests.extract.records.test_forum import POSTS, thread_page

    (tmp_path / "news.html").write_text(news_page(SIX), encoding="utf-8")
    (tmp_path / "thread.html").write_text(thread_page(POSTS), encoding="utf-8")
    assert main(["extract", str(tmp_path)]) == 0
    records = {
        r["source"].rsplit("/", 1)[-1]: r
        for r in map(json.loads, capsys.readouterr().out.splitlines())
    }
    news, thread = records["news.html"], records["thread.html"]
    assert [c["author"] for c in news["comments"]][:2] == ["张三", "李四"]
    assert news["comments"][0]["published_at"] == "2026-05-20T10:00:00+08:00"
    assert [p["author"] for p in thread["posts"]] == ["清风徐来", "小王同学", "财务张姐"]


def test_commands_use_the_database_of_the_environment(tmp_path, monkeypatch, capsys):
    url = f"sqlite:///{tmp_path / 'configured.db'}"
    monkeypatch.setenv("TOPICCRAWLER_DATABASE_URL", url)
    monkeypatch.chdir(tmp_path)  # no project here: nothing else to fall back on
    assert main(["db", "upgrade"]) == 0
    assert main(["stats"]) == 1  # done, nothing found
    out = capsys.readouterr().out
    assert out.count(url) == 2 and "no pages stored yet" in out
    assert not (tmp_path / "data").exists()  # not the default SQLite file
