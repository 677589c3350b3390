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
    shown = [
        (answers[1] if accepted_first else answers[0]),
        (answers[0] if accepted_first else answers[1]),
    ]
    blocks = "".join(
        f'<div class="reply"><p>{text}</p><span class="who">{who}</span></div>'
        for text, who in shown
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
    page = (
        qa_page(True)
        .replace('"QAPage"', '"WebPage"')
        .replace('"Question"', '"DiscussionForumPosting"')
        .replace('"acceptedAnswer"', '"comment"')
        .replace('"suggestedAnswer"', '"comment2"')
    )
    posts = extract_records(page, url="https://forum.example.test/t/1").posts
    assert len(posts) == 2  # the posting and its one comment
    assert not any(p.accepted for p in posts)


def se_page() -> str:
    """A Q&A page laid out as StackExchange-like software does: the question and each answer
    in a post box with a comment list under it (one or more comments, each with its author
    and time)."""

    def comments(items):
        return (
            '<ul class="comment-list">'
            + "".join(
                f'<li class="comment"><div class="comment-body"><span class="comment-copy">{text}</span>'
                f' – <div class="by"><a href="/users/{who}" class="user">{who}</a> '
                f'<span class="when">{when}</span></div></div></li>'
                for text, who, when in items
            )
            + "</ul>"
        )

    def post(kind, text, who, when, under):
        return (
            f'<div class="{kind}"><div class="body"><p>{text}</p></div><div class="byline">'
            f'<a href="/users/{who}">{who}</a> <span class="when">{when}</span></div>'
            f"{comments(under)}</div>"
        )

    question = post(
        "question", "Why does my sourdough starter smell of acetone after two days?", "ann",
        "Mar 1, 2024 at 10:02",
        [("Which flour do you feed it with, and how often?", "bob", "Mar 1, 2024 at 10:30"),
         ("Rye, once a day at room temperature.", "ann", "Mar 1, 2024 at 10:41")],
    )  # fmt: skip
    answers = [
        post(
            "answer", "It is hungry: feed it twice a day until the smell goes away.", "cat",
            "Mar 1, 2024 at 12:00",
            [("@ann that fixed mine within a week.", "dan", "Mar 2, 2024 at 08:00"),
             ("Twice a day worked for me too, thanks for the tip.", "eve", "Mar 2, 2024 at 09:12")],
        ),
        post(
            "answer", "A cooler spot slows it down, so it runs out of food less quickly.", "fay",
            "Mar 1, 2024 at 15:20",
            [("Good point, my kitchen is very warm in summer.", "ann", "Mar 1, 2024 at 16:00"),
             ("The fridge between feedings works as well in my experience.", "gus", "Mar 3, 2024 at 09:00")],
        ),
    ]  # fmt: skip
    return f"""<html><body><h1>Starter smells of acetone</h1>{question}
<h2>2 Answers</h2><div class="answers">{"".join(answers)}</div></body></html>"""


def test_comments_under_each_answer_reply_to_its_author_unless_they_name_another():
    found = extract_records(se_page(), url="https://qa.example.test/questions/12/starter")
    assert found.kind == "thread"
    assert [p.author for p in found.posts] == ["ann", "cat", "fay"]
    assert [(c.text, c.author, c.reply_to) for c in found.comments] == [
        ("Which flour do you feed it with, and how often?", "bob", "ann"),
        ("Rye, once a day at room temperature.", "ann", "ann"),
        ("@ann that fixed mine within a week.", "dan", "ann"),
        ("Twice a day worked for me too, thanks for the tip.", "eve", "cat"),
        ("Good point, my kitchen is very warm in summer.", "ann", "fay"),
        ("The fridge between feedings works as well in my experience.", "gus", "fay"),
    ]
    assert not any("acetone" in c.text for c in found.comments)
    assert all("Which flour" not in p.text for p in found.posts)
