"""Forum pages of software the extractor was not written for (issue 24), as small pages
written for these tests: each is a kind of page, not any one site's markup."""

from __future__ import annotations

from topiccrawler.extract.dates import find_time, parse_time
from topiccrawler.extract.records.page import extract_records

URL = "https://talk.example.test/t/which-bike/4211"


def shown_records(page: str, url: str) -> list:
    """The records a page shows: its posts, else its comments."""
    found = extract_records(page, url=url)
    return found.posts or found.comments


def stream(posts: str) -> str:
    return f"""<html><body><header><a href="/">Home</a> <a href="/latest">Latest</a></header>
<h1>Which bike for a commute of 20 km?</h1><div class="stream">{posts}</div></body></html>"""


def flair_post(n: int, user: str, group: str, shown: str, title: str, text: str) -> str:
    """A post whose byline shows the poster's group as a link beside the name, and its time
    as an age ("21 天") with the date in a title attribute."""
    return f"""<div class="entry"><article id="p{n}"><div class="meta">
<div class="names"><span class="username"><a href="/u/{user}">{user}</a></span>
<span class="user-title"><a class="user-group" href="/g/{group}">{group}</a></span></div>
<div class="date"><span class="ago" title="{title}">{shown}</span></div></div>
<div class="body"><p>{text}</p></div></article></div>"""


def test_a_group_link_beside_the_name_is_no_author_and_an_age_is_the_written_time():
    page = stream(
        flair_post(1, "anna.k", "Regulars", "21 天", "2024 年 5 月 6 日 17:35",
                   "I ride 20 km each way; what would you buy for that today?")
        + flair_post(2, "bob", "Moderators", "20 天", "2024 年 5 月 7 日 09:02",
                     "A light touring bike with mudguards and a rack, nothing fancier.")
        + flair_post(3, "carla", "Regulars", "3 d", "2024 年 5 月 24 日 21:40",
                     "An e-bike if there are hills: the distance is no problem then.")
    )  # fmt: skip
    posts = extract_records(page, url=URL).posts
    assert [p.author for p in posts] == ["anna.k", "bob", "carla"]
    assert [p.time for p in posts] == ["21 天", "20 天", "3 d"]
    assert posts[0].time_attr == "2024 年 5 月 6 日 17:35"
    assert posts[0].published_at.isoformat() == "2024-05-06T17:35:00+08:00"


def test_a_date_with_spaces_around_its_chinese_units_keeps_its_clock():
    assert find_time("发布于 2024 年 5 月 6 日 17:35") == "2024 年 5 月 6 日 17:35"
    assert parse_time("2026年3月1日08:05").isoformat() == "2026-03-01T08:05:00+08:00"
    assert find_time("2024-05-06 日本") == "2024-05-06"


def pm_post(n: int, user: str, when: str, text: str) -> str:
    """A post whose user column ends with a "send message" link, the same in every post."""
    return f"""<div class="post" id="post_{n}"><table><tr><td class="side">
<div class="who"><a href="/home.php?uid={n}">{user}</a></div>
<ul><li><a href="/pm.php?to={n}">发消息</a></li></ul></td>
<td class="main"><div class="when">发表于 {when}</div><div class="msg">{text}</div></td>
</tr></table></div>"""


def test_a_link_every_post_repeats_is_a_label_also_in_a_thread_of_two():
    page = f"""<html><body><h1>游戏全屏问题</h1>{pm_post(1, "大虾米点", "2024-5-18 19:27", "分辨率调了还是全屏显示不全，怎么办？")}
{pm_post(2, "路人甲", "2024-5-19 08:11", "在显示设置里把缩放改回百分之百就好了。")}</body></html>"""
    posts = extract_records(page, url="https://bbs.example.test/thread-38733-1-1.html").posts
    assert [p.author for p in posts] == ["大虾米点", "路人甲"]


def teaser(n: int, title: str, who: str, when: str, excerpt: str) -> str:
    return f"""<div class="card"><div class="head"><a href="/2024/05/{n}/story_{n}.html">{title}</a>
<span>{n} replies</span></div><div class="by">Posted by <a href="/m/{who}">{who}</a>
<span>{when}</span></div><div class="excerpt">{excerpt}</div></div>"""


def reply(n: int, who: str, when: str, text: str) -> str:
    return f"""<div class="reply"><div class="details">Reply {n} - Posted by:
<a class="member-link" href="/members/{n}/{who}.html">{who}</a> {when}</div><div class="text">{text}</div>
<div class="like"><a href="#">Like</a></div></div>"""


def test_teasers_of_other_threads_beside_the_replies_are_no_records():
    replies = "".join(
        reply(n, who, f"5/12/2024 {n}:06:29 PM", text)
        for n, (who, text) in enumerate(
            [("Jesuslover54", "Dream on, man."),
             ("Beardo", "They said the same last year and nothing came of it."),
             ("earlybird", "Write to your representatives, it does make a difference.")],
            start=1,
        )
    )  # fmt: skip
    cards = "".join(
        teaser(n, title, "Moritz55", f"5/2{n}/2024 10:51:27 AM", excerpt)
        for n, (title, excerpt) in enumerate(
            [("Minority voters bolting could mean disaster", "The progressive journalist wrote a book..."),
             ("Fear Trump or bust for the other party", "As the campaign goes on, various cases..."),
             ("The American Dream in one state has a price tag", "The cost for a family of four...")],
            start=1,
        )
    )  # fmt: skip
    page = f"""<html><body><article><h1>An act is the antidote</h1><p>{"Text. " * 40}</p></article>
<div class="replies">{replies}</div><aside><h3>Latest by this member</h3>
<div class="latest">{cards}</div></aside></body></html>"""
    records = extract_records(page, url="https://news.example.test/2024/05/12/act_1.html")
    found = records.posts or records.comments
    assert [r.author for r in found] == ["Jesuslover54", "Beardo", "earlybird"]


def test_a_post_without_author_and_time_among_signed_posts_is_dropped():
    from topiccrawler.extract.records.page import attributed
    from topiccrawler.items import PostRecord

    signed = [PostRecord(f"text {n}", f"user{n}", None, f"{n}d") for n in range(4)]
    header = PostRecord("Sign in to leave a comment\n101 Comments\nNewest\nOldest")
    assert attributed([signed[0], header, *signed[1:]]) == signed
    unsigned = [PostRecord("a"), PostRecord("b"), PostRecord("c", "x", None, "1d")]
    assert attributed(unsigned) == unsigned  # a page that signs few posts keeps them all


def owner_post(n: int, user: str, full: str, when: str, text: str, state: str = "") -> str:
    """A post whose byline is links (name, full name, group, date); the opening post's body
    carries one more class name (a state such as "highlighted")."""
    return f"""<div class="topic-post"><article id="post_{n}" class="boxed"><div class="row">
<div class="topic-body {state}"><div class="meta"><a href="/u/{user}" class="username">{user}</a>
<a href="/u/{user}">{full}</a> <a class="user-group" href="/g/regulars">Regulars</a>
<a class="post-date" href="/t/4211/{n}">{when}</a></div>
<div class="contents"><p>{text}</p></div></div></div></article></div>"""


def test_a_short_thread_with_link_bylines_and_a_highlighted_opening_post_gives_every_post():
    page = stream(
        owner_post(1, "anna_k", "Anna K", "2022 年 5 月 7 日 11:00",
                   "How do I run the two editions side by side on one computer?", "highlighted")
        + owner_post(2, "bob_m", "Bob Miller", "2022 年 5 月 7 日 11:27", "Install both.")
        + owner_post(3, "anna_k", "Anna K", "2022 年 5 月 7 日 11:46", "Thanks, done.")
        + owner_post(4, "bob_m", "Bob Miller", "2022 年 5 月 7 日 11:51", "Great, mark it.")
    )  # fmt: skip
    posts = extract_records(page, url=URL).posts
    assert [p.text for p in posts] == [
        "How do I run the two editions side by side on one computer?",
        "Install both.",
        "Thanks, done.",
        "Great, mark it.",
    ]
    assert [p.author for p in posts] == ["anna_k", "bob_m", "anna_k", "bob_m"]


def quoting_post(n: int, user: str, when: str, quoted: str, text: str) -> str:
    """A post quoting another: the quotation names its author and a category in its title."""
    return f"""<div class="post"><div class="byline"><span class="username"><a href="/u/{user}">
{user}</a></span> <time datetime="{when}">{when}</time></div><div class="text">
<aside class="quote"><div class="title"><span class="username">{quoted}</span>
<a href="/c/help"><span class="category-name">Help and advice</span></a></div>
<blockquote>Which one?</blockquote></aside>
<p>{text}</p></div></div>"""


def test_the_author_of_a_quotation_or_a_category_name_is_not_the_posts_author():
    page = stream(
        quoting_post(1, "anna.k", "2024-05-06 17:35", "carla", "The lighter one, I think, for hills.")
        + quoting_post(2, "bob", "2024-05-07 09:02", "anna.k", "The one with more gears, for hills.")
        + quoting_post(3, "carla", "2024-05-08 10:15", "bob", "Gears, and good brakes too, for hills.")
    )  # fmt: skip
    assert [p.author for p in extract_records(page, url=URL).posts] == ["anna.k", "bob", "carla"]


def card_post(n: int, user: str, rank: str, points: int, when: str, text: str) -> str:
    """A post beside a poster's card (name, online state, counts, rank, points) in a column
    of its own; the time is in the post's column."""
    return f"""<div id="post_{n}"><table class="plhin"><tr><td class="side">
<div class="card"><div class="who"><a class="xw1" href="/space/uid/{n}">{user}</a></div>
<div class="state">当前离线</div><div class="counts">{n} 主题 {3 * n} 帖子 {points} 积分</div>
<p>{rank}</p><div class="tip">{rank}, 积分 {points}, 距离下一级还需 {50 - points} 积分</div>
</div></td><td class="main"><div class="byline">发表于 {when}</div>
<div class="message">{text}</div></td></tr></table></div>"""


