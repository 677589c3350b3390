"""Comments by POL with the page's evidence, on pages written for these tests."""

from __future__ import annotations

from datetime import datetime

from topiccrawler.extract.dates import DEFAULT_TZ
from topiccrawler.extract.records.comments import RecordOptions
from topiccrawler.extract.records.page import extract_records

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=DEFAULT_TZ)

NAV = "".join(f'<li><a href="/c{i}">频道{i}</a></li>' for i in range(8))
RELATED = "".join(
    f'<li><a href="/news/{i}.html">相关新闻标题第{i}条，税务总局发布新规</a><span>2026-05-0{i}</span></li>'
    for i in range(1, 7)
)
ARTICLE = "".join(f"<p>第{i}段：增值税改革持续推进，纳税人办税更加便利。</p>" for i in range(6))


def comment(user: str, when: str, text: str, replies: str = "") -> str:
    return f"""<li class="comment-item"><div class="c-head"><a class="c-user" href="/u/{user}">{user}</a>
<span class="c-time">{when}</span></div><div class="c-body"><p>{text}</p></div>
<div class="c-tools"><a href="#">回复</a> <a href="#">赞(3)</a></div>{replies}</li>"""


def news_page(comments: str) -> str:
    return f"""<html><head><title>税改新政</title></head><body>
<div class="wrap"><div class="top"><div class="nav"><ul>{NAV}</ul></div></div>
<div class="main"><div class="left"><div class="article"><h1>税改新政</h1>{ARTICLE}</div>
<div class="comments"><h3>网友评论</h3><ul class="comment-list">{comments}</ul></div></div>
<div class="right"><div class="box"><h3>相关阅读</h3><ul class="related">{RELATED}</ul></div></div>
</div></div></body></html>"""


SIX = "".join(
    comment(user, f"2026-05-2{i} 1{i}:00", text)
    for i, (user, text) in enumerate(
        [("张三", "政策很好，支持！"), ("李四", "希望落实到位。"), ("王五", "小微企业受益明显。"),
         ("赵六", "申报流程还能再简化吗？"), ("钱七", "已经享受到优惠了。"), ("孙八", "点赞。")]
    )
)  # fmt: skip


def test_each_comment_with_author_and_time_without_chrome():
    records = extract_records(news_page(SIX), now=NOW)
    assert [c.author for c in records.comments] == ["张三", "李四", "王五", "赵六", "钱七", "孙八"]
    first = records.comments[0]
    assert (first.text, first.time) == ("政策很好，支持！", "2026-05-20 10:00")
    assert first.published_at.isoformat() == "2026-05-20T10:00:00+08:00"
    assert first.author_url == "/u/张三"
    assert all("回复" not in c.text and "赞(3)" not in c.text for c in records.comments)
    assert not records.posts and not records.threads


def test_navigation_related_articles_and_paragraphs_are_not_comments():
    records = extract_records(news_page(""), now=NOW)
    assert records.comments == []


def test_two_comments_are_found_when_times_and_authors_back_them():
    two = comment("张三", "2026-05-20 10:00", "第一条评论") + comment(
        "李四", "2026-05-21 11:00", "第二条评论"
    )
    assert [c.text for c in extract_records(news_page(two)).comments] == [
        "第一条评论",
        "第二条评论",
    ]
    paper_only = extract_records(news_page(two), RecordOptions(evidence=False))
    assert paper_only.comments == []  # b = 5: the paper misses short threads by design


def test_nested_replies_are_their_own_comments_and_say_whom_they_answer():
    reply = '<ul class="children">' + comment("李四", "2026-05-20 12:00", "同意楼上") + "</ul>"
    threaded = comment("张三", "2026-05-20 10:00", "这个政策怎么申请？", reply) + SIX
    comments = extract_records(news_page(threaded)).comments
    texts = [c.text for c in comments]
    assert texts[:2] == ["这个政策怎么申请？", "同意楼上"]  # the reply is not in its parent's text
    assert comments[1].reply_to == "张三" and comments[0].reply_to is None


def test_english_blog_comments_with_machine_times():
    items = "".join(
        f"""<li class="comment" id="comment-{n}"><article class="comment-body">
<footer class="comment-meta"><div class="comment-author vcard"><b class="fn">{name}</b>
<span class="says">says:</span></div><div class="comment-metadata"><a href="#c{n}">
<time datetime="2019-08-0{n}T04:11:57+00:00">August {n}, 2019 at 4:11 am</time></a></div></footer>
<div class="comment-content"><p>{text}</p></div>
<div class="reply"><a class="comment-reply-link" href="#">Reply</a></div></article></li>"""
        for n, (name, text) in enumerate(
            [("Ann", "Great write-up, thanks."), ("Bob", "Which compiler did you use?"),
             ("Cy", "Numbers match mine.")], start=1
        )
    )  # fmt: skip
    page = f"""<html><body><article><h1>Fast JSON</h1>{ARTICLE}</article>
<div id="comments"><ol class="comment-list">{items}</ol></div></body></html>"""
    comments = extract_records(page).comments
    assert [(c.author, c.text) for c in comments] == [
        ("Ann", "Great write-up, thanks."),
        ("Bob", "Which compiler did you use?"),
        ("Cy", "Numbers match mine."),
    ]
    assert comments[0].time == "August 1, 2019 at 4:11 am"
    assert (
        comments[0].published_at.isoformat() == "2019-08-01T04:11:57+00:00"
    )  # the attribute's zone


