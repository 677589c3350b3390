"""The page's evidence (one pass from the leaves up, author names when asked) answers as the
tests it stands for, and the bounds taken from it before siblings are compared skip no region
the detectors would accept."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from topiccrawler.extract.dates import find_time
from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records import comments, forum
from topiccrawler.extract.records.comments import (
    RecordOptions,
    Region,
    comment_regions,
    could_accept,
    is_comment_region,
)
from topiccrawler.extract.records.markup import author_hint, author_marks, author_named
from topiccrawler.extract.records.nodes import text_evidence
from topiccrawler.extract.records.times import attribute_time, shows_time
from topiccrawler.extract.tree import clean_tree, text_stats

PAGE = """<html><body>
<div id="main"><h1>Pump trouble</h1>
  <p>The pump stopped after the update. Posted <span title="2024-03-01 10:02">3 days ago</span></p>
  <p>Price 12 (3) <a href="/shop">shop</a></p>
</div>
<ul class="related">
  <li><a href="/a">An article about pumps and their many failures</a> 2024-02-01</li>
  <li><a href="/b">Another article about fuses and how they blow</a> 2024-02-03</li>
  <li><a href="/c">A third article about firmware updates gone bad</a> 2024-02-05</li>
</ul>
<div class="comments">
  <div class="comment"><span class="author"><a href="/u/ann">ann</a></span>
    <time datetime="2024-03-01T10:02">1 March</time><p>Same here, the update broke mine.</p></div>
  <div class="comment"><div class="profile-box">bob</div> 2024-03-01 11:40
    <p>Rolling back the firmware brought mine back to life.</p></div>
  <div class="comment"><span class="author"><a href="/u/cat">cat</a></span>
    <span data-time="1709370900">yesterday</span><p>Check the fuse first, a surge can blow it.</p></div>
</div>
<table><tr><td>row</td><td>12:30</td></tr><tr><td>row</td><td>10:30</td></tr></table>
</body></html>"""


def _body():
    tree = clean_tree(parse_html(PAGE))
    return tree.find("body")


def _below(element, test) -> bool:
    return any(test(d) for d in element.iterdescendants(etree.Element))


def test_evidence_answers_as_the_tests_it_stands_for():
    body = _body()
    _, evidence = text_evidence(body)
    for element in body.iter(etree.Element):
        assert (element in evidence.timed) == shows_time(element), element.tag
        assert (element in evidence.authored) == _below(
            element, lambda d: author_named(author_marks(d))
        )
        assert (element in evidence.named) == _below(
            element, lambda d: author_hint(author_marks(d)) is not None
        )
        digits = any(any(c.isdigit() for c in t) for t in element.itertext())
        links = element.tag == "a" or _below(element, lambda d: d.tag == "a")
        assert (element in evidence.numbered) == (digits and links), element.tag
        if element is not body:
            lends = bool(element.tail and element.tail.strip() and find_time(element.tail))
            assert (element in evidence.lends) == (lends or attribute_time(element))


def test_evidence_finds_the_comments_times_and_authors():
    body = _body()
    _, evidence = text_evidence(body)
    comments = body.xpath(".//div[@class='comment']")
    assert all(c in evidence.timed for c in comments)
    assert [c in evidence.authored for c in comments] == [True, False, True]
    assert all(c in evidence.named for c in comments)  # a profile box names bob
    assert body.find(".//table") not in evidence.timed  # bare clocks are no time


def test_digits_alone_are_no_time():
    for text in ("12", "(3)", "1,024", "10:30", "#5 +1", "１２"):
        assert find_time(text) is None
    assert find_time("2024-03-01") == "2024-03-01"
    assert find_time("3 days ago") == "3 days ago"


def test_bounds_keep_every_region_the_test_accepts(monkeypatch):
    body = _body()
    stats, evidence = text_evidence(body)
    options = RecordOptions()
    bounded = comment_regions(body, options, stats, evidence)
    assert bounded  # the comments
    # Without the bounds (siblings compared wherever the node could pass), the same regions.
    monkeypatch.setattr(
        comments,
        "could_accept",
        lambda node, kids, evidence, stats, shallow, options, unnamed=False: (
            kids if comments.could_pass(node, kids, evidence) else []
        ),
    )
    unbounded = comment_regions(body, options, stats, evidence)
    assert [(r.parent, r.blocks) for r in bounded] == [(r.parent, r.blocks) for r in unbounded]


def test_related_links_are_bounded_out_before_any_comparison():
    body = _body()
    stats, evidence = text_evidence(body)
    options = RecordOptions()
    related = body.find(".//ul")
    items = list(related)
    assert all(i in evidence.timed for i in items)  # dated, so the node could pass
    assert comments.could_pass(related, items, evidence)
    assert could_accept(related, items, evidence, stats, False, options) == []
    assert not is_comment_region(Region(related, items), options, evidence)  # as the test says


def test_forum_bounds_change_nothing_found(monkeypatch):
    def found(body):
        stats, evidence = text_evidence(body)
        page = forum.extract_forum(body, stats=stats, evidence=evidence)
        return page.kind, [p.text for p in page.posts], [t.title for t in page.threads]

    body = _body()
    bounded = found(body)
    monkeypatch.setattr(
        forum,
        "could_be_records",
        lambda node, kids, evidence, stats, options: (
            kids if forum.could_hold_records(node, kids, evidence) else []
        ),
    )
    assert found(_body()) == bounded
    assert bounded[0] == "thread" and len(bounded[1]) == 3  # the comments, read as a thread


FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "records"

# An article with a repeated teaser list (titles, blurbs, no times or bylines) and a row of
# share links: nothing in it is records, and the node checks skip both lists before their
# kids are weighed. The story list is deep enough for the paper's structure test.
ARTICLE = """<html><head><title>Reading a pump's fault codes</title></head><body>
<div class="page"><div class="wrap"><div class="layout"><div class="column"><main>
<article><h1>Reading a pump's fault codes</h1>
<p>Most pumps blink a code before they stop for good. The manual lists them, but the
manual is seldom at hand when the basement floods, so here is what the common ones mean.</p>
<p>A slow double blink is a dry run: the float switch saw no water for a minute. A fast
blink is an overload, nearly always a jammed impeller or a failing capacitor.</p>
<p>Steady light with no motor sound points to the fuse, which a surge can blow.</p>
</article>
<ul class="share"><li><a href="/s/fb">Share</a></li><li><a href="/s/tw">Post</a></li>
  <li><a href="/s/mail">Mail</a></li></ul>
