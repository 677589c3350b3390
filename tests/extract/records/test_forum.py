"""Forum thread pages and thread lists by SoL, on pages written for these tests (and the
sandbox's forums, which are ours too)."""

from __future__ import annotations

import pytest

from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.fields import content_element
from topiccrawler.extract.records.forum import is_forum_page
from topiccrawler.extract.records.page import extract_records
from topiccrawler.sandbox.web import FORUM_DIV, FORUM_TABLE, build_web

URL = "http://bbs.example.test/thread-77-1-1.html"


def post_table(n: int, user: str, when: str, text: str) -> str:
    """A Discuz!-like post: user column (with its points), message column, action row."""
    return f"""<div id="post_{n}"><table class="plhin"><tr>
<td class="pls"><div class="authi"><a href="/space-uid-{n}.html">{user}</a></div>
<dl class="pil"><dt>积分</dt><dd>{n * 37}</dd><dt>注册时间</dt><dd>2019-01-0{n}</dd></dl></td>
<td class="plc"><div class="pi"><em>发表于 {when}</em> | <a href="#">只看该作者</a></div>
<div class="pct"><table><tr><td class="t_f">{text}</td></tr></table></div></td></tr>
<tr><td class="plc plm"><a href="#">回复</a> <a href="#">支持</a> <a href="#">反对</a></td></tr>
</table></div>"""


def thread_page(posts: list[tuple[str, str, str]]) -> str:
    rows = "".join(post_table(n, *p) for n, p in enumerate(posts, start=1))
    return f"""<html><head><meta name="generator" content="Discuz! X3.4"></head><body>
<div id="hd"><a href="/">论坛</a> <a href="/forum.php">版块</a></div><h1>个税汇算怎么退税？</h1>
<div id="postlist">{rows}</div>
<div class="pg"><strong>1</strong> <a href="/thread-77-2-1.html">2</a> <a href="/thread-77-2-1.html">下一页</a></div>
</body></html>"""


POSTS = [
    ("清风徐来", "2026-3-1 10:20", "今年个税汇算，专项附加扣除填了以后显示可以退税，多久到账？"),
    ("小王同学", "2026-3-1 11:02", "一般审核通过后一周左右到账。"),
    ("财务张姐", "2026-3-2 09:15", "注意银行卡要是一类卡。"),
]


def test_thread_page_posts_with_author_time_and_text_only():
    records = extract_records(thread_page(POSTS), url=URL)
    assert records.kind == "thread" and not records.comments
    assert [(p.author, p.time, p.text) for p in records.posts] == [
        (user, f"发表于 {when}", text) for user, when, text in POSTS
    ]
    assert records.posts[0].author_url == "/space-uid-1.html"
    assert records.posts[0].published_at.isoformat() == "2026-03-01T10:20:00+08:00"


def test_a_thread_of_one_post_still_gives_it():
    records = extract_records(thread_page(POSTS[:1]), url=URL)
    assert [p.text for p in records.posts] == [POSTS[0][2]]


def test_thread_list_rows_with_counts():
    rows = "".join(
        f"""<tbody id="normalthread_{i}"><tr><th><a href="/thread-{i}-1-1.html" class="xst">{title}</a></th>
<td class="by"><cite><a href="/space-uid-{i}.html">{user}</a></cite><em>{when}</em></td>
<td class="num"><a href="/thread-{i}-1-1.html">{replies}</a><em>{views}</em></td></tr></tbody>"""
        for i, (title, user, when, replies, views) in enumerate(
            [("个税汇算退税多久到账", "清风徐来", "2026-3-1", 12, 345),
             ("小规模纳税人减免增值税", "小王同学", "2026-3-2", 3, 88),
             ("发票丢了怎么办", "财务张姐", "2026-3-3", 40, 1200)]
        )
    )  # fmt: skip
    page = f"""<html><body><div id="threadlist"><table>{rows}</table></div>
<div class="pg"><strong>1</strong><a href="/forum-2-2.html">2</a></div></body></html>"""
    records = extract_records(page, url="http://bbs.example.test/forum-2-1.html")
    assert records.kind == "list"
    first = records.threads[0]
    assert (first.title, first.url, first.author, first.time, first.replies, first.views) == (
        "个税汇算退税多久到账", "http://bbs.example.test/thread-0-1-1.html", "清风徐来",
        "2026-3-1", 12, 345,
    )  # fmt: skip
    assert [t.views for t in records.threads] == [345, 88, 1200]


