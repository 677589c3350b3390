"""Written pages, batch 1: a V2EX-like topic (replies as table cells, an age with the date in a
title), a Douban-group-like topic (the name link and the time in one heading line), an NGA-like
thread (table rows, a poster column) and a Baidu-Zhidao-like question page (a badge's date beside
the answer's time, "uname" classes). Written for benchmarks/written_records.py from memory of
the software, not copied from any page."""

CHROME_TOP = """<div id="Top"><div class="content"><a href="/" class="logo">站点</a>
<input type="text" name="q" placeholder="搜索"><a href="/signup">注册</a> <a href="/signin">登录</a></div></div>"""
SIDEBAR = """<div id="Rightbar"><div class="box"><div class="cell"><span class="fade">今日热议主题</span></div>
<div class="cell"><table><tr><td width="24"><a href="/member/u1"><img src="/a1.png" class="avatar"></a></td><td><span class="item_hot_topic_title"><a href="/t/11">有哪些好用的笔记软件</a></span></td></tr></table></div>
<div class="cell"><table><tr><td width="24"><a href="/member/u2"><img src="/a2.png" class="avatar"></a></td><td><span class="item_hot_topic_title"><a href="/t/12">2024 年了，还有人用 RSS 吗</a></span></td></tr></table></div>
<div class="cell"><table><tr><td width="24"><a href="/member/u3"><img src="/a3.png" class="avatar"></a></td><td><span class="item_hot_topic_title"><a href="/t/13">租房合同到期房东不退押金怎么办</a></span></td></tr></table></div>
</div><div class="box"><div class="cell"><span class="fade">社区运行状况</span></div><div class="cell"><table><tr><td>注册会员</td><td><strong>712345</strong></td></tr><tr><td>主题</td><td><strong>1023456</strong></td></tr><tr><td>回复</td><td><strong>14523456</strong></td></tr></table></div></div></div>"""


def v2ex(replies):
    cells = "".join(
        f"""<div id="r_{100 + i}" class="cell"><table cellpadding="0" cellspacing="0" border="0" width="100%"><tr>
<td width="48" valign="top" align="center"><img src="/avatar/{u}.png" class="avatar" border="0" align="default" alt="{u}"></td>
<td width="10" valign="top"></td><td width="auto" valign="top" align="left"><div class="fr"><a href="#;" onclick="replyOne('{u}');"><img src="/reply.png" align="absmiddle" border="0" alt="Reply"></a> &nbsp;&nbsp; <span class="no">{i + 1}</span></div>
<div class="sep3"></div><strong><a href="/member/{u}" class="dark">{u}</a></strong>&nbsp; &nbsp;<span class="ago" title="{t}">{ago}</span>
<div class="sep5"></div><div class="reply_content">{text}</div></td></tr></table></div>"""
        for i, (u, t, ago, text) in enumerate(replies)
    )
    return f"""<html><head><title>如何在家自己做酸奶 - V站</title></head><body>{CHROME_TOP}<div id="Wrapper"><div class="content">{SIDEBAR}
<div id="Main"><div class="box"><div class="header"><h1>如何在家自己做酸奶</h1><small class="gray"><a href="/member/milkfan">milkfan</a> · 2 天前 · 1024 次点击</small></div>
<div class="cell"><div class="topic_content">买了一台酸奶机，但是做出来总是太稀，大家有什么经验吗？</div></div></div>
<div class="box"><div class="cell"><span class="gray">{len(replies)} 条回复 &nbsp;<strong class="snow">•</strong> &nbsp;2024-05-06 10:12:00 +08:00</span></div>
{cells}</div></div></div></div><div id="Bottom">关于 · 帮助文档 · 博客 · API · FAQ</div></body></html>"""


V2EX = [
    (
        "lazycat",
        "2024-05-04 09:12:33 +08:00",
        "2 天前",
        "牛奶要用全脂的，菌粉放够，发酵 8 小时以上就会变稠。",
    ),
    (
        "wangxm",
        "2024-05-04 09:40:01 +08:00",
        "2 天前",
        "我一般加一勺奶粉，效果立竿见影，比加糖管用多了。",
    ),
    (
        "k8s_fan",
        "2024-05-04 11:02:17 +08:00",
        "2 天前",
        "温度很关键，四十二度左右最好，冬天记得给机器保温。",
    ),
    (
        "moon",
        "2024-05-05 20:15:40 +08:00",
        "1 天前",
        "做好以后放冰箱冷藏一晚上再吃，口感会厚实很多。",
    ),
]


