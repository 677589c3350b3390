"""Comments delimited by their signatures (talk pages), read where no repeated markup holds
them: pages written for these tests."""

from __future__ import annotations

from topiccrawler.extract.page import extract_page
from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.signed import signed_comments


def signed(text: str, user: str, when: str) -> str:
    return (
        f'{text} &mdash;&nbsp;<a href="/wiki/User:{user}">{user}</a> '
        f'(<a href="/wiki/User_talk:{user}">talk</a>) {when} (UTC)'
    )


TALK = f"""<html><body><h1>Talk:River Thames</h1><div class="mw-parser-output">
<p>This is the talk page for discussing improvements to the article.</p>
<h2>Length of the river</h2>
<p>{signed("The infobox gives 346 km but the lead says 215 miles. Which source do we follow?", "Riverbank", "10:20, 12 May 2019")}</p>
<dl><dd>{signed("The two figures are the same length in different units.", "Hydro42", "11:02, 12 May 2019")}
<dl><dd>{signed("You are right, I misread the conversion.", "Riverbank", "09:15, 13 May 2019")}</dd></dl></dd></dl>
</div></body></html>"""  # fmt: skip


def test_each_signed_paragraph_is_a_comment_by_its_signature_and_replies_nest():
    comments = extract_page(
        TALK, url="https://wiki.example.test/wiki/Talk:River_Thames"
    ).records.comments
    assert [(c.author, c.time, c.reply_to) for c in comments] == [
        ("Riverbank", "10:20, 12 May 2019", None),
        ("Hydro42", "11:02, 12 May 2019", None),
        ("Riverbank", "09:15, 13 May 2019", "Hydro42"),
    ]
    assert comments[0].text == (
        "The infobox gives 346 km but the lead says 215 miles. Which source do we follow?"
    )
    assert comments[1].author_url == "/wiki/User:Hydro42"
    assert comments[2].published_at.date().isoformat() == "2019-05-13"


def test_an_article_signed_once_or_quoting_sources_has_no_signed_comments():
    byline = f"""<html><body><article><p>Rivers are measured along their main channel.</p>
<p>{signed("Written for the river society.", "Editor", "10:20, 12 May 2019")}</p>
<p>A <a href="/users/ann">quoted expert</a> said the figures differ by source, 12 May 2019.</p>
</article></body></html>"""  # fmt: skip
    body = parse_html(byline).find("body")
    assert signed_comments(body) == ([], [])
    # a signature must end its comment: a name and a date inside a sentence sign nothing
    prose = "".join(
        f'<p>As <a href="/users/u{i}">user {i}</a> wrote on 12 May 2019, the data is old.</p>'
        for i in range(4)
    )
    assert signed_comments(parse_html(f"<html><body>{prose}</body></html>").find("body")) == (
        [],
        [],
    )