def test_posts_split_over_two_rows_are_paired():
    """A header row (author, time) and a text row per post, as old table forums do."""
    rows = "".join(
        f"""<tr><td class="bold"><a href="/{user}">{user}</a></td><td>{when}</td></tr>
<tr><td class="l w">{text}</td></tr>"""
        for user, when, text in POSTS
    )
    page = f"<html><body><table summary='posts'>{rows}</table></body></html>"
    records = extract_records(page, url="http://forum.example.test/topic/77")
    assert [p.author for p in records.posts] == [user for user, _, _ in POSTS]
    assert [p.text for p in records.posts] == [text for _, _, text in POSTS]


def test_schema_org_answers_are_posts_without_a_time():
    answers = "".join(
        f"""<div itemprop="answer" itemscope itemtype="http://schema.org/Answer">
<div class="AuthorInfo"><a class="UserLink-link" href="/people/{n}">{name}</a></div>
<div class="RichContent"><span class="RichText">{text}</span></div>
<div class="ContentItem-actions"><button>赞同 12</button></div></div>"""
        for n, (name, text) in enumerate(
            [("等风", "震感范围广，是因为震级较大、震源较浅，而且板块构造复杂，能量传得远。"),
             ("Rara", "福建沿海离震中只有两三百公里，有震感很正常，高层住户感受更明显。")]
        )
    )  # fmt: skip
    page = f"<html><body><div class='Question'><h1>这次地震为何波及如此之广？</h1></div>{answers}</body></html>"
    records = extract_records(page, url="https://qa.example.test/question/1")
    assert [p.author for p in records.posts] == ["等风", "Rara"]
    assert records.posts[0].text.startswith("震感范围广")


@pytest.fixture(scope="module")
def sandbox():
    return build_web(1, "small")


def test_sandbox_forums_posts_and_lists_match_the_truth(sandbox):
    posts = right = threads = threads_right = 0
    for host, path, truth in sandbox.pages_with_truth():
        if host not in (FORUM_TABLE, FORUM_DIV) or truth.kind == "thread-xhr":
            continue  # posts that arrive by XHR are not in the HTML (render/ completes them)
        html = sandbox.resources[(host, path)].body.decode("utf-8").replace("__PORT__", "8000")
        records = extract_records(html, url=f"http://{host}:8000{path}")
        found = {(p.text, p.author) for p in records.posts}
        posts += len(truth.posts)
        right += sum((t.text, t.author) in found for t in truth.posts)
        listed = {(t.title, t.replies, t.views) for t in records.threads}
        threads += len(truth.threads)
        threads_right += sum(
            (t["title"], t["replies"], t["views"]) in listed for t in truth.threads
        )
    assert posts and right >= 0.99 * posts  # measured 511/513 (two 2-post threads of short posts)
    assert threads and threads_right == threads


def user_box_post(n: int, user: str, when: str, text: str) -> str:
    """A post whose user box marks its statistics, rank and join date as the author's, as
    many forum packages do; the post's own time sits in the message header."""
    return f"""<article class="post" id="post-{n}">
<div class="author-box"><div class="author-name">{user}</div>
<div class="author-rank">Member</div><div class="author-posts">Posts: {n * 12}</div>
<div class="author-joined">Joined: {n + 2} months ago</div></div>
<div class="post-body"><div class="post-meta">{when}</div><div class="post-text">{text}</div></div>
</article>"""


