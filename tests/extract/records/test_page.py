"""All records of a page: detection on a cleaned tree the caller goes on with."""

from __future__ import annotations

from lxml import etree

from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.nodes import text_evidence
from topiccrawler.extract.records.page import extract_records, shared_records
from topiccrawler.extract.tree import clean_tree

POSTS = [
    (f"用户{n}", f"2026-3-{n} 10:2{n}", f"第{n}楼：个税汇算退税一般一周左右到账。")
    for n in (1, 2, 3)
]
# A header row (author, time) and a text row per post: detection wraps each pair into one
# element to read it as one post.
TWO_ROW_THREAD = (
    "<html><body><table summary=posts>"
    + "".join(
        f"<tr><td class=bold><a href=/{u}>{u}</a></td><td>{w}</td></tr><tr><td class='l w'>{t}</td></tr>"
        for u, w, t in POSTS
    )
    + "</table></body></html>"
)
URL = "http://forum.example.test/topic/77"


def test_detection_leaves_the_cleaned_tree_as_it_was():
    root = parse_html(TWO_ROW_THREAD)
    tree = clean_tree(root)
    before = etree.tostring(tree)
    stats, evidence = text_evidence(tree.find("body"))
    records = shared_records(root, tree, stats, evidence, url=URL)
    assert len(records.posts) == 3
    assert all(t in p.text for p, (_, _, t) in zip(records.posts, POSTS, strict=True))
    assert etree.tostring(tree) == before  # the rows it wrapped are unwrapped again
    rows = tree.findall(".//tr")
    assert records.elements == rows[2:]  # the replies' rows (the first post is the body)


def test_a_page_given_as_text_or_as_a_tree_gives_the_same_records():
    root = parse_html(TWO_ROW_THREAD)
    before = etree.tostring(root)
    from_tree = extract_records(root, url=URL)
    from_text = extract_records(TWO_ROW_THREAD, url=URL)
    assert from_tree.posts == from_text.posts and len(from_tree.elements) == 4
    assert etree.tostring(root) == before  # the caller's tree is left untouched
    assert all(e.getroottree().getroot() is root for e in from_tree.elements)


def thread_dated(dates: list[str]) -> str:
    """A forum thread whose posts are written on the given dates (one post each)."""
    posts = "".join(
        f"<div class=post><div class=meta><a href=/u/{n}>member{n}</a> <span>{d}, 10h25</span>"
        f"</div><div class=message>Réponse numéro {n} : le certificat se renouvelle en ligne, "
        f"comptez une semaine pour la réponse de l'administration.</div></div>"
        for n, d in enumerate(dates, 1)
    )
    return f"<html><body><h1>Certificat</h1><div id=posts>{posts}</div></body></html>"


def test_dates_of_numbers_are_read_as_the_page_writes_them():
    # "21/05/2024" can only be day first: the page's "04/07/2023" is then the 4th of July.
    records = extract_records(thread_dated(["04/07/2023", "10/08/2023", "21/05/2024"]), url=URL)
    moments = [(p.published_at.month, p.published_at.day) for p in records.posts]
    assert moments == [(7, 4), (8, 10), (5, 21)], moments
    assert [p.time for p in records.posts][0].startswith("04/07/2023")  # shown as written
    # With nothing to tell them apart, month first, as one date alone is read.
    records = extract_records(thread_dated(["04/07/2023", "10/08/2023", "11/09/2023"]), url=URL)
    assert [(p.published_at.month, p.published_at.day) for p in records.posts][0] == (4, 7)
    # Dates of both ways on one page say no convention: month first, as read alone.
    records = extract_records(thread_dated(["04/07/2023", "05/21/2024", "21/05/2024"]), url=URL)
    assert (records.posts[0].published_at.month, records.posts[0].published_at.day) == (4, 7)


