"""Written pages, batch 12 (written after batches 1-11 were fixed, scored before its own
fixes): Chinese forums and Q&A of other software: a Discuz! 7.2-like thread (a table a post,
"发表于" in the post's info line, the poster in a <cite>), a phpwind-like thread (the name in
a "readName" box, "发表于:" and a floor label), a newsmth-like board (the post's text opens
with "发信人:" and a ctime-like "发信站" date: "Tue May 12 10:20:31 2020"), an Autohome-club-
like thread (a car badge beside the name, the time after a bold "发表于"), a SegmentFault-like
Q&A page (question, answers with "· 2022-05-12", comments under an answer), and a Juejin-like
comment list (the commenter's job title beside the name, the time shown as "1年前" with the
date in its title)."""


def discuz72(items, online):
    posts = "".join(
        f"""<div id="post_{700 + i}" class="mainbox viewthread"><table id="pid{700 + i}" summary="pid{700 + i}" cellspacing="0" cellpadding="0"><tr>
<td class="postauthor" rowspan="2"><cite><a href="space.php?uid={30 + i}" target="_blank" id="userinfo{700 + i}" class="dropmenu">{u}</a></cite>
<div class="avatar"><a href="space.php?uid={30 + i}"><img src="avatar.php?uid={30 + i}" /></a></div><p><em>{rank}</em></p>
<dl class="profile s_clear"><dt>UID</dt><dd>{30 + i}&nbsp;</dd><dt>帖子</dt><dd>{(i + 2) * 113}&nbsp;</dd><dt>积分</dt><dd>{(i + 1) * 450}&nbsp;</dd><dt>注册时间</dt><dd>{reg}&nbsp;</dd></dl></td>
<td class="postcontent"><div id="threadstamp"></div><div class="postinfo"><strong><a title="复制本帖链接" id="postnum{700 + i}">{i + 1}<sup>#</sup></a></strong>
<em id="authorposton{700 + i}">发表于 {t}</em> <span>|</span> <a href="viewthread.php?tid=88&amp;authorid={30 + i}">只看该作者</a></div>
<div class="defaultpost"><div class="postmessage firstpost"><div class="t_msgfontfix"><table cellspacing="0" cellpadding="0"><tr><td class="t_msgfont" id="postmessage_{700 + i}">{text}</td></tr></table></div></div></div></td></tr>
<tr><td class="postcontent postbottom"><div class="signatures">{sig}</div></td></tr>
<tr><td class="postauthor"></td><td class="postcontent"><div class="postactions"><p class="postactions"><a href="post.php?action=reply&amp;repquote={700 + i}">引用</a> <a href="misc.php?action=report">报告</a> <a href="#top">TOP</a></p></div></td></tr></table></div>"""
        for i, (u, rank, reg, t, text, sig) in enumerate(items)
    )
    members = "".join(f"""<li><a href="space.php?username={m}">{m}</a></li>""" for m in online)
    return f"""<html><head><title>求助：老房子水管漏水怎么修？ - 家居装修 - 某某论坛 - Powered by Discuz!</title><meta name="generator" content="Discuz! 7.2" /></head><body>
<div id="header"><h2><a href="index.php">某某论坛</a></h2><div id="umenu"><a href="register.php">注册</a> | <a href="logging.php?action=login">登录</a></div></div>
<div id="nav"><a href="index.php">某某论坛</a> &raquo; <a href="forumdisplay.php?fid=12">家居装修</a> &raquo; 求助：老房子水管漏水怎么修？</div>
<div id="wrap" class="wrap s_clear threadfix"><h1>求助：老房子水管漏水怎么修？</h1>{posts}
<div class="box"><h4>当前在线会员</h4><ul class="userlist">{members}</ul></div></div>
<div id="footer">Powered by Discuz! 7.2 &copy; 2001-2009 Comsenz Inc.</div></body></html>"""


