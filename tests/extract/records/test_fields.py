"""A region's records read field by field (extract/records/fields.py), on blocks of our own."""

from __future__ import annotations

from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.fields import block_fields


def blocks_of(html: str, tag: str, name: str) -> list:
    """The page's elements of that tag and class: the records' blocks, given."""
    return [e for e in parse_html(html).iter(tag) if e.get("class") == name]


def test_a_posters_menu_is_no_text_where_some_posts_show_it():
    """Posts that hold the poster's menu beside their text, a list of links whose items depend
    on the poster (no "Private Message" for one who takes none, "Visit Homepage" only for one
    with a homepage) under classes that alternate with the items shown, so that no item keeps
    one place: a whole-link line most posts show, and the other links of the lists that hold
    it, are no text. A poster's own name, repeated by one who wrote most posts, stays theirs."""
    profile = ["View Profile", "View Forum Posts"]
    posts = [
        ("bob", profile + ["Private Message", "Visit Homepage"], "Sad to read that. Fair winds."),
        ("ann", profile + ["Private Message"], "He wrote for the paper for thirty years."),
        (
            "bob",
            profile + ["Private Message", "Visit Homepage"],
            "Moved this to the right section.",
        ),
        ("cid", profile, "He taught me two spaces after a period."),
        ("bob", profile + ["Private Message", "Visit Homepage"], "And who could forget his rat."),
    ]
    html = "<html><body><ol>" + "".join(
        f'<li class="post"><a class="username" href="/member.php?u={user}">{user}</a><ul>'
        + "".join(f'<li class="{("left", "right")[i % 2]}"><a href="/m?{i}">{item}</a></li>' for i, item in enumerate(menu))
        + f"</ul><span class=date>06-15-2016, 0{n}:03 PM</span> {text}</li>"
        for n, (user, menu, text) in enumerate(posts, 1)
    ) + "</ol></body></html>"  # fmt: skip
    blocks = blocks_of(html, "li", "post")
    fields = block_fields(blocks, set(blocks))
    assert [(f.author, f.text) for f in fields] == [(user, text) for user, _, text in posts]


def test_a_field_of_the_posters_card_is_no_name():
    """Posters' cards of our own under the name link: a title, for some a badge that reads
    "Author" (a user group), then labelled fields. After the badge comes "Join Date: Dec 2005",
    which the badge seems to label: a field of the card, not a name; the name link is."""
    posts = [
        ("tiny", "", "Well, what is offensive to me is the way the show was marketed."),
        ("oven", "Author", "That is a rather loose reading of what she said, if you ask me."),
        ("shiro", "", "So what I got from her answer is that she knew and did not care."),
        ("oven", "Author", "I finally watched the OVA last night, with subtitles at last."),
    ]
    html = "<html><body><table>" + "".join(
        f'<tr class="post"><td class="alt2"><div id="postmenu_{n}"><a class="bigusername" href="member.php?u={n}">{user}</a></div>'
        f'<div class="smallfont">Member</div>'
        + (f'<div class="smallfont"><b>{badge}</b></div>' if badge else "")
        + f'<div class="smallfont"><div>Join Date: Dec 200{n}</div><div>Location: Ventura County</div></div></td>'
        f'<td class="alt1"><div class="date">2016-02-0{n}, 02:2{n}</div><div id="post_message_{n}">{text}</div></td></tr>'
        for n, (user, badge, text) in enumerate(posts, 1)
    ) + "</table></body></html>"  # fmt: skip
    blocks = blocks_of(html, "tr", "post")
    assert [f.author for f in block_fields(blocks, set(blocks))] == [u for u, _, _ in posts]


def test_a_link_that_acts_on_the_poster_is_no_name():
    """Posts of our own whose author column holds the name link and the poster's menu, hidden
    until the name is pointed at, whose links go to the same page as the name ("查看详细资料",
    and "查看个人网站" for a poster with a site of their own): the name is the author."""
    posts = [("卞学道", True), ("nsdown", False), ("我朝共产", True), ("yuechi", False)]
    html = "<html><body>" + "".join(
        f'<table class="post" id="pid{n}"><tr><td class="postauthor">'
        f'<div class="popupmenu_popup userinfopanel" style="display: none;">'
        + (f'<p><a href="http://site{n}.example/">查看个人网站</a></p>' if site else "")
        + f'<p><a href="space.php?uid={n}">查看详细资料</a></p></div>'
        f'<cite><a href="space.php?uid={n}" class="dropmenu">{user}</a></cite></td>'
        f'<td class="postcontent"><div class="postinfo">{n}楼 发表于 2010-1-1{n} 14:41</div>'
        f'<div class="t_msgfont">第{n}楼说：直接用VPS上的VPN会很快把流量耗光的。</div></td></tr></table>'
        for n, (user, site) in enumerate(posts, 1)
    ) + "</body></html>"  # fmt: skip
    blocks = blocks_of(html, "table", "post")
    assert [f.author for f in block_fields(blocks, set(blocks))] == [u for u, _ in posts]


