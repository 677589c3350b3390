"""Body extraction: both papers' methods on pages we wrote, the improvements, and the benchmark
set read in place as a regression guard."""

from __future__ import annotations

import statistics
import sys

import pytest

from tests.conftest import SHARED
from topiccrawler.extract.body import (
    BodyOptions,
    complete_stats,
    drop_meta_lines,
    drop_unlikely,
    extract_body,
    strip_chrome,
)
from topiccrawler.extract.body_decay import extract_body_decay, find_main_topic
from topiccrawler.extract.body_density import extract_body_density
from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.tree import clean_tree, text_stats

PARAGRAPHS = [
    "国家税务总局近日公布了一批偷逃税款的典型案例，涉及多个行业的企业和个人。",
    "经查，某公司通过隐匿销售收入的方式少缴增值税，税务机关依法追缴税款并处以罚款。",
    "专家提醒，纳税人应当依法如实申报，防范涉税风险。",
]
NAV = '<div class="nav"><a href="/">首页</a> <a href="/a">新闻</a> <a href="/b">政策</a> <a href="/c">服务</a></div>'
SIDEBAR = (
    '<div class="links"><ul>'
    + "".join(f'<li><a href="/{n}">相关链接标题第{n}条新闻</a></li>' for n in range(12))
    + "</ul></div>"
)
FOOTER = '<div class="foot">版权所有 © 税务资讯网 联系我们 京ICP备00000000号</div>'


def article(paragraphs=PARAGRAPHS, extra="") -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return (
        "<html><head><title>典型案例曝光-税务资讯</title></head><body>"
        f'{NAV}<div class="main"><div class="article"><h1>典型案例曝光</h1>{body}</div>{SIDEBAR}</div>{extra}{FOOTER}'
        "</body></html>"
    )


def test_clean_tree_drops_noise_and_keeps_tails():
    root = parse_html(
        "<body><script>x()</script><div><span></span>尾<br>巴</div><select><option>选项</option></select></body>"
    )
    cleaned = clean_tree(root)
    assert cleaned.find(".//script") is None and cleaned.find(".//select") is None
    assert cleaned.find(".//span") is None and "".join(cleaned.itertext()) == "尾巴"
    assert root.find(".//script") is not None  # the input tree is untouched


def test_text_stats_count_link_text():
    root = clean_tree(
        parse_html('<body><div><p>正文十个字正文十个字</p><a href="/">链接五个字</a></div></body>')
    )
    stats = text_stats(root.find("body"))
    div = root.find(".//div")
    assert (stats[div].text, stats[div].link, stats[div].clear, stats[div].prose) == (15, 5, 10, 10)
    assert stats[div].link_density == pytest.approx(1 / 3)


def test_a_cleaned_tree_and_its_statistics_given_by_the_caller_give_the_same_body():
    """extract_page hands the body extractor the cleaned tree and text statistics the records
    extractor used; updated through the removed chrome and unlikely blocks, they give what
    the extractor's own copy gives."""
    comments = (
        '<div class="comments"><p>评论一：说得好，支持依法治税。</p><p>评论二：学习了。</p></div>'
    )
    pages = [
        article(),
        article(extra=comments),
        f"<html><body><header>{NAV}</header><article>{''.join(f'<p>{p}</p>' for p in PARAGRAPHS)}"
        f"<aside>{SIDEBAR}</aside></article><footer>{FOOTER}</footer>tail</body></html>",
    ]
    for page in pages:
        root = parse_html(page)
        tree = clean_tree(root)
        stats = text_stats(tree.find("body"))
        assert extract_body(root, cleaned=tree, stats=stats) == extract_body(root)
        tree = clean_tree(root)  # the statistics follow the removals
        stats = complete_stats(tree, text_stats(tree.find("body")))
        strip_chrome(tree, stats)
        drop_unlikely(tree, stats)
        fresh = text_stats(tree)
        assert all(stats[element] == fresh[element] for element in tree.iter())


def test_decay_method_finds_the_article_and_prunes_links():
    text = extract_body_decay(parse_html(article()))
    for paragraph in PARAGRAPHS:
        assert paragraph in text
    assert "首页" not in text and "相关链接" not in text and "版权所有" not in text


def test_find_main_topic_descends_through_single_children():
    root = clean_tree(
        parse_html(
            f"<body><div><div><div class=a>{''.join(f'<p>{p}</p>' for p in PARAGRAPHS)}</div></div></div></body>"
        )
    )
    body = root.find("body")
    assert find_main_topic(body, text_stats(body)).get("class") == "a"