def test_the_posters_card_beside_a_post_is_not_its_text():
    page = f"""<html><body><h1>建议改版</h1><div id="postlist">
{card_post(1, "前程往事", "新手上路", 5, "2024-4-5 23:20:45", "建议对这个角色进行改版，现在的技能和别的差太远了。")}
{card_post(2, "横财天降", "新手上路", 6, "2024-4-11 11:52:24", "顶你，说得对。")}
{card_post(3, "縋原啊反", "注册会员", 43, "2024-4-14 11:32:04", "同质化太严重了。")}
</div></body></html>"""
    posts = extract_records(page, url="https://bbs.example.test/thread-1-1.html").posts
    assert [p.text for p in posts] == [
        "建议对这个角色进行改版，现在的技能和别的差太远了。",
        "顶你，说得对。",
        "同质化太严重了。",
    ]
    assert [p.author for p in posts] == ["前程往事", "横财天降", "縋原啊反"]


QA_LD = """{"@context": "https://schema.org", "@type": "QAPage", "mainEntity": {
"@type": "Question", "name": "Mail settings do not work",
"text": "<p>The mail settings work elsewhere, but <b>not here</b>. What is wrong?</p>",
"dateCreated": "2022-12-23T10:00:09+08:00", "author": {"@type": "Person", "name": "jack"},
"suggestedAnswer": [{"@type": "Answer", "dateCreated": "2022-12-24T03:27:18+08:00",
"text": "<p>Set the sender's name to your name, not to your mail address.</p>",
"author": {"@type": "Person", "name": "linkin"}}]}}"""


def test_a_question_and_its_one_answer_are_the_posts_the_page_spells_out_in_json_ld():
    page = f"""<html><head><script type="application/ld+json">{QA_LD}</script></head><body>
<div class="main"><div><h1>Mail settings do not work</h1><div class="meta"><time
datetime="2022-12-23T02:00:09Z">Asked Dec 23</time></div><article><p>The mail settings work
elsewhere, but <b>not here</b>. What is wrong?</p></article><div class="by">jack</div></div>
<h5>1 Answer</h5><div class="answer-item"><article><p>Set the sender's name to your name, not
to your mail address.</p></article><div class="by">linkin answered Dec 24</div></div>
</div></body></html>"""
    posts = extract_records(page, url="https://qa.example.test/questions/D1l2/mail").posts
    assert [p.text for p in posts] == [
        "The mail settings work elsewhere, but\\nnot here\\n. What is wrong?".replace("\\n", "\n"),
        "Set the sender's name to your name, not to your mail address.",
    ]
    assert [p.author for p in posts] == ["jack", "linkin"]
    assert posts[1].published_at.isoformat() == "2022-12-24T03:27:18+08:00"


def test_json_ld_posts_not_shown_on_the_page_or_repeating_the_opening_one_are_not_taken():
    hidden = f"""<html><head><script type="application/ld+json">{QA_LD}</script></head>
<body><p>Log in to see this question.</p></body></html>"""
    assert extract_records(hidden, url="https://qa.example.test/questions/D1l2/x").posts == []
    from topiccrawler.extract.parse import parse_html
    from topiccrawler.extract.records.linked import linked_posts

    posting = """{"@type": "DiscussionForumPosting", "text": "Hello, I am new here.",
"comment": [{"@type": "Comment", "text": "Hello, I am new here.", "dateCreated": "1970-01-01T00:00:00+0000"},
{"@type": "Comment", "text": "Welcome!", "dateCreated": "1970-01-01T00:00:00+0000"}]}"""
    root = parse_html(f"""<html><head><script type="application/ld+json">{posting}</script>
</head><body><p>Hello, I am new here.</p><p>Welcome!</p></body></html>""")
    posts = linked_posts(root, root.find("body"))
    assert [(p.text, p.time) for p in posts] == [
        ("Hello, I am new here.", None),
        ("Welcome!", None),
    ]


def floor_post(
    n: int, user: str, when: str, text: str, replies: str = "", share: bool = False
) -> str:
    """A post with a share box, a tail (client, floor number, time) and the replies shown
    under it, each with a name and a time of its own."""
    box = (
        """<div class="share_btn_wrapper"><a href="#gift">送TA礼物</a><ul><li>微信</li>
<li>新浪微博</li><li>复制链接</li></ul></div>"""
        if share
        else ""
    )
    return f"""<div class="l_post"><div class="d_author"><a class="p_author_name" href="/home?id={n}">
{user}</a></div><div class="d_post_content_main"><div class="p_content">{text}</div>{box}
<div class="core_reply"><div class="core_reply_tail"><span class="tail-info">来自 Android客户端</span>
<span class="tail-info">{n}楼</span><span class="tail-info">{when}</span></div>
<div class="core_reply_wrapper"><ul>{replies}</ul></div></div></div></div>"""


def floor_reply(user: str, when: str, text: str) -> str:
    return f"""<li class="single_reply"><a href="/home?un={user}">{user}</a> : {text}
<span class="reply_time">{when}</span></li>"""


def test_share_box_tail_and_replies_under_a_post_are_not_its_text():
    page = f"""<html><body><h1>佛系</h1><div id="postlist">
{floor_post(1, "绫清逸", "2022-10-02 23:02", "大家怎么看佛系这个说法？", share=True)}
{floor_post(2, "逝者如斯", "2022-11-26 15:19", "我就很佛系，什么都随缘。",
            floor_reply("张无极", "2023-3-8 13:30", "其实就是生活中消费不和别人攀比"))}
{floor_post(3, "Molkt", "2022-11-27 21:26", "现在这社会佛系别想了。")}
</div></body></html>"""  # fmt: skip
    posts = extract_records(page, url="https://forum.example.test/p/8052").posts
    assert [p.text for p in posts] == [
        "大家怎么看佛系这个说法？",
        "我就很佛系，什么都随缘。",
        "现在这社会佛系别想了。",
    ]
    assert [p.author for p in posts] == ["绫清逸", "逝者如斯", "Molkt"]
    assert [p.time for p in posts] == ["2022-10-02 23:02", "2022-11-26 15:19", "2022-11-27 21:26"]


def info_post(n: int, user: str, posts: str, months: str, when: str, text: str) -> str:
    """A post whose header gives the name as a link, then the poster's counts as lines the
    markup also calls "poster-info"; the text mentions another user, and shows an attachment."""
    return f"""<div class="topic-reply" id="message{n}"><div class="msg-header">
<p class="author"><a href="/profile.asp?memberId={n}">{user}</a></p>
<p class="poster-info">{posts}</p><p class="poster-info">{months}</p>
<p class="when">{when}</p></div><div class="msg-body"><p>Thanks <a class="username"
href="/members/9/">@carla</a> for asking. {text}</p><ul class="attachments"><li>
<div class="attachment-name"><a href="/attachments/{n}.jpg">IMG_{n}.jpg</a></div></li></ul>
</div></div>"""


def test_poster_info_lines_mentions_and_attachments_are_not_the_author():
    page = stream(
        info_post(1, "johnnyreggae", "2,427 posts", "114 months", "08.03.2020 14:02",
                  "Buy the cheapest one you can find.")
        + info_post(2, "Original Poster", "61 posts", "61 months", "09.03.2020 10:15",
                    "A crystal ball would help.")
        + info_post(3, "dave", "148 posts", "12 months", "10.03.2020 18:40",
                    "Safest is the older model.")
    )  # fmt: skip
    assert [p.author for p in extract_records(page, url=URL).posts] == [
        "johnnyreggae",
        "Original Poster",  # a profile named after a role: a link, so a name
        "dave",
    ]
    from topiccrawler.extract.records.authors import clean_author

    assert [clean_author(t) for t in ("2,427 posts", "114 months", "12 帖子", "Original Poster")] == [
        None, None, None, None,
    ]  # fmt: skip


def test_a_byline_giving_name_and_time_in_one_line_gives_both():
    rows = "".join(
        f"""<tr><td class="msg"><div class="line">By {user} On {when}</div><p>{text}</p></td></tr>"""
        for user, when, text in (
            ("jcoff012", "2020.03.12 13:17", "We do not see the neurologist until March."),
            ("junipersage", "2020.03.12 15:21", "We have not spoken to the neurologist yet."),
            ("jcoff012", "2020.03.13 09:02", "Thank you both, that helps a lot."),
        )
    )
    page = f"<html><body><h1>Tremor</h1><table>{rows}</table></body></html>"
    posts = extract_records(page, url="https://example.test/forum/topic_show.pl?id=5256").posts
    assert [p.author for p in posts] == ["jcoff012", "junipersage", "jcoff012"]


def xf_post(n: int, user: str, joined: str, when: str, text: str) -> str:
    """A post whose user box gives the join date in a <dl> whose term is an icon (the label
    only in a title attribute), and whose time shows its clock in an element of its own."""
    return f"""<article class="message"><div class="message-user"><h4><a href="/m/{n}">{user}</a>
</h4><dl class="pairs"><dt><span title="Joined"><i class="icon"></i></span></dt>
<dd>{joined}</dd></dl></div><div class="message-main"><div class="attribution">
<span class="s"><b>{when[0]}</b> On <b>{when[1]}</b></span></div>
<div class="message-body">{text}</div></div></article>"""


def test_a_join_date_with_an_icon_label_is_not_the_time_and_a_clock_beside_the_date_is():
    page = stream(
        xf_post(1, "reacher", "Apr 5, 2020", ("9:00am", "Apr 18, 2020"),
                "I have the small one now, but I may want a bigger screen.")
        + xf_post(2, "ilikewhey", "May 14, 2014", ("10:16am", "Apr 19, 2020"),
                  "If you have small hands, keep the small one.")
        + xf_post(3, "hod898", "Jan 2, 2019", ("10:22am", "Apr 19, 2020"),
                  "The bigger battery is worth it for me.")
    )  # fmt: skip
    posts = extract_records(page, url=URL).posts
    assert [p.time for p in posts] == [
        "9:00am On Apr 18, 2020",
        "10:16am On Apr 19, 2020",
        "10:22am On Apr 19, 2020",
    ]


def labelled_post(n: int, user: str, joined: str, when: str, text: str, edited: str = "") -> str:
    """A post whose user box labels the join date in a node of its own, whose time is written
    day-month name-year with dashes, and which may carry an edit note with a later time."""
    note = f"<div class='edit'>[Beitrag von {user} am {edited} bearbeitet]</div>" if edited else ""
    return f"""<div class="post"><div class="userbox"><a href="/u/{n}">{user}</a>
<div><span>Registriert seit:</span> <span>{joined}</span></div></div>
<div class="body"><div class="text">{text}</div>{note}<div class="date">{when}</div></div></div>"""