def test_every_measure_finds_the_comments():
    for measure in ("pol", "ed", "stm", "lcs", "mct"):
        comments = extract_records(news_page(SIX), RecordOptions(measure=measure)).comments
        assert len(comments) == 6, measure


def test_a_list_of_two_thousand_items_is_handled():
    items = "".join(f"<li><a href='/p{i}'>商品{i}</a><span>¥{i}</span></li>" for i in range(2000))
    page = f"<html><body><div><div><div><div><div><ul>{items}</ul></div></div></div></div></div></body></html>"
    assert extract_records(page).comments == []


def test_a_byline_of_a_name_link_and_a_linked_time_names_the_author():
    """Every piece of the byline a link: the name to the person's page, the time to the
    comment itself ("<a>ada</a> <a>3 hours ago</a>"); the name is the author, not nobody."""
    said = [("ada", "3 hours ago", "Containers on this system were overdue, glad to see them."),
            ("brook", "2 hours ago", "They have had jails and zones elsewhere for a decade now."),
            ("cyd", "1 hour ago", "The licensing will decide whether anyone actually uses it."),
            ("dee", "40 minutes ago", "Curious how the image format compares with the others.")]  # fmt: skip
    rows = "".join(
        f'<tr><td><span class="comhead"><a href="user?id={u}">{u}</a> '
        f'<a href="item?id={900 + i}">{t}</a></span><br><span class="comment">{x}</span>'
        f'<div class="reply"><a href="reply?id={900 + i}">reply</a></div></td></tr>'
        for i, (u, t, x) in enumerate(said)
    )
    page = (
        "<html><body><h1>A new kind of container</h1><p>Announced today.</p>"
        f"<table class='comment-tree'>{rows}</table></body></html>"
    )
    records = extract_records(page, now=NOW)
    found = records.comments or records.posts
    assert [(r.author, r.time) for r in found] == [(u, t) for u, t, _ in said]


def test_a_definition_lists_entries_of_author_text_and_footer_are_one_comment_each():
    """Blog comments as a definition list: each a <dt> (the author's line), a <dd> with the
    text and a <dd> footer with the time. Each entry is one comment with its three fields,
    found whether the region is taken as the <dt>s or as the text <dd>s (once, not twice)."""
    people = ["Chibby", "Ann Lee", "Marco", "Sue", "Tim"]
    items = "".join(
        f"<dt class='comment-author' id='c{n}'><div class='avatar-image-container vcard'><span>"
        f"<a href='http://blog.example.test/profile/{n}'><img src='/b.gif' title='{who}'></a>"
        f"</span></div><a href='http://blog.example.test/profile/{n}' rel='nofollow'>{who}</a>"
        f" said... </dt><dd class='comment-body' id='cmt-{n}'><p>Comment {n}: we donated too, "
        f"for the parts of town that lost power.</p></dd><dd class='comment-footer'><span "
        f"class='comment-timestamp'><a href='/p.html?showComment={n}#c{n}'>November 1{n}, 2012 "
        f"7:18 PM</a></span></dd>"
        for n, who in enumerate(people, 1)
    )
    page = (
        "<html><body><div class=outer><div class=main><div class=posts><div class=post-outer>"
        "<div class=post><h3>Giving back</h3><div class=post-body><p>"
        + "A post about the recipe and the storm. "
        * 20
        + "</p></div></div><div class='comments' id='comments'><h4>5 comments:</h4><div "
        f"id='comments-block-wrapper'><dl class='avatar-comment-indent'>{items}</dl></div></div>"
        "</div></div></div></div></body></html>"
    )
    comments = extract_records(
        page, url="http://blog.example.test/2012/11/giving-back.html"
    ).comments
    assert [(c.author, c.time) for c in comments] == [
        (who, f"November 1{n}, 2012 7:18 PM") for n, who in enumerate(people, 1)
    ]
    assert all(c.text.startswith(f"Comment {n}:") for n, c in enumerate(comments, 1))


def test_teasers_that_open_with_a_category_label_before_their_title_are_no_comments():
    """ "Related stories" beside an article's comments: each a category link ("home"), then
    its headline linking to the story, its author and time and an excerpt. Teasers, not
    comments, though each carries a byline and a time."""
    comments = "".join(
        f"<li class='comment'><div class=title>reader{n}</div><div class=meta>August 1{n}, "
        f"2016 10:4{n} pm</div><div class=comment-content><p>Comment {n}: my bank sent the new "
        f"card number to the provider on its own.</p></div></li>"
        for n in range(1, 4)
    )
    stories = "".join(
        f"<div class=post><a class=category href=/{cat}/>{cat}</a><h2><a href=/2016/10/story-{n}>"
        f"Story {n}: These People Have Never Eaten A Big Mac</a></h2><div class=meta><a "
        f"href=/author/a{n}/ rel=author>Writer {n}</a> <time datetime='2016-10-2{n}T12:30'>2{n} "
        f"Oct 2016 12:30 PM</time></div><div class=excerpt>Meet the three people who took part "
        f"in test {n}, and what they made of it.</div></div>"
        for n, cat in enumerate(["home", "tech", "money"], 1)
    )
    page = (
        "<html><body><article><h1>Cards</h1><p>"
        + "Some bill providers update your card on their own. " * 10
        + f"</p></article><ol class=commentlist>{comments}</ol>"
        f"<div class='stories related'>{stories}</div></body></html>"
    )
    found = extract_records(page, url="http://news.example.test/2016/08/cards").comments
    assert [c.text.split(":")[0] for c in found] == ["Comment 1", "Comment 2", "Comment 3"]
