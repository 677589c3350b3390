"""Written pages, batch 2: a Hacker-News-like comment tree (indentation by image width), an
old-Reddit-like comment tree (nested children, a sidebar of moderators), a GitHub-issue-like
timeline, a Tianya-like thread ("作者：name 时间：…") and a 163-like news comment list (nicknames
in brackets)."""

ART = (
    "<p>"
    + "本报讯 记者从有关部门获悉，今年以来全市经济运行总体平稳，重点项目建设加快推进。" * 6
    + "</p>"
)


def hn(items):
    rows = "".join(
        f"""<tr class="athing comtr" id="{4000 + i}"><td><table border="0"><tr><td class="ind" indent="{d}"><img src="s.gif" height="1" width="{d * 40}"></td>
<td valign="top" class="votelinks"><center><a id="up_{4000 + i}" href="vote?id={4000 + i}&how=up"><div class="votearrow" title="upvote"></div></a></center></td>
<td class="default"><div style="margin-top:2px; margin-bottom:-10px;"><span class="comhead"><a href="user?id={u}" class="hnuser">{u}</a> <span class="age" title="{t}"><a href="item?id={4000 + i}">{ago}</a></span> <span id="unv_{4000 + i}"></span><span class="navs"> | <a href="#{4000 + i}">next</a> <a class="togg clicky" id="{4000 + i}" n="1" href="javascript:void(0)">[–]</a></span></span></div><br>
<div class="comment"><div class="commtext c00">{text}</div><div class="reply"><p><font size="1"><u><a href="reply?id={4000 + i}">reply</a></u></font></p></div></div></td></tr></table></td></tr>"""
        for i, (u, d, t, ago, text) in enumerate(items)
    )
    return f"""<html><head><title>Show HN: A tiny database | Hacker News</title></head><body><center><table id="hnmain"><tr><td><table><tr><td><a href="news">Hacker News</a> | <a href="newest">new</a> | <a href="front">past</a> | <a href="newcomments">comments</a></td></tr></table></td></tr>
<tr><td><table class="fatitem"><tr class="athing submission"><td class="title"><span class="titleline"><a href="https://example.test/db">Show HN: A tiny database</a></span></td></tr>
<tr><td class="subtext"><span class="score">212 points</span> by <a href="user?id=maker" class="hnuser">maker</a> <span class="age" title="2024-06-01T10:00:00"><a href="item?id=1">5 hours ago</a></span> | <a href="item?id=1">86&nbsp;comments</a></td></tr></table>
<table class="comment-tree">{rows}</table></td></tr></table></center></body></html>"""


HN = [
    (
        "pg_fan",
        0,
        "2024-06-01T11:02:00",
        "4 hours ago",
        "This is neat. How does it handle concurrent writers without a global lock on the file?",
    ),
    (
        "maker",
        1,
        "2024-06-01T11:20:00",
        "4 hours ago",
        "One writer at a time, readers never block: the log is appended and the index swapped.",
    ),
    (
        "dbguy",
        2,
        "2024-06-01T12:05:00",
        "3 hours ago",
        "That is how LMDB does it too, roughly. Nice to see it in a small codebase like this.",
    ),
    (
        "anon42",
        0,
        "2024-06-01T13:40:00",
        "1 hour ago",
        "Any benchmarks against SQLite for small key-value workloads on a laptop?",
    ),
]