def test_decay_papers_own_failure_and_the_fix():
    """One long paragraph and two short ones: the paper's FindMT descends into the long one."""
    long = "这是一个很长的段落，" * 40
    page = article([long, "短段落一，税务机关提醒。", "短段落二，依法纳税。"])
    assert "短段落一" not in extract_body_decay(parse_html(page))
    fixed = extract_body(parse_html(page))
    assert "短段落一" in fixed and "短段落二" in fixed and long.strip() in fixed


def test_comment_sections_do_not_capture_the_body():
    comments = (
        '<div id="comments" class="comment-list">'
        + "".join(
            f'<div class="comment"><p>网友评论内容第{n}条，说得很有道理，支持依法纳税，打击偷税漏税行为。</p></div>'
            for n in range(30)
        )
        + "</div>"
    )
    text = extract_body(parse_html(article(extra=comments)))
    assert PARAGRAPHS[1] in text and "网友评论" not in text


def test_title_meta_lines_and_hidden_copies_are_not_body():
    page = article(
        [
            "2026-03-01 08:05 来源：新华社",
            *PARAGRAPHS,
            "责任编辑：王五",
        ]
    ).replace(
        "</div>" + SIDEBAR,
        f'<div style="display:none">{"".join(f"<p>{p}</p>" for p in PARAGRAPHS)}</div></div>'
        + SIDEBAR,
    )
    text = extract_body(parse_html(page))
    assert text.splitlines() == PARAGRAPHS  # no title, date, source, editor, or repeated copy
    assert drop_meta_lines("来源：新华社\n正文") == "正文"


def test_a_text_that_repeats_itself_keeps_its_repeats_and_hidden_copies_still_go():
    # A plan whose days repeat the same meals among the same siblings: the text's own pattern.
    days = "".join(
        f"<h3>Day {n}</h3><p>Breakfast before the workout, sixty minutes ahead</p>"
        f"<p>Oats with berries and a spoon of nut butter</p><p>Chicken with rice and greens</p>"
        for n in range(1, 4)
    )
    page = f"<html><body><article>{days}</article></body></html>"
    text = extract_body(parse_html(page))
    assert text.count("Oats with berries and a spoon of nut butter") == 3
    assert text.count("Chicken with rice and greens") == 3
    # The same paragraphs copied into a container of their own (another screen's copy) go.
    copied = page.replace("</article>", f"</article><div>{days}</div>")
    assert extract_body(parse_html(copied)).count("Chicken with rice and greens") == 1
    # One line said twice among an article's paragraphs (a label above and below) is no
    # pattern: its second copy goes.
    label = "<p>Sharing is caring, tell a friend!</p>"
    prose = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    text = extract_body(parse_html(f"<body><article>{label}{prose}{label}</article></body>"))
    assert text.count("Sharing is caring") == 1 and PARAGRAPHS[2] in text


def test_a_class_prefix_every_block_shares_says_nothing_about_which_is_the_article():
    prose = "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    teasers = "".join(
        f"<div><h4><a href='/{n}'>另一篇文章的标题第{n}篇</a></h4>另一篇文章的摘要文字第{n}段，介绍别的事情和背景。</div>"
        for n in range(6)
    )
    page = (
        '<html><body><div class="ArticlePage-main">' + prose + "</div>"
        '<div class="ArticlePage-below container">' + teasers + "</div></body></html>"
    )
    text = extract_body(parse_html(page))
    assert PARAGRAPHS[1] in text and "另一篇文章" not in text


def test_lead_paragraph_outside_the_body_container_is_kept():
    lead = "导语：这是一段放在正文容器之外的导语，介绍了本文的主要内容和背景信息。"
    page = article().replace(
        '<div class="article"><h1>典型案例曝光</h1>',
        f'<p class="lead">{lead}</p><div class="article"><h1>典型案例曝光</h1>',
    )
    text = extract_body(parse_html(page))
    assert text.splitlines()[0] == lead and PARAGRAPHS[2] in text


def test_never_empty_for_a_page_with_text():
    assert (
        extract_body(parse_html('<body><div class="comment">只有这一段文字</div></body>'))
        == "只有这一段文字"
    )


def test_options_switch_improvements_off():
    page = article()
    assert extract_body(parse_html(page), BodyOptions(name_weights=False, drop_meta=False))


def test_density_method_with_tolerance_and_minimum_length():
    filler = "\n".join(f'<div><a href="/{n}">链接{n}</a></div>' for n in range(25))
    body = "\n".join(f"<p>{p}</p>" for p in PARAGRAPHS)
    page = f"<html><body><h1>一个离正文很远的标题</h1>\n{filler}\n{body}\n{filler}\n<p>版权所有，这是页脚文字</p></body></html>"
    text = extract_body_density(page)
    assert all(p in text for p in PARAGRAPHS)  # the far title did not end the search (200 B)
    assert "版权所有" not in text  # 25 low lines > tolerance 20 ended the body
    assert "一个离正文很远的标题" in text
    short = extract_body_density(page, min_bytes=10)
    assert short == "一个离正文很远的标题"  # with a tiny minimum, the far title is all there is