def test_comments_under_each_answer_written_as_one_line_with_the_time_in_an_attribute():
    """A Q&A page of our own: each comment one line, its text, "–", the commenter's link and
    the time, shown as "May 12 '17 at 15:46" with the exact time in a title attribute (and a
    hidden copy of it after): all after the name is the byline."""

    def comment(text, user, shown, exact):
        return (
            f'<li class="comment"><div class="comment-body"><span class="comment-copy">{text}</span>'
            f' – <a href="/users/{user}" class="comment-user">{user}</a> '
            f'<span class="comment-date"><span title="{exact}">{shown}</span>'
            f'<span class="d-none" itemprop="dateCreated">{exact}</span></span></div></li>'
        )

    long = "That works, but the constructor hides the cause; pass it on instead. " * 3
    answers = [
        ("asker", "Jul 7 '16 at 10:48", "How do I define my own exception type in this language?"),
        (
            "helper",
            "Jul 7 '16 at 11:02",
            "Extend the base exception class and pass the message on.",
        ),
        (
            "other",
            "Jul 8 '16 at 09:00",
            "A sealed family of case classes also works when you match.",
        ),
    ]
    comments = [
        [
            (long, "critic", "May 12 '17 at 15:46", "2017-05-12 15:46:29Z"),
            (
                "Why would you compare exceptions at all?",
                "asker",
                "May 12 '17 at 16:00",
                "2017-05-12 16:00:01Z",
            ),
        ],
        [
            (
                "Can you explain the second constructor?",
                "newbie",
                "Apr 30 '18 at 14:26",
                "2018-04-30 14:26:00Z",
            ),
            (long, "helper", "Apr 30 '18 at 15:01", "2018-04-30 15:01:10Z"),
        ],
        [
            (long, "critic", "Jun 29 '17 at 9:33", "2017-06-29 09:33:00Z"),
            ("Thanks, fixed the typo.", "other", "Jun 29 '17 at 9:40", "2017-06-29 09:40:00Z"),
        ],
    ]
    posts = "".join(
        f'<div class="answer"><div class="post-text"><p>{text}</p><p>{text}</p></div>'
        f'<div class="user-info"><div class="action-time">answered '
        f'<span title="2016-07-0{n} 10:00:00Z">{when}</span></div>'
        f'<div class="details"><a href="/users/{n}/{user}">{user}</a> <span>{n * 347}</span></div></div>'
        f'<ul class="comments">{"".join(comment(*c) for c in under)}</ul></div>'
        for n, ((user, when, text), under) in enumerate(zip(answers, comments, strict=True), 1)
    )
    html = f"<html><body><h1>Custom exceptions</h1>{posts}</body></html>"
    records = extract_records(html, url="https://qa.example.test/questions/123/custom-exceptions")
    assert [p.author for p in records.posts] == ["asker", "helper", "other"]
    found = [(c.author, c.time, c.text) for c in records.comments]
    assert found == [
        (u, shown, " ".join(t.split())) for under in comments for t, u, shown, _ in under
    ]


def test_a_posts_lone_comment_beside_its_text_where_the_others_comments_stand():
    """The other posts' comments are the posts' own children (no list around them): the
    post with one comment has it at the same place."""
    from topiccrawler.extract.records.comments import Region
    from topiccrawler.extract.records.page import lone_comments

    def comment(user: str, when: str, said: str) -> str:
        return (
            f'<div class="c"><div class="who"><a href="/u/{user}">{user}</a></div>'
            f'<div class="when">{when}</div><div class="said">{said}</div></div>'
        )

    page = parse_html(
        '<html><body><div class="post"><p>The first post says something at length.</p>'
        + comment("ann", "2020-05-01 10:00", "Nice one, thanks a lot for this.")
        + comment("bob", "2020-05-01 11:00", "Agreed, that is how we did it too.")
        + '</div><div class="post"><p>The second post says something else.</p>'
        + comment("cid", "2020-05-02 10:00", "One comment only, under this post.")
        + "</div></body></html>"
    )
    first, second = page.findall(".//div[@class='post']")
    found = lone_comments([first, second], [Region(first, first.findall("div"))], None)
    assert [(r.parent, len(r.blocks)) for r in found] == [(second, 1)]