def reddit(items):
    def one(u, t, ago, pts, text, kids=""):
        return f"""<div class="thing comment" data-author="{u}"><p class="parent"></p><div class="midcol unvoted"><div class="arrow up" role="button" aria-label="upvote"></div></div>
<div class="entry unvoted"><p class="tagline"><a href="javascript:void(0)" class="expand">[–]</a><a href="https://old.example.test/user/{u}" class="author may-blank">{u}</a><span class="userattrs"></span> <span class="score unvoted" title="{pts}">{pts} points</span> <time title="{t}" datetime="{t}" class="live-timestamp">{ago}</time></p>
<form class="usertext"><div class="usertext-body may-blank-within md-container"><div class="md"><p>{text}</p></div></div></form>
<ul class="flat-list buttons"><li class="first"><a href="#" class="bylink">permalink</a></li><li><a href="#">embed</a></li><li><a href="#">save</a></li><li><a class="reply-button" href="#">reply</a></li></ul></div>
<div class="child">{kids}</div><div class="clearleft"></div></div>"""

    a = one(*items[0], kids='<div class="sitetable listing">' + one(*items[1]) + "</div>")
    b = one(*items[2])
    c = one(*items[3])
    return f"""<html><head><title>What is your favourite hiking trail? : r/hiking</title></head><body><div id="header"><a href="/">reddit</a> <a href="/r/hiking">hiking</a></div>
<div class="side"><div class="spacer"><div class="titlebox"><h1><a href="/r/hiking">hiking</a></h1><span class="subscribers"><span class="number">2,401,337</span> readers</span><div class="md"><p>A place for hikers to share trails.</p></div></div></div>
<div class="spacer"><div class="sidecontentbox"><h1>moderators</h1><ul class="content"><li><a href="/user/mod_one" class="author">mod_one</a></li><li><a href="/user/mod_two" class="author">mod_two</a></li><li><a href="/user/mod_three" class="author">mod_three</a></li></ul></div></div></div>
<div class="content"><div class="sitetable linklisting"><div class="thing link"><p class="title"><a class="title" href="/r/hiking/comments/abc/">What is your favourite hiking trail?</a></p><p class="tagline">submitted <time datetime="2024-05-01T08:00:00+00:00">3 days ago</time> by <a href="/user/op_user" class="author">op_user</a></p><div class="expando"><div class="usertext-body"><div class="md"><p>Looking for ideas for the summer.</p></div></div></div></div></div>
<div class="commentarea"><div class="sitetable nestedlisting">{a}{b}{c}</div></div></div></body></html>"""


REDDIT = [
    (
        "trailrunner",
        "2024-05-01T09:00:00+00:00",
        "3 days ago",
        41,
        "The Tour du Mont Blanc, if you can take two weeks off. Every day is different.",
    ),
    (
        "alpine_amy",
        "2024-05-01T10:30:00+00:00",
        "3 days ago",
        12,
        "Seconded, but book the huts early: they fill up by March these days.",
    ),
    (
        "flatlander",
        "2024-05-02T07:15:00+00:00",
        "2 days ago",
        7,
        "Anything along the coast in Cornwall. No mountains, still plenty of climbing.",
    ),
    (
        "wanderer",
        "2024-05-03T19:45:00+00:00",
        "1 day ago",
        3,
        "The West Highland Way was my first long walk and I still think about it.",
    ),
]