def test_a_labelled_join_date_and_an_edit_note_are_not_the_time():
    page = stream(
        labelled_post(1, "nordfreak", "17. Dezember 2019", "Thu 21-Nov-19 10:53:49",
                      "Wir brauchen eure Hilfe bei der Umstellung.", edited="22. Nov 2019, 19:52")
        + labelled_post(2, "bernd", "3. März 2012", "Thu 21-Nov-19 11:20:02",
                        "Gerne, was genau fehlt denn noch?")
        + labelled_post(3, "carla", "9. Mai 2015", "Fri 22-Nov-19 08:02:10",
                        "Ich kann am Wochenende helfen.")
    )  # fmt: skip
    posts = extract_records(page, url=URL).posts
    assert [p.time for p in posts] == [
        "Thu 21-Nov-19 10:53:49", "Thu 21-Nov-19 11:20:02", "Fri 22-Nov-19 08:02:10",
    ]  # fmt: skip
    assert posts[0].published_at.isoformat() == "2019-11-21T10:53:49+08:00"


def test_a_date_inside_a_post_written_as_one_text_is_not_its_time():
    answers = "".join(
        f"""<div class="AnswerItem" itemprop="answer" itemtype="http://schema.org/Answer">
<div class="AuthorInfo" itemprop="author"><a href="/people/{user}">{user}</a></div>
<div class="RichContent">
<span class="RichText">{text}</span></div></div>"""
        for user, text in (
            (
                "等风",
                "这是去年九月份以后第三次较强余震（前俩次是10月22日的5.0级地震以及1月26日的5.6级"
                "地震）。本次地震震级为4.8级，震中和前俩次相近，都在同一条断裂带上。" * 3,
            ),
            (
                "瘟猪",
                "微信群和朋友圈都在发地震预警，本地人比较佛系，毕竟大部分地区都接入了预警系统。",
            ),
        )
    )
    page = f"<html><body><h1>成都地震</h1><div class='List'>{answers}</div></body></html>"
    posts = extract_records(page, url="https://qa.example.test/question/586816837").posts
    assert [p.author for p in posts] == ["等风", "瘟猪"]
    assert posts[0].text.startswith("这是去年九月份") and posts[0].time is None


def test_the_opening_post_in_a_box_of_its_own_above_the_replies_is_a_post():
    replies = "".join(
        f"""<li class="Item ItemComment"><div class="Comment"><div class="meta"><a class="Username"
href="/profile/{user}">{user}</a> <time datetime="{when}">{when[:10]}</time></div>
<div class="Message"><p>{text}</p></div></div></li>"""
        for user, when, text in (
            (
                "bob",
                "2022-03-03T10:00:00+00:00",
                "The blue bar is the filter: click it to hide it.",
            ),
            ("carla", "2022-03-03T11:30:00+00:00", "Or reset the view in the settings menu."),
            ("pat", "2022-03-04T08:15:00+00:00", "Thank you both, the bar is gone now."),
        )
    )
    page = f"""<html><body><header><nav><a href="/">Home</a> <a href="/c">Categories</a>
<a href="/new">Recent discussions</a> <a href="/help">Help</a></nav>
<p>Updated 2022-03-01: welcome</p></header>
<h1>Can anyone help me with program options?</h1>
<div class="MessageList Discussion"><div class="Item ItemDiscussion"><div class="Discussion">
<div class="meta"><a class="Username" href="/profile/pat">pat</a>
<time datetime="2022-03-02T19:09:12+00:00">2022-03-02</time></div>
<div class="Message"><p>Under the tool bar and above the column headings there is a blue bar.
How do I remove it?</p></div></div></div></div>
<h2>Answers</h2><ul class="MessageList Comments">{replies}</ul></body></html>"""
    posts = extract_records(page, url="https://community.example.test/discussion/118004").posts
    assert [p.author for p in posts] == ["pat", "bob", "carla", "pat"]
    assert posts[0].text.startswith("Under the tool bar")
    assert posts[0].time_attr == "2022-03-02T19:09:12+00:00"


def test_a_user_named_by_a_number_is_the_author_where_the_others_names_are_links():
    page = f"""<html><body><h1>全屏问题</h1>{pm_post(1, "1657811359", "2024-5-18 19:27", "分辨率调了还是全屏显示不全，怎么办？")}
{pm_post(2, "大虾米点", "2024-5-19 08:11", "在显示设置里把缩放改回百分之百就好了。")}
{pm_post(3, "路人甲", "2024-5-19 09:40", "我也遇到过，改缩放就行。")}</body></html>"""
    posts = extract_records(page, url="https://bbs.example.test/thread-1-1.html").posts
    assert [p.author for p in posts] == ["1657811359", "大虾米点", "路人甲"]


def answer_item(n: int, when: str, text: str, best: bool = False) -> str:
    badge = '<div class="badge-row"><span class="badge">Best Answer</span></div>' if best else ""
    cls = "answer-item best-answer" if best else "answer-item"
    return f"""<div class="{cls}" id="answer-{n}">{badge}<div class="vote">0 Vote Up</div>
<div class="meta"><span>admin</span> answered {when}</div><div class="content"><p>{text}</p>
</div></div>"""


def test_an_answer_marked_best_with_a_badge_more_is_one_of_the_answers_but_no_ad_is():
    ad = '<div class="answer-item ad"><div class="meta">Publicité</div><p>Today</p></div>'
    answers = (
        answer_item(
            1, "2020-11-26 11:20", "Yes, the plugin supports this option already.", best=True
        )
        + answer_item(2, "2022-11-26 11:20", "You can also set it per category in the settings.")
        + ad
        + answer_item(3, "2022-11-27 09:15", "And the moderators get a mail for every new answer.")
        + ad
    )
    page = f"<html><body><h1>Pre-sale questions</h1><div class='answers-list'>{answers}</div></body></html>"
    posts = extract_records(page, url="https://forum.example.test/question/a-few-questions/").posts
    assert [p.text.split("\n")[-1] for p in posts] == [
        "Yes, the plugin supports this option already.",
        "You can also set it per category in the settings.",
        "And the moderators get a mail for every new answer.",
    ]


def test_a_comment_that_is_a_picture_beside_a_dropdown_gives_no_record():
    comments = "".join(
        f"""<div class="comment"><a href="/user/{user}" class="author">{user}</a>
<span title="Mon May 13 2024 {clock} GMT+0800">14d</span><div class="body">{body}</div>
{'<div class="dropdown"><span>Select ...</span></div>' if "img" in body else ""}</div>"""
        for user, clock, body in (
            ("zk383", "13:44:31", "We had seven pregnancies and lost five of them."),
            ("blasty", "13:38:51", '<img src="/i/1.gif" alt="">'),
            ("horse", "14:28:54", "I'm glad we're finally talking about it, as a society."),
            ("dusty", "14:01:49", '<img src="/i/2.gif" alt="">'),
            ("ter", "13:33:47", "My mom blamed herself for over twenty years."),
        )
    )
    page = f"<html><body><article><h1>Mother's day</h1><p>{'A post. ' * 30}</p></article><section>{comments}</section></body></html>"
    found = extract_records(page, url="https://images.example.test/gallery/abc")
    assert [c.author for c in found.comments] == ["zk383", "horse", "ter"]


def test_a_record_written_as_one_line_of_inline_markup_keeps_its_text_without_the_name():
    items = "".join(
        f"""<li class="comment"><a href="#c{n}">#{n}</a> <a class="author" href="/profile/{user}">{user}</a>
<span>{n * 1000} replies</span> <span>{text}</span> <a href="#c{n}"><time datetime="2020-04-2{n}T09:55">April 2{n}</time></a></li>"""
        for n, user, text in (
            (1, "TomSr", "Are you international? In the US students apply to colleges at the start of twelfth grade, and they send in first marking period grades when available."),
            (2, "Linda", "Colleges look at grades from ninth grade on, so the senior year grades matter less than people think; keep the course load rigorous all the same."),
            (3, "tommy", "Thanks to both of you, that clears it up for me: I will apply at the start of twelfth grade then and send my grades when they are available."),
        )
    )  # fmt: skip
    page = f"<html><body><h1>Application</h1><ul class='comments'>{items}</ul></body></html>"
    records = shown_records(page, "https://talk.example.test/ivy/2184314-application.html")
    assert [r.author for r in records] == ["TomSr", "Linda", "tommy"]
    assert "Are you international?" in records[0].text and "TomSr" not in records[0].text


def row_post(n: int, user: str, rank: str, date: str, clock: str, text: str) -> str:
    """A post as two table rows: a header row (a profile box with the name in bold, and a
    deeply indented byline whose clock is an element of its own) and a text row."""
    pad = "\n" + " " * 60
    return f"""<tr><td class="td2" rowspan="2"><div class="thread-profile-box"><b>{user}</b><br>
<span>{rank}</span></div></td><td class="td2 reply-actions">{pad}{pad}#{n}{pad}erstellt: {date},
<span class="time">{clock}</span>{pad}</td></tr><tr class="posting-row"><td class="td1">{text}</td></tr>"""


def test_posts_as_row_pairs_with_an_indented_byline_and_a_profile_box():
    rows = "".join(
        row_post(n, user, rank, "20. Apr 2004", clock, text)
        for n, user, rank, clock, text in (
            (1, "Sober", "Stammgast", "00:17", "Wie wäre es mit einer Sammlung von Bildern unserer Geräte?"),
            (2, "Django8", "Inventar", "09:16", "Finde ich eine tolle Idee, mit vielen Bildern in guter Qualität."),
            (3, "marantz-fan", "Stammgast", "10:12", "Klasse Idee, den Gedanken hatte ich auch schon mal."),
        )
    )  # fmt: skip
    page = f"<html><body><h1>Bildersammlung</h1><table class='tbl'>{rows}</table></body></html>"
    posts = extract_records(page, url="http://www.example.test/viewthread-84-87.html").posts
    assert [p.author for p in posts] == ["Sober", "Django8", "marantz-fan"]
    assert [p.published_at.isoformat() for p in posts] == [
        "2004-04-20T00:17:00+08:00", "2004-04-20T09:16:00+08:00", "2004-04-20T10:12:00+08:00",
    ]  # fmt: skip


def response(n: int, user: str, to: str, ago: str, when: str, text: str, inner: str = "") -> str:
    """A reply whose item is wrapped in a <form> (for its buttons), names whom it answers
    beside its author, and holds the replies to it."""
    return f"""<div class="sub-comment" id="r{n}"><div class="item"><form><div class="header">
<div class="header__author-content"><a href="/user/{user}">{user}</a>
<div class="header__reply-author">in reply to {to}</div></div>
<div><time title="{when}" datetime="{when}">{ago}</time></div></div>
<div class="text-content"><p>{text}</p></div><div class="actions"><button>Like</button>
<a href="#">Reply</a></div></form></div>{inner}</div>"""


