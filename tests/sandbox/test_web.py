"""The sandbox web: deterministic, complete, with ground truth for every page."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from topiccrawler.sandbox.web import (
    FORUM_DIV,
    FORUM_TABLE,
    LEGACY,
    PORTAL_A,
    SIZES,
    build_web,
)


def fingerprint(web) -> str:
    digest = hashlib.sha256()
    for (host, path), resource in sorted(web.resources.items()):
        digest.update(f"{host}{path}{resource.status}{resource.content_type}".encode())
        digest.update(resource.body)
    return digest.hexdigest()


@pytest.fixture(scope="module")
def web():
    return build_web(1, "small")


def test_same_seed_same_web_byte_for_byte(web):
    assert fingerprint(build_web(1, "small")) == fingerprint(web)
    assert fingerprint(build_web(2, "small")) != fingerprint(web)


def test_sizes():
    assert 250 < len(build_web(1, "small").resources) < 500
    assert 9000 < len(build_web(3, "large").resources) < 12000
    with pytest.raises(ValueError, match="unknown size"):
        build_web(1, "enormous")
    # Built up front; "huge" is rendered on request (tests/sandbox/test_huge.py).
    assert set(SIZES) == {"small", "medium", "large"}


def test_every_kind_of_page_is_there(web):
    kinds = Counter(truth.kind for _, _, truth in web.pages_with_truth())
    for kind in ("article", "article-js-comments", "thread", "thread-list", "product", "gbk", "big5",
                 "lying-charset", "malformed", "huge", "deep", "login"):  # fmt: skip
        assert kinds[kind] >= 1, kind
    hosts = {host for host, _ in web.resources}
    assert len(hosts) == len(web.site_names) == 12


def test_comment_sections_of_all_sizes(web):
    counts = [len(t.comments) for _, _, t in web.pages_with_truth() if t.kind == "article"]
    assert any(n >= 10 for n in counts) and any(0 < n < 5 for n in counts) and 0 in counts
    for _, _, truth in web.pages_with_truth():
        for record in truth.comments + truth.posts:
            assert record.text and record.author and record.time


def test_forums_list_threads_with_fields(web):
    for host in (FORUM_TABLE, FORUM_DIV):
        lists = [t for h, _, t in web.pages_with_truth() if h == host and t.kind == "thread-list"]
        assert lists
        for thread in lists[0].threads:
            assert thread["title"] and thread["author"] and thread["time"]
            assert (
                (thread["url"] in web.resources) and thread["replies"] >= 0 and thread["views"] > 0
            )
    paged = [p for h, p, _ in web.pages_with_truth() if h == FORUM_TABLE and "-2-1.html" in p]
    assert paged, "some threads span several pages"


def test_reposts_point_at_an_earlier_original_with_the_same_body(web):
    reposts = [(h, p, t) for h, p, t in web.pages_with_truth() if t.duplicate_of]
    assert len(reposts) >= 10
    for _, _, truth in reposts:
        original = web.resources[truth.duplicate_of].truth
        assert original.body == truth.body and original.relevant
        assert original.duplicate_of is None


def test_encodings_are_real(web):
    by_kind = {t.kind: (h, p) for h, p, t in web.pages_with_truth() if h == LEGACY}
    big5 = web.resources[by_kind["big5"]]
    assert b'charset="big5"' in big5.body
    web.resources[by_kind["big5"]].body.decode("big5")
    lying = web.resources[by_kind["lying-charset"]]
    assert b'charset="utf-8"' in lying.body
    with pytest.raises(UnicodeDecodeError):
        lying.body.decode("utf-8")


def test_robots_disallows_a_linked_section(web):
    assert b"Disallow: /internal/" in web.resources[(PORTAL_A, "/robots.txt")].body
    assert b"/internal/draft.html" in web.resources[(PORTAL_A, "/")].body