def test_user_box_statistics_rank_and_join_date_are_not_author_or_time():
    posts = [
        ("ledger_anna", "08/05/2024 1:58 pm", "Is the standard deduction going up again this year?"),
        ("taxman77", "08/05/2024 9:51 pm", "Yes, it rises with inflation; the new figures are out."),
        ("ledger_anna", "09/05/2024 1:12 pm", "Thanks, found them on the revenue service site."),
    ]  # fmt: skip
    page = (
        "<html><head><title>Standard deduction - Tax Forum</title></head><body>"
        f"<h1>Standard deduction</h1><div class='topic'>"
        f"{''.join(user_box_post(n, *p) for n, p in enumerate(posts, 1))}</div></body></html>"
    )
    records = extract_records(page, url="https://forum.example.test/topic/42/standard-deduction")
    assert [p.author for p in records.posts] == [u for u, _, _ in posts]
    assert all(when in p.time for p, (_, when, _) in zip(records.posts, posts, strict=True))


@pytest.mark.parametrize(
    ("text", "linked", "name"),
    [("Posts: 139", False, None), ("积分: 84", False, None), ("Member", False, None),
     ("版主", False, None), ("Senior Member", False, None), ("Moderator", True, "Moderator"),
     ("jeff99", False, "jeff99"), ("K O'Connor", False, "K O'Connor"),
     ("等风 \u200b", False, "等风"),  # a zero-width space after the name: no part of it
     ("更多", True, None), ("More", True, None)],  # a menu of more actions, linked as names are
)  # fmt: skip
def test_statistics_and_ranks_are_no_names(text, linked, name):
    """A rank that links to a profile is the name the profile goes by."""
    from topiccrawler.extract.records.authors import clean_author

    assert clean_author(text, linked=linked) == name


def test_the_answer_microdata_calls_accepted_is_marked_accepted():
    def answer(n: int, who: str, when: str, text: str, accepted: bool = False) -> str:
        prop = ' itemprop="acceptedAnswer"' if accepted else ' itemprop="suggestedAnswer"'
        return (
            f'<div class="answer"{prop} itemscope itemtype="https://schema.org/Answer">'
            f'<div class="text" itemprop="text"><p>{text}</p></div><div class="by">'
            f'<a href="/users/{n}/{who}">{who}</a> <span>answered {when}</span></div></div>'
        )

    page = f"""<html><body><h1>Which glue holds on glass?</h1><div class="answers">
{answer(1, "ann", "Mar 1, 2024 at 10:02", "Two-part epoxy, the glass roughened a little first.")}
{answer(2, "bob", "Mar 1, 2024 at 11:40", "A UV-curing glass glue: clear and strong.", True)}
{answer(3, "cat", "Mar 2, 2024 at 08:15", "Silicone works where the joint has to flex a bit.")}
</div></body></html>"""
    posts = extract_records(page, url="https://qa.example.test/questions/7/glue").posts
    assert [(p.author, p.accepted) for p in posts] == [
        ("ann", False),
        ("bob", True),
        ("cat", False),
    ]


@pytest.mark.parametrize(
    "label", ["Join date:", "Registration date:", "Anmeldungsdatum:", "Date d'inscription :"]
)
def test_the_date_a_poster_joined_is_not_the_posts_time(label):
    def post(n: int, who: str, joined: str, when: str, text: str) -> str:
        return (
            f'<tr id="post-{n}"><td class="poster"><p class="username"><a href="/user/{who}/">'
            f'{who}</a></p><p>{label}<br>{joined}</p></td><td class="post"><div '
            f'class="postinfo">{when}</div><div class="text"><p>{text}</p></div></td></tr>'
        )

    page = f"""<html><body><h2>Login loop</h2><table class="topic"><tbody>
{post(1, "ann", "21. Januar 2013", "20. April 2020 11:17", "After the update the login screen comes back.")}
{post(2, "bob", "3. März 2011", "20. April 2020 11:20", "Try removing the Xauthority file in your home.")}
{post(3, "cat", "9. Mai 2016", "20. April 2020 12:02", "That fixed it here too, thanks a lot for the tip.")}
</tbody></table></body></html>"""
    posts = extract_records(page, url="https://forum.example.test/topic/login-loop/").posts
    assert [p.author for p in posts] == ["ann", "bob", "cat"]
    assert [p.time for p in posts] == [
        "20. April 2020 11:17",
        "20. April 2020 11:20",
        "20. April 2020 12:02",
    ]