def test_replies_wrapped_in_forms_name_their_author_not_whom_they_answer():
    thread = response(
        1, "Mala", "Learning", "11 days ago", "2019-11-15T15:04:36",
        "I have read very bad reviews about this medication and would not start it.",
        response(
            2, "TheLord", "Mala", "11 days ago", "2019-11-15T21:20:08",
            "When first diagnosed I was prescribed it, a week later I called the doctor.",
            response(3, "Mala", "TheLord", "10 days ago", "2019-11-16T08:02:00",
                     "Glad that you came out okay, and thank you for telling us."),
        ),
    ) + response(4, "Paul", "Learning", "9 days ago", "2019-11-17T10:00:00",
                 "My wife takes a small dose at night and it helps with the cramps.")  # fmt: skip
    page = f"""<html><body><h1>Artane, anyone?</h1><div class="post-body"><p>{"My husband's worst symptom is dystonia in his toes. " * 6}</p></div>
<form class="reply-box"><textarea name="reply"></textarea><button>Post</button></form>
<div class="responses">{thread}</div></body></html>"""
    records = shown_records(page, "https://health.example.test/group/posts/142058845/artane")
    assert [r.author for r in records] == ["Mala", "TheLord", "Mala", "Paul"]
    assert [r.time for r in records] == ["11 days ago", "11 days ago", "10 days ago", "9 days ago"]
    assert (
        records[1].text
        == "When first diagnosed I was prescribed it, a week later I called the doctor."
    )


def test_a_record_whose_text_is_only_its_authors_name_is_a_card_not_a_record():
    from topiccrawler.extract.records.page import named_only
    from topiccrawler.items import PostRecord

    posts = [
        PostRecord("lemmiwinx", author="lemmiwinx"),
        PostRecord("Hope they had insurance on their cars.", author="lemmiwinx"),
        PostRecord("BDR529", author=None),
    ]
    assert [p.text for p in named_only(posts)] == [
        "Hope they had insurance on their cars.",
        "BDR529",
    ]


def test_a_byline_box_of_name_and_linked_time_gives_the_name():
    comments = "".join(
        f"""<li class="comment"><div class="comment-content"><div class="comment-author">{user}
<span><a href="#c{n}">{when}</a></span></div><p>{text}</p><p><a class="comment-reply-link"
href="#r">Antworten</a></p></div></li>"""
        for n, user, when, text in (
            (1, "Rolf Buckpesch", "29.07.2020 // 12:56", "Es gibt meines Wissens drei Kommentatoren."),
            (2, "Neuni", "23.07.2020 // 09:10", "Ist es Euch nicht selbst peinlich, so zu schreiben?"),
            (3, "Gerd", "22.07.2020 // 18:40", "Ich finde die Übertragung sehr gelungen."),
        )
    )  # fmt: skip
    page = f"<html><body><article><h1>Premiere</h1><p>{'Golf im Fernsehen. ' * 40}</p></article><ol class='commentlist'>{comments}</ol></body></html>"
    found = extract_records(page, url="https://news.example.test/premiere")
    assert [c.author for c in found.comments] == ["Rolf Buckpesch", "Neuni", "Gerd"]


def test_a_question_page_is_a_thread_its_question_above_the_answers_a_post():
    answers = "".join(
        answer_item(n, when, text)
        for n, when, text in (
            (1, "2020-11-26 11:20", "Yes, the plugin supports this option already."),
            (2, "2022-11-26 11:20", "You can also set it per category in the settings."),
        )
    )
    page = f"""<html><body><div class="single-question"><div class="breadcrumbs"><a href="/q">Questions</a>
› <a href="/c/general">Category: General</a></div><div class="question-item"><div class="meta">
Alexis asked 2020-11-25 09:00</div><div class="question-content"><p>Hi there! A few quick
pre-sale questions: can questions need a moderator's approval before they show?</p></div></div>
<div class="answers"><div class="answers-title">2 Answers</div><div class="answers-list">{answers}
</div></div></div></body></html>"""
    posts = extract_records(page, url="https://qa.example.test/dwqa/question/pre-sale/").posts
    assert len(posts) == 3 and "pre-sale questions" in posts[0].text


def reply_item(user: str, when: str, text: str) -> str:
    """A reply whose heading line is the poster's profile link, then the time and a place
    (no class says "author"); the avatar links to the same profile."""
    return f"""<li class="clearfix comment-item"><div class="user-face"><a href="/people/{user}/">
<img class="pil" src="/icon/{user}.jpg" alt=""></a></div><div class="reply-doc content"><h4>
<a href="/people/{user}/">{user}</a> <span class="pubtime">{when}</span>
<span class="pubtime ip-location">北京</span></h4><div class="reply-content"><p>{text}</p></div>
<div class="operation"><a href="#" class="lnk-reply">回应</a></div></div></li>"""


def test_a_heading_line_that_opens_with_the_posters_link_names_the_author():
    replies = "".join(
        reply_item(user, when, text)
        for user, when, text in (
            ("山间行者", "2024-04-20 09:02:45", "新手推荐香山，路线成熟，人多也安全，下山还能吃饭。"),
            ("Echo", "2024-04-20 09:15:03", "凤凰岭南线也不错，风景好一些，但是有几段比较陡。"),
            ("背包客阿杰", "2024-04-20 12:40:19", "百望山最简单，一个小时就能上去，适合热身。"),
        )
    )  # fmt: skip
    page = f"""<html><body><h1>周末去哪里爬山比较好</h1><div class="topic-doc"><p>刚来北京，想周末找个
适合新手的地方爬山，求推荐路线。</p></div><ul class="topic-reply">{replies}</ul></body></html>"""
    for url in ("https://group.example.test/topic/301234/", None):
        records = shown_records(page, url)
        assert [r.author for r in records] == ["山间行者", "Echo", "背包客阿杰"], url
        assert [r.time for r in records] == [
            "2024-04-20 09:02:45", "2024-04-20 09:15:03", "2024-04-20 12:40:19"
        ]  # fmt: skip


def test_a_byline_of_name_age_and_views_gives_the_name_and_the_age_not_the_line():
    replies = "".join(
        f"""<div id="r_{n}" class="cell"><table><tr><td width="48"><img src="/a/{user}.png"
class="avatar"></td><td><div class="fr"><span class="no">{n}</span></div><strong><a
href="/member/{user}" class="dark">{user}</a></strong> <span class="ago"
title="2024-05-0{n} 09:12:33 +08:00">{n} 天前</span><div class="reply_content">{text}</div>
</td></tr></table></div>"""
        for n, user, text in (
            (1, "lazycat", "牛奶要用全脂的，菌粉放够，发酵 8 小时以上就会变稠。"),
            (2, "wangxm", "我一般加一勺奶粉，效果立竿见影，比加糖管用多了。"),
        )
    )  # fmt: skip
    page = f"""<html><body><div class="box"><div class="header"><h1>如何在家自己做酸奶</h1><small
class="gray"><a href="/member/milkfan">milkfan</a> · 2 天前 · 1024 次点击</small></div><div
class="cell"><div class="topic_content">买了一台酸奶机，但是做出来总是太稀，大家有什么经验吗？
</div></div></div><div class="box">{replies}</div></body></html>"""
    posts = extract_records(page, url="https://v.example.test/t/1034567").posts
    assert [(p.author, p.time) for p in posts] == [
        ("milkfan", "2 天前"), ("lazycat", "1 天前"), ("wangxm", "2 天前")
    ]  # fmt: skip


def test_the_element_called_the_time_wins_over_a_badges_date_and_uname_is_a_name():
    answers = "".join(
        f"""<div id="answer-{n}" class="bd answer"><div class="line info"><div class="replyer">
<a class="replyer-uname" href="/usercenter?uid={n}">{user}</a><span class="replyer-slogan">{badge}</span>
<span class="replyer-time">{when}</span></div></div><div class="line content"><div
class="rich-content">{text}</div></div></div>"""
        for n, user, badge, when, text in (
            (1, "电脑维修王师傅", "推荐于2023-11-03", "2023-11-02 15:01",
             "开机启动项太多是最常见的原因，打开任务管理器把不需要的启动项禁用即可。"),
            (2, "ITzhixin", "采纳率:87%", "2023-11-02 16:44",
             "三年的机械硬盘确实会慢，换一块固态硬盘，开机能到十秒以内。"),
            (3, "匿名用户", "", "2023-11-03 09:10", "可以先用杀毒软件全盘扫描一下，排除病毒的可能。"),
        )
    )  # fmt: skip
    page = f"""<html><body><div class="ask"><h1>电脑开机很慢是什么原因</h1><p>用了三年的笔记本，最近
开机要两三分钟，怎么解决？</p><span class="ask-time">2023-11-02 14:20</span></div><div
class="answers"><h2>3个回答</h2>{answers}</div></body></html>"""
    posts = extract_records(page, url="https://ask.example.test/question/123456.html").posts
    answered = [(p.author, p.time) for p in posts if p.author]
    assert answered == [
        ("电脑维修王师傅", "2023-11-02 15:01"), ("ITzhixin", "2023-11-02 16:44"),
        ("匿名用户", "2023-11-03 09:10"),
    ]  # fmt: skip


def test_a_web_address_linked_in_a_post_is_not_its_author():
    from topiccrawler.extract.records.authors import clean_author

    assert clean_author("http://www.gimp.org", linked=True) is None
    assert clean_author("www.example.test/stuff", linked=True) is None
    assert clean_author("gimp.org fan") == "gimp.org fan"


