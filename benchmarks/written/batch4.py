"""Written pages, batch 4 (written after batches 1-3 were fixed, scored before its own fixes):
an Invision-Community-like topic, an SMF-like topic (member group lines), a Disqus-like comment
widget, a Bilibili-like comment list (replies in "root-reply" containers) and a Jianshu-like
comment list (hashed class names)."""


def ips(posts):
    arts = "".join(
        f"""<article id="elComment_{600 + i}" class="cPost ipsBox ipsResponsive_pull ipsComment ipsComment_parent ipsClearfix ipsClear ipsColumns ipsColumns_noSpacing ipsColumns_collapsePhone">
<div class="cAuthorPane_mobile ipsResponsive_showPhone"><div class="cAuthorPane_photo"><a href="/profile/{500 + i}-{u.lower()}/" class="ipsUserPhoto ipsUserPhoto_large"><img src="/av.png" alt="{u}"></a></div><div class="cAuthorPane_content"><h3 class="ipsType_sectionHead cAuthorPane_author ipsType_break ipsType_blendLinks ipsFlex ipsFlex-ai:center"><a href="/profile/{500 + i}-{u.lower()}/" class="ipsType_break">{u}</a></h3><div class="ipsType_light ipsType_reset"><a href="#comment-{600 + i}" class="ipsType_blendLinks"><time datetime="{t}" title="{shown}" data-short="3 yr">{shown}</time></a></div></div></div>
<aside class="ipsComment_author cAuthorPane ipsColumn ipsColumn_medium ipsResponsive_hidePhone"><h3 class="ipsType_sectionHead cAuthorPane_author ipsType_blendLinks ipsType_break"><strong><a href="/profile/{500 + i}-{u.lower()}/" class="ipsType_break">{u}</a></strong></h3>
<ul class="cAuthorPane_info ipsList_reset"><li data-role="group">{rank}</li><li class="ipsResponsive_hidePhone">{(i + 1) * 57} posts</li></ul></aside>
<div class="ipsColumn ipsColumn_fluid ipsMargin:none"><div id="comment-{600 + i}_wrap" class="ipsComment_content ipsType_medium"><div class="ipsComment_meta ipsType_light ipsFlex ipsFlex-ai:center ipsFlex-jc:between ipsFlex-fd:row-reverse"><div class="ipsType_light ipsType_reset ipsType_blendLinks ipsComment_toolWrap"><ul class="ipsList_reset ipsComment_tools"><li><a href="#" class="ipsType_blendLinks">Share</a></li></ul></div><div class="ipsType_reset ipsResponsive_hidePhone"><a href="#comment-{600 + i}" class="ipsType_blendLinks">Posted <time datetime="{t}" title="{shown}" data-short="3 yr">{shown}</time></a></div></div>
<div class="cPost_contentWrap"><div data-role="commentContent" class="ipsType_normal ipsType_richText ipsPadding_bottom ipsContained"><p>{text}</p></div></div></div></div></article>"""
        for i, (u, rank, t, shown, text) in enumerate(posts)
    )
    return f"""<html><head><title>Which lens for birds? - Photography - Camera Club</title></head><body><div id="ipsLayout_header"><nav><a href="/">Home</a> <a href="/forums/">Forums</a> <a href="/gallery/">Gallery</a></nav></div>
<main id="ipsLayout_body"><div class="ipsPageHeader"><h1 class="ipsType_pageTitle"><span class="ipsType_break ipsContained">Which lens for birds?</span></h1><div class="ipsPageHeader__meta">By <a href="/profile/500-birder/">Birder</a>, <time datetime="2021-04-01T07:00:00Z">April 1, 2021</time> in Photography</div></div>
<div id="comments" data-feedid="topic-1">{arts}</div>
<div class="ipsWidget ipsWidget_vertical"><h3 class="ipsWidget_title">Recently Browsing</h3><div class="ipsWidget_inner"><ul class="ipsList_inline ipsList_csv ipsList_noSpacing"><li><a href="/profile/9-guest/">guest9</a></li><li><a href="/profile/10-ann/">ann</a></li></ul></div></div></main></body></html>"""