def douban(replies):
    items = "".join(
        f"""<li class="clearfix comment-item reply-item " id="{2000 + i}" data-cid="{2000 + i}">
<div class="user-face"><a href="https://www.douban.com/people/{uid}/"><img class="pil" src="/icon/u{uid}.jpg" alt="{u}"></a></div>
<div class="reply-doc content"><div class="bg-img-green"><h4><a href="https://www.douban.com/people/{uid}/" class="">{u}</a>
<span class="pubtime">{t}</span><span class="pubtime ip-location">北京</span></h4></div>
<div class="reply-content"><div class="markdown"><p>{text}</p></div></div>
<div class="operation_div" id="{uid}"><div class="operation-more"><a href="#" class="comment-vote lnk-fav">赞</a> <a href="#" class="lnk-reply">回应</a></div></div></div></li>"""
        for i, (u, uid, t, text) in enumerate(replies)
    )
    return f"""<html><head><title>周末去哪里爬山比较好</title></head><body><div id="db-global-nav"><a href="/">豆瓣</a> <a href="/group">小组</a> <a href="/accounts/login">登录/注册</a></div>
<div id="wrapper"><div id="content"><h1>周末去哪里爬山比较好</h1><div class="grid-16-8 clearfix"><div class="article">
<div class="topic-content clearfix"><div class="topic-doc"><h3><span class="from">来自: <a href="https://www.douban.com/people/starter/">爬山小白</a></span><span class="create-time color-green">2024-04-20 08:31:12</span></h3>
<div class="rich-content topic-richtext"><p>刚来北京，想周末找个适合新手的地方爬山，求推荐路线。</p></div></div></div>
<ul class="topic-reply" id="comments">{items}</ul></div>
<div class="aside"><div class="group-intros"><h2>小组简介</h2><p>北京户外活动爱好者交流，周末约爬山、徒步。</p></div>
<div class="mod"><h2>最近加入</h2><ul class="member-list"><li><a href="/people/a/">小明</a></li><li><a href="/people/b/">阿花</a></li><li><a href="/people/c/">老王</a></li><li><a href="/people/d/">米粒</a></li></ul></div>
<div class="mod"><h2>热门话题</h2><ul><li><a href="/topic/1">香山红叶什么时候去最好</a> <span>(120回应)</span></li><li><a href="/topic/2">凤凰岭北线难度如何</a> <span>(86回应)</span></li><li><a href="/topic/3">有没有一起去灵山的</a> <span>(45回应)</span></li></ul></div></div>
</div></div></div><div id="footer">© 2005－2024 douban.com, all rights reserved</div></body></html>"""


DOUBAN = [
    (
        "山间行者",
        "10001",
        "2024-04-20 09:02:45",
        "新手推荐香山，路线成熟，人多也安全，下山还能吃饭。",
    ),
    ("Echo", "10002", "2024-04-20 09:15:03", "凤凰岭南线也不错，风景好一些，但是有几段比较陡。"),
    ("背包客阿杰", "10003", "2024-04-20 12:40:19", "百望山最简单，一个小时就能上去，适合热身。"),
    ("小鹿", "10004", "2024-04-21 18:05:55", "可以跟着户外俱乐部走，第一次去不容易迷路。"),
    ("Echo", "10002", "2024-04-21 19:30:01", "补充一下，记得带够水，夏天山上补给很贵。"),
]


def nga(posts):
    rows = "".join(
        f"""<table class='forumbox postbox' cellspacing='1px'><tbody><tr id='post1strow{i}' class='postrow row{1 + i % 2}'>
<td class='c1' id='postauthor{i}container'><div class='posterinfo'><a href='nuke.php?func=ucp&amp;uid={uid}' id='postauthor{i}' class='author b'>{u}</a>
<div class='stat'>级别: <span class='silver'>学徒</span><br>威望: 0<br>发帖: {40 + i * 7}</div></div></td>
<td class='c2' id='postcontainer{i}'><div class='postInfo'><a name='l{i}' class='small_colored_text_btn stxt block_txt_c0 vertmod'>#{i}</a>
<span id='postdate{i}' title='reply time'>{t}</span></div>
<span id='postcontent{i}' class='postcontent ubbcode'>{text}</span></td></tr></tbody></table>"""
        for i, (u, uid, t, text) in enumerate(posts)
    )
    return f"""<html><head><title>[讨论] 新手该选哪个职业</title></head><body><div id='mainmenu'><a href='/'>NGA玩家社区</a> <a href='/thread.php?fid=7'>艾泽拉斯议事厅</a></div>
<div id='m_posts'><div id='m_posts_c'><h3 id='postsubject0'>[讨论] 新手该选哪个职业</h3>{rows}</div></div>
<div id='m_pbtnbtm'><a href='/read.php?tid=1&amp;page=2'>2</a> <a href='/read.php?tid=1&amp;page=3'>3</a> <a href='/post.php?action=reply'>回复</a></div>
<div id='footer'>NGA玩家社区 © 2002-2024</div></body></html>"""