def test_a_coarse_date_shown_is_the_time_as_written_and_the_attribute_is_kept():
    def post(n: int, who: str, iso: str, text: str) -> str:
        return (
            f'<li class="item-comment" id="comment-{n}"><div class="meta"><a class="user" '
            f'href="/profile/{who}">{who}</a> <time datetime="{iso}" title="{iso}">'
            f'September 2019</time></div><div class="message"><p>{text}</p></div></li>'
        )

    page = f"""<html><body><h1>How to disable notifications</h1><ul class="comments">
{post(1, "ann", "2019-09-29T03:49:37+00:00", "The pop-ups keep coming back after each restart.")}
{post(2, "bob", "2019-09-29T05:10:04+00:00", "Turn them off under Settings, then General.")}
{post(3, "cat", "2019-09-29T05:44:00+00:00", "That option is missing in the free version here.")}
</ul></body></html>"""
    posts = extract_records(page, url="https://forum.example.test/discussion/81455/").posts
    assert [p.time for p in posts] == ["September 2019"] * 3
    assert [p.time_attr for p in posts] == [
        "2019-09-29T03:49:37+00:00",
        "2019-09-29T05:10:04+00:00",
        "2019-09-29T05:44:00+00:00",
    ]


def answer(n: int, user: str, when: str, text: str, badge: str = "", more: str = "") -> str:
    """A Q&A answer: its meta row (profile link, time), its text, its footer; `badge`: a
    label row before them (the accepted or best answer), `more`: a row after them."""
    label = f'<div class="answer-label"><span>{badge}</span></div>' if badge else ""
    return f"""<div class="answer" id="answer-{n}">{label}<div class="answer-meta">
<a class="user-link" href="/users/{n}/">{user}</a> <span class="answer-time">{when}</span></div>
<div class="answer-body"><p>{text}</p></div>{more}<div class="answer-footer">
<button>{n + 3} votes</button> <a href="#c">Comment</a></div></div>"""


def qa_page(answers: list[str]) -> str:
    return f"""<html><body><header><a href="/">Q&amp;A</a></header><main>
<h1>Why does the export stop after five minutes?</h1><div class="question-text"><p>The nightly
export stops after exactly five minutes although it needs ten. What limits it?</p></div>
<div class="answers"><h2>{len(answers)} answers</h2>{"".join(answers)}</div></main></body></html>"""


TWO_ANSWERS = [
    ("Sam Greene", "2023-06-01 08:00", "The plan limits a run to five minutes; raise the limit in its settings."),
    ("Devika R", "2023-06-01 12:30", "If it must run longer than ten minutes, move it to a queue of its own."),
]  # fmt: skip


@pytest.mark.parametrize("badge", ["Accepted answer", "最佳答案"])
def test_two_answers_one_marked_with_a_badge_row_are_both_posts(badge):
    first, second = TWO_ANSWERS
    page = qa_page([answer(1, *first, badge=badge), answer(2, *second)])
    records = extract_records(page, url="https://qa.example.test/questions/42/export")
    assert [(p.author, p.time) for p in records.posts] == [(a, t) for a, t, _ in TWO_ANSWERS]
    assert records.posts[1].text == TWO_ANSWERS[1][2]
    assert [p.accepted for p in records.posts] == [True, False]  # what its badge says


def test_a_badge_row_is_a_short_text_alone():
    from lxml import html

    from topiccrawler.extract.records.lead import badge_text

    def row(markup: str) -> bool:
        return badge_text(html.fragment_fromstring(markup))

    assert row("<div><span>Accepted answer</span></div>") and row("<div>最佳答案</div>")
    assert not row('<div><a href="/u/1">Sam</a></div>')  # a link: an author, not a badge
    assert not row("<div>2023-06-01 08:00</div>") and not row("<div>12 votes</div>")
    assert not row("<div>The plan limits a run to five minutes, raise it.</div>")  # a text
    assert not row("<div> </div>") and not row("<div>yesterday</div>")  # a time in words