IPS = [
    (
        "Birder",
        "Members",
        "2021-04-01T07:00:00Z",
        "April 1, 2021",
        "I want to start photographing birds in the garden. Which lens should I buy first on a small budget?",
    ),
    (
        "LensGeek",
        "Moderators",
        "2021-04-01T09:12:00Z",
        "April 1, 2021",
        "A 100-400 zoom used is the classic choice; primes are sharper but far less flexible at the feeder.",
    ),
    (
        "Kestrel",
        "Members",
        "2021-04-02T18:40:00Z",
        "April 2, 2021",
        "Get a cheap hide first. Being close beats focal length every time, and birds get used to it.",
    ),
    (
        "Birder",
        "Members",
        "2021-04-03T08:05:00Z",
        "April 3, 2021",
        "Thanks both, I found a used zoom and will build a simple hide this weekend.",
    ),
]


def smf(posts):
    divs = "".join(
        f"""<div class="windowbg" id="msg{900 + i}"><div class="post_wrapper"><div class="poster"><h4><a href="https://smf.example.test/index.php?action=profile;u={40 + i}" title="View the profile of {u}">{u}</a></h4>
<ul class="user_info"><li class="membergroup">{group}</li><li class="postgroup">Newbie</li><li class="postcount">Posts: {12 * i + 3}</li><li class="profile"><ol class="profile_icons"><li><a href="#" title="Personal Message"><span class="main_icons im_off"></span></a></li></ol></li></ul></div>
<div class="postarea"><div class="keyinfo"><div id="subject_{900 + i}" class="subject_title"><a href="https://smf.example.test/index.php?msg={900 + i}">Re: Rust on the bike chain</a></div><div class="postinfo"><span class="messageicon"><img src="/xx.png" alt=""></span><a href="https://smf.example.test/index.php?msg={900 + i}" title="Reply #{i} - {t}" class="smalltext">{t}</a> <span class="page_number floatright">#{i}</span></div></div>
<div class="post"><div class="inner" data-msgid="{900 + i}" id="msg_{900 + i}">{text}</div></div></div>
<div class="moderatorbar"><div class="signature" id="msg_{900 + i}_signature">{sig}</div></div></div></div><hr class="post_separator">"""
        for i, (u, group, t, text, sig) in enumerate(posts)
    )
    return f"""<html><head><title>Rust on the bike chain</title></head><body><div id="top_section"><a href="/">Cycling Forum</a></div><div class="navigate_section"><ul><li><a href="/index.php">Cycling Forum</a></li><li><a href="/index.php?board=3.0">Maintenance</a></li></ul></div>
<div id="forumposts"><div class="cat_bar"><h3 class="catbg">Topic: Rust on the bike chain (Read 412 times)</h3></div><form action="#" method="post" id="quickModForm">{divs}</form></div>
<div id="display_jump_to"></div><div class="roundframe"><h3>Users browsing this topic</h3><p>0 Members and 2 Guests are viewing this topic.</p></div></body></html>"""


SMF = [
    (
        "spoke",
        "Newbie",
        "March 03, 2022, 09:15:04 AM",
        "My chain went rusty over the winter. Is it worth cleaning or should I just replace it?",
        "Ride more, worry less",
    ),
    (
        "derailleur_dan",
        "Global Moderator",
        "March 03, 2022, 10:02:51 AM",
        "Surface rust comes off with degreaser and a brush. Check the stretch with a gauge before you decide.",
        "Fix it before it breaks",
    ),
    (
        "tandem_tina",
        "Newbie",
        "March 04, 2022, 07:44:10 PM",
        "Chains are cheap. If it is stiff after cleaning, replace it and save your cassette from wear.",
        "Two wheels good",
    ),
]