def test_a_byline_box_inside_the_message_element_is_left_out_not_the_text():
    """A Q&A page of our own whose message element opens with the poster's box (name, time,
    points) above the paragraphs, followed by the post's controls and a "Comments" heading
    outside it: the text is the paragraphs, not the whole post with its controls."""
    said = [
        ("ann", "2014-04-08 09:24", "How can I get the tool working inside a container here?"),
        ("bob", "2014-04-11 13:12", "Support for containers comes with the next release."),
        ("cid", "2014-09-24 09:32", "Support was removed later; use the plugin instead now."),
    ]
    more = " It takes a few steps, each of them written out in the guide, and then it runs."
    # The question's controls are not the answers' (no row the same in every post), and only
    # posts with comments have the heading.
    controls = (
        '<a href="/edit">edit</a> <a href="/retag">retag</a> <span>flag offensive</span> close',
        '<a href="/edit">edit</a> <span>flag offensive</span> <a href="/link">link</a> more',
    )
    posts = "".join(
        f'<div class="post"><div class="votes"><span>{n}</span></div>'
        f'<div class="post-content"><div class="post-body">'
        f'<div class="info-box"><div class="card"><a href="/users/{n}/{user}">{user}</a>'
        f' <span class="points">{n * 611}</span></div>'
        f'<p class="when">asked <abbr title="{when}">{when}</abbr></p></div>'
        f"<p>{text}{more}</p><p>Second paragraph of post {n}.{more}</p></div>"
        f'<div class="post-controls">{controls[n > 1]}</div>'
        + ('<h2 class="comment-title">Comments</h2>' if n != 2 else "")
        + "</div></div>"
        for n, (user, when, text) in enumerate(said, 1)
    )
    html = f"<html><body><h1>Containers</h1>{posts}</body></html>"
    records = extract_records(html, url="https://qa.example.test/questions/9/containers")
    assert [(p.author, p.time) for p in records.posts] == [(u, w) for u, w, _ in said]
    for n, (post, (_, _, text)) in enumerate(zip(records.posts, said, strict=True), 1):
        assert post.text.startswith(text)
        assert post.text.endswith(f"Second paragraph of post {n}.{more}")


def test_comments_whose_text_is_a_link_to_a_script_are_found():
    """A news page of our own whose comment system wraps each comment's text in a link to a
    script (a click opens the reply box): the text is the comment's, not a menu's links; a
    gallery's captions linking to pages through a script stay links."""
    from topiccrawler.extract.page import extract_page

    said = [
        ("笑笑", "6天前", "先低价服务让你依赖，再涨价的时候你发现已经离不开它了，这也很正常吧。"),
        ("老虎", "6天前", "共享单车现在价格高得离谱，比公交车贵多了，平时通勤还是坐地铁划算。"),
        ("小梦", "5天前", "以前网上音乐免费听，后来要付版权费，习惯了也就接受了，慢慢来吧。"),
    ]
    comments = "".join(
        f'<div class="comment_que"><div class="left"><a href="user.jsp?id={n}"><img src="/h.jpg"></a></div>'
        f'<div class="right"><h3><a href="user.jsp?id={n}">{user}</a> <span>{when}</span></h3>'
        f'<div class="cont"><a href="javascript:replyFloor({n}00,{n}00,\'hot\');">{text}</a></div>'
        f'<div class="acts"><a href="javascript:praise({n}00);">{n * 7}</a> | '
        f"<a href=\"javascript:replyFloor({n}00,{n}00,'hot');\">回复</a></div></div></div>"
        for n, (user, when, text) in enumerate(said, 1)
    )
    gallery = "".join(
        f"<td><a href=\"javascript:play('http://news.example.test/{n}.html');\">图集第{n}组：会场内外的精彩瞬间</a></td>"
        for n in range(4)
    )
    article = "<p>共享单车、充电宝等共享经济产品近期纷纷涨价，记者走访了多家企业了解原因。</p>" * 6
    html = (
        f"<html><body><h1>共享经济集体涨价</h1><div class='article'>{article}</div>"
        f"<table><tr>{gallery}</tr></table>"
        f"<h2>评论</h2><div id='comments'>{comments}</div></body></html>"
    )
    url = "https://news.example.test/newsDetail_4506347"
    for records in (extract_records(html, url=url), extract_page(html, url=url).records):
        assert [(c.author, c.time, c.text) for c in records.comments] == said
    from topiccrawler.extract.records.page import script_links_as_text

    tree = parse_html(html)
    script_links_as_text(tree)
    assert [a.text for a in tree.iter("span") if a.text in {t for _, _, t in said}] == [
        t for _, _, t in said
    ]
    kept = [a.text for a in tree.iter("a") if (a.get("href") or "").startswith("javascript:")]
    assert kept == [t for n in range(4) for t in [f"图集第{n}组：会场内外的精彩瞬间"]] + [
        t for n in range(1, 4) for t in (str(n * 7), "回复")
    ]  # a script going to an address (a gallery's captions), and short labels, stay links