def test_a_labelled_name_against_a_labelled_time_leaves_the_times_label_out():
    items = "".join(
        f"""<div class="atl-item" id="{n}"><div class="atl-head"><div class="atl-info"><span>作者：<a
class="js-vip-check" href="/u/{n}">{user}</a></span><span>时间：{when}</span></div></div><div
class="atl-content"><div class="bbs-content">{text}</div><div class="atl-reply"><a class="reply"
title="回复">回复</a></div></div></div>"""
        for n, user, when, text in (
            (1, "江南小雨", "2019-03-01 10:12:33", "杭州这两年涨得厉害，主城区都要四五万一平了，刚需压力很大。"),
            (2, "西北风", "2019-03-01 11:45:02", "兰州还好，一万出头能买到不错的小区，就是收入也低。"),
            (3, "成都耙耳朵", "2019-03-02 08:20:17", "成都限购以后稳了一点，但是好学区的房子还是一房难求。"),
        )
    )  # fmt: skip
    page = (
        f"<html><body><h1>谈谈你们城市的房价</h1><div class='atl-main'>{items}</div></body></html>"
    )
    posts = extract_records(page, url="https://bbs.example.test/post-house-252525-1.shtml").posts
    assert [p.author for p in posts] == ["江南小雨", "西北风", "成都耙耳朵"]


def test_a_nickname_shown_in_brackets_is_the_name_without_them():
    items = "".join(
        f"""<div class="tie-item"><div class="tie-hd"><span class="from">{place}网友</span><span
class="nick">[{nick}]</span><span class="postTime">{when}</span></div><div class="tie-cnt">{text}
</div><div class="tie-ops"><a class="reply" href="#">回复</a></div></div>"""
        for place, nick, when, text in (
            ("北京市", "清风徐来", "2024-04-10 09:12:40", "经济平稳就好，希望重点项目多带动一些就业岗位。"),
            ("广东省", "羊城老李", "2024-04-10 09:40:05", "数据好看，但是老百姓的感受更重要，物价稳住比什么都强。"),
            ("江苏省", "金陵看客", "2024-04-10 10:02:51", "重点项目建设加快是好事，希望工程质量也要跟上。"),
        )
    )  # fmt: skip
    article = "本报讯 记者从有关部门获悉，今年以来全市经济运行总体平稳。" * 8
    page = f"""<html><body><h1>全市经济运行总体平稳</h1><div class="post_body"><p>{article}</p></div>
<div class="tie-list">{items}</div></body></html>"""
    comments = extract_records(page, url="https://news.example.test/article/J1234.html").comments
    assert [c.author for c in comments] == ["清风徐来", "羊城老李", "金陵看客"]


def qa_post(kind: str, n: int, user: str, when: str, text: str, comments=(), accepted=False):
    """A question or answer: its text, a signature box whose first line is "asked/answered"
    and the time (in an element named after the user), the poster's link, and comments under
    it, each naming its author."""
    listed = "".join(
        f"""<li class="comment"><span class="comment-copy">{said}</span> – <a class="comment-user"
href="/users/{who}">{who}</a> <span class="comment-date">{at}</span></li>"""
        for who, at, said in comments
    )
    return f"""<div id="{kind}-{n}" class="{kind}{" accepted-answer" if accepted else ""}"><div
class="post-text"><p>{text}</p></div><div class="post-signature"><div class="user-info"><div
class="user-action-time">{"asked" if kind == "question" else "answered"} <span>{when}</span></div>
<div class="user-details"><a href="/users/{n}/{user}">{user}</a><span class="reputation">1,2{n}</span>
</div></div></div><div class="comments"><ul class="comments-list">{listed}</ul></div></div>"""


def test_a_question_and_answers_name_their_posters_not_the_time_line_or_a_commenter():
    page = f"""<html><body><h1>How do I undo the last commit?</h1>{qa_post(
        "question", 11, "newbie", "Mar 1, 2020 at 10:00",
        "I committed the wrong files. How can I undo that commit before I push it?",
        [("helper", "Mar 1, 2020 at 10:05", "Do you want to keep the changes?")])}
<div id="answers"><h2>2 Answers</h2>{qa_post(
        "answer", 20, "gitguru", "Mar 1, 2020 at 10:20",
        "Use git reset --soft HEAD~1 to undo the commit and keep your changes staged.",
        [("newbie", "Mar 1, 2020 at 10:30", "Thanks, this worked and my changes are still there."),
         ("pedant", "Mar 1, 2020 at 11:00", "Note that this rewrites history: never after a push.")],
        accepted=True)}{qa_post(
        "answer", 21, "oldtimer", "Mar 2, 2020 at 8:00",
        "If you already pushed, prefer git revert HEAD, which adds a commit undoing the last.")}
</div></body></html>"""  # fmt: skip
    found = extract_records(page, url="https://qa.example.test/questions/11/how-do-i-undo")
    assert [(p.author, p.accepted) for p in found.posts] == [
        ("newbie", False), ("gitguru", True), ("oldtimer", False)
    ]  # fmt: skip
    # The question's one comment too (a list of one, where the answers' lists stand).
    assert [(c.author, c.reply_to) for c in found.comments] == [
        ("helper", "newbie"), ("newbie", "gitguru"), ("pedant", "gitguru")
    ]  # fmt: skip


def test_a_member_group_line_in_the_posters_column_is_no_author():
    posts = "".join(
        f"""<div class="windowbg" id="msg{n}"><div class="poster"><h4><a href="/profile;u={n}"
title="View the profile of {user}">{user}</a></h4><ul class="user_info"><li class="membergroup">
{group}</li><li class="postcount">Posts: {n * 7}</li></ul></div><div class="postarea"><div
class="keyinfo"><a href="/index.php?msg={n}" class="smalltext">{when}</a></div><div class="post">
<div class="inner">{text}</div></div></div></div>"""
        for n, user, group, when, text in (
            (1, "spoke", "Newbie", "March 03, 2022, 09:15:04 AM",
             "My chain went rusty over the winter. Is it worth cleaning or should I replace it?"),
            (2, "derailleur_dan", "Global Moderator", "March 03, 2022, 10:02:51 AM",
             "Surface rust comes off with degreaser and a brush. Check the stretch with a gauge."),
            (3, "tandem_tina", "Super Moderator", "March 04, 2022, 07:44:10 PM",
             "Chains are cheap. If it is stiff after cleaning, replace it and save the cassette."),
        )
    )  # fmt: skip
    page = f"<html><body><h3>Topic: Rust on the bike chain</h3><div id='forumposts'>{posts}</div></body></html>"
    found = extract_records(page, url="https://smf.example.test/index.php?topic=1234.0")
    assert [p.author for p in found.posts] == ["spoke", "derailleur_dan", "tandem_tina"]


def test_a_short_reply_in_a_container_named_reply_is_the_reply_not_its_button():
    items = "".join(
        f"""<div class="reply-item"><div class="root-reply-container"><div class="content-warp"><div
class="user-info"><div class="user-name">{user}</div></div><div class="root-reply"><span
class="reply-content">{text}</span><div class="reply-info"><span class="reply-time">{when}</span>
<span class="reply-like">{n * 38}</span><span class="reply-btn">回复</span></div></div></div></div></div>"""
        for n, user, when, text in (
            (1, "吃货小王", "2023-09-10 19:22", "跟着做了一遍，真的不腻！糖色那一步一定要小火。"),
            (2, "深夜放毒", "2023-09-11 00:41", "半夜看这个太罪恶了，明天就去买五花肉。"),
            (3, "厨艺小白", "2023-09-12 12:03", "请问没有冰糖的话用白糖可以吗？颜色会不会差一些？"),
        )
    )  # fmt: skip
    page = f"""<html><body><h1>家常红烧肉的正确做法</h1><p>今天教大家做一道下饭的家常红烧肉。</p>
<div class="reply-list">{items}</div></body></html>"""
    comments = extract_records(page, url="https://video.example.test/video/BV1xx411c7mD").comments
    assert [(c.author, c.text[:6]) for c in comments] == [
        ("吃货小王", "跟着做了一遍"), ("深夜放毒", "半夜看这个太"), ("厨艺小白", "请问没有冰糖")
    ]  # fmt: skip


def test_a_dated_list_of_related_articles_beside_an_article_is_no_thread_list():
    rows = "".join(
        f"""<li><a href="/news/2024/0{n}/{n}.html">{title}</a><span class="time">2024-0{n}-1{n}
10:0{n}</span><span class="source">来源：{source}</span></li>"""
        for n, title, source in (
            (1, "我市出台促进消费十条措施", "市政府网"), (2, "一季度全市GDP同比增长5.2%", "统计局"),
            (3, "重点项目集中开工 总投资超千亿", "发改委"), (4, "外贸进出口实现开门红", "海关"),
        )
    )  # fmt: skip
    article = "本报讯 记者从有关部门获悉，今年以来全市经济运行总体平稳，重点项目建设加快推进。" * 6
    page = f"""<html><body><div class="article"><h1>全市经济运行总体平稳</h1><div class="info">2024-04-10
08:30 来源：本地日报</div><div class="content"><p>{article}</p></div></div><div class="related">
<h3>相关新闻</h3><ul>{rows}</ul></div></body></html>"""
    found = extract_records(page, url="https://news.example.test/2024/04/10/economy.html")
    assert (found.kind, found.threads) == ("", [])


def test_a_comment_line_of_name_colon_and_text_and_a_tally_button():
    items = "".join(
        f"""<div class="list_li" comment_id="{n}"><div class="face"><a href="/u/{n}"><img
src="/f.jpg" alt=""></a></div><div class="list_con"><div class="text"><a href="/u/{n}">{user}</a>：{text}
</div><div class="func"><div class="handle"><a class="reply-link" href="#">回复</a> <span>亮了({n * 9})</span>
</div><div class="from">{when}</div></div></div></div>"""
        for n, user, when, text in (
            (1, "晨跑的猫", "11月20日 08:12", "终于凉快了，明天的晨跑可以穿长袖了。"),
            (2, "小城故事多", "11月20日 08:40", "又要降温，家里的暖气什么时候来啊？"),
            (3, "路过的风", "11月20日 09:05", "谢谢提醒，给爸妈也转发一下，让他们多穿点。"),
        )
    )  # fmt: skip
    page = f"""<html><body><div class="detail"><div class="info"><a href="/u/0">城市气象台</a></div>
<div class="text">【降温提醒】明天起冷空气南下，全市气温下降6到8度，请注意添衣保暖。</div></div>
<div class="list">{items}</div></body></html>"""
    records = shown_records(page, "https://weibo.example.test/1234567890/NxYzAbCdE")
    assert [(r.author, r.text) for r in records] == [
        ("晨跑的猫", "终于凉快了，明天的晨跑可以穿长袖了。"),
        ("小城故事多", "又要降温，家里的暖气什么时候来啊？"),
        ("路过的风", "谢谢提醒，给爸妈也转发一下，让他们多穿点。"),
    ]