def test_the_time_shown_is_read_before_one_kept_for_screen_readers():
    # The ISO form beside the date shown, as Q&A software writes it for screen readers.
    hidden = (
        '</span><local-time datetime="{iso}" class="is-visually-hidden">{iso}</local-time>'
        '<span class="shown">{when}'
    )
    answers = [
        answer(n, user, hidden.format(iso=when.replace(" ", "T") + ":00Z", when=when), text)
        for n, (user, when, text) in enumerate(TWO_ANSWERS, start=1)
    ]
    records = extract_records(qa_page(answers), url="https://qa.example.test/questions/42/x")
    assert [p.time for p in records.posts] == [when for _, when, _ in TWO_ANSWERS]


@pytest.mark.parametrize(
    "url, generator, forum",
    [
        ("https://bbs.example.test/thread-1-1-1.html", None, True),  # a forum's words
        ("https://example.test/viewtopic.php?t=5", None, True),  # a forum script's path
        ("https://example.test/d/15648", "Flarum", True),  # software its generator names
        ("https://flarum.example.test/d/15648", None, False),  # a name in the host says nothing
        ("https://discourse.example.test/latest", None, False),
        ("https://example.test/2024/05/a-post/", "WordPress 6.5", False),
    ],
)
def test_a_page_is_a_forum_by_its_words_or_generator_never_by_a_software_name_in_its_host(
    url, generator, forum
):
    assert is_forum_page(url, generator) is forum


def test_a_thread_the_json_ld_spells_out_and_the_page_shows_makes_it_a_forum_page():
    """No forum word in the URL and no generator: the page's own markup says it is Q&A, so its
    answers are read as a thread's posts (times as shown, not the markup's UTC form)."""
    people = [("有点蠢", "2024-05-15T20:20:00+08:00", "访问社区时自动弹出登录窗口，子页会跳转到首页"),
              ("寒冰冽", "2024-05-16T15:48:10+08:00", "这个插件可以实现，但是需要付费，也不兼容新版"),
              ("有点蠢", "2024-05-16T16:12:38+08:00", "测试了，可以安装，是免费的，感谢你的回复")]  # fmt: skip
    answers = ",".join(
        f'{{"@type":"Answer","text":"{t}","dateCreated":"{d}","author":{{"@type":"Person","name":"{a}"}}}}'
        for a, d, t in people[1:]
    )
    ld = (
        '{"@context":"https://schema.org","@type":"QAPage","mainEntity":{"@type":"Question",'
        f'"text":"{people[0][2]}","dateCreated":"{people[0][1]}",'
        f'"author":{{"@type":"Person","name":"{people[0][0]}"}},"suggestedAnswer":[{answers}]}}}}'
    )
    posts = "".join(
        f'<article class="Post CommentPost"><header><a href="/u/{i}">{a}</a> '
        f'<time datetime="{d}" title="{d}">{i + 10} 天前</time></header>'
        f'<div class="Post-body"><p>{t}</p></div></article>'
        for i, (a, d, t) in enumerate(people)
    )
    page = (
        f'<html><head><script type="application/ld+json">{ld}</script></head><body>'
        f'<h1>登录弹窗</h1><div class="PostStream">{posts}</div></body></html>'
    )
    records = extract_records(page, url="https://example.test/d/15648")
    assert [(p.author, p.time) for p in records.posts] == [
        (a, f"{i + 10} 天前") for i, (a, _, _) in enumerate(people)
    ]