def test_a_from_field_in_the_posters_card_is_no_name():
    """A thread of our own whose posters' cards list labelled fields under the name link
    ("From: Lisbon", "Registered: …"): the name is the link to the person's page, not the
    place a "From:" line gives, which reads like a message's sender."""
    posters = [("ada", "Lisbon"), ("bert", "Palo Alto, CA"), ("cleo", None), ("ada", "Lisbon")]
    posts = "".join(
        f'<div class="blockpost" id="p{n}"><h2><a href="/viewtopic.php?pid={n}">Today 0{n}:47:30</a></h2>'
        f'<div class="postleft"><dl><dt><strong><a href="/profile.php?id={n}0">{user}</a></strong></dt>'
        f"<dd>Member</dd>"
        + (f"<dd>From: {place}</dd>" if place else "")
        + f"<dd>Registered: 2005-03-1{n}</dd><dd>Posts: {n * 10}</dd></dl></div>"
        f'<div class="postright"><div class="postmsg"><p>Reply number {n} says the server ran out'
        f" of memory while resizing large images, and what helped.</p></div></div></div>"
        for n, (user, place) in enumerate(posters, 1)
    )
    html = f"<html><body><h1>Insufficient memory</h1>{posts}</body></html>"
    records = extract_records(html, url="http://forum.example.test/viewtopic.php?id=7356")
    assert [p.author for p in records.posts] == [user for user, _ in posters]


def test_the_posters_counters_are_no_text():
    """A thread of our own whose side column shows each poster's counters ("LV. 14", "GP
    122") apart from the name, which heads the post, and whose replies are a few words: the
    same labels with other numbers in every post are counters, not the text's first lines."""
    said = [
        ("ann", 14, 122, "2017-09-11 16:26:32", "我只是想刷存在感"),
        ("bob", 15, 0, "2017-09-11 16:28:48", "中午才到旁边"),
        ("cid", 4, 5, "2017-09-11 16:30:06", "在干嘛"),
        ("dee", 21, 438, "2017-09-12 10:03:04", "台灯好潮"),
    ]
    posts = "".join(
        f'<section class="post"><div class="side"><div class="user">'
        f'<div class="icon"><span>LV.</span> {level}</div>'
        f'<div class="icon"><span>GP</span> {gp}</div></div></div>'
        f'<div class="main"><div class="header"><a class="username" href="/home/{user}">{user}</a>'
        f' <span class="when">{when}</span></div>'
        f'<article class="content"><div>{text}</div></article></div></section>'
        for user, level, gp, when, text in said
    )
    html = f"<html><body><h1>Hello thread</h1>{posts}</body></html>"
    records = extract_records(html, url="https://forum.example.test/C.php?bsn=1&snA=2")
    assert [(p.author, p.time, p.text) for p in records.posts] == [
        (user, when, text) for user, _, _, when, text in said
    ]


def floors_with_listed_replies(replies: list[list[tuple[str, str, str]]]) -> str:
    """A forum thread of floors, each with its own text and a list of replies under it
    written as one line each ("<a>name</a>：text <span>time</span>"), no class naming them."""
    floors = "".join(
        f"<div class=item><div class=info><a href=/people/f{n}>楼层用户{n}</a>发表于 "
        f"<span>2026-03-0{n} 10:1{n}</span></div>"
        f"<div class=msg><p>{text}</p></div><ul class=quote-list>"
        + "".join(
            f"<li><a href=/people/{who}>{who}</a>：{said}<span>{when}</span></li>"
            for who, said, when in listed
        )
        + "</ul></div>"
        for n, (text, listed) in enumerate(
            zip(
                ["个税汇算今年退得快吗？大家都多久到账的。", "！", "我的三天就到账了，挺快的。"],
                replies,
                strict=True,
            ),
            1,
        )
    )
    return f"<html><body><h1>个税退税</h1><div class=thread>{floors}</div></body></html>"


