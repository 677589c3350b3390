"""The signature scorer: sibling groups by tag and class signature, scored by the shipped
model; records picked from them, and the benchmark's leave-out folds."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.comments import RecordOptions
from topiccrawler.extract.records.fields import block_fields
from topiccrawler.extract.records.page import extract_records, with_header_rows
from topiccrawler.extract.records.signature import (
    FEATURES,
    MODEL_PATH,
    Model,
    group_keys,
    groups,
    load_model,
    shipped_model,
    signature,
    signature_records,
)

POSTS = [
    ("ann", "2024-03-01 10:02", "The pump stopped after the update; has anyone else seen this?"),
    ("bob", "2024-03-01 11:40", "Same here. Rolling back the firmware brought mine back to life."),
    ("cat", "2024-03-02 08:15", "Check the fuse first, a surge during the update can blow it."),
    ("dan", "2024-03-02 19:30", "Thanks all, it was the fuse. Replaced it and it runs again now."),
]


def thread_page() -> str:
    posts = "".join(
        f"""<div class="post post-{n}"><div class="author"><a href="/member/{who}">{who}</a>
<time datetime="{when}">{when}</time></div><div class="content"><p>{text}</p></div></div>"""
        for n, (who, when, text) in enumerate(POSTS)
    )
    menu = "".join(f'<li class="nav-item"><a href="/c/{i}">Category {i}</a></li>' for i in range(6))
    return f"""<html><body><ul class="nav">{menu}</ul><h1>Pump stopped</h1>