DISCUZ72 = [
    (
        "老张修房",
        "中级会员",
        "2009-6-2",
        "2010-5-12 10:20",
        "家里是九十年代的老房子，厨房墙里的水管一直渗水，墙皮都泡起来了，请问是换整根管子还是找漏点补一下就行？",
        "装修十年，踩坑无数",
    ),
    (
        "水电工小李",
        "高级会员",
        "2008-3-15",
        "2010-5-12 11:05",
        "老房子的镀锌管基本都锈透了，补了这里那里又漏，建议直接换PPR管，顺便把走线改到明处方便以后检修。",
        "专业水电改造，电话见主页",
    ),
    (
        "老张修房",
        "中级会员",
        "2009-6-2",
        "2010-5-13 09:42",
        "谢谢，周末请人来看了，果然整根都锈了，已经全部换成PPR管，墙也重新刷了。",
        "装修十年，踩坑无数",
    ),
]
DISCUZ72_ONLINE = ["路人甲", "装修达人", "小王师傅", "阿花"]


def phpwind(items, hot):
    floors = ["楼主", "沙发", "板凳"]
    posts = "".join(
        f"""<div class="t5 t2" style="border-top:0"><a name="{"tpc" if i == 0 else 900 + i}"></a><table cellspacing="0" cellpadding="0" width="100%" class="floot" style="table-layout:fixed"><tr class="vt">
<td rowspan="2" class="floot_left"><div class="readName b"><a href="u.php?uid={60 + i}">{u}</a></div><div class="floot_leftdiv"><a href="u.php?uid={60 + i}" class="userCard face_img"><img src="images/face/{i}.jpg" width="120" height="120" /></a>
<div class="readUser"><p>级别: {rank}</p><p>精华: <a href="search.php?authorid={60 + i}&amp;digest=1">0</a></p><p>发帖: {(i + 3) * 57}</p><p>注册时间: {reg}</p></div></div></td>
<td class="floot_right" id="td_{"tpc" if i == 0 else 900 + i}"><div class="tipTop s6"><span class="fr"><a class="s3 b" href="read.php?tid=51&amp;uid={60 + i}">只看该作者</a><a class="s2 b cp" title="复制此楼地址">{floors[i]}</a></span><span title="{t}">发表于: {t}</span></div>
<div class="tpc_content"><div class="f14 mb10" id="read_{"tpc" if i == 0 else 900 + i}">{text}</div></div></td></tr>
<tr><td class="floot_bottom"><div class="tipBottom cc"><div class="fr readbot"><a class="r-quote" href="post.php?action=quote&amp;pid={900 + i}">引用</a><a class="r-reply" href="post.php?action=reply">回复</a></div></div></td></tr></table></div>"""
        for i, (u, rank, reg, t, text) in enumerate(items)
    )
    hot_list = "".join(
        f"""<li><a href="read.php?tid={200 + j}">{title}</a><span class="gray">{when}</span></li>"""
        for j, (title, when) in enumerate(hot)
    )
    return f"""<html><head><title>自驾川西八天，路线和花费分享|旅游天地 - 某某社区 - Powered by phpwind</title><meta name="generator" content="phpwind 8.7" /></head><body>
<div id="head"><div class="logo"><a href="index.php">某某社区</a></div><ul class="nav"><li><a href="index.php">首页</a></li><li><a href="thread.php?fid=8">旅游天地</a></li></ul></div>
<div id="main"><div class="t3"><h1 id="subject_tpc">自驾川西八天，路线和花费分享</h1></div><div class="read_t">{posts}</div>
<div class="sidebar"><h2>本版热帖</h2><ul>{hot_list}</ul></div></div><div id="footer">Powered by phpwind v8.7</div></body></html>"""


PHPWIND = [
    (
        "背包客阿飞",
        "侠客",
        "2011-04-20",
        "2012-08-05 21:14",
        "从成都出发走318国道，八天七晚，油费过路费住宿加起来一个人两千出头，路上风景最好的是新都桥到理塘那一段。",
    ),
    (
        "川西老司机",
        "骑士",
        "2010-09-11",
        "2012-08-05 22:40",
        "雨季走318要注意塌方，出发前一定查一下路况，另外理塘海拔高，第一晚别洗澡。",
    ),
    (
        "云朵",
        "新手上路",
        "2012-07-30",
        "2012-08-06 08:03",
        "收藏了，打算国庆去，请问自己开轿车可以吗还是必须越野车？",
    ),
]
PHPWIND_HOT = [
    ("五一去哪里人少", "2012-08-04 10:11"),
    ("青海湖环湖骑行攻略", "2012-08-03 18:20"),
    ("带老人去三亚要注意什么", "2012-08-02 09:45"),
]