def test_replies_listed_under_a_floor_are_comments_of_their_own():
    ad = "关注公众号学习报税干货，每天晚上群内课堂免费讲解个税汇算的全部流程，欢迎大家加入交流"
    replies = [
        [("路人甲", ad, "2026-03-05 08:01"), ("路人甲", ad, "2026-03-05 08:01"),
         ("小李", "我也想知道，去年等了两个星期才到账呢", "2026-03-05 09:30")],
        [("路人甲", ad, "2026-03-05 08:02"), ("老王", "感叹号是什么意思，没看懂你的回复呀", "2026-03-06 11:00")],
        [("路人甲", ad, "2026-03-05 08:03"), ("小李", "三天确实很快了，羡慕你们那边的税务局", "2026-03-07 12:00")],
    ]  # fmt: skip
    records = extract_records(floors_with_listed_replies(replies), url=URL)
    assert [p.author for p in records.posts] == ["楼层用户1", "楼层用户2", "楼层用户3"]
    assert [p.text for p in records.posts][1] == "！"  # a reply of marks alone is its text
    assert all("路人甲" not in p.text and ad not in p.text for p in records.posts)
    listed = [(c.author, c.text, c.time, c.reply_to) for c in records.comments]
    expected = [
        (who, said, when, f"楼层用户{n}")
        for n, floor in enumerate(replies, 1)
        for who, said, when in floor
    ]
    assert listed == expected


def test_an_edit_note_a_guest_notice_and_a_fields_label_are_no_posts_text():
    """Metadata a forum writes into a post's message box: who edited it when (in any
    language), a notice asking guests to register (with its close button), the label of a
    jump-to-floor field; and a signature in a box of its own."""
    notes = [
        "本帖最后由 阿小2 于 2026-3-2 10:25 编辑",
        "Last edited by 阿小3; 03-03-2026 at 10:40 AM.",
        "Zuletzt bearbeitet von 阿小4 am 04.03.2026",
    ]
    texts = [
        "退税到账一般要一周，耐心等等就好。",
        "我的两天就到了。",
        "今年比去年快多了。",
        "记得先核对收入明细。",
    ]
    guest = (
        "<div class=tips><h3>马上注册，结交更多好友，享用更多功能，让你轻松玩转社区。</h3>"
        "<p>您需要 <a href=/login>登录</a> 才可以下载或查看，没有帐号？<a href=/reg>立即注册</a></p>"
        "<span class=tips_close>x</span></div>"
    )
    posts = "".join(
        f"<div class=post><div class=pi><a href=/space/{n}>阿小{n}</a> "
        f"<em>发表于 2026-3-{n} 10:0{n}</em></div><div class=message>"
        + (f"<div class=jump><label>电梯直达</label></div>{guest}" if n == 1 else "")
        + (f"<i class=pstatus>{notes[n - 2]}</i><br>" if 2 <= n <= 4 else "")
        + f"{texts[n - 1]}</div><div class=sign>长风破浪会有时 {n}</div></div>"
        for n in (1, 2, 3, 4)
    )
    page = f"<html><body><div id=postlist>{posts}</div></body></html>"
    records = extract_records(page, url=URL)
    assert [p.author for p in records.posts] == ["阿小1", "阿小2", "阿小3", "阿小4"]
    assert [p.text for p in records.posts] == texts


def test_a_name_in_a_byline_box_of_links_is_its_first_link_even_when_it_starts_with_a_label():
    """A byline box marked as the author's holding the name link, then the poster's level
    and action links: the name is the first link's text, not all their words; a name that
    starts with a label word ("楼主长的帅") is the whole name, the label being written outside
    a link ("楼主：<a>…</a>")."""
    names = ["楼主长的帅", "疲卡丘", "作者不详"]
    floors = "".join(
        f"<div class=floor><div class=author><a class=u href=/u/{n}>{name}</a> "
        f"(<a href=/u/{n}/topic>{n}7级</a>) <span class=stime>2026-01-1{n} 00:5{n}</span> "
        f"<a href=#>举报</a> <a href=#>只看此人</a> <a href=#{n}>{n}楼</a></div>"
        f"<div class=content>第{n}条回复：新百伦现在不算烂大街了，配牛仔裤还行。</div></div>"
        for n, name in enumerate(names, 1)
    )
    page = f"<html><body><div class=floors>{floors}</div></body></html>"
    records = extract_records(page, url=URL)
    assert [p.author for p in records.posts] == names