<div class="thread">{posts}</div><div class="footer"><p>About us</p><p>Contact</p></div>
</body></html>"""


def test_signatures_ignore_digits_and_class_order():
    one = parse_html('<div class="post post-12 odd">x</div>').find(".//div")
    two = parse_html('<div class="odd post-7 post">y</div>').find(".//div")
    assert signature(one) == signature(two) == "div.odd.post.post-"


def test_groups_are_siblings_of_one_signature_with_every_feature():
    body = parse_html(thread_page()).find("body")
    found = {signature(g.members[0]): g for g in groups(body)}
    assert len(found["div.post.post-"].members) == 4
    assert all(set(g.features) == set(FEATURES) for g in found.values())
    posts = found["div.post.post-"].features
    assert posts["times"] == 1.0 and posts["persons"] == 1.0
    assert posts["record_words"] == 1.0


def test_the_shipped_model_takes_the_posts_not_the_menu():
    model = shipped_model()
    assert model is not None
    body = parse_html(thread_page()).find("body")
    blocks = signature_records(body)
    assert [b.get("class") for b in blocks] == [f"post post-{n}" for n in range(4)]
    records = extract_records(thread_page(), RecordOptions(measure="signature"))
    assert [p.author for p in records.posts] == [who for who, _, _ in POSTS]
    assert [p.text for p in records.posts] == [text for _, _, text in POSTS]


def test_the_gate_leaves_an_article_without_records_and_keeps_a_thread():
    article = (
        "<html><body><h1>Pumps</h1>"
        + "".join(
            f"<p>Paragraph {i} of a long article about pumps, their fuses and firmware.</p>"
            for i in range(8)
        )
        + "</body></html>"
    )
    gated = RecordOptions(gate=True)
    assert extract_records(article, gated).posts == []
    assert extract_records(article, gated).comments == []
    thread = extract_records(thread_page(), gated, url="https://forum.example.test/t/1")
    assert len(thread.posts or thread.comments) == 4


def test_the_shipped_model_is_the_file_the_script_writes():
    data = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    assert data["features"] == list(FEATURES)
    model = load_model(data)
    assert load_model(model.to_dict()) == model
    assert 0 < model.gate < model.threshold
    logistic = Model((0.0,) * len(FEATURES), (1.0,) * len(FEATURES), (0.5,) * len(FEATURES), -1.0)
    assert load_model(logistic.to_dict()) == logistic


def test_leave_out_folds_are_software_without_versions_and_sites_when_unknown():
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
    from records_model import fold_of

    assert fold_of({"software": "phpBB 3", "site": "a"}) == fold_of(
        {"software": "phpBB", "site": "b"}
    )
    assert fold_of({"software": "Discuz! X3.3", "site": "a"}) == "discuz!"
    assert fold_of({"software": "custom/unknown", "site": "a.example"}) == "site:a.example"
    assert fold_of({"software": "Lucianne (custom)", "site": "b"}) == "site:b"


FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "records"


def test_alternating_classes_are_one_group_and_different_cells_are_not():
    comments = parse_html(
        "<ol>"
        + "".join(
            f'<li class="comment {side} depth-1"><div class="body"><p>text {i}</p></div></li>'
            for i, side in enumerate(["even thread-even", "odd alt thread-odd", "even", "odd alt"])
        )
        + "</ol>"
    ).find(".//ol")
    assert len(set(group_keys(list(comments)))) == 1
    post = parse_html(
        '<div><div class="cell cell--user"><a href="/u/1">ann</a><span>Member</span></div>'
        '<div class="cell cell--main"><article><p>The post</p></article></div></div>'
    ).find(".//div")
    first, second = group_keys(list(post))
    assert first != second


def test_nested_replies_are_records_of_their_own_with_their_fields():
    text = (FIXTURES / "nested-comments.html").read_text(encoding="utf-8")
    records = extract_records(text, RecordOptions(measure="signature"))
    assert [(p.author, p.time) for p in records.posts] == [
        ("Marta", "April 2, 2024 at 9:14 am"),
        ("Jonas", "April 2, 2024 at 12:40 pm"),
        ("Priya", "April 3, 2024 at 6:05 pm"),
        ("Tomasz", "April 5, 2024 at 7:30 am"),
        ("Jonas", "April 5, 2024 at 10:02 am"),
    ]
    # A parent's text is its own, not its replies'.
    assert "Leaf drop" not in records.posts[0].text
    assert records.posts[0].text.startswith("Mine dropped half its leaves")


def test_text_rows_are_widened_to_the_header_row_with_author_and_time():
    body = parse_html((FIXTURES / "header-rows.html").read_text(encoding="utf-8")).find("body")
    rows = [tr for tr in body.iter("tr") if tr.get("class") == "msg"]
    alone = block_fields(rows, set(rows))
    assert not any(f.time for f in alone)
    widened = with_header_rows(rows, alone, None)
    assert [f.author for f in widened] == ["lenka", "okafor", "lenka", "haruto"]
    assert [f.published_at.day for f in widened] == [3, 3, 4, 4]
    assert widened[1].text.startswith("Do you have the speakers already?")
    # Rows whose neighbours show no time stay as they were.
    rows = [tr for tr in body.iter("tr") if tr.get("class") == "msg"]
    for tr in body.iter("tr"):
        if tr.get("class") != "msg":
            for td in tr:
                td.text, td[:] = "a row without a date", []
    again = block_fields(rows, set(rows))
    assert with_header_rows(rows, again, None) == again


def test_groups_inside_the_records_named_and_timed_are_comments_under_them():
    # A model that takes any group whose every member shows a time and a profile link: the
    # question and answers, and the remarks under two of them.
    coef = tuple(5.0 if name in ("times", "persons") else 0.0 for name in FEATURES)
    model = Model((0.0,) * len(FEATURES), (1.0,) * len(FEATURES), coef, -6.0)
    text = (FIXTURES / "qa-page.html").read_text(encoding="utf-8")
    records = extract_records(text, RecordOptions(measure="signature", model=model))
    assert [p.author for p in records.posts] == ["odile", "bram", "chidi"]
    assert [(c.author, c.text) for c in records.comments] == [
        ("bram", "How much flour and water per feed, by weight?"),
        ("odile", "50 g rye and 50 g water, after discarding all but 20 g."),
        ("odile", "Fed it twice today and the smell is already fading, thanks."),
        ("chidi", "A cooler spot helps too, if you cannot feed it more often."),
    ]
    # The question's text is its own, not the remarks under it.
    assert "How much flour" not in records.posts[0].text


def test_rows_taking_turns_are_split_by_role_and_read_with_their_header_rows():
    text = (FIXTURES / "role-rows.html").read_text(encoding="utf-8")
    table = parse_html(text).find(".//table")
    keys = group_keys(list(table))
    assert len(set(keys)) == 3  # header rows, text rows, reply-link rows
    assert keys[0::3] == [keys[0]] * 4 and keys[1::3] == [keys[1]] * 4
    records = extract_records(text, RecordOptions(measure="signature"))
    assert [(p.author, p.time) for p in records.posts] == [
        ("rosalind", "12.01.2024, 09:14"),
        ("teodor", "12.01.2024, 11:02"),
        ("rosalind", "13.01.2024, 18:30"),
        ("ines", "14.01.2024, 07:45"),
    ]
    assert records.posts[1].text.startswith("Once a month is plenty")
    assert not any("Reply" in p.text for p in records.posts)


def test_rows_of_one_shape_or_out_of_cycle_keep_one_key():
    rows = "".join(
        f"<tr><td><a href='/u/{i}'>u{i}</a></td><td>text {i} of a row</td></tr>" for i in range(6)
    )
    table = parse_html(f"<table>{rows}</table>").find(".//table")
    assert len(set(group_keys(list(table)))) == 1
    shapes = ["<td><b>x</b></td>", "<td><i>y</i><s>z</s></td>"]
    order = [0, 0, 1, 0, 1, 1, 0, 1]  # two shapes, no cycle
    table = parse_html(
        "<table>" + "".join(f"<tr>{shapes[o]}</tr>" for o in order) + "</table>"
    ).find(".//table")
    assert len(set(group_keys(list(table)))) == 1


def test_one_comment_and_its_one_reply_are_records_and_the_sidebar_is_not():
    text = (FIXTURES / "one-reply.html").read_text(encoding="utf-8")
    body = parse_html(text).find("body")
    aside = body.find(".//aside")
    assert not any(g.parent is aside or aside in g.parent.iterancestors() for g in groups(body))
    chained = [g for g in groups(body) if g.features["chain"]]
    assert [m.get("id") for m in chained[0].members] == ["comment-11", "comment-12"]
    records = extract_records(text, RecordOptions(measure="signature"))
    assert [(p.author, p.time) for p in records.posts] == [
        ("Mireille", "February 3, 2024 at 10:12 am"),
        ("Anouk", "February 3, 2024 at 2:40 pm"),
    ]
    assert "rain water" not in records.posts[0].text  # the reply's text is its own


def test_posts_rendered_twice_are_taken_once():
    text = (FIXTURES / "copied-posts.html").read_text(encoding="utf-8")
    records = extract_records(text, RecordOptions(measure="signature"))
    texts = [p.text for p in records.posts]
    assert len(texts) == 4
    assert texts[0].startswith("My starter smells") and texts[3].startswith("Fed it twice")
    assert all(p.time for p in records.posts)  # the script's view, with its times
