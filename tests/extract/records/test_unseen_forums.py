"""Forum pages of software the extractor was not written for (issue 24), as small pages
written for these tests: each is a kind of page, not any one site's markup."""

from __future__ import annotations

from topiccrawler.extract.dates import find_time, parse_time
from topiccrawler.extract.records.page import extract_records

URL = "https://talk.example.test/t/which-bike/4211"


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