def test_the_people_who_liked_an_answer_are_not_its_author():
    """Answers of our own that show, under the author's name and bio, the people who liked
    them: each a link to their page, in a row ("萧瑶、Winter、任红雷 等人赞同"). One of a row of
    people is not the author."""
    answers = [("芝士就是力量", ["萧瑶", "Winter", "任红雷"]), ("小不点儿", ["阿飞", "路人"]),
               ("欧阳忆希", ["蓝天", "行者", "书生"])]  # fmt: skip
    html = "<html><body>" + "".join(
        f'<div class="zm-item-answer"><div class="answer-head"><div class="zm-item-answer-author-info">'
        f'<h3 class="zm-item-answer-author-wrap"><a href="/people/a{n}">{name}</a>，<strong>一句简介</strong></h3></div>'
        f'<div class="zm-item-vote-info"><span class="voters">'
        + "、".join(f'<span class="user-block"><a href="/people/v{n}{i}" class="zg-link">{v}</a></span>' for i, v in enumerate(voters))
        + f'</span> 等人赞同</div></div><div class="zm-editable-content">第{n}个回答：说谢谢并没有错，要看它达到了什么效果。</div>'
        f'<a class="answer-date-link" href="/answer/{n}">发布于 2014-08-1{n}</a></div>'
        for n, (name, voters) in enumerate(answers, 1)
    ) + "</body></html>"  # fmt: skip
    blocks = blocks_of(html, "div", "zm-item-answer")
    assert [f.author for f in block_fields(blocks, set(blocks))] == [a for a, _ in answers]


def test_one_person_who_liked_an_answer_is_not_its_author():
    """As above with one voter each ("洪哥 赞同"), a row of one: the line of a linked name and
    a reaction names who reacted; the author's line, a name and a bio, is no such line."""
    answers = [("芝士就是力量", "洪哥"), ("小不点儿", "Lylian"), ("欧阳忆希", "元酱")]
    html = "<html><body>" + "".join(
        f'<div class="zm-item-answer"><div class="answer-head"><div class="zm-item-answer-author-info">'
        f'<h3 class="zm-item-answer-author-wrap"><a href="/people/a{n}">{name}</a>，<strong>一句简介</strong></h3></div>'
        f'<div class="zm-item-vote-info"><span class="voters"><span class="user-block">'
        f'<a href="/people/v{n}" class="zg-link">{voter}</a></span></span> <span>赞同</span></div></div>'
        f'<div class="zm-editable-content">第{n}个回答：说谢谢并没有错，要看它达到了什么效果。</div>'
        f'<a class="answer-date-link" href="/answer/{n}">发布于 2014-08-1{n}</a></div>'
        for n, (name, voter) in enumerate(answers, 1)
    ) + "</body></html>"  # fmt: skip
    blocks = blocks_of(html, "div", "zm-item-answer")
    assert [f.author for f in block_fields(blocks, set(blocks))] == [a for a, _ in answers]


def test_a_folded_answers_controls_are_neither_text_nor_name():
    """Answers of our own, the long ones folded behind a "展开全部" (show all) button inside the
    text box, each under a card whose name has no link (one a number, no name to the rules)
    and whose "向TA提问" (ask them) link goes to the poster: the button is no text, the ask
    link no name."""
    answers = [("vicky_1624", True, "臭氧层空洞是大气中臭氧含量大量减少的空域。"),
               ("461686959", False, "南极臭氧层空洞在2000年10月达到最大。"),
               ("分子710", True, "控制臭氧层破坏的途径和政策，在现代经济中很重要。")]  # fmt: skip
    html = "<html><body>" + "".join(
        f'<div class="answer-item"><div class="card"><span class="card-name">{name}</span>'
        f'<span class="card-level">LV{n}</span><a href="/new?uid={n}" class="card-ask">向TA提问</a></div>'
        f'<span class="time">2007-09-0{n}</span><div class="content">'
        + ('<div class="mask"><div class="showbtn">展开全部</div></div>' if folded else "")
        + f"{text}</div></div>"
        for n, (name, folded, text) in enumerate(answers, 1)
    ) + "</body></html>"  # fmt: skip
    blocks = blocks_of(html, "div", "answer-item")
    fields = block_fields(blocks, set(blocks))
    assert [f.text for f in fields if f.author] == [t for _, folded, t in answers if folded]
    assert [f.author for f in fields] == ["vicky_1624", None, "分子710"]
    assert fields[1].text.endswith(answers[1][2])