<div class="more-stories">
  <div class="story"><a href="/a">Why sump pumps fail in spring</a><p>Meltwater and
    clogged pits are behind most calls, and both are easy to check.</p></div>
  <div class="story"><a href="/b">Choosing a backup pump</a><p>Battery or water
    powered: what each costs to run and how long each keeps a basement dry.</p></div>
  <div class="story"><a href="/c">Fuses, breakers and surges</a><p>What a blown fuse
    looks like and why a surge protector is cheaper than a new motor.</p></div>
  <div class="story"><a href="/d">Cleaning an impeller</a><p>Ten minutes with a
    screwdriver and a bucket, and the pump sounds new again.</p></div>
  <div class="story"><a href="/e">Float switches explained</a><p>Tethered, vertical or
    electronic: which one sticks, and which one lasts the longest.</p></div>
</div>
</main></div></div></div></div></body></html>"""


def _checks_off(monkeypatch):
    """Both detectors with the node checks answering yes everywhere."""
    monkeypatch.setattr(comments, "could_have_region", lambda *args: True)
    hold = forum.could_hold_records
    monkeypatch.setattr(
        forum,
        "could_hold_records",
        lambda node, kids, evidence: kids is node or hold(node, kids, evidence),
    )


def _found(page: str):
    body = clean_tree(parse_html(page)).find("body")
    stats, evidence = text_evidence(body)
    options = RecordOptions()
    regions = comment_regions(body, options, stats, evidence)
    groups = forum.topic_blocks(body, options.forum, stats, evidence)
    return (
        [(r.parent.sourceline, [b.sourceline for b in r.blocks]) for r in regions],
        [[b.sourceline for b in group] for group in groups],
    )


def test_node_checks_skip_no_region_nor_group(monkeypatch):
    pages = [PAGE, ARTICLE] + [p.read_text() for p in sorted(FIXTURES.glob("*.html"))]
    checked = [_found(page) for page in pages]
    _checks_off(monkeypatch)
    assert [_found(page) for page in pages] == checked
    assert checked[0][0] and checked[0][1]  # the comments, found by both detectors


def test_an_article_with_a_teaser_list_is_skipped_node_by_node():
    body = clean_tree(parse_html(ARTICLE)).find("body")
    stats, evidence = text_evidence(body)
    options = RecordOptions()
    stories = body.find(".//div[@class='more-stories']")
    share = body.find(".//ul[@class='share']")
    for node in (stories, share):
        assert not forum.could_hold_records(node, node, evidence)  # no times, no numbers
    assert not comments.could_have_region(share, list(share), evidence, options)
    # Five alike stories deep in the page could pass the structure test on authors alone:
    # the check keeps them for could_accept, which turns them down (no names, no times).
    assert comments.could_have_region(stories, list(stories), evidence, options)
    assert could_accept(stories, list(stories), evidence, stats, False, options) == []
    assert comment_regions(body, options, stats, evidence) == []
    assert forum.topic_blocks(body, options.forum, stats, evidence) == []


def test_the_checks_keep_timed_siblings_and_shallow_lists_need_times():
    body = _body()
    _, evidence = text_evidence(body)
    options = RecordOptions()
    listed = body.find(".//div[@class='comments']")
    assert comments.could_have_region(listed, list(listed), evidence, options)
    assert forum.could_hold_records(listed, listed, evidence)
    # The same three blocks without their times: too few for the structure test.
    for block in listed:
        for timed in block.xpath(".//time | .//span[@data-time]"):
            timed.getparent().remove(timed)
        block.text = None
        for child in block:
            child.tail = None
    _, evidence = text_evidence(body)
    assert not comments.could_have_region(listed, list(listed), evidence, options)


def test_the_article_has_no_records_and_the_q_and_a_page_keeps_its_own():
    from topiccrawler.extract.page import extract_page

    article = extract_page(ARTICLE)
    assert not (article.records.comments or article.records.posts or article.records.threads)
    assert "double blink" in article.body
    found = extract_page((FIXTURES / "qa-page.html").read_text(encoding="utf-8")).records
    # No forum URL: the comments under the question and the first answer say the entries are
    # a Q&A thread (question, answers), the remarks comments under them.
    assert found.kind == "thread"
    assert [p.author for p in found.posts] == ["odile", "bram", "chidi"]
    assert [(c.author, c.reply_to) for c in found.comments] == [
        ("bram", "odile"), ("odile", "odile"), ("odile", "bram"), ("chidi", "bram"),
    ]  # fmt: skip
    assert all(r.time for r in [*found.posts, *found.comments])


def test_the_one_pass_counts_text_as_text_stats_does():
    pages = [PAGE, ARTICLE] + [p.read_text() for p in sorted(FIXTURES.glob("*.html"))]
    for page in pages:
        body = clean_tree(parse_html(page)).find("body")
        stats, evidence = text_evidence(body)
        assert stats == text_stats(body)
        assert evidence.known is stats  # (the elements the evidence was taken of)