def test_density_method_on_minified_html():
    page = (
        "<html><body>"
        + NAV
        + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
        + FOOTER
        + "</body></html>"
    )
    text = extract_body_density(page)
    assert all(p in text for p in PARAGRAPHS) and "首页" not in text


def test_links_inside_sentences_are_kept_and_link_lists_are_not():
    """A link written into a sentence is part of it (wikis and English news link words in
    running text); a row of bare links beside the text is not body."""
    sentence = (
        "<p>The <a href='/irs'>Internal Revenue Service</a> said on Monday that "
        "<a href='/tax'>tax refunds</a> would arrive later this year, and 税务总局"
        "<a href='/notice'>发布公告</a>称，退税将于下月到账。</p>"
    )
    page = parse_html(
        "<html><body><div class='story'>"
        + sentence
        + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
        + "<div><a href='/1'>Markets</a> | <a href='/2'>Politics</a> | <a href='/3'>Sport</a>"
        "</div></div></body></html>"
    )
    text = extract_body(page)
    assert "The Internal Revenue Service said on Monday that tax refunds would arrive" in text
    assert "税务总局发布公告称" in text
    assert "Markets" not in text and "Politics" not in text
    old = extract_body(page, BodyOptions(keep_links_in_prose=False))
    assert "Internal Revenue Service" not in old


def test_a_paragraphs_links_are_judged_with_it_whatever_stands_beside_them():
    """Links a sentence holds though no word touches them: in brackets, before a full stop or a
    comma; a paragraph that is (nearly) all links still goes, judged as a whole."""
    linked = (
        "<p>Refunds rise this year (<a href='/r'>the agency's annual report</a>), "
        "officials said, citing “<a href='/d'>new data</a>”.</p>"
        "<p>Source: <a href='/s'>Statistics Office tables for 2025</a></p>"
    )
    page = parse_html(
        "<html><body><div class='story'>"
        + linked
        + "".join(f"<p>{p}</p>" for p in PARAGRAPHS)
        + "<p><a href='/1'>Markets</a> <a href='/2'>Politics</a> <a href='/3'>Sport</a></p>"
        "</div></body></html>"
    )
    text = extract_body(page)
    assert "(the agency's annual report), officials said, citing “new data”." in text
    assert "Statistics Office" not in text
    assert "Markets" not in text


BENCH = SHARED / "bench" / "body"


@pytest.mark.skipif(not BENCH.is_dir(), reason="../shared/bench is not beside this checkout")
@pytest.mark.parametrize(("name", "floor"), [("zh-dev", 0.92), ("en-dev", 0.95)])
def test_benchmark_sets_in_place(name, floor):
    """Regression guard on the benchmark pages (read in place, never copied): no crash, no
    empty body, macro F1 above a floor a little under what benchmarks/body.py measured."""
    sys.path.insert(0, str(BENCH))
    from score import prf

    f1s = []
    for path in sorted((BENCH / name).glob("*.html")):
        text = extract_body(parse_html(decode_html(path.read_bytes())[1]))
        assert text.strip(), path.name
        f1s.append(prf(text, path.with_suffix(".txt").read_text(encoding="utf-8"))[2])
    assert statistics.mean(f1s) >= floor


STORY_LINES = [
    "Boston had its winning streak snapped on Tuesday night as the visitors rallied late.",
    "The home side led by eleven points with six minutes left before the collapse began.",
    "Their coach said afterwards that the team had simply stopped moving the ball.",
    "The two sides meet again on Friday in the second game of the short series.",
]


def test_a_blocks_own_lines_between_line_breaks_compete_with_its_children():
    """An article written as lines between <br>s right in its container, with one small child
    block (a copyright line in a paragraph): FindMT must not descend into the child because it
    is the container's only element with text."""
    story = "<br><br>".join(STORY_LINES)
    page = (
        f"<html><body>{NAV}<div class='story'><h1>Streak snapped</h1><div class='storybody'>"
        f"{story}<div class='copyright'><p>Copyright 2008 The Press.</p></div></div></div>"
        f"{SIDEBAR}</body></html>"
    )
    body = extract_body(parse_html(page))
    assert all(line in body for line in STORY_LINES)
    without = extract_body(parse_html(page), BodyOptions(own_text=False))
    assert STORY_LINES[0] not in without