def disqus(items):
    lis = "".join(
        f"""<li class="post" id="post-{700 + i}"><div role="alert"></div><div class="post-content"><div class="indicator"></div><div class="avatar hovercard"><a href="https://disqus.example.test/by/{u}/" class="user" data-action="profile" data-username="{u}"><img data-role="user-avatar" src="/av.jpg" alt="Avatar" class="user"></a></div>
<div class="post-body"><header class="comment__header"><span class="post-byline"><span class="author publisher-anchor-color"><a href="https://disqus.example.test/by/{u}/" data-action="profile" data-username="{u}">{name}</a></span></span>
<span class="post-meta"><span class="bullet time-ago-bullet" aria-hidden="true">•</span><a href="#comment-{700 + i}" data-role="relative-time" class="time-ago" title="{t}">{ago}</a></span></header>
<div class="post-body-inner"><div class="post-message-container" data-role="message-container"><div class="publisher-anchor-color" data-role="message-content"><div class="post-message" data-role="message" dir="auto"><p>{text}</p></div></div></div></div>
<footer class="comment__footer"><menu class="comment-footer__menu"><li class="voting" data-role="voting"><a href="#" class="vote-up count-{i}" data-action="upvote" title="Vote up"><span class="updatable count" data-role="likes">{i}</span></a></li><li class="reply" data-role="reply-link"><a href="#" data-action="reply"><span class="text">Reply</span></a></li></menu></footer></div></div></li>"""
        for i, (u, name, t, ago, text) in enumerate(items)
    )
    return f"""<html><head><title>Ten tips for better sleep | Health Blog</title></head><body><header><a href="/">Health Blog</a></header><article class="post"><h1>Ten tips for better sleep</h1><p class="byline">By Dr. Sam Rivera · June 2, 2023</p><div class="entry">{"<p>" + "Keep a regular schedule, dim the lights in the evening and keep screens out of the bedroom. " * 5 + "</p>"}</div></article>
<div id="disqus_thread"><div id="layout"><section id="conversation"><div class="nav-tab">6 Comments</div><div id="posts"><ul id="post-list" class="post-list">{lis}</ul></div></section></div></div>
<aside class="sidebar"><h3>Popular posts</h3><ul><li><a href="/p/1">Why we dream</a> <span>May 1, 2023</span></li><li><a href="/p/2">Coffee and sleep</a> <span>April 20, 2023</span></li><li><a href="/p/3">Napping at work</a> <span>April 2, 2023</span></li></ul></aside></body></html>"""


DISQUS = [
    (
        "nightowl77",
        "Night Owl",
        "Friday, June 2, 2023 9:41 PM",
        "5 months ago",
        "The screens tip is the hardest one for me. Reading a paper book helped a lot though.",
    ),
    (
        "mkwong",
        "Mei Kwong",
        "Saturday, June 3, 2023 7:02 AM",
        "5 months ago",
        "Blackout curtains changed everything for me after moving to a street with lamps.",
    ),
    (
        "drsam",
        "Dr. Sam Rivera",
        "Saturday, June 3, 2023 9:15 AM",
        "5 months ago",
        "Thanks Mei, light is a big one. Even a little through the curtains can wake you early.",
    ),
]


def bili(items):
    divs = "".join(
        f"""<div class="reply-item"><div class="root-reply-container"><div class="root-reply-avatar" data-user-id="{100 + i}"><div class="avatar"><img class="bili-avatar-img" src="/face{i}.jpg"></div></div>
<div class="content-warp"><div class="user-info"><div class="user-name" data-user-id="{100 + i}" style="color:#fb7299">{u}</div><div class="user-level"><i class="svg-icon level-{4 + i % 2}"></i></div></div>
<div class="root-reply"><span class="reply-content-container root-reply"><span class="reply-content">{text}</span></span><div class="reply-info"><span class="reply-time">{t}</span><span class="reply-like"><i class="svg-icon like"></i><span>{(i + 1) * 38}</span></span><span class="reply-dislike"><i class="svg-icon dislike"></i></span><span class="reply-btn">回复</span></div></div></div></div>
<div class="sub-reply-container"></div><div class="bottom-line"></div></div>"""
        for i, (u, t, text) in enumerate(items)
    )
    return f"""<html><head><title>【手把手教学】家常红烧肉的正确做法_哔哩哔哩</title></head><body><div class="bili-header"><a href="/">首页</a> <a href="/v/food">美食</a> <a href="/live">直播</a></div>
<div class="video-container"><h1 class="video-title">【手把手教学】家常红烧肉的正确做法</h1><div class="video-info-detail"><span class="view item">播放 12.3万</span><span class="pubdate-text">2023-09-10 18:00:00</span></div><div class="basic-desc-info">今天教大家做一道下饭的家常红烧肉，肥而不腻，入口即化。</div></div>
<div class="comment-container"><div class="reply-header"><div class="reply-navigation"><span class="total-reply">{len(items)}</span> 评论 <span class="hot-sort">最热</span> <span class="time-sort">最新</span></div></div>
<div class="reply-list">{divs}</div></div>
<div class="right-container"><div class="recommend-list"><div class="video-page-card-small"><a href="/v/1"><p class="title">五分钟学会糖醋排骨</p></a><span class="name">美食小当家</span><span class="playinfo">8.1万播放</span></div><div class="video-page-card-small"><a href="/v/2"><p class="title">可乐鸡翅零失败做法</p></a><span class="name">厨房日记</span><span class="playinfo">6.5万播放</span></div></div></div></body></html>"""