def newsmth(items):
    posts = "".join(
        f"""<table class="article"><tr class="a-head"><td class="a-left"><span class="a-u-name"><a href="/nForum/user/query/{u}">{u}</a></span></td>
<td class="a-right"><span class="a-pos">{pos}</span><samp class="ico-pos-reply"></samp><a href="/nForum/article/Career/reply/{1800 + i}" class="a-post">回复</a>
<samp class="ico-pos-edit"></samp><a href="/nForum/article/Career/ajax_forward/{1800 + i}.json" class="a-func-forward">转寄</a></td></tr>
<tr class="a-body"><td class="a-left a-info"><div class="a-u-img"><img src="/nForum/img/face_default_m.jpg" /></div><div class="a-u-uid">{u}</div><dl class="a-u-info"><dt>身 份</dt><dd>用户</dd><dt>文 章</dt><dd>{(i + 5) * 31}</dd><dt>积 分</dt><dd>{(i + 2) * 410}</dd></dl></td>
<td class="a-content"><div class="a-content-wrap">发信人: {u} ({nick}), 信区: Career<br />标&nbsp;&nbsp;题: {title}<br />发信站: 水木社区 ({t}), 站内<br />&nbsp;&nbsp;<br />{text}<br />--<br />&nbsp;&nbsp;<br /><font class="f000"></font><font class="f006">※ 来源:·水木社区 newsmth.net·[FROM: 123.45.*]</font><br /></div></td></tr>
<tr class="a-bottom"><td class="a-left"></td><td class="a-right"><a href="#top">返回顶部</a></td></tr></table>"""
        for i, (u, nick, pos, title, t, text) in enumerate(items)
    )
    return f"""<html><head><title>工作五年该不该跳槽去外企 - 职业生涯 - 水木社区</title></head><body><div id="top_head"><a href="/nForum/">水木社区</a></div>
<div id="menu"><a href="/nForum/section/1">社区管理</a> <a href="/nForum/board/Career">职业生涯</a></div>
<div class="b-head corner"><span class="n-left">文章主题: 工作五年该不该跳槽去外企</span></div><div class="b-content corner">{posts}</div>
<div class="t-pre-bottom"><div class="page"><ul class="pagination"><li class="page-pre">共3条</li><li class="page-select"><a title="当前页">1</a></li></ul></div></div></body></html>"""


NEWSMTH = [
    (
        "coder2015",
        "码农一枚",
        "楼主",
        "工作五年该不该跳槽去外企",
        "Tue May 12 10:20:31 2020",
        "在国企做了五年开发，工资一般但是稳定，最近有外企的机会，涨薪百分之四十，但是听说外企也在裁员，纠结。",
    ),
    (
        "oldbird",
        "老鸟",
        "第1楼",
        "Re: 工作五年该不该跳槽去外企",
        "Tue May 12 11:02:47 2020",
        "五年正是跳槽的好时候，外企的工作方式和英语能力对以后的路都有帮助，裁员的风险哪里都有。",
    ),
    (
        "sunnyday",
        "晴天",
        "第2楼",
        "Re: 工作五年该不该跳槽去外企",
        "Wed May 13 09:15:08 2020",
        "看你家里情况，如果房贷压力大还是求稳，涨四十不算很多，算上福利可能差不多。",
    ),
]


