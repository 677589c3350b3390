"""`topiccrawler search` and `topiccrawler serve` as a user runs them."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from topiccrawler.cli import main
from topiccrawler.items import CommentRecord, PageItem
from topiccrawler.storage import Database, store_page


@pytest.fixture
def database_url(tmp_path) -> str:
    url = f"sqlite:///{tmp_path / 'crawl.db'}"
    database = Database(url)
    database.upgrade()
    with database.session() as session, session.begin():
        for n, (title, body, relevant) in enumerate([
            ("增值税发票新规", "国家税务总局发布增值税专用发票管理办法。", True),
            ("\x1b[2J个人所得税\x1b]8;;http://x/\x07汇算", "个人所得税年度汇算开始了。", True),
            ("车展开幕", None, False),
        ]):  # fmt: skip
            store_page(session, PageItem(
                url=f"http://news.test/{n}", topic="tax", status=200,
                fetched_at=datetime(2026, 11, 23, tzinfo=UTC), title=title, body=body,
                published_at=datetime(2026, 11, 20 + n, tzinfo=UTC), is_relevant=relevant,
                relevance=0.2 if relevant else 0.01,
                comments=[CommentRecord("电子发票好用", author="小王")] if n == 0 else [],
            ))  # fmt: skip
    database.dispose()
    return url


def search(url: str, *args: str) -> int:
    """The exit status, as the shell sees it (argparse's refusals exit from within)."""
    try:
        return main(["-s", f"DATABASE_URL={url}", "search", *args])
    except SystemExit as exit_:
        return exit_.code


def test_hits_a_line_each_with_the_words_marked(database_url, capsys):
    assert search(database_url, "发票") == 0
    out, err = capsys.readouterr()
    assert "增值税发票新规" in out and "[comment] 增值税发票新规" in out
    assert "«发票»" in out and "http://news.test/0" in out
    assert "2 of 2 hits" in err


def test_json_a_hit_a_line(database_url, capsys):
    assert search(database_url, "发票", "--json", "--kind", "comment") == 0
    (hit,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert hit["kind"] == "comment" and hit["page_url"] == "http://news.test/0"
    assert hit["snippet"] == "电子发票好用" and hit["snippet_marks"] == [[2, 4]]
    assert {"url", "title", "score", "published_at"} <= set(hit)


def test_filters(database_url, capsys):
    assert search(database_url, "个人所得税", "--since", "2026-11-21", "--until", "2026-11-21") == 0
    assert search(database_url, "个人所得税", "--since", "2026-11-22") == 1
    assert search(database_url, "车展") == 1  # not kept
    assert search(database_url, "车展", "--all", "--site", "news.test", "--topic", "tax") == 0


def test_crawled_terminal_escapes_are_printed_escaped(database_url, capsys):
    assert search(database_url, "个人所得税") == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\u001b[2J" in out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--", "-发票"], "only excludes words"),
        (["的"], "too common"),
        (["发票", "--kind", "thread"], "argument --kind"),
        (["发票", "--since", "monday"], "argument --since"),
        (["发票", "--limit", "0"], "argument --limit"),
    ],
)
def test_what_cannot_be_searched_is_one_line_and_status_2(database_url, capsys, args, says):
    assert search(database_url, *args) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_no_database_is_created_by_a_search(tmp_path, capsys):
    missing = tmp_path / "nothing.db"
    assert search(f"sqlite:///{missing}", "发票") == 2
    assert not missing.exists()
    assert "no database at" in capsys.readouterr().err


def test_serve_beyond_loopback_needs_a_token(database_url, capsys):
    assert main(["-s", f"DATABASE_URL={database_url}", "serve", "--host", "0.0.0.0"]) == 2
    err = capsys.readouterr().err
    assert "--token" in err and len(err.strip().splitlines()) == 1


def test_serve_on_a_port_in_use_says_so(database_url):
    """In its own process, as users run it (the tests' thread runs the reactor's loop)."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "topiccrawler.cli", "-s", f"DATABASE_URL={database_url}",
             "serve", "--port", str(port)],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    assert done.returncode == 2, done.stderr
    said = done.stderr.strip().splitlines()
    assert "could not listen" in said[-1] and "Traceback" not in done.stderr
