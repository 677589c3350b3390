"""The report's HTML: crawled text is shown as text (escaped, also in plots), nothing is loaded
from anywhere, and an empty or a hostile database still gives a report."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from topiccrawler.cli import main
from topiccrawler.items import CommentRecord, PageItem
from topiccrawler.report import gather, render
from topiccrawler.storage import Database
from topiccrawler.storage.writer import store_page

HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(2)>',
    "</title><iframe src=//evil.example>",
    "\x1b]52;c;bWFsaWNl\x07",
]


def hostile_database(url: str) -> None:
    db = Database(url)
    db.upgrade()
    start = datetime(2026, 3, 1, tzinfo=UTC)
    with db.session() as session, session.begin():
        for n, payload in enumerate(HOSTILE):
            store_page(
                session,
                PageItem(
                    url=f"http://site{n}.example/a{n}", topic="tax", status=200,
                    fetched_at=start + timedelta(hours=n), published_at=start + timedelta(hours=n),
                    title=f"增值税 {payload}", body=f"正文 {payload}", relevance=0.2 + n / 10,
                    is_relevant=True, summary=f"摘要 {payload}",
                    keywords=[(f"词{payload}", 1.0)],
                    entities=[{"name": payload, "kind": "person", "mentions": 3}],
                    duplicate_of=None if n == 0 else "http://site0.example/a0",
                    comments=[CommentRecord(f"评论 {payload}", author=payload)],
                ),
            )  # fmt: skip
    db.dispose()


@pytest.fixture
def hostile_report(sqlite_url) -> str:
    hostile_database(sqlite_url)
    db = Database(sqlite_url)
    with db.session() as session:
        page = render(gather(session, "tax"))
    db.dispose()
    return page


def test_crawled_text_is_escaped_everywhere(hostile_report):
    page = hostile_report
    for payload in HOSTILE[:3]:
        assert payload not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "\x1b" not in page and "\x07" not in page
    # Our one script, no other; no element loads anything from anywhere.
    assert page.count("<script") == 1
    assert not re.search(r"<(?:img|iframe|link|script)[^>]+(?:src|href)=\"(?!data:)", page)
    assert 'http-equiv="Content-Security-Policy"' in page
    policy = re.search(r'Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "default-src &#x27;none&#x27;" in policy and "img-src data:" in policy


def test_plot_labels_carry_no_markup(hostile_report):
    """A crawled label in a plot is text: drawn as glyph outlines where a CJK font is installed,
    kept as escaped SVG text where none is; either way no element, handler or comment of it."""
    import base64

    from lxml import etree

    page = hostile_report
    svgs = [base64.b64decode(m) for m in re.findall(r"data:image/svg\+xml;base64,([^\"]+)", page)]
    assert len(svgs) >= 4
    for svg in svgs:
        assert b"<script" not in svg and b"<!--" not in svg
        root = etree.fromstring(svg, etree.XMLParser(resolve_entities=False, no_network=True))
        assert not root.xpath("//*[local-name()='script' or local-name()='img']")
        assert not root.xpath("//@*[starts-with(local-name(), 'on')]")
        assert not root.xpath("//comment()")


def test_stories_attention_and_names_in_the_report(sqlite_url):
    hostile_database(sqlite_url)
    db = Database(sqlite_url)
    with db.session() as session:
        data = gather(session, "tax")
    db.dispose()
    assert data.pages == 4 and data.kept == 4 and data.comments == 4
    (story,) = data.stories
    assert [p.site for p in story.pages][0] == "site0.example" and story.attention == 4
    assert data.entities[0][1:] == ("person", 3)


def test_an_empty_database_gives_a_report(sqlite_url, tmp_path, capsys):
    Database(sqlite_url).upgrade()
    out = tmp_path / "report.html"
    # Written all the same; the exit status says nothing was found.
    assert main(["-s", f"DATABASE_URL={sqlite_url}", "report", "tax", "--out", str(out)]) == 1
    page = out.read_text(encoding="utf-8")
    assert "No page judged yet." in page and "<script>" in page
    assert "0 pages" in capsys.readouterr().out


def test_since_and_bad_dates(sqlite_url, tmp_path, capsys):
    hostile_database(sqlite_url)
    out = tmp_path / "report.html"
    args = ["-s", f"DATABASE_URL={sqlite_url}", "report", "tax", "--out", str(out)]
    assert main([*args, "--since", "2026-03-02"]) == 1  # a report, of nothing
    assert "0 pages" in capsys.readouterr().out
    try:
        main([*args, "--since", "March"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "not a date" in capsys.readouterr().err
