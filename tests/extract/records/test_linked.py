"""A Q&A page's JSON-LD: the question and each answer, the accepted answer marked."""

from __future__ import annotations

import json

from topiccrawler.extract.records.page import extract_records


def qa_page(accepted_first: bool) -> str:
    question = "How do I keep the kettle from scaling so quickly in hard water areas?"
    answers = [
        ("Descale it monthly with citric acid dissolved in warm water, then rinse twice.", "ann"),
        ("Use filtered water: the filter takes out most of the calcium before it boils.", "bob"),
    ]
    entity = {
        "@type": "Question",
        "text": question,
        "author": {"@type": "Person", "name": "carl"},
        "dateCreated": "2024-03-01T10:00:00Z",
        "acceptedAnswer": {
            "@type": "Answer", "text": answers[1][0], "author": {"name": answers[1][1]},
            "dateCreated": "2024-03-02T09:00:00Z",
        },
        "suggestedAnswer": [{
            "@type": "Answer", "text": answers[0][0], "author": {"name": answers[0][1]},
            "dateCreated": "2024-03-01T12:00:00Z",
        }],
    }  # fmt: skip
    data = json.dumps({"@context": "https://schema.org", "@type": "QAPage", "mainEntity": entity})
    shown = [(answers[1] if accepted_first else answers[0]), (answers[0] if accepted_first else answers[1])]
    blocks = "".join(
        f'<div class="reply"><p>{text}</p><span class="who">{who}</span></div>' for text, who in shown
    )
    return f"""<html><head><script type="application/ld+json">{data}</script></head><body>
<div class="q"><h1>Kettle scale</h1><p>{question}</p><span>carl</span></div>
<h2>2 answers</h2><div class="replies">{blocks}</div></body></html>"""


def test_the_accepted_answer_is_marked_and_the_others_are_not():
    for accepted_first in (True, False):
        posts = extract_records(qa_page(accepted_first), url="https://qa.example.test/q/1").posts
        accepted = [p.text for p in posts if p.accepted]
        assert accepted == [
            "Use filtered water: the filter takes out most of the calcium before it boils."
        ]
        assert len(posts) == 3
        assert posts[0].text.startswith("How do I keep the kettle")
        assert not posts[0].accepted


def test_comments_of_a_posting_are_not_accepted_answers():
    page = qa_page(True).replace('"QAPage"', '"WebPage"').replace(
        '"Question"', '"DiscussionForumPosting"'
    ).replace('"acceptedAnswer"', '"comment"').replace('"suggestedAnswer"', '"comment2"')
    posts = extract_records(page, url="https://forum.example.test/t/1").posts
    assert len(posts) == 2  # the posting and its one comment
    assert not any(p.accepted for p in posts)
