"""The score a page shows beside a post (records/votes.py), on Q&A pages of our own."""

from __future__ import annotations

import json

import pytest

from topiccrawler.extract.records.page import extract_records
from topiccrawler.extract.records.votes import shown_count

URL = "https://qa.example.test/questions/7/starter-smells"


@pytest.mark.parametrize(
    ("text", "count"),
    [("12", 12), ("-3", -3), ("−2", -2), ("1,024", 1024), ("1.3k", 1300), ("2万", 20000),
     (" 0 ", 0), ("12 votes", None), ("", None), ("v2", None)],
)  # fmt: skip
def test_shown_counts(text, count):
    assert shown_count(text) == count


def qa_page() -> str:
    """A question and three answers, each with the answerer's card showing their total likes,
    then a vote box (a down button with its own count of downs, the up button, the count),
    and comments under each answer with scores of their own."""

    def post(kind, n, text, who, votes, downs, when):
        comments = "".join(
            f'<li class="comment"><span class="comment-score">{n + c}</span>'
            f'<span class="comment-copy">Comment {c} on post {n}: that matches what I saw.</span>'
            f' – <a class="user" href="/users/c{c}">commenter{c}</a> '
            f'<span class="when">Mar {c + 1}, 2024 at 10:0{c}</span></li>'
            for c in (1, 2)
        )
        return (
            f'<div class="{kind}" id="{kind}-{n}"><div class="user-card"><a href="/users/{who}">'
            f'{who}</a> <span class="likes">9,{n}00</span> <span class="when">{when}</span></div>'
            f'<div class="vote"><a class="down" href="#">▼<span class="count">{downs}</span>'
            f'</a><a class="up" href="#">▲</a><div class="vote-count">{votes}</div></div>'
            f'<div class="postcell"><div class="body"><p>{text}</p></div>'
            f'<ul class="comment-list">{comments}</ul></div></div>'
        )

    answers = [
        ("It is hungry: feed it twice a day until the smell goes away.", "cat", "1.3k", 4),
        ("A cooler spot slows it down, so it runs out of food less quickly.", "fay", "-2", 9),
        ("Rye flour ferments faster than wheat; switch for a week and see.", "gus", "0", 0),
    ]
    body = post("question", 0, "Why does my sourdough starter smell of acetone after two days?",
                "ann", "25", 1, "Mar 1, 2024 at 09:00")  # fmt: skip
    body += "".join(
        post("answer", n, text, who, votes, downs, f"Mar {n + 1}, 2024 at 12:00")
        for n, (text, who, votes, downs) in enumerate(answers, 1)
    )
    return f"<html><body><h1>Starter smells</h1><div id=mainbar>{body}</div></body></html>"


def test_each_posts_score_is_its_vote_count_not_a_down_count_a_card_total_or_a_comments():
    posts = extract_records(qa_page(), url=URL).posts
    assert [p.author for p in posts] == ["ann", "cat", "fay", "gus"]
    assert [p.votes for p in posts] == [25, 1300, -2, 0]


def test_a_post_without_a_score_has_none():
    page = qa_page().replace('class="vote"', 'class="box"').replace('"vote-count"', '"tally"')
    assert [p.votes for p in extract_records(page, url=URL).posts] == [None] * 4


def test_schema_org_upvote_counts_in_json_ld_are_the_scores():
    entity = {
        "@type": "Question", "text": "How do I keep the kettle from scaling?",
        "author": {"name": "carl"}, "upvoteCount": 7,
        "suggestedAnswer": [{"@type": "Answer", "text": "Descale it monthly with citric acid.",
                             "author": {"name": "ann"}, "upvoteCount": 3}],
    }  # fmt: skip
    data = json.dumps({"@context": "https://schema.org", "@type": "QAPage", "mainEntity": entity})
    page = (
        f'<html><head><script type="application/ld+json">{data}</script></head><body>'
        "<div class=q><p>How do I keep the kettle from scaling?</p><span>carl</span></div>"
        "<div class=a><p>Descale it monthly with citric acid.</p><span>ann</span></div></body></html>"
    )
    assert [p.votes for p in extract_records(page, url=URL).posts] == [7, 3]