NGA = [
    ("铁锤兄弟", "3300101", "2024-03-01 20:11", "刚入坑，想玩输出，但是又怕操作太难，有推荐的吗？"),
    (
        "月下独酌",
        "3300102",
        "2024-03-01 20:25",
        "猎人吧，操作简单，单刷也方便，适合新手先熟悉游戏。",
    ),
    ("巨魔不秃", "3300103", "2024-03-01 21:02", "想团本好找队就玩治疗，牧师和德鲁伊都很受欢迎。"),
    ("阿尔萨斯", "3300104", "2024-03-02 08:40", "看你喜欢什么风格，近战推荐战士，远程推荐法师。"),
]


def zhidao(answers):
    blocks = "".join(
        f"""<div id="answer-{300 + i}" class="bd answer"><div class="line info f-aid">
<div class="wgt-replyer-all"><a class="wgt-replyer-all-avatar" href="https://zhidao.example.test/usercenter?uid={u}"><img src="/av{i}.jpg"></a>
<div class="wgt-replyer-all-card"><a class="wgt-replyer-all-uname" href="https://zhidao.example.test/usercenter?uid={u}" target="_blank">{u}</a>
<span class="wgt-replyer-all-slogan">{rank}</span><span class="wgt-replyer-all-time">{t}</span></div></div></div>
<div class="line content"><div class="rich-content-container rich-text-">{text}</div></div>
<div class="wgt-eva"><span class="evaluate evaluate-32" data-evaluate="{10 + i}">{10 + i}</span><span class="evaluate evaluate-bad">0</span></div></div>"""
        for i, (u, rank, t, text) in enumerate(answers)
    )
    return f"""<html><head><title>电脑开机很慢是什么原因_知道</title></head><body><div id="userbar"><a href="/">首页</a> <a href="/ask">我要提问</a> <a href="/login">登录</a></div>
<div id="body"><div class="layout-wrap"><article class="grid qb-content"><div id="wgt-ask" class="wgt-ask"><h1><span class="ask-title">电脑开机很慢是什么原因</span></h1>
<div class="line mt-5 q-content"><span class="con-all">用了三年的笔记本，最近开机要两三分钟，怎么解决？</span></div>
<div class="line f-aid ask-info"><span class="grid-r ask-time">2023-11-02 14:20</span></div></div>
<div id="wgt-answers" class="wgt-answers"><div class="hd line other-title"><h2>{len(answers)}个回答</h2></div>{blocks}</div></article>
<aside class="grid-r qb-side"><div class="wgt-related"><h2>相关问题</h2><ul><li><a href="/q/1">电脑开机黑屏怎么办</a><span class="nums">3个回答</span></li><li><a href="/q/2">笔记本电池不充电</a><span class="nums">5个回答</span></li><li><a href="/q/3">固态硬盘怎么装系统</a><span class="nums">2个回答</span></li></ul></div></aside>
</div></div><div id="footer">©2024 知道 使用前必读 知道协议</div></body></html>"""


ZHIDAO = [
    (
        "电脑维修王师傅",
        "推荐于2023-11-03",
        "2023-11-02 15:01",
        "开机启动项太多是最常见的原因，打开任务管理器把不需要的启动项禁用即可。",
    ),
    (
        "ITzhixin",
        "采纳率:87%",
        "2023-11-02 16:44",
        "三年的机械硬盘确实会慢，换一块固态硬盘，开机能到十秒以内。",
    ),
    ("匿名用户", "", "2023-11-03 09:10", "可以先用杀毒软件全盘扫描一下，排除病毒的可能。"),
]