def test_a_date_without_its_year_counts_where_its_element_is_named_the_date():
    items = "".join(
        f"""<div class="comment-item"><div class="author"><a class="name" href="/user/{n}">{user}</a>
</div><div class="content"><span class="note-text">{text}</span></div><div class="info"><div
class="date"><span>{when}</span><span class="location">{place}</span></div><div
class="interactions"><span class="count">{n * 4}</span></div></div></div>"""
        for n, user, when, place, text in (
            (1, "银杏控", "11-02", "北京", "钓鱼台那条路太美了，就是人有点多，建议早上去。"),
            (2, "周末去哪儿", "11-03", "天津", "收藏了，这周六就去地坛公园看看。"),
            (3, "摄影小白", "11-05", "河北", "请问拍银杏用什么参数比较好？我拍出来总是发灰。"),
        )
    )  # fmt: skip
    page = f"""<html><body><div class="note"><div class="title">秋天去哪里看银杏</div><div
class="desc">整理了几个市区就能到的银杏大道，周末去正好。</div></div><div class="list">{items}</div>
</body></html>"""
    records = shown_records(page, "https://notes.example.test/explore/64f0a1b2c3d4")
    assert [(r.author, r.time) for r in records] == [
        ("银杏控", "11-02"), ("周末去哪儿", "11-03"), ("摄影小白", "11-05")
    ]  # fmt: skip


def test_a_name_link_beside_a_level_badge_names_the_author():
    items = "".join(
        f"""<div class="zwli" id="zwli{n}"><div class="zwlitxt"><div class="zwlianame"><span
class="zwnick"><a href="//i.example.test/{n}">{user}</a></span><span class="zwlevel">Lv{n + 1}</span>
</div><div class="zwlitime">发表于 {when}</div><div class="zwlitext">{text}</div></div></div>"""
        for n, user, when, text in (
            (1, "价值投资小学生", "2024-01-02 09:45:11", "底部不好猜，分批买入比较稳妥，别一把梭。"),
            (2, "老股民张三", "2024-01-02 10:02:37", "消费复苏慢，估计还要磨一段时间，耐心点。"),
            (3, "韭菜的自我修养", "2024-01-02 10:30:54", "每次都说是底部，结果还有底下的底部。"),
        )
    )  # fmt: skip
    page = f"""<html><body><h1>这波调整还要多久？</h1><div class="zwcon">白酒板块连续调整，大家觉得底部在
哪里？</div><div id="zwlist">{items}</div></body></html>"""
    records = shown_records(page, "https://guba.example.test/news,600519,1357924680.html")
    assert [(r.author, r.text[:5]) for r in records] == [
        ("价值投资小学生", "底部不好猜"), ("老股民张三", "消费复苏慢"), ("韭菜的自我修养", "每次都说是")
    ]  # fmt: skip


def test_posts_as_three_sibling_rows_each_are_read_one_post_a_head_body_and_foot():
    rows = "".join(
        f"""<div class="p-head"><b class="p-user"><a href="/u/{user}">{user}</a></b> <span
class="p-when">{when}</span></div><div class="p-body">{text}</div><div class="p-foot"><span
class="p-sig">{sig}</span> <a href="/quote/{n}">Quote</a></div>"""
        for n, (user, when, text, sig) in enumerate((
            ("crumbqueen", "Jan 4, 2024 8:02 am", "My starter smells like nail polish remover after two days.", "Baking since 2019"),
            ("levain_larry", "Jan 4, 2024 9:40 am", "It is hungry. Feed it twice a day at a higher ratio.", "Flour, water, patience"),
            ("ryeguy", "Jan 4, 2024 1:15 pm", "Some rye flour in the feed helps too. Mine smelled the same.", "Rye not?"),
        ))
    )  # fmt: skip
    page = f"<html><body><h2>Sourdough starter smells like acetone</h2><div class='posts'>{rows}</div></body></html>"
    posts = extract_records(page, url="https://bread.example.test/t/sourdough-acetone/88").posts
    assert [(p.author, p.text[:12]) for p in posts] == [
        ("crumbqueen", "My starter s"), ("levain_larry", "It is hungry"), ("ryeguy", "Some rye flo")
    ]  # fmt: skip


def test_recent_comments_in_a_sidebar_are_the_sites_not_the_pages():
    recent = "".join(
        f"""<li class="recentcomments"><span class="comment-author-link"><a href="/u/{who}">{who}</a>
</span> on <a href="/p/{n}#c">{post}</a><div class="excerpt">{said}</div><span class="date">{when}</span></li>"""
        for n, (who, post, said, when) in enumerate((
            ("Hank", "Composting in winter", "Keep the pile big enough to hold its heat, at least a cubic metre.", "June 9, 2023"),
            ("Ines", "Slugs and beer traps", "The traps worked until the hedgehogs found them first, fine by me.", "June 8, 2023"),
            ("Paul", "Raised beds on clay", "Break up the clay under the bed or the water has nowhere to go.", "June 7, 2023"),
        ))
    )  # fmt: skip
    article = (
        "Indeterminate tomatoes grow side shoots in every leaf axil; removing some keeps the plant airy. "
        * 4
    )
    page = f"""<html><body><aside class="widget-area"><h2>Recent Comments</h2><ul>{recent}</ul></aside>
<main><article><h1>Pruning tomatoes</h1><p>{article}</p></article></main></body></html>"""
    found = extract_records(page, url="https://garden.example.test/2023/06/pruning-tomatoes/")
    assert (found.comments, found.posts) == ([], [])


def test_a_message_boards_labelled_poster_against_its_labelled_time():
    items = "".join(
        f"""<li class="list-item"><div class="msg"><p class="msg-title"><a href="/msg/{n}.html">{title}</a>
</p><p class="msg-content">{text}</p><p class="msg-info"><span>留言人：{user}</span><span>留言时间：{when}</span>
</p></div></li>"""
        for n, title, text, user, when in (
            (1, "小区门口路灯不亮", "幸福路小区门口的路灯已经坏了一个多月，希望尽快维修。", "王先生", "2024-03-01"),
            (2, "公交站台缺少遮雨棚", "人民医院站没有遮雨棚，雨天候车的老人很不方便。", "李女士", "2024-03-04"),
            (3, "学校周边交通拥堵", "实验小学放学时段周边道路严重拥堵，建议增加交警疏导。", "张先生", "2024-03-08"),
        )
    )  # fmt: skip
    page = f"<html><body><h2>网上留言板</h2><ul class='msg-list'>{items}</ul></body></html>"
    found = extract_records(page, url="https://www.gov.example.test/hd/lyb/index.html")
    assert [r.author for r in found.posts or found.comments] == ["王先生", "李女士", "张先生"]


def bbs_post(user: str, when: str, text: str) -> str:
    """A BBS post whose text opens with mail-like header lines, the date among them."""
    return f"""<table class="article"><tr class="head"><td><a href="/user/{user}">{user}</a></td>
<td><a href="/reply">回复</a></td></tr><tr class="body"><td class="info"><dl><dt>文章</dt><dd>12</dd></dl></td>
<td class="content"><div class="wrap">发信人: {user} (昵称), 信区: Career<br/>标  题: Re: 跳槽<br/>
发信站: 某某社区 ({when}), 站内<br/><br/>{text}<br/>--<br/></div></td></tr></table>"""


def test_a_date_on_a_header_line_of_the_posts_text_is_its_time():
    page = f"""<html><body><h1>工作五年该不该跳槽</h1><div class="list">
{bbs_post("coder2015", "Tue May 12 10:20:31 2020", "在国企做了五年开发，最近有外企的机会，涨薪不少，很纠结。")}
{bbs_post("oldbird", "Tue May 12 11:02:47 2020", "五年正是跳槽的好时候，外企的工作方式对以后的路都有帮助。")}
{bbs_post("sunnyday", "Wed May 13 09:15:08 2020", "看你家里情况，如果房贷压力大还是求稳，算上福利差不多。")}
</div></body></html>"""
    posts = extract_records(page, url="https://bbs.example.test/article/Career/1800").posts
    assert [p.author for p in posts] == ["coder2015", "oldbird", "sunnyday"]
    assert [p.time for p in posts] == [
        "Tue May 12 10:20:31 2020", "Tue May 12 11:02:47 2020", "Wed May 13 09:15:08 2020",
    ]  # fmt: skip
    assert posts[2].published_at.isoformat() == "2020-05-13T09:15:08+08:00"


def test_a_latin_name_label_is_a_word_of_its_own():
    from topiccrawler.extract.records.authors import clean_author

    assert clean_author("bytedancer") == "bytedancer"
    assert clean_author("Porky") == "Porky"
    assert clean_author("by jane") == "jane"
    assert clean_author("作者：张三") == "张三"


def qa_page(comments_under_first: str) -> str:
    """A Q&A page off any forum URL: the question in a box of its own, two answers, comments
    on one line each under the first ("text — <a>name</a> · date")."""

    def answer(n: int, user: str, when: str, text: str, comments: str = "") -> str:
        return f"""<div class="answer-item"><div class="vote">{n * 3}</div><div class="main">
<div class="byline"><a href="/u/{user}"><strong>{user}</strong></a><span class="muted"> · {when}</span></div>
<article class="fmt"><p>{text}</p></article><div class="comment-list">{comments}</div></div></div>"""

    return f"""<html><body><header><a href="/">问答</a></header><main><div class="question">
<h1>watch 监听不到对象属性的变化？</h1><div class="byline"><a href="/u/newbie"><strong>newbie</strong></a>
<span class="muted"> · 2022-05-12</span></div><article class="fmt"><p>我用 reactive 定义了一个对象，然后 watch 它的某个属性，属性改了回调却没有触发，请问哪里写错了？</p></article></div>
<div class="answers">{answer(1, "vue老手", "2022-05-12", "watch 一个 reactive 对象的属性要写成 getter 函数，直接传属性值传进去的只是一个数字。", comments_under_first)}
{answer(2, "码农张", "2022-05-13", "或者 watch 整个对象再加 deep: true，不过性能差一点，属性少的时候无所谓。")}</div></main></body></html>"""


def one_line_comment(text: str, user: str, when: str) -> str:
    return f"""<div class="comment-item"><div class="fill"><span class="comment-content">{text}</span><span class="muted"> — <a href="/u/{user}">{user}</a> · {when}</span></div></div>"""