def bbs_post(user: str, when: str, lines: list[str], header: bool = True) -> str:
    """A BBS post written as a message: mail-like header lines (poster, board, title, the
    station and its date), the text, then "--", the poster's signature and the source line."""
    head = (
        f"发信人: {user} ({user}), 信区: Career<br/> 标&nbsp;&nbsp;题: 换工作的经验<br/> "
        f"发信站: 某某社区 ({when}), 站内<br/>&nbsp;&nbsp;<br/>"
        if header
        else ""
    )
    text = "<br/>".join(lines)
    return f"""<table class="article"><tr class="a-head"><td class="a-left">
<span class="a-u-name"><a href="/user/query/{user}">{user}</a></span></td>
<td><a href="#">回复</a> <span class="a-pos">{when if not header else ""}</span></td></tr>
<tr class="a-body"><td class="a-left"><dl class="a-u-info"><dt>文章</dt><dd>77</dd></dl></td>
<td class="a-content"><p>{head}{text}<br/> --<br/>天天向上的签名档<br/>
<font class="f005">※ 来源:·某某社区 http://bbs.example.test·[FROM: 10.0.0.*]</font></p></td></tr>
</table>"""


def test_a_message_posts_text_is_without_its_header_lines_and_signature():
    posts = [("laowang", "Tue May 12 10:20:31 2020", ["面试了三家公司，最后选了离家近的那家。", "通勤省下的时间很值。"]),
             ("xiaoli", "Tue May 12 11:02:09 2020", ["同意，通勤时间也是成本。"])]  # fmt: skip
    page = (
        "<html><body><h1>换工作的经验</h1>"
        + "".join(bbs_post(u, w, lines) for u, w, lines in posts)
        + "</body></html>"
    )
    records = extract_records(page, url="https://bbs.example.test/article/Career/1800")
    assert [(p.author, p.time, p.text) for p in records.posts] == [
        (u, w, "\n".join(lines)) for u, w, lines in posts
    ]


def test_a_forum_post_without_a_message_header_keeps_the_text_after_a_dashes_line():
    """ "--" divides a post's text as often as it opens a signature: only a message (its
    header dating it) is cut there."""
    lines = [["Neue Uhr vorgestellt, hier die Bilder.", "--", "Die Quelle schreibt dazu mehr."],
             ["Schöne Uhr, danke fürs Zeigen!", "--", "Die zweite gefällt mir besser."]]  # fmt: skip
    page = (
        "<html><body>"
        + "".join(
            bbs_post(u, f"2020-05-1{i} 10:20", text, header=False)
            for i, (u, text) in enumerate(zip(["arindal", "tick"], lines, strict=True))
        )
        + "</body></html>"
    )
    records = extract_records(page, url="https://forum.example.test/threads/yema.414009/")
    assert len(records.posts) == 2
    for post, text in zip(records.posts, lines, strict=True):
        assert text[0] in post.text and text[2] in post.text


def test_a_post_written_in_lines_with_inline_markup_among_them_reads_in_order():
    """The post's own lines and the struck-through or bold words among them are one text in
    the order written, not the inline words first."""
    posts = [("shi", "2020-5-4 04:27", "最近因为工作需要群聊<br/>没有啥要求<br/><s>除了游戏</s>什么都可以聊<b>最好能听懂</b>"),
             ("valar", "2020-5-4 10:50", "这是啥<br/>没听说过<em>真的</em>"),
             ("kato", "2020-5-4 11:07", "头像<b>清心</b>寡欲<br/>顶一下")]  # fmt: skip
    rows = "".join(
        f'<div class="row_reply"><div class="re_info"><small>#{i} - {w}</small></div>'
        f'<a href="/user/{u}" class="avatar"></a><div class="inner"><strong>'
        f'<a href="/user/{u}" class="l">{u}</a></strong><div class="message">{t}</div></div></div>'
        for i, (u, w, t) in enumerate(posts, start=1)
    )
    page = f"<html><body><h1>来聊天</h1><div id='comment_list'>{rows}</div></body></html>"
    records = extract_records(page, url="https://example.test/group/topic/356259")
    found = records.posts or records.comments
    assert [p.text.replace("\n", "") for p in found] == [
        "最近因为工作需要群聊没有啥要求除了游戏什么都可以聊最好能听懂",
        "这是啥没听说过真的",
        "头像清心寡欲顶一下",
    ]


