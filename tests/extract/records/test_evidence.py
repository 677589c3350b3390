"""The page's evidence (one pass from the leaves up, author names when asked) answers as the
tests it stands for, and the bounds taken from it before siblings are compared skip no region
the detectors would accept."""

from __future__ import annotations

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
from topiccrawler.extract.records.fields import (
    _attribute_time,
    _author_hint,
    _author_marks,
    _author_named,
    page_evidence,
    shows_time,
)
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
    evidence = page_evidence(body, known=text_stats(body))
    for element in body.iter(etree.Element):
        assert (element in evidence.timed) == shows_time(element), element.tag
        assert (element in evidence.authored) == _below(
            element, lambda d: _author_named(_author_marks(d))
        )
        assert (element in evidence.named) == _below(
            element, lambda d: _author_hint(_author_marks(d)) is not None
        )
        digits = any(any(c.isdigit() for c in t) for t in element.itertext())
        links = element.tag == "a" or _below(element, lambda d: d.tag == "a")
        assert (element in evidence.numbered) == (digits and links), element.tag
        if element is not body:
            lends = bool(element.tail and element.tail.strip() and find_time(element.tail))
            assert (element in evidence.lends) == (lends or _attribute_time(element))


def test_evidence_finds_the_comments_times_and_authors():
    body = _body()
    evidence = page_evidence(body, known=text_stats(body))
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
    stats = text_stats(body)
    evidence = page_evidence(body, known=stats)
    options = RecordOptions()
    bounded = comment_regions(body, options, stats, evidence)
    assert bounded  # the comments
    # Without the bounds (siblings compared wherever the node could pass), the same regions.
    monkeypatch.setattr(
        comments,
        "could_accept",
        lambda node, kids, evidence, stats, shallow, options: (
            kids if comments.could_pass(node, kids, evidence) else []
        ),
    )
    unbounded = comment_regions(body, options, stats, evidence)
    assert [(r.parent, r.blocks) for r in bounded] == [(r.parent, r.blocks) for r in unbounded]


def test_related_links_are_bounded_out_before_any_comparison():
    body = _body()
    stats = text_stats(body)
    evidence = page_evidence(body, known=stats)
    options = RecordOptions()
    related = body.find(".//ul")
    items = list(related)
    assert all(i in evidence.timed for i in items)  # dated, so the node could pass
    assert comments.could_pass(related, items, evidence)
    assert could_accept(related, items, evidence, stats, False, options) == []
    assert not is_comment_region(Region(related, items), options, evidence)  # as the test says


def test_forum_bounds_change_nothing_found(monkeypatch):
    def found(body):
        stats = text_stats(body)
        evidence = page_evidence(body, known=stats)
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