def github(items):
    blocks = "".join(
        f"""<div class="js-timeline-item js-timeline-progressive-focus-container"><div class="TimelineItem js-comment-container"><div class="avatar-parent-child TimelineItem-avatar"><a class="d-inline-block" href="/{u}"><img class="avatar rounded-2 avatar-user" src="/u/{u}.png" width="40" height="40" alt="@{u}"></a></div>
<div class="timeline-comment-group js-minimizable-comment-group"><div class="ml-n3 timeline-comment unminimized-comment comment"><div class="timeline-comment-header clearfix d-flex"><div class="timeline-comment-actions flex-justify-end"><span class="Label">Contributor</span></div>
<h3 class="f5 text-normal" style="flex: 1 1 auto"><div><strong><a class="author Link--primary text-bold" href="/{u}">{u}</a></strong> commented <a href="#issuecomment-{9000 + i}" class="Link--secondary js-timestamp"><relative-time datetime="{t}" class="no-wrap">{shown}</relative-time></a></div></h3></div>
<div class="edit-comment-hide"><task-lists><table class="d-block"><tbody class="d-block"><tr class="d-block"><td class="d-block comment-body markdown-body js-comment-body"><p dir="auto">{text}</p></td></tr></tbody></table></task-lists></div>
<div class="comment-reactions"><button class="btn-link reaction-summary-item">👍 {i + 1}</button></div></div></div></div></div>"""
        for i, (u, t, shown, text) in enumerate(items)
    )
    return f"""<html><head><title>Crash when the config file is empty · Issue #812 · acme/tool</title></head><body><header class="AppHeader"><a href="/">GitHub</a> <a href="/pulls">Pull requests</a> <a href="/issues">Issues</a></header>
<div id="repo-content"><div class="gh-header"><h1 class="gh-header-title"><bdi class="js-issue-title markdown-title">Crash when the config file is empty</bdi> <span class="f1-light color-fg-muted">#812</span></h1><div class="gh-header-meta"><span class="State State--open">Open</span> <a class="author Link--secondary text-bold" href="/reporter">reporter</a> opened this issue <relative-time datetime="2024-02-01T09:00:00Z">Feb 1, 2024</relative-time> · 4 comments</div></div>
<div class="Layout-sidebar"><div class="discussion-sidebar-item"><div class="discussion-sidebar-heading">Assignees</div><p><a class="assignee Link--primary" href="/dev1"><span class="css-truncate-target">dev1</span></a></p></div><div class="discussion-sidebar-item"><div class="discussion-sidebar-heading">Labels</div><a class="IssueLabel" href="/labels/bug">bug</a></div><div class="discussion-sidebar-item"><div class="discussion-sidebar-heading">Participants</div><a class="participant-avatar" href="/dev1"><img class="avatar" alt="@dev1"></a><a class="participant-avatar" href="/reporter"><img class="avatar" alt="@reporter"></a></div></div>
<div class="js-discussion">{blocks}</div></div><footer>© 2024 GitHub, Inc. Terms Privacy Security Status Docs</footer></body></html>"""


GITHUB = [
    (
        "reporter",
        "2024-02-01T09:00:00Z",
        "Feb 1, 2024",
        "Running tool with an empty config.toml crashes with a KeyError on startup instead of using defaults.",
    ),
    (
        "dev1",
        "2024-02-01T11:30:00Z",
        "Feb 1, 2024",
        "Thanks for the report. Can you paste the full traceback and the version you are on?",
    ),
    (
        "reporter",
        "2024-02-02T08:12:00Z",
        "Feb 2, 2024",
        "Version 2.3.1. The traceback points at the loader, line 88, where the section is read.",
    ),
    (
        "dev1",
        "2024-02-03T16:45:00Z",
        "Feb 3, 2024",
        "Fixed in 2.3.2: an empty file now means all defaults. Closing, reopen if it persists.",
    ),
]