def test_one_line_pushes_with_a_mark_before_the_name_and_a_yearless_time():
    """A board's pushes: one line each, a vote mark set apart before the user's id, the
    text after a colon, and a time without its year after the poster's address, in an
    element whose class word ends in "time" ("ipdatetime"). The mark and the address are
    the line's, not the text; a one-character push is a text."""
    pushes = [("推", "tw_reader", "好"), ("→", "mango88", "明年再看看"), ("噓", "k1ng", "太慢了吧")]
    lines = "".join(
        f"<div class=push><span class=push-mark>{mark} </span><span class=push-userid>{user}"
        f"</span><span class=push-content>: {text}</span><span class=push-ipdatetime>"
        f" 10.0.0.{n} 02/2{n} 00:1{n}\n</span></div>"
        for n, (mark, user, text) in enumerate(pushes, 1)
    )
    page = (
        "<html><body><div id=main><div class=meta>作者 op_user</div>"
        "<div class=meta>標題 [問卦] 報稅季到了嗎</div>今年的綜所稅申報什麼時候開始？\n"
        f"有沒有人已經收到通知了\n--\n{lines}</div></body></html>"
    )
    records = extract_records(page, url=URL)  # (a forum's URL: read as the thread's posts)
    assert [(c.author, c.text, c.time) for c in records.posts] == [
        (user, text, f"02/2{n} 00:1{n}") for n, (_, user, text) in enumerate(pushes, 1)
    ]


def test_a_labelled_byline_names_its_linked_name_not_the_words_up_to_the_time():
    """ "Submitted by <a>jane</a> on Wed, 19/12/2012 - 16:03": the name is the link after the
    label (the weekday between name and date is not the name's)."""
    people = ["jane", "Petrik", "m.berg"]
    posts = "".join(
        f"<div class=comment><h3 class=title>Re: heat pump metering</h3>"
        f"<div class=submitted>Submitted by <a href=/user/{n}>{name}</a> on Wed, "
        f"1{n}/12/2012 - 16:0{n}.</div><div class=content><p>Reply {n}: the pump's own meter "
        f"reads the electrical side only; add a heat meter on the flow.</p></div></div>"
        for n, name in enumerate(people, 1)
    )
    page = f"<html><body><div id=comments>{posts}</div></body></html>"
    records = extract_records(page, url=URL)
    found = records.posts or records.comments
    assert [r.author for r in found] == people
    assert all(f"1{n}/12/2012 - 16:0{n}" in r.time for n, r in enumerate(found, 1))


def test_an_attachments_file_line_and_the_replies_backlinks_are_no_posts_text():
    """An image board's reply: the upload's file line above the text ("檔名：….png-(648 KB,
    1235x950)") and the list of replies to it below ("Replies(2): >>1002 >>1003")."""
    said = ["第一張是新的排程表", "稅單下週才會寄到", "我也還在等退稅"]
    posts = "".join(
        f"<div class='post reply' id=r100{n}><div class=post-head><span class=name>無名</span>"
        f"<span class=now>2026/03/0{n}(二)</span><span>14:2{n}:32</span>"
        f"<span class=qlink>No.100{n}</span></div>"
        + (
            f"<div class=file-text>檔名：<a href=/src/16385{n}.png>16385{n}.png</a>"
            f"-(64{n} KB, 1235x950)</div>"
            if n != 2
            else ""
        )
        + f"<div class=quote>{text}</div>"
        + (f"<div class=backquote>Replies(2): <a>&gt;&gt;100{n + 1}</a> <a>&gt;&gt;1009</a></div>")
        + "</div>"
        for n, text in enumerate(said, 1)
    )
    page = f"<html><body><div class=thread>{posts}</div></body></html>"
    records = extract_records(page, url=URL)
    assert [p.text for p in records.posts] == said