def autohome(items):
    posts = "".join(
        f"""<div class="post-wrap" id="F{i}" data-floor="{i}"><div class="post-user"><div class="user-avatar"><a href="//i.autohome.example.test/{5500 + i}" target="_blank"><img src="//i.autohome.example.test/face/{i}.jpg" /></a></div>
<div class="user-name"><a class="name" href="//i.autohome.example.test/{5500 + i}" target="_blank" title="{u}">{u}</a></div><div class="user-car"><i class="icon-car"></i><a href="//club.autohome.example.test/bbs/forum-c-{cid}-1.html">{car}</a>车主</div>
<ul class="user-info"><li>精华：<span>0</span></li><li>帖子：<span>{(i + 1) * 88}</span></li><li>注册：<span>{reg}</span></li><li>来自：<span>{city}</span></li></ul></div>
<div class="post-container"><div class="post-handle"><span class="post-handle-publish"><strong>发表于</strong> {t}</span><span class="post-handle-floor">{"楼主" if i == 0 else str(i) + "楼"}</span></div>
<div class="post-content"><div class="tz-paragraph">{text}</div></div><div class="post-footer"><a class="post-reply" href="javascript:;">回复</a><a class="post-good" href="javascript:;">有用({i * 7 + 1})</a></div></div></div>"""
        for i, (u, car, cid, reg, city, t, text) in enumerate(items)
    )
    return f"""<html><head><title>开了三年的油耗和保养总结_某车型论坛_汽车之家论坛</title></head><body><div class="topbar"><a href="//www.autohome.example.test/">汽车之家</a> <a href="//club.autohome.example.test/">论坛</a></div>
<div class="content"><div class="consnav"><a href="//club.autohome.example.test/bbs/forum-c-526-1.html">某车型论坛</a> &gt; 正文</div><div class="maxtitle">开了三年的油耗和保养总结</div><div id="maxwrap-reply">{posts}</div></div>
<div class="side"><div class="side-box"><h3>本车型热门车友</h3><ul><li><a href="//i.autohome.example.test/1">车友甲</a> 发帖 1234</li><li><a href="//i.autohome.example.test/2">车友乙</a> 发帖 998</li><li><a href="//i.autohome.example.test/3">车友丙</a> 发帖 776</li></ul></div></div></body></html>"""


AUTOHOME = [
    (
        "开车的阿明",
        "某车型",
        "526",
        "2019-03-08",
        "江苏 南京",
        "2023-05-12 10:20:31",
        "三年开了六万公里，市区油耗七个半，高速六个左右，保养每次五六百，除了换过一次电瓶没出过毛病。",
    ),
    (
        "周末自驾",
        "某车型",
        "526",
        "2020-11-21",
        "浙江 杭州",
        "2023-05-12 12:05:17",
        "我的油耗比你高一点，市区要八个多，可能是我开得猛，保养价格差不多。",
    ),
    (
        "修车铺老王",
        "另一车型",
        "633",
        "2018-06-02",
        "江苏 苏州",
        "2023-05-13 08:44:50",
        "六万公里该换刹车片和变速箱油了，别拖，换了开起来顺很多。",
    ),
]


def segmentfault(question, answers):
    qa, qt, qtext = question
    answer_blocks = "".join(
        f"""<div class="list-group-item border-start-0 border-end-0 answer-item" id="{1010000040000000 + i}"><div class="d-flex"><div class="vote-box me-3"><button class="btn btn-sm">赞</button><span class="vote-count">{votes}</span></div>
<div class="flex-fill overflow-hidden"><div class="d-flex align-items-center mb-2 font-size-14"><a class="d-flex align-items-center" href="/u/{a}"><img class="rounded-circle me-2" src="/avatar/{i}.png" width="24" height="24" /><strong>{a}</strong></a><span class="text-secondary ms-2">{rep} 声望</span><span class="text-secondary ms-2">· {t}</span>{'<span class="badge bg-success ms-2">已采纳</span>' if i == 0 else ""}</div>
<article class="article fmt article-content"><p>{text}</p></article>
<div class="comment-list mt-3">{"".join(f'<div class="comment-item d-flex py-2 border-top"><div class="flex-fill"><span class="comment-content">{ct}</span><span class="text-secondary"> — <a href="/u/{ca}">{ca}</a> · {ctime}</span></div></div>' for ca, ctime, ct in comments)}</div>
<div class="d-flex mt-2"><button class="btn btn-link btn-sm">评论</button><button class="btn btn-link btn-sm">赞赏</button></div></div></div></div>"""
        for i, (a, rep, t, votes, text, comments) in enumerate(answers)
    )
    return f"""<html><head><title>vue3 中 watch 监听不到对象属性的变化？ - SegmentFault 思否</title></head><body><header class="navbar"><a href="/">SegmentFault 思否</a><a href="/questions">问答</a><a href="/blogs">专栏</a></header>
<main class="container"><div class="row"><div class="col-md-9"><div class="card"><div class="card-body"><h1 class="h3">vue3 中 watch 监听不到对象属性的变化？</h1>
<div class="d-flex align-items-center mb-3"><a href="/u/{qa}"><strong>{qa}</strong></a><span class="text-secondary ms-2">· {qt}</span></div><article class="article fmt article-content"><p>{qtext}</p></article></div></div>
<div class="card mt-4"><div class="card-header">{len(answers)} 个回答</div><div class="list-group list-group-flush">{answer_blocks}</div></div></div>
<div class="col-md-3"><div class="card"><div class="card-header">相似问题</div><ul class="list-unstyled"><li><a href="/q/1010000011111111">vue watch deep 有什么用</a></li><li><a href="/q/1010000022222222">reactive 和 ref 的区别</a></li></ul></div></div></div></main></body></html>"""


