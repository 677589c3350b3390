"""Subtree similarity: POL as the paper defines it, the comparison measures, SoL."""

from __future__ import annotations

import numpy as np
import pytest
from lxml import html

from topiccrawler.extract.records.layout import SimilarityOfLayout, layout_levels, sol
from topiccrawler.extract.records.similarity import (
    MEASURES,
    PathsOfLeaves,
    bfs_tags,
    leaf_paths,
    path_similarity,
    pol_directed,
    pol_similarity,
    similar_siblings,
)

COMMENT = """<li><div class="head"><a>{user}</a><span>2026-01-0{n} 10:00</span></div>
<div class="body"><p>{text}</p></div><div class="tools"><a>回复</a></div></li>"""
COMMENT_WITH_PICTURE = """<li><div class="head"><a>王五</a><span>2026-01-03 10:00</span></div>
<div class="body"><p>有图有真相</p><img src="x.jpg"></div><div class="tools"><a>回复</a></div></li>"""
MENU_ITEM = "<li><a>首页</a></li>"


def element(markup: str):
    return html.fragment_fromstring(markup)


def test_leaf_paths_are_tag_and_sibling_index_from_the_root():
    paths = leaf_paths(element("<li><div><a>x</a><span>y</span></div><p>z</p></li>"))
    assert paths == [
        (("li", 0), ("div", 1), ("a", 1)),
        (("li", 0), ("div", 1), ("span", 2)),
        (("li", 0), ("p", 2)),
    ]


def test_path_similarity_is_the_unweighted_cosine_of_the_steps():
    first = (("li", 0), ("div", 1), ("a", 1))
    second = (("li", 0), ("div", 1), ("span", 2))
    assert path_similarity(first, first) == 1.0
    assert path_similarity(first, second) == pytest.approx(2 / 3)
    assert pol_directed([first], [first, second]) == 1.0  # a short tree's paths all match


def test_a_picture_in_a_comment_keeps_it_alike_a_menu_item_does_not():
    """The paper's own example: two comments, one with an image, are one template."""
    plain = element(COMMENT.format(user="张三", n=1, text="说得好"))
    pictured = element(COMMENT_WITH_PICTURE)
    assert pol_similarity(plain, pictured) > 0.8
    assert pol_similarity(plain, element(MENU_ITEM)) < 0.8  # under a: not the template
    assert pol_similarity(plain, pictured) == pytest.approx(pol_similarity(pictured, plain))


def test_the_vectorised_matrix_equals_the_pairwise_definition():
    siblings = [
        element(COMMENT.format(user="张三", n=1, text="说得好")),
        element(COMMENT_WITH_PICTURE),
        element(MENU_ITEM),
        element(COMMENT.format(user="李四", n=2, text="同意")),
    ]
    matrix = PathsOfLeaves().matrix(siblings)
    for i, first in enumerate(siblings):
        for j, second in enumerate(siblings):
            expected = 1.0 if i == j else pol_similarity(first, second)
            assert matrix[i, j] == pytest.approx(expected, abs=1e-6)


def test_two_thousand_identical_items_are_one_comparison():
    parent = element("<ul>" + "<li><a>x</a><span>y</span></li>" * 2000 + "</ul>")
    groups = list(similar_siblings(list(parent), PathsOfLeaves(), 0.8, 5, max_siblings=400))
    assert [len(g) for g in groups] == [400]  # capped: the rest are left out, logged


@pytest.mark.parametrize("name", sorted(MEASURES))
def test_every_measure_is_a_similarity(name):
    measure = MEASURES[name]()
    plain = element(COMMENT.format(user="张三", n=1, text="说得好"))
    other = element(COMMENT.format(user="李四", n=2, text="同意"))
    assert measure.pair(plain, other) == pytest.approx(1.0)
    assert 0.0 <= measure.pair(plain, element(MENU_ITEM)) < 0.8
    matrix = measure.matrix([plain, other, element(MENU_ITEM)])
    assert np.allclose(matrix, matrix.T) and np.allclose(np.diag(matrix), 1.0)


def test_bfs_tag_string():
    assert bfs_tags(element("<li><div><a>x</a></div><p>y</p></li>")) == ["li", "div", "p", "a"]


def test_sol_compares_layout_level_by_level():
    post = '<div class="post"><div class="user" width="120">{}</div><div class="text">t</div></div>'
    first, second = element(post.format("a")), element(post.format("b"))
    odd = element('<div class="post"><table><tr><td>x</td></tr></table></div>')
    weights = (0.6, 0.3, 0.1)
    assert sol(layout_levels(first, 3), layout_levels(second, 3), weights) == pytest.approx(1.0)
    assert sol(layout_levels(first, 3), layout_levels(odd, 3), weights) < 0.9
    assert SimilarityOfLayout().pair(first, second) == pytest.approx(1.0)