def test_an_age_without_ago_in_an_element_named_for_the_date_is_the_time():
    """ "2y", "11mo": a comment's age written short in its date element, no attribute."""
    ages = ["2y", "11mo", "3w"]
    comments = "".join(
        f"<li class=comment><p class=comment-author><a href=/photos/u{n}/>Person {n}</a> "
        f"<span class=comment-date>{age}</span></p><div class=comment-content>Comment {n}: "
        f"what a view over the valley, the light is just right.</div></li>"
        for n, age in enumerate(ages, 1)
    )
    page = f"<html><body><h1>Photo</h1><ul class=comments>{comments}</ul></body></html>"
    records = extract_records(page, url="http://photos.example.test/p/1")
    assert [c.time for c in records.comments] == ages


def test_a_name_a_data_attribute_gives_as_the_elements_own_text_is_the_author():
    """The display name in an element whose data attribute says so, beside a link to the
    person's handle ("magani @magani"): the shown name, not the handle (a mention)."""
    people = ["magani", "Tim R", "wren"]
    comments = "".join(
        f"<li class=comment><div class=comment-heading><div class=title "
        f"data-display-name='{name}'>{name} <small><a href=/user/u{n}/>@u{n}</a></small></div>"
        f"<div class=meta>August 1{n}, 2016 10:4{n} pm</div></div><div class=comment-content>"
        f"<p>Comment {n}: my bank sent the new card number to the provider on its own.</p>"
        f"</div></li>"
        for n, name in enumerate(people, 1)
    )
    page = f"<html><body><h1>Cards</h1><ol class=comment-list>{comments}</ol></body></html>"
    records = extract_records(page, url="http://news.example.test/2016/08/cards")
    assert [c.author for c in records.comments] == people


def test_a_header_line_of_number_name_and_time_names_the_author():
    """ "#143003 - eKid - Tue Oct 16, 2007 12:47 am": fields apart by dashes, the post's
    number and the time left out, the one field left is the name."""
    people = ["eKid", "kusma", "gauauu"]
    posts = "".join(
        f"<div class=post><h4>#14300{n} - {name} - Tue Oct 16, 2007 1{n}:47 am</h4>"
        f"<div class=postbody>Post {n}: the mixer runs in stereo now and the loader reads "
        f"mod, s3m and xm files.</div></div>"
        for n, name in enumerate(people, 1)
    )
    page = f"<html><body><h2>Audio</h2><div id=posts>{posts}</div></body></html>"
    records = extract_records(page, url=URL)
    assert [p.author for p in records.posts] == people


def test_posts_named_by_their_microdata_type_alone_join_their_group_however_long():
    """Class-less posts that only their microdata type names (a forum's no-script view):
    the long ones, written with headings, lists, code, call-outs and images, are unlike the
    short ones to the layout's comparison, but the page names them the same."""
    pieces = [
        "<h3>Part {i}</h3>", "<p>Keep a heat sink on it, step {i}.</p>",
        "<ul><li>arm_freq={i}</li><li>core_freq=500</li></ul>", "<pre>vcgencmd {i}</pre>",
        "<blockquote>Warning {i}: back up the card first.</blockquote>",
        "<div class=lightbox-wrapper><a class=lightbox href=/i{i}.png><img src=/i.png><div "
        "class=meta><span class=filename>pi.png</span><span>528x528 28.2 KB</span></div></a></div>",
    ]  # fmt: skip

    def body(n: int) -> str:
        if n % 2:
            return f"<p>Reply {n}: the heat sink and the controller mapping did it for me.</p>"
        return "".join(pieces[(i + n) % 6].format(i=i) for i in range(1, 7 + 5 * (n % 4)))

    posts = "".join(
        f"<div itemscope itemtype='http://schema.org/Article'><div class=creator><span>"
        f"<a href=/users/u{n}><b itemprop=author>user{n}</b></a> <time datetime="
        f"'2016-07-{n + 10}T10:00:00Z' itemprop=datePublished>2016-07-{n + 10} 10:00:00 UTC"
        f"</time></span><span itemprop=position>#{n}</span></div><div class=post "
        f"itemprop=articleBody>{body(n)}</div><hr></div>"
        for n in range(1, 13)
    )
    page = f"<html><body><h1>Emulation</h1><div id=main-outlet>{posts}</div></body></html>"
    records = extract_records(page, url="https://talk.example.test/t/emulation/44?page=2")
    assert [p.author for p in records.posts] == [f"user{n}" for n in range(1, 13)]