def lines_post(n: int, user: str, when: str, lines: str) -> str:
    """A post whose text is written in <br> lines, a code box among them (a board of our own)."""
    return f"""<div class="post" id="p{n}"><dl class="profile"><dt><a href="/member/{n}">{user}</a></dt>
<dd>Posts: {n * 11}</dd></dl><div class="body"><h3><a href="#p{n}">Re: batch loops</a></h3>
<p class="author">by <a href="/member/{n}">{user}</a> » {when}</p><div class="content">{lines}</div></div></div>"""


CODE = (
    "<div class='code'><p>Code:</p><pre>"
    + "<br>".join(f"SET LINE{i}=value number {i} of the loop" for i in range(12))
    + "</pre></div>"
)


def test_a_post_written_in_lines_keeps_them_around_its_code_box_in_order():
    posts = [
        (
            "dario",
            "06 Aug 2010 07:17",
            f"Hello all,<br><br>Why does this loop stop early?<br>{CODE}<br>Thanks",
        ),
        (
            "avery",
            "06 Aug 2010 11:02",
            f"Variables in the block are read once.<br>Try this:<br>{CODE}",
        ),
        ("dario", "06 Aug 2010 12:10", "Oh thanks, it works now."),
    ]
    html = (
        "<html><body><h1>batch loops</h1>"
        + "".join(lines_post(n, *post) for n, post in enumerate(posts, start=1))
        + "</body></html>"
    )
    records = extract_records(html, url="http://board.example.test/viewtopic.php?t=9")
    assert [p.author for p in records.posts] == [u for u, _, _ in posts]
    assert all(when in p.time for p, (_, when, _) in zip(records.posts, posts, strict=True))
    first, second, third = (p.text.splitlines() for p in records.posts)
    assert first[:2] == ["Hello all,", "Why does this loop stop early?"]
    assert first[-1] == "Thanks" and "Code:" in first[2]
    assert second[:2] == ["Variables in the block are read once.", "Try this:"]
    assert third == ["Oh thanks, it works now."]


def test_a_short_thread_beside_a_footer_laid_out_like_its_posts():
    """Two posts and a footer table of the same layout ("All times are GMT"): one block of
    three without a time, at the end, does not sink the thread (of ten posts it would not)."""

    def post_table(user: str, when: str, text: str) -> str:
        return f"""<table class="frame"><tr><td><table><tr><td class="who"><b>{user}</b><br>
<small>Registered: May 2021</small></td><td class="what"><p>{text}</p>
<p><a href="/report">Report this post</a> | <a href="/ip">IP</a></p></td></tr>
<tr><td class="when">{when}</td><td><a href="/quote">Quote</a> <a href="/edit">Edit</a></td></tr>
</table></td></tr></table>"""

    footer = """<table class="frame"><tr><td><table><tr><td class="who">All times are GMT.
</td><td class="what"><a href="/prev">Previous Thread</a> <a href="/next">Next Thread</a>
<a href="/rules">Forum rules</a> <a href="/help">Help</a></td></tr></table></td></tr></table>"""
    posts = [
        ("hanna", "03-02-2004 09:14 AM", "After the update the client closes at start, any idea?"),
        (
            "tobias",
            "03-02-2004 11:40 AM",
            "A fix was released an hour ago; restart and it downloads.",
        ),
    ]
    html = (
        "<html><body><h1>Client closes at start</h1>"
        + "".join(post_table(*post) for post in posts)
        + footer
        + "</body></html>"
    )
    records = extract_records(html, url="http://forum.example.test/showthread.php?threadid=7")
    assert records.kind == "thread"
    assert [(p.time, p.text) for p in records.posts] == [(w, t) for _, w, t in posts]