def test_answers_with_comments_under_one_of_them_are_a_thread_off_any_forum_url():
    page = qa_page(
        one_line_comment("改成函数就好了，谢谢！", "newbie", "2022-05-12")
        + one_line_comment("官方文档里watch那一节有专门讲这个坑。", "路过的", "2022-05-13")
    )
    found = extract_records(page, url="https://ask.example.test/q/1010000040000000")
    assert found.kind == "thread"
    assert [(p.author, p.time) for p in found.posts] == [
        ("newbie", "2022-05-12"), ("vue老手", "2022-05-12"), ("码农张", "2022-05-13"),
    ]  # fmt: skip
    # a comment signed after its text: its author is the link after the dash, its time the
    # date after the name, its text what comes before
    assert [(c.text, c.author, c.time) for c in found.comments] == [
        ("改成函数就好了，谢谢！", "newbie", "2022-05-12"),
        ("官方文档里watch那一节有专门讲这个坑。", "路过的", "2022-05-13"),
    ]


def answer_with_comments(n: int, user: str, when: str, text: str, comments: str = "") -> str:
    """An answer whose poster is a plain link to their page (no class names the author),
    with comments under it whose commenters the markup does name ("author")."""
    return f"""<div class="post answer" id="post-{n}"><div class="votes">{n}</div><div class="answer-table">
<div class="post-body"><p>{text}</p></div><div class="controls"><a href="/question/7/#post-{n}">permanent link</a></div>
<div class="info"><p>answered <abbr class="timeago" title="{when}">{when}</abbr></p><a href="/users/{n}/{user}/">{user}</a><br><span class="karma">{n * 120}</span></div></div>
<div class="comments">{comments}</div></div>"""


def marked_comment(user: str, when: str, text: str) -> str:
    return f"""<div class="comment"><div class="comment-body"><p>{text}</p><a class="author" href="/users/9/{user}/">{user}</a> <span class="age">(<abbr class="timeago" title="{when}">{when[:10]}</abbr>)</span></div></div>"""


def test_a_commenter_named_by_the_markup_is_not_the_answers_poster_and_profile_links_win_ties():
    page = f"""<html><body><h1>How to keep leading zeros?</h1><div class="question-page">
<div class="post question"><div class="question-body"><p>I import a CSV with customer numbers like 00123 and the zeros go. How do I keep them?</p></div>
<div class="info"><p>asked <abbr class="timeago" title="2019-05-12 10:20:31 +0200">2019-05-12 10:20:31 +0200</abbr></p><a href="/users/3/jkl/">jkl</a></div></div>
{answer_with_comments(1, "Lupp", "2019-05-12 11:05:07 +0200",
     "In the import dialog set the column type to Text before you press OK; every character is kept.",
     marked_comment("jkl", "2019-05-12 12:00:00 +0200", "Works, thank you. I never noticed that box.")
     + marked_comment("erAck", "2019-05-12 13:30:00 +0200", "Formatting the cells as 00000 works too."))}
{answer_with_comments(2, "Opaque", "2019-05-13 08:44:50 +0200",
     "If the data is already imported, use a helper column with TEXT and paste the values back.")}
</div></body></html>"""  # fmt: skip
    found = extract_records(page, url="https://ask.example.test/question/7/leading-zeros/")
    assert [p.author for p in found.posts] == ["jkl", "Lupp", "Opaque"]
    assert [(c.author, c.time) for c in found.comments] == [
        ("jkl", "2019-05-12"), ("erAck", "2019-05-12"),
    ]  # fmt: skip


def test_a_time_filled_in_by_script_is_read_from_its_empty_elements_title():
    def post(n: int, user: str, iso: str, text: str) -> str:
        return f"""<li component="post" data-index="{n}"><div class="post-header"><small><strong><a href="/user/{user}">{user}</a></strong>
<a class="permalink" href="/post/{n}"><span class="timeago" title="{iso}"></span></a></small></div>
<div class="content"><p>{text}</p></div><div class="post-footer"><a href="#">Reply</a> <a href="#">Quote</a></div></li>"""

    page = f"""<html><body><h1>Plugin update breaks login page</h1><ul class="posts">
{post(0, "martin", "2023-05-12T10:20:31.000Z", "After updating the SSO plugin the login page is blank. Rolling back fixes it.")}
{post(1, "julian", "2023-05-12T11:02:47.000Z", "The new version needs a newer forum release; check its compatibility field.")}
{post(2, "martin", "2023-05-13T09:15:08.000Z", "Upgraded the forum first and the plugin works now.")}</ul></body></html>"""  # fmt: skip
    posts = extract_records(page, url="https://community.example.test/topic/31/plugin").posts
    assert [(p.author, p.time) for p in posts] == [
        ("martin", "2023-05-12T10:20:31.000Z"), ("julian", "2023-05-12T11:02:47.000Z"),
        ("martin", "2023-05-13T09:15:08.000Z"),
    ]  # fmt: skip
    assert posts[0].published_at.isoformat() == "2023-05-12T10:20:31+00:00"


def test_an_age_whose_tooltip_gives_the_date_is_a_time_and_the_byline_opens_with_the_name():
    def comment(user: str, tip: str, text: str, children: str = "") -> str:
        return f"""<li class="comment"><article class="comment-node"><div class="meta small">
<a class="text-info" title="{user}" href="/u/{user}"><span>{user}</span></a> · <span>5</span> ·
<span class="moment-time" data-tippy-content="{tip}">1y</span></div><div class="md"><p>{text}</p></div>
<div class="actions"><button>Reply</button></div></article>{children}</li>"""

    page = f"""<html><body><h1>Which distro for an old laptop?</h1><div class="post"><p>A ThinkPad from 2012 with 4 GB.</p></div>
<ul class="comments">{comment("penguin", "Friday, May 12, 2023 at 9:15:00 AM", "Linux Mint with Xfce runs well on 4 GB and is easy for someone new.",
    '<ul class="comments">' + comment("oldthinkpad", "Friday, May 12, 2023 at 9:40:00 AM", "Thanks, does it still support 32-bit machines?") + "</ul>")}
{comment("arch_btw", "Saturday, May 13, 2023 at 7:30:00 PM", "Debian with a light desktop is leaner if you set it up yourself.")}</ul></body></html>"""  # fmt: skip
    comments = extract_records(page, url="https://lemmy.example.test/post/777").comments
    assert [(c.author, c.time, c.time_attr) for c in comments] == [
        ("penguin", "1y", "Friday, May 12, 2023 at 9:15:00 AM"),
        ("oldthinkpad", "1y", "Friday, May 12, 2023 at 9:40:00 AM"),
        ("arch_btw", "1y", "Saturday, May 13, 2023 at 7:30:00 PM"),
    ]
    assert comments[1].published_at.isoformat() == "2023-05-12T09:40:00+08:00"


def test_a_day_and_month_shown_beside_a_machine_date_is_the_written_time():
    from topiccrawler.extract.parse import parse_html
    from topiccrawler.extract.records.times import time_of

    span = parse_html(
        '<p><span class="when"><time datetime="2019-05-13T08:00:00+0000">May 13</time></span></p>'
    ).find(".//span")
    assert time_of(span, "May 13") == ("May 13", "2019-05-13T08:00:00+0000")


def test_a_join_date_inside_the_posters_details_line_is_not_the_posts_time():
    def post(n: int, user: str, rank: str, joined: str, when: str, text: str) -> str:
        return f"""<tr><td class="row{n % 2 + 1}" valign="top"><span class="name"><b>{user}</b></span><br/>
<span class="postdetails">{rank}<br/><br/>Joined: {joined}<br/>Posts: {n * 61}</span></td>
<td class="row{n % 2 + 1}"><table><tr><td><span class="postdetails">Posted: {when}</span></td></tr>
<tr><td><span class="postbody">{text}</span></td></tr></table></td></tr>
<tr><td class="spaceRow" colspan="2"><img src="spacer.gif" alt=""/></td></tr>"""

    page = f"""<html><body><h1>Hum in a 1950s valve radio</h1><table class="forumline">
<tr><th>Author</th><th>Message</th></tr>
{post(1, "valvefan", "Member", "12 Mar 2005", "Sat May 12, 2007 10:20 am", "My old radio hums as soon as it warms up, even at zero volume.")}
{post(2, "solderpot", "Moderator", "02 Jan 2002", "Sat May 12, 2007 11:02 am", "That is almost always the smoothing capacitors: replace them first.")}
{post(3, "valvefan", "Member", "12 Mar 2005", "Sun May 13, 2007 9:15 am", "Replaced both smoothing caps and the hum is gone.")}
</table></body></html>"""  # fmt: skip
    posts = extract_records(page, url="http://radios.example.test/viewtopic.php?t=812").posts
    assert [p.author for p in posts] == ["valvefan", "solderpot", "valvefan"]
    assert [p.published_at.isoformat() for p in posts] == [
        "2007-05-12T10:20:00+08:00", "2007-05-12T11:02:00+08:00", "2007-05-13T09:15:00+08:00",
    ]  # fmt: skip


def test_answers_alike_with_and_without_comments_and_comments_on_one_line_name_first():
    def answer(n: int, user: str, when: str, text: str, comments: str = "") -> str:
        return f"""<div class="answer-item" data-answerid="{n}"><div class="answer-item-head">
<a class="answer-user" href="/{user}"><span class="nickname">{user}</span></a><span class="answer-time">{when}</span></div>
<div class="answer-item-content"><div class="md">{text}</div></div><div class="answer-item-comments">{comments}</div>
<div class="answer-item-footer"><span class="like">点赞 {n}</span><span>评论</span></div></div>"""

    def comment(user: str, when: str, text: str) -> str:
        return f"""<div class="comment-item"><a class="comment-user" href="/{user}">{user}</a><span class="comment-content">{text}</span><span class="comment-time">{when}</span></div>"""

    page = f"""<html><body><h1>Python读取大文件内存溢出怎么解决？</h1><div class="question"><a href="/asker">asker</a>
<span class="time">2023-05-12 09:00</span><div class="md">用 readlines 读一个 8G 的日志文件，程序直接内存溢出崩溃了，怎么一行一行处理？</div></div>
<div class="answer-list">{answer(1, "老王写代码", "2023-05-12 09:20", "不要用 readlines，直接 for line in f 遍历文件对象，它是按行惰性读取的。",
    comment("asker", "2023-05-12 09:40", "试了，内存只占几十兆，谢谢！") + comment("pythonista", "2023-05-12 10:02", "补充：大文件建议加 buffering 参数。"))}
{answer(2, "数据搬运工", "2023-05-12 10:30", "如果要分块处理，可以用 pandas 的 read_csv 加 chunksize 参数。")}</div></body></html>"""  # fmt: skip
    found = extract_records(page, url="https://ask.example.test/questions/7890123")
    assert [(p.author, p.time) for p in found.posts][-2:] == [
        ("老王写代码", "2023-05-12 09:20"), ("数据搬运工", "2023-05-12 10:30"),
    ]  # fmt: skip
    assert [(c.author, c.time, c.text) for c in found.comments] == [
        ("asker", "2023-05-12 09:40", "试了，内存只占几十兆，谢谢！"),
        ("pythonista", "2023-05-12 10:02", "补充：大文件建议加 buffering 参数。"),
    ]