def test_a_short_posts_text_is_read_where_the_others_have_theirs():
    """Posts of our own where the poster's hidden menu, the message and the signature are each
    a classless div in a div, told apart by their ids (postmenu_1, post_message_1), beside a
    long card of the poster. The short post's own choice of text element is its card; it takes
    the element at the others' position named as theirs, not the first at that position."""
    long = " When you tell a story you have an idea of what you mean, but language has limits." * 4
    posts = [
        ("ann", "Well, what is offensive to me is the way the show was marketed." + long),
        ("bob", "That is a rather loose reading of what she said, if you ask me." + long),
        ("cid", "So there is a section stereotype."),
        ("dee", "I finally watched the OVA last night, with subtitles at last." + long),
    ]
    html = "<html><body>" + "".join(
        f'<div class="post"><div class="card"><a href="member.php?u={n}">{user}</a>'
        f"<div>Toji Affairs Secretary of the Band</div><div>Join Date: May 2009</div>"
        f"<div>Location: the Philippines, Manila, Luzon</div><div>Posts: {n * 100}</div></div>"
        f'<div class="date">2016-02-0{n}, 02:0{n}</div>'
        f'<div><div id="postmenu_{n}" style="display:none"><a href="member.php?u={n}">View Public Profile</a> '
        f'<a href="search.php?u={n}">Find More Posts by {user}</a></div></div>'
        f'<div><div id="post_message_{n}">{text}</div></div>'
        f"<div><div>__________________ Have a nice talk with the forum members on Discord!</div></div></div>"
        for n, (user, text) in enumerate(posts, 1)
    ) + "</body></html>"  # fmt: skip
    blocks = blocks_of(html, "div", "post")
    fields = block_fields(blocks, set(blocks))
    assert [f.text for f in fields] == [t for _, t in posts]


def test_a_notice_most_posts_carry_word_for_word_is_no_posts_text():
    """Posts of our own, each a table whose row under the message holds a signature: most
    posters keep the one the site gives everyone (a notice longer than the short replies),
    one wrote their own. The notice is no post's text; a poster's own signature is left to
    the signature rules."""
    notice = "欢迎来到本论坛！请遵守版规，文明发言，一起打造最友好的交流平台。"
    posts = [
        ("ann", "辛苦了，感谢分享", notice),
        ("bob", "顶一下", notice),
        ("cid", "这期的信息量很大啊！", notice),
        ("dan", "同意楼上的看法", ""),
        ("eve", "收藏了，慢慢看", notice),
    ]
    html = "<html><body>" + "".join(
        f'<table class="plhin"><tr><td class="pls"><a href="space.php?uid={n}">{user}</a></td>'
        f'<td class="plc"><em>发表于 2019-7-3 21:{n}5</em><div class="t_f">{text}</div></td></tr>'
        f'<tr><td></td><td><div class="note">{sign}</div></td></tr></table>'
        for n, (user, text, sign) in enumerate(posts, 1)
    ) + "</body></html>"  # fmt: skip
    blocks = blocks_of(html, "table", "plhin")
    fields = block_fields(blocks, set(blocks))
    assert [(f.author, f.text) for f in fields] == [(user, text) for user, text, _ in posts]


def test_a_post_whose_longest_text_is_a_reply_every_post_repeats_keeps_its_own():
    """Floors of our own, each a short message over a list of replies to it, where the same
    advertisement was posted under most floors: the list is the floor's longest text, but
    what every floor repeats is not the floor's, and its own short message is."""
    advert = "分别雪：低价直通车，流量优化，一对一解答店铺问题，每天晚上群内课堂免费教运营知识"
    posts = [("ann", "支持"), ("bob", "很好很给力"), ("cid", "这么多啊！支持！"), ("dan", "辛苦了")]
    html = "<html><body>" + "".join(
        f'<div class="reply-item"><div class="info"><a href="/person?nick={user}">{user}</a>发表于'
        f"<span>2016-09-20 21:1{n}</span></div><div class=\"message\">{text}</div>"
        f'<ul class="blockquote"><li><a href="/person?nick=x">x</a>{advert}<span>2017-01-02 17:15</span></li>'
        "<li>查看更多</li></ul></div>"
        for n, (user, text) in enumerate(posts, 1)
    ) + "</body></html>"  # fmt: skip
    blocks = blocks_of(html, "div", "reply-item")
    assert [(f.author, f.text) for f in block_fields(blocks, set(blocks))] == posts