def tianya(items):
    blocks = "".join(
        f"""<div class="atl-item" id="{i + 1}" replyid="{7000 + i}" _host="{u}" js_username="{u}" js_restime="{t}"><div class="atl-head"><div class="atl-head-reply"></div><div class="atl-info"><span>作者：<a class="js-vip-check" href="http://www.tianya.example.test/{8000 + i}" target="_blank" uid="{8000 + i}" uname="{u}">{u}</a></span><span>时间：{t}</span></div></div>
<div class="atl-con-bd clearfix"><div class="atl-con-hd clearfix"><div class="atl-con-hd-l"></div><div class="atl-con-hd-r"></div></div><div class="atl-content"><div class="atl-con-bd-l"><div class="bbs-content">{text}</div><div class="atl-reply"><span class="atl-reply-num">{i + 1}楼</span> <a class="a-link-2 reply" title="回复">回复</a></div></div></div></div></div>"""
        for i, (u, t, text) in enumerate(items)
    )
    return f"""<html><head><title>谈谈你们城市的房价_天涯论坛</title></head><body><div id="hd"><a href="/">天涯社区</a> <a href="/list-house.shtml">天涯论坛 &gt; 房产观澜</a></div>
<div id="bd"><div class="atl-main"><div class="atl-head" id="post_head"><h1 class="atl-title"><span class="s_title"><span>谈谈你们城市的房价</span></span></h1><div class="atl-menu clearfix js-bbs-act"><div class="atl-info"><span>楼主：<a class="js-vip-check" href="http://www.tianya.example.test/1" uname="房东老张">房东老张</a></span><span>时间：2019-03-01 09:00:00</span><span>点击：12345</span><span>回复：{len(items)}</span></div></div></div>
<div class="atl-item host-item"><div class="atl-content"><div class="bbs-content clearfix">最近想在二线城市买房，大家那边房价怎么样？</div></div></div>
{blocks}</div><div class="atl-side"><div class="side-box"><h3>热帖排行</h3><ul><li><a href="/post-1.shtml">北京学区房还值得买吗</a></li><li><a href="/post-2.shtml">三四线城市房价会跌吗</a></li><li><a href="/post-3.shtml">租房还是买房</a></li></ul></div></div></div></body></html>"""


TIANYA = [
    (
        "江南小雨",
        "2019-03-01 10:12:33",
        "杭州这两年涨得厉害，主城区都要四五万一平了，刚需压力很大。",
    ),
    ("西北风", "2019-03-01 11:45:02", "兰州还好，一万出头能买到不错的小区，就是收入也低。"),
    ("成都耙耳朵", "2019-03-02 08:20:17", "成都限购以后稳了一点，但是好学区的房子还是一房难求。"),
    ("江南小雨", "2019-03-02 09:01:55", "楼上说的是，学区房到哪里都是另一个价格体系。"),
]


def news163(items):
    blocks = "".join(
        f"""<div class="tie-item" id="tie-{i}"><div class="tie-author"><a class="tie-author-avatar" href="/user/{i}"><img src="/av.png"></a></div>
<div class="tie-bdy"><div class="tie-hd"><span class="from">{loc}网友</span><span class="nick">[{nick}]</span><span class="postTime">{t}</span><span class="tie-zan">{i * 3 + 2} 顶</span></div>
<div class="tie-cnt">{text}</div><div class="tie-ops"><a class="reply" href="#">回复</a> <a class="share" href="#">分享</a></div></div></div>"""
        for i, (loc, nick, t, text) in enumerate(items)
    )
    return f"""<html><head><title>全市经济运行总体平稳_新闻中心</title></head><body><div class="N-nav"><a href="/">首页</a> <a href="/news">新闻</a> <a href="/sports">体育</a> <a href="/money">财经</a></div>
<div class="post_main"><h1>全市经济运行总体平稳 重点项目加快推进</h1><div class="post_info">2024-04-10 08:30:12　来源: 本地日报</div><div class="post_body">{ART}</div></div>
<div class="tie-area"><div class="tie-title">跟贴 {len(items)} 条</div><div class="tie-list">{blocks}</div></div>
<div class="post_side"><h3>热门排行</h3><ul><li><a href="/a1">城市地铁新线今日开通</a><span>2024-04-10</span></li><li><a href="/a2">春季招聘会本周末举行</a><span>2024-04-09</span></li><li><a href="/a3">多个公园迎来赏花高峰</a><span>2024-04-09</span></li></ul></div></body></html>"""


NEWS163 = [
    ("北京市", "清风徐来", "2024-04-10 09:12:40", "经济平稳就好，希望重点项目多带动一些就业岗位。"),
    (
        "广东省广州市",
        "羊城老李",
        "2024-04-10 09:40:05",
        "数据好看，但是老百姓的感受更重要，物价稳住比什么都强。",
    ),
    (
        "江苏省南京市",
        "金陵看客",
        "2024-04-10 10:02:51",
        "重点项目建设加快是好事，希望工程质量也要跟上。",
    ),
]