def test_a_signature_below_the_boards_rule_is_no_text_of_the_post():
    """vBulletin draws eighteen underscores above a poster's signature; a longer rule the
    poster drew divides the post's own text and stays."""
    rule = "_" * 18

    def post(n: int, user: str, when: str, lines: list[str]) -> str:
        text = "<br>".join(lines)
        return f"""<div class="postbit" id="post{n}"><div class="head">{when}</div>
<div class="user"><a href="/member.php?u={n}">{user}</a></div>
<div class="message">{text}</div></div>"""

    posts = [
        (
            "kim",
            "05-03-2011, 10:02 AM",
            ["The new tower got its permit today.", rule, "Skyline watcher since 1998"],
        ),
        (
            "lou",
            "05-03-2011, 11:15 AM",
            ["Finally, after two years of hearings.", "_" * 40, "Next: the park."],
        ),
    ]
    html = (
        "<html><body><h1>New tower</h1>"
        + "".join(post(n, *p) for n, p in enumerate(posts, start=1))
        + "</body></html>"
    )
    records = extract_records(html, url="http://forum.example.test/showthread.php?t=5")
    assert [p.text for p in records.posts] == [
        "The new tower got its permit today.",
        "Finally, after two years of hearings.\n" + "_" * 40 + "\nNext: the park.",
    ]


def test_a_post_whose_list_outweighs_its_paragraphs_keeps_them_all():
    def items(word: str) -> str:
        return "".join(
            f"<li>Point {i}: the {word} framework ships component {i} with keyboard support.</li>"
            for i in range(8)
        )

    posts = [
        ("joshua", "Aug 24 2010 05:01", f"<p>Hi, I am torn between two frameworks.</p><ol>{items('first')}</ol><p>Any advice?</p>"),
        ("karl", "Sep 7 2010 17:11", f"<p>I have used both for a year.</p><ul>{items('second')}</ul><p>Pick the one your team knows.</p>"),
        ("hez", "Sep 8 2010 09:30", f"<p>The main difference is where state lives.</p><ul>{items('third')}</ul>"),
    ]  # fmt: skip
    html = (
        "<html><body><h1>Two frameworks</h1>"
        + "".join(
            f'<div class="post"><div class="byline"><a href="/users/{u}">{u}</a> {w}</div>'
            f'<div class="post-text">{t}</div></div>'
            for u, w, t in posts
        )
        + "</body></html>"
    )
    blocks = parse_html(html).findall(".//div[@class='post']")
    assert {content_element(b).get("class") for b in blocks} == {"post-text"}  # not the list
    records = extract_records(html, url="http://board.example.test/topic/55")
    first, second, _ = (p.text for p in records.posts)
    assert first.startswith("Hi, I am torn") and first.endswith("Any advice?")
    assert "Point 7" in first and second.endswith("Pick the one your team knows.")


def test_layout_groups_count_wrappers_made_after_the_pages_statistics():
    """Comment detection may wrap rows (a definition list's entries) after the page's text
    statistics were taken: SoL's walk counts such a wrapper's text from its children rather
    than failing on it, and leaves the statistics as they were (they say which elements the
    page had, for the wrappers to be undone)."""
    from lxml import etree

    from topiccrawler.extract.records.forum import topic_blocks
    from topiccrawler.extract.records.layout import ForumOptions
    from topiccrawler.extract.tree import text_stats

    rows = "".join(
        f"<dt><a href=/u/{n}>member{n}</a> 2024-05-0{n} 12:00</dt><dd>Reply {n}: the new "
        f"filter fixed the noise on my line.</dd>"
        for n in range(1, 5)
    )
    body = parse_html(f"<html><body><div id=main><dl>{rows}</dl></div></body></html>").find("body")
    stats = text_stats(body)
    before = dict(stats)
    dl = body.find(".//dl")
    for term in list(dl.iter("dt")):
        wrapper = etree.Element("div")
        term.addprevious(wrapper)
        wrapper.extend([term, wrapper.getnext()])
    groups = topic_blocks(body, ForumOptions(), stats)
    assert any(len(g) == 4 and all(m.tag == "div" for m in g) for g in groups)
    assert stats == before
