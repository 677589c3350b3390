"""Crawled text is data: a hostile page's markup and terminal escapes are stored as inert text
and printed escaped; CSV exports hold no formulas."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime

from scrapy.utils.defer import deferred_f_from_coro_f
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.crawl import crawl
from tests.middlewares.test_address_guard import RecordingServer
from topiccrawler.cli import main
from topiccrawler.exporters import FormulaSafeCsvItemExporter
from topiccrawler.extraction_workers import read_page
from topiccrawler.guard.text import (
    CONTROL_CANDIDATE,
    CONTROL_REFERENCE,
    _control_reference,
    drop_controls,
    drop_html_controls,
    escape_controls,
    has_controls,
    make_inert,
)
from topiccrawler.items import CommentRecord, PageItem, SearchHitRecord, SearchResultsItem
from topiccrawler.middlewares.extraction import fill
from topiccrawler.storage import Database, store_page
from topiccrawler.storage.models import Comment, Page

ANY_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
ESC = "\x1b"
# Clear the screen, set the window title, a hyperlink (OSC 8), a one-byte C1 CSI, a bell.
ESCAPES = f"{ESC}[2J{ESC}]0;pwned\x07{ESC}]8;;http://evil.example/{ESC}\\\x9b31m\r"


def hostile_page() -> str:
    comment = (
        '<div class="comment"><span class="author" onmouseover="alert(1)">{author}</span>'
        '<span class="time">2026-03-0{n} 10:00</span>'
        '<p onclick="alert(2)">增值税发票的问题，第 {n} 条评论，写得很清楚。{escapes}</p></div>'
    )
    authors = [f"<script>alert('a')</script>张三{ESC}[1m\x9b0m", f"李四{ESC}]0;x\x07", "王五"]
    comments = "".join(
        comment.format(author=a, n=n, escapes=ESC + "[0m") for n, a in enumerate(authors, 1)
    )
    return (
        '<html><head><meta charset="utf-8">'
        f"<title>增值税新政&lt;script&gt;alert(1)&lt;/script&gt;{ESCAPES}解读</title></head>"
        '<body onload="alert(3)"><article><h1>=HYPERLINK("http://evil.example/","增值税新政解读")</h1>'
        f'<p onclick="alert(4)">小规模纳税人{ESC}[2J继续享受增值税减免政策。<img src=x onerror="alert(5)">'
        "一般纳税人按规定申报纳税，税务机关加强发票管理。</p>"
        f"<p>&lt;script&gt;document.cookie&lt;/script&gt; 财政部 税务总局公告{ESCAPES}&#27;[2J&#x9b;。</p>"
        "<script>alert(6)</script></article>"
        f'<div class="comments">{comments}</div></body></html>'
    )


def _no_controls(*texts: str | None) -> bool:
    return not any(ANY_CONTROL.search(t or "") for t in texts)


@deferred_f_from_coro_f
async def test_a_hostile_page_is_stored_as_inert_text(tmp_path, sqlite_url, capsys):
    source = hostile_page()
    assert ESC in source and "\x9b" in source
    with RecordingServer("127.0.0.1", {"/": (200, {}, source)}) as server:
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(
            f'[[authority]]\nname = "hostile"\nstart_urls = ["{server.url}/"]\ndepth_limit = 0\n',
            encoding="utf-8",
        )
        feed = tmp_path / "pages.csv"
        await crawl(
            {
                "DATABASE_URL": sqlite_url,
                "RELEVANCE_ENABLED": False,
                "FEEDS": {
                    str(feed): {
                        "format": "csv",
                        "item_classes": ["topiccrawler.items.PageItem"],
                        "fields": ["url", "title", "body"],
                    }
                },
            },
            topic="tax",
            seeds=str(seeds),
        )
    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        page = session.scalars(select(Page)).one()
        comments = list(session.scalars(select(Comment)))
    engine.dispose()
    assert "增值税新政" in page.title and "<script>alert(1)</script>" in page.title  # as text
    assert "小规模纳税人" in page.body and "财政部" in page.body
    assert len(comments) == 3 and any("张三" in (c.author or "") for c in comments)
    assert _no_controls(page.title, page.body, page.author, page.source)
    assert _no_controls(*(c.text for c in comments), *(c.author for c in comments))
    with feed.open(encoding="utf-8", newline="") as exported:
        (row,) = list(csv.DictReader(exported))
    assert row["body"].startswith("'=HYPERLINK(")  # shown as text by a spreadsheet, not run

    # Pages stored before this rule, with their escapes: printed escaped, never raw.
    db = Database(sqlite_url)
    when = datetime(2026, 2, 1, tzinfo=UTC)
    with db.session() as session, session.begin():
        for url, original in (
            ("http://legacy.example/a", None),
            ("http://repost.example/b", "http://legacy.example/a"),
            ("http://repost.example/c", f"{server.url}/"),
        ):
            store_page(session, PageItem(
                url=url, topic="tax", status=200, fetched_at=when, published_at=when,
                title=f"增值税新政{ESCAPES}解读", duplicate_of=original,
                comments=[CommentRecord(text=f"好{ESC}[2J", author=f"赵六{ESC}]0;x\x07")],
            ))  # fmt: skip
    db.dispose()
    capsys.readouterr()
    for command in (["stories", "tax"], ["stats"], ["stats", "--topic", "tax"]):
        assert main(["-s", f"DATABASE_URL={sqlite_url}", *command]) == 0
        out = capsys.readouterr().out
        assert _no_controls(out.replace("\n", "")), command
    assert main(["-s", f"DATABASE_URL={sqlite_url}", "stories", "tax"]) == 0
    assert "\\u001b[2J" in capsys.readouterr().out  # shown, as data


def test_extract_command_prints_no_escape(tmp_path, capsys):
    page = tmp_path / "hostile.html"
    page.write_text(hostile_page(), encoding="utf-8")
    for form in ("jsonl", "text"):
        main(["extract", "--format", form, str(page)])
        out = capsys.readouterr().out
        assert _no_controls(out.replace("\n", "").replace("\t", "")), form
        assert "增值税" in out


def test_drop_controls_keeps_newlines_tabs_and_text():
    assert drop_controls("a\tb\nc\r\nd\re\x00f\x1b[0m\x7f\x85\x9bg 税") == "a\tb\nc\nd\nef[0mg 税"
    assert drop_controls("") == "" and drop_controls(None) is None


def test_controls_found_in_bytes_as_the_pattern_finds_them():
    """has_controls reads UTF-8 bytes; it answers as ANY_CONTROL does for every character
    below U+0800 (one- and two-byte sequences, C1 among them) and for wide ones."""
    for code in [*range(0x800), 0xD800, 0xFFFE, 0x1F600]:
        text = f"<p>文{chr(code)}x</p>"
        assert has_controls(text) == bool(ANY_CONTROL.search(text)), hex(code)
    assert drop_html_controls("<p>a\x00b\x0cc\x9bd&#27;e&#x85;f\u00a0&#10;</p>") == (
        "<p>ab cdef\u00a0&#10;</p>"
    )
    page = "<p>清洁的页面 &amp; nothing to drop</p>"
    assert drop_html_controls(page) is page


def test_a_page_without_control_references_is_not_rewritten_and_one_with_them_is():
    """drop_html_controls skips the rewrite where CONTROL_CANDIDATE finds nothing: it finds
    every reference CONTROL_REFERENCE would drop (any value, leading zeros, digit runs longer
    than the pattern reads) and none of the common ones (&#39;, &#8217;, &#10;)."""
    bodies = [
        *(f"{n}" for n in range(400)), *(f"x{n:x}" for n in range(400)),
        *(f"X{n:04X}" for n in range(400)), *("0" * k + "27" for k in range(12)),
        *("x" + "0" * k + "1b2" for k in range(12)), *("1" * k for k in range(1, 13)),
    ]  # fmt: skip
    for body in bodies:
        for after in ("", ";", "a", "9", " "):
            page = f"<p>q&#{body}{after}z</p>"
            expected = CONTROL_REFERENCE.sub(_control_reference, page)
            assert drop_html_controls(page) == expected, page
            if expected == page and after in ("", ";", " ") and len(body.lstrip("xX")) <= 8:
                assert CONTROL_CANDIDATE.search(page) is None, page  # no false alarm
    common = "<p>it&#39;s &#8217; &#10; &#x2014; &amp;</p>"
    assert drop_html_controls(common) is common


def test_make_inert_reaches_records_and_hits():
    page = PageItem(url="http://a.example/", topic="t", status=200,
                    fetched_at=datetime(2026, 1, 1, tzinfo=UTC), html="<b>\x1b</b>",
                    title="t\x1b", comments=[CommentRecord(text="c\x07", author="a\x9b")],
                    blocks={"anchors": "x\x1by"})  # fmt: skip
    make_inert(page)
    assert (page.title, page.comments[0].text, page.comments[0].author) == ("t", "c", "a")
    assert page.blocks == {"anchors": "xy"} and page.html == "<b>\x1b</b>"  # raw page kept
    hits = SearchResultsItem(
        "t",
        "e",
        "q",
        1,
        "ok",
        datetime(2026, 1, 1, tzinfo=UTC),
        [SearchHitRecord("http://a.example/", 1, "x\x1b[2J", "s\x9b")],
    )
    make_inert(hits)
    assert (hits.hits[0].title, hits.hits[0].snippet) == ("x[2J", "s")


def test_fields_made_inert_when_read_are_not_read_again():
    page = PageItem(url="http://a.example/", topic="t", status=200, referrer="http://r\x1b.example/",
                    fetched_at=datetime(2026, 1, 1, tzinfo=UTC), html=hostile_page())  # fmt: skip
    fill(page, read_page(page.html, page.url, page.fetched_at, None))
    assert not ANY_CONTROL.search(page.title or "") and not ANY_CONTROL.search(page.body)
    assert page.referrer == "http://r.example/"  # the item's own fields are made inert by fill
    kept = PageItem(url="u", topic="t", status=200, fetched_at=page.fetched_at, title="a\x1b")
    make_inert(kept, skip=frozenset({"title"}))
    assert kept.title == "a\x1b"


def test_escape_controls_makes_them_visible():
    assert escape_controls("a\x1b[2J\u202eb\n\tc") == "a\\u001b[2J\\u202eb\n\tc"


def test_csv_export_has_no_formulas():
    stream = io.BytesIO()
    exporter = FormulaSafeCsvItemExporter(stream, fields_to_export=["title", "author", "depth"])
    exporter.start_exporting()
    for title, author in [("=HYPERLINK(\"http://evil\",\"x\")", "+1"), ("-2+3", "@SUM(A1)"),
                          ("＝1+1", "\t=cmd"), ("增值税", "张三")]:  # fmt: skip
        exporter.export_item({"title": title, "author": author, "depth": -1})
    exporter.finish_exporting()
    rows = list(csv.reader(io.StringIO(stream.getvalue().decode("utf-8"))))
    assert rows[0] == ["title", "author", "depth"]
    for row in rows[1:4]:
        assert all(cell.startswith("'") for cell in row[:2]), row
        assert row[2] == "-1"  # numbers stay numbers
    assert rows[4] == ["增值税", "张三", "-1"]