def test_an_empty_machine_date_beside_a_written_time_leaves_the_written_time():
    from topiccrawler.extract.parse import parse_html
    from topiccrawler.extract.records.times import time_of

    link = parse_html(
        '<p><a class="comment-date" href="#c1"><span itemprop="dateCreated" '
        'datetime="2023-05-12T10:20:00+00:00"></span>Added an answer on May 12, 2023 at '
        "10:20 am</a></p>"
    ).find(".//a")
    assert time_of(link, "Added an answer on May 12, 2023 at 10:20 am") == (
        "May 12, 2023 at 10:20 am",
        "2023-05-12T10:20:00+00:00",
    )


def test_a_best_answer_boxed_apart_above_the_others_is_an_answer_and_the_question_leads():
    def answer(user: str, when: str, text: str, extra: str = "") -> str:
        return f"""<div class="replay-section{extra}"><div class="info"><p class="user">回答者：<a href="/user/{user}">{user}</a></p>
<p class="time">{when}</p></div><div class="answer_con"><pre>{text}</pre></div></div>"""

    page = f"""<html><body><div class="main"><div class="question-main"><h1>手机充电很慢是什么原因？</h1>
<div class="question-con">以前一个小时就能充满，现在要三个多小时，换了充电线也一样，是电池坏了吗？</div>
<div class="question-info"><span class="user-name">提问者小张</span><span class="question-time">2023-05-11</span></div></div>
<div class="replay-wrap"><div class="best-answer"><div class="best-title">最佳答案</div>
{answer("数码达人", "2023-05-11 10:20", "先看充电口有没有灰尘，用牙签轻轻清理一下；电池老化也会变慢。", " best")}</div>
<div class="other-answers"><div class="other-title">其他回答（2）</div>
{answer("电工老刘", "2023-05-11 12:05", "充电头功率不够也会这样，换原装充电头试试。")}
{answer("路人乙", "2023-05-12 08:30", "我的也是这样，清理了充电口就好了。")}</div></div></div></body></html>"""  # fmt: skip
    found = extract_records(page, url="https://wenwen.example.test/z/q912345678.htm")
    assert found.kind == "thread"
    assert [(p.author, p.time) for p in found.posts] == [
        ("提问者小张", "2023-05-11"), ("数码达人", "2023-05-11 10:20"),
        ("电工老刘", "2023-05-11 12:05"), ("路人乙", "2023-05-12 08:30"),
    ]  # fmt: skip


def test_rows_named_answers_off_a_forum_url_are_a_thread_whose_question_is_asked_by_someone():
    def row(user: str, when: str, text: str) -> str:
        return f"""<tr><td class="answer-content"><div class="answer-body">{text}</div>
<div class="answer-meta">Posted by <a href="/answers/contributor/{user}/">{user}</a> on {when}</div></td>
<td class="answer-rating"><a href="#">+</a><span>2</span><a href="#">-</a></td></tr>"""

    page = f"""<html><body><h1>How do I reset the router to factory settings?</h1>
<table class="thread-content"><tr><td class="question-content"><div class="question-body">I changed the admin password
and forgot it. How do I get the router back to how it came out of the box?</div><div class="question-meta">Asked by
<a href="/answers/contributor/pavel/">Pavel</a> on May 11, 2023</div></td><td>Views: 214</td></tr></table>
<h3>Answers</h3><table class="answers-list"><tbody>
{row("SupportTeam", "May 11, 2023", "Hold the reset button on the back for ten seconds while the router is on.")}
{row("kate_l", "May 12, 2023", "Note that a reset also clears your Wi-Fi name and password, so write them down.")}
</tbody></table></body></html>"""  # fmt: skip
    found = extract_records(page, url="https://help.example.test/support/reset-router/")
    assert found.kind == "thread"
    assert [p.author for p in found.posts] == ["Pavel", "SupportTeam", "kate_l"]


def test_a_time_elements_short_age_in_any_language_is_the_time_as_shown():
    from topiccrawler.extract.parse import parse_html
    from topiccrawler.extract.records.times import time_of

    when = "2016-10-13T11:59:35+00:00"
    for shown in ("pred 2 hodiny", "il y a 3 heures", "vor 5 Tagen"):
        tagline = parse_html(
            f'<p class="tagline">submitted <time datetime="{when}">{shown}</time> by jane</p>'
        ).find(".//p")
        assert time_of(tagline, f"submitted {shown} by jane") == (shown, when)
    # A <time> without a number shows no time of its own: the attribute's is given.
    bare = parse_html(f'<p><time datetime="{when}">recently</time></p>').find(".//p")
    assert time_of(bare, "recently") == (when, when)


def test_an_edited_post_gives_its_authors_time_not_the_edits():
    """Two signature boxes alike: "edited <time>" (no editor named: the poster edited it) and
    "answered <time>" beside the poster's link; the post's time is the one beside its author,
    and the action word is nobody's name."""

    def signature(action: str, when: str, exact: str, user: str = "") -> str:
        who = (
            f'<a href="/users/7/{user}">{user}</a><br><span class="rep">2,515</span>'
            if user
            else "<br>"
        )
        return (
            f'<td class="post-signature"><div class="user-info"><div class="user-action-time">'
            f'{action} <span title="{exact}" class="relativetime">{when}</span></div>'
            f'<div class="user-details">{who}</div></div></td>'
        )

    def answer(n: int, user: str, when: str, edited: str | None, text: str) -> str:
        boxes = (signature("edited", edited, "2010-09-07 17:17:56Z") if edited else "") + signature(
            "answered", when, "2010-09-07 17:11:06Z", user
        )
        return (
            f'<div class="answer" id="answer-{n}"><div class="post-text"><p>{text}</p></div>'
            f"<table><tr><td>link | flag</td>{boxes}</tr></table></div>"
        )

    answers = [
        (1, "karussell", "Sep 7 '10 at 17:11", "Sep 7 '10 at 17:17", "I have used both frameworks for a year and like both of them."),
        (2, "hezamu", "Sep 1 '10 at 22:17", None, "The major difference is where the state of the user interface lives."),
        (3, "leonidv", "Aug 27 '10 at 8:19", "Aug 28 '10 at 9:00", "Java is verbose for this, so a framework with less code per screen helps."),
    ]  # fmt: skip
    page = (
        "<html><body><h1>Which framework?</h1>"
        + "".join(answer(*a) for a in answers)
        + "</body></html>"
    )
    found = extract_records(page, url="https://qa.example.test/questions/3553693/which-framework")
    assert [(p.author, p.time) for p in found.posts] == [(u, w) for _, u, w, _, _ in answers]


def test_a_chinese_answers_author_is_the_name_beside_their_score_not_an_action_link():
    """Each answer: the poster's link and reputation ("<a>qian</a> 1.3k"), the time, the text,
    then a row of action links ("链接", "评论" or "2 评论", "举报") every answer has in some
    form: the name is the poster's, no action link is."""

    def answer(n: int, user: str, score: str, when: str, text: str, comments: str) -> str:
        return f"""<article class="answer-item" id="a-{n}"><div class="vote"><span class="count">{n}</span></div>
<div class="offset"><a href="/u/{user}"><img class="avatar" src="/a/{n}.png" alt=""></a>
<strong><a href="/u/{user}" class="mr5">{user}</a> {score}</strong>
<span class="muted">{when} 回答</span><div class="answer fmt"><p>{text}</p></div>
<div class="opt"><ul class="list-inline"><li><a href="/q/1/a-{n}">链接</a></li>
<li><a href="#c{n}">{comments}</a></li><li><a href="#r{n}">举报</a></li></ul></div></div></article>"""

    answers = [
        (1, "qianjiahao", "1.3k", "2 天前", "还是建议拥有开源精神，相互学习，共同进步，代码可以压缩。", "评论"),
        (2, "ibusybox", "2,515", "2 天前", "你自己开发一个浏览器就可以了，这种想法不是很对。", "2 评论"),
        (3, "vvtommy", "87", "1 天前", "不要整天想这些事儿，多想想怎么提高自己的水平。", "评论"),
    ]  # fmt: skip
    page = (
        "<html><body><h1>怎么隐藏js代码</h1>"
        + "".join(answer(*a) for a in answers)
        + "</body></html>"
    )
    records = shown_records(page, "https://qa.example.test/q/1010000002706115")
    assert [r.author for r in records] == ["qianjiahao", "ibusybox", "vvtommy"]


def test_the_client_a_reply_was_sent_from_is_no_text_of_it():
    def reply(n: int, user: str, when: str, text: str, via: str) -> str:
        sent = f'<span class="via">{via}</span>' if via else ""
        return f"""<li class="reply-item" id="{n}"><div class="head"><a href="/people/{n}/">{user}</a>
<span class="pubtime">{when}</span></div><div class="reply-content"><p>{text}</p>{sent}</div>
<div class="ops"><a href="#">回应</a></div></li>"""

    replies = [
        (1, "橘子", "2021-11-02 10:12:31", "姐妹，你很棒，你完全不是散播焦虑，而是自渡加救人。", "来自 豆瓣App"),
        (2, "只搞帅哥", "2021-11-02 10:20:05", "你超级棒的啊，自救成功就好啦！", ""),
        (3, "cedar", "2021-11-02 11:02:44", "Same here, it took me two years to get there.", "Sent from my iPhone using Tapatalk"),
    ]  # fmt: skip
    page = (
        "<html><body><h1>年龄焦虑</h1><ul id='comments'>"
        + "".join(reply(*r) for r in replies)
        + "</ul></body></html>"
    )
    records = shown_records(page, "https://group.example.test/topic/253060849/")
    assert [r.text for r in records] == [t for _, _, _, t, _ in replies]