SF_QUESTION = (
    "前端小白",
    "2022-05-12",
    "我用 reactive 定义了一个对象，然后 watch 它的某个属性，属性改了但是回调没有触发，代码如下，请问是哪里写错了？",
)
SF_ANSWERS = [
    (
        "vue老司机",
        "2.1k",
        "2022-05-12",
        5,
        "watch 一个 reactive 对象的属性要写成 getter 函数，() => state.count，直接传 state.count 传进去的只是一个数字，没有响应性。",
        [
            ("前端小白", "2022-05-12", "改成函数就好了，谢谢！"),
            ("路过的", "2022-05-13", "官方文档里watch那一节有专门讲这个坑。"),
        ],
    ),
    (
        "码农张",
        "356",
        "2022-05-13",
        1,
        "或者 watch 整个对象再加 deep: true，不过性能差一点，属性少的时候无所谓。",
        [],
    ),
]


def juejin(items):
    comments = "".join(
        f"""<div class="comment-list-item" data-id="{730000 + i}"><div class="comment"><a href="/user/{40000 + i}" target="_blank" class="user-link"><img class="lazy avatar" src="/avatar/{i}.png" /></a>
<div class="content-box"><div class="meta-box"><div class="user-box"><a href="/user/{40000 + i}" target="_blank" class="username"><span class="name" style="max-width:128px">{u}</span></a><span class="position">{job}</span></div>
<time datetime="{t}" title="{t}" class="time">{age}</time></div><div class="content">{text}</div>
<div class="action-box"><div class="like-action action"><i class="icon"></i><span class="action-title">{i * 5 + 1}</span></div><div class="comment-action action"><i class="icon"></i><span class="action-title">回复</span></div></div></div></div></div>"""
        for i, (u, job, t, age, text) in enumerate(items)
    )
    return f"""<html><head><title>一文读懂浏览器事件循环 - 掘金</title></head><body><header class="main-header"><a href="/">稀土掘金</a><nav><a href="/">首页</a><a href="/course">课程</a></nav></header>
<main class="main-container"><article class="article"><h1 class="article-title">一文读懂浏览器事件循环</h1><div class="author-info-block"><a href="/user/1">前端搬砖人</a><time datetime="2023-05-10T09:00:00.000Z">2023-05-10 17:00</time></div>
<div class="article-content"><p>{"事件循环是浏览器执行脚本的基础机制，理解宏任务和微任务的先后顺序，才能写出可预期的异步代码。" * 6}</p></div></article>
<div class="comment-box"><div class="title">评论 {len(items)}</div><div class="comment-list">{comments}</div></div></main>
<aside class="sidebar"><div class="author-block"><a href="/user/1">前端搬砖人</a><div class="position">前端开发 @ 某公司</div></div><div class="related-entry"><a href="/post/1">深入理解 Promise</a><a href="/post/2">async/await 原理</a></div></aside></body></html>"""


JUEJIN = [
    (
        "摸鱼的小陈",
        "前端工程师",
        "2023-05-11 10:20",
        "1年前",
        "讲得很清楚，之前一直没搞懂为什么 Promise.then 比 setTimeout 先执行。",
    ),
    (
        "bytedancer",
        "全栈开发 @ 某厂",
        "2023-05-12 21:03",
        "1年前",
        "补充一点，Node 里的事件循环阶段和浏览器不一样，process.nextTick 还要更早。",
    ),
    (
        "前端学徒",
        "学生",
        "2023-06-01 08:30",
        "11月前",
        "收藏了，配合那张图看一遍就懂了。",
    ),
]