BILI = [
    ("吃货小王", "2023-09-10 19:22", "跟着做了一遍，真的不腻！糖色那一步一定要小火。"),
    ("深夜放毒", "2023-09-11 00:41", "半夜看这个太罪恶了，明天就去买五花肉。"),
    ("厨艺小白", "2023-09-12 12:03", "请问没有冰糖的话用白糖可以吗？颜色会不会差一些？"),
]


def jianshu(items):
    divs = "".join(
        f"""<div id="comment-{300 + i}" class="_2gPNSa"><div class="_2mjDSq"><a href="/u/{uid}" target="_blank" rel="noopener noreferrer" class="_1OhGeD"><img class="_13D2Eh" src="/av.jpg" alt=""></a></div>
<div class="_2Nttfz"><div class="_23G05g"><a href="/u/{uid}" target="_blank" rel="noopener noreferrer" class="_1OhGeD">{u}</a></div><div class="_1xqkrI"><span>{i + 2}楼</span> <time datetime="{t}">{t[:16].replace("T", " ")}</time></div>
<div class="_2bDGm4">{text}</div><div class="_2ti5br"><span class="_3MyyYc"><i aria-label="ic-like"></i><span>赞</span></span><span class="_3MyyYc"><i aria-label="ic-reply"></i><span>回复</span></span></div></div></div>"""
        for i, (u, uid, t, text) in enumerate(items)
    )
    return f"""<html><head><title>读书笔记：如何高效学习 - 简书</title></head><body><header class="_1gPQ3N"><a href="/">简书</a> <a href="/techareas">IT技术</a></header>
<div class="_gp-ck"><section class="ouvJEz"><h1 class="_1RuRku">读书笔记：如何高效学习</h1><div class="rEsl9f"><div class="_3U4Smb"><span class="FxYr8x"><a class="_1OhGeD" href="/u/author1">书虫阿明</a></span><div class="s-dsoj"><time datetime="2022-08-01T09:30:00.000Z">2022.08.01 17:30:00</time><span>字数 1,024</span><span>阅读 3,201</span></div></div></div>
<article class="_2rhmJa"><p>{"整体性学习的核心是把新知识和已有知识联系起来，而不是孤立地记忆。" * 5}</p></article></section>
<section class="ouvJEz" id="note-page-comment"><h3 class="QxT4hD"><span>全部评论</span><span class="_2R7vBo">{len(items)}</span></h3><div>{divs}</div></section></div>
<aside class="_2OwGUo"><section><h3>推荐阅读</h3><div class="cuOxAY"><a href="/p/1">番茄工作法实践一年的感受</a><div class="_19haGh">阅读 2,314</div></div><div class="cuOxAY"><a href="/p/2">费曼学习法到底怎么用</a><div class="_19haGh">阅读 5,120</div></div></section></aside></body></html>"""


JIANSHU = [
    ("小鱼干", "x1a2", "2022-08-01T12:01:00.000Z", "写得很清楚，联系已有知识这一点我深有体会。"),
    (
        "Leo_学习中",
        "b3c4",
        "2022-08-02T01:15:00.000Z",
        "请问作者有推荐的配套练习方法吗？想试试看。",
    ),
    ("晴天", "d5e6", "2022-08-03T10:40:00.000Z", "收藏了，准备按照这个方法复习期末考试。"),
]
