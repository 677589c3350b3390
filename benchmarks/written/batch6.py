"""Written pages, batch 6 (written after batches 1-5 were fixed, scored before its own fixes):
an Eastmoney-Guba-like stock forum (pinyin class names: "zwnick", "zwlitime"), a
Toutiao-like comment list, a NetEase-Music-like comment list ("name：text" with the time
below), a CSDN-like blog comment list (dates as "2023.01.05") and a cnblogs-like comment list
(floor number, time, then the author's link; "支持(0) 反对(0)" tallies)."""


def guba(items):
    divs = "".join(
        f"""<div class="zwli clearfix" id="zwli{900 + i}" data-huifuid="{900 + i}"><div class="zwlitx"><div class="zwlitxb"><a href="//i.eastmoney.example.test/{uid}" target="_blank"><img src="/avatar.png"></a></div>
<div class="zwlitxt"><div class="zwlianame"><span class="zwnick"><a href="//i.eastmoney.example.test/{uid}" data-popper="{uid}" target="_blank">{u}</a></span><span class="zwlianame-level">Lv{2 + i}</span></div>
<div class="zwlitime">发表于 {t}</div><div class="zwlitext stockcodec"><div class="short_text">{text}</div></div>
<div class="zwlitalkbox clearfix"><div class="zwlitalkboxr"><a href="javascript:;" class="replyBtn">回复</a><a href="javascript:;" class="likeBtn">点赞</a></div></div></div></div></div>"""
        for i, (u, uid, t, text) in enumerate(items)
    )
    return f"""<html><head><title>这波调整还要多久？_贵州茅台(600519)股吧</title></head><body><div class="header"><a href="/">股吧首页</a> <a href="/list,600519.html">贵州茅台吧</a></div>
<div id="mainbody"><div id="zwcontent"><div class="zwtitle"><h1>这波调整还要多久？</h1></div><div class="zwfbtime">发表于 2024-01-02 09:31:05 东方财富Android版</div><div class="zwconbody"><div class="stockcodec">白酒板块连续调整，大家觉得底部在哪里？</div></div></div>
<div id="zwlist">{divs}</div></div><div class="sider"><div class="hot_post"><h3>热门帖子</h3><ul><li><a href="/news,1.html">茅台一季度业绩前瞻</a><span>阅读 1.2万</span></li><li><a href="/news,2.html">白酒估值处于历史低位</a><span>阅读 9870</span></li></ul></div></div></body></html>"""


GUBA = [
    ("价值投资小学生", "100201", "2024-01-02 09:45:11", "底部不好猜，分批买入比较稳妥，别一把梭。"),
    ("老股民张三", "100202", "2024-01-02 10:02:37", "消费复苏慢，估计还要磨一段时间，耐心点。"),
    ("韭菜的自我修养", "100203", "2024-01-02 10:30:54", "每次都说是底部，结果还有底下的底部。"),
]


def toutiao(items):
    lis = "".join(
        f"""<li class="comment-item"><div class="comment-avatar"><a href="/c/user/{uid}/" class="avatar-link"><img src="/a.jpg"></a></div><div class="comment-content-wrap"><div class="comment-info"><a href="/c/user/{uid}/" class="user-name">{u}</a><span class="time">{t}</span></div>
<p class="content">{text}</p><div class="comment-action"><span class="digg">{i * 5 + 1}</span><span class="reply">回复</span></div></div></li>"""
        for i, (u, uid, t, text) in enumerate(items)
    )
    return f"""<html><head><title>新能源车冬季续航实测 - 今日头条</title></head><body><div class="top-bar"><a href="/">首页</a> <a href="/ch/news_car/">汽车</a></div>
<div class="article-content"><h1>新能源车冬季续航实测：零下十度掉多少电？</h1><div class="article-meta"><span class="name">汽车测评君</span><span>2024-01-08 18:20</span></div><article>{"<p>" + "我们选取了五款热门车型，在零下十度的环境下进行了续航实测。" * 6 + "</p>"}</article></div>
<div class="comment-wrapper"><h3>评论 {len(items)}</h3><ul class="comment-list">{lis}</ul></div></body></html>"""


TOUTIAO = [
    ("北方车主", "501", "3小时前", "东北开电车冬天确实难受，暖风一开续航直接打七折。"),
    ("理性看待", "502", "5小时前", "测试很有参考价值，希望下次加上热泵空调的对比。"),
    ("电车小白", "503", "1天前", "准备买车，看完有点犹豫了，还是考虑混动吧。"),
]


def music163(items):
    divs = "".join(
        f"""<div class="itm" data-id="{700 + i}"><div class="head"><a href="/user/home?id={uid}"><img src="/h.jpg"></a></div><div class="cntwrap"><div class=""><div class="cnt f-brk"><a href="/user/home?id={uid}" class="s-fc7">{u}</a>：{text}</div></div>
<div class="rp"><div class="time s-fc4">{t}</div><a data-type="like" href="javascript:void(0)"><i class="zan u-icn2 u-icn2-12"></i> ({i * 20 + 3})</a><span class="sep">|</span><a href="javascript:void(0)" class="s-fc3">回复</a></div></div></div>"""
        for i, (u, uid, t, text) in enumerate(items)
    )
    return f"""<html><head><title>晴天 - 单曲 - 网易云音乐</title></head><body><div class="g-topbar"><a href="/">发现音乐</a> <a href="/my/">我的音乐</a></div>
<div class="g-bd4"><div class="cnt"><div class="hd"><em class="f-ff2">晴天</em></div><p class="des s-fc4">歌手：<a href="/artist?id=1">周杰伦</a></p></div>
<div class="n-cmt"><div class="u-title"><h3>评论</h3><span class="sub s-fc3">共{len(items)}条评论</span></div><div class="cmmts j-flag">{divs}</div></div></div></body></html>"""


MUSIC = [
    ("听歌的小鱼", "9001", "2023年5月1日", "每次听到前奏都会想起高中的那个夏天。"),
    ("雨下整夜", "9002", "2023年6月12日", "刮风这天我试过握着你手，但偏偏雨渐渐大到我看你不见。"),
    ("路人丙", "9003", "2023年8月30日", "二十年了，这首歌还是单曲循环的第一名。"),
]


def csdn(items):
    lis = "".join(
        f"""<li class="comment-line-box"><div class="comment-list-item"><a class="comment-list-href" href="https://blog.example.test/{uid}"><img src="/av.jpg" class="avatar"></a><div class="right-box"><div class="new-info-box clearfix"><div class="comment-top"><div class="user-box">
<a class="name-href" href="https://blog.example.test/{uid}"><span class="name">{u}</span></a><span class="date" title="{t}">{shown}</span></div></div><div class="comment-center"><div class="new-comment">{text}</div></div></div></div></div></li>"""
        for i, (u, uid, t, shown, text) in enumerate(items)
    )
    return f"""<html><head><title>Python 多进程踩坑记录_小王的博客-CSDN博客</title></head><body><div class="toolbar"><a href="/">首页</a> <a href="/nav/python">Python</a></div>
<div class="blog-content-box"><h1 class="title-article">Python 多进程踩坑记录</h1><div class="article-info-box"><a class="follow-nickName" href="/wang">小王</a><span class="time">于 2023-01-03 20:15:00 发布</span></div>
<div id="content_views"><p>{"在 Linux 上用 fork 启动子进程时，父进程里的锁可能被复制到子进程，导致死锁。" * 5}</p></div></div>
<div class="comment-box"><h3>评论 {len(items)}</h3><ul class="comment-list">{lis}</ul></div>
<div class="recommend-box"><div class="recommend-item-box"><a href="/a/1"><h3>Python 多线程与 GIL 详解</h3></a><span class="info">2023.02.11</span><span class="read">阅读 3421</span></div><div class="recommend-item-box"><a href="/a/2"><h3>multiprocessing 常见问题汇总</h3></a><span class="info">2022.12.30</span><span class="read">阅读 2230</span></div></div></body></html>"""


CSDN = [
    (
        "码农阿强",
        "aqiang",
        "2023-01-05 09:12:44",
        "2023.01.05",
        "遇到过一模一样的问题，改成 spawn 就好了，感谢分享。",
    ),
    (
        "Debug达人",
        "debugger",
        "2023-01-06 22:03:10",
        "2023.01.06",
        "补充一点：日志模块的锁也会出这个问题，要在 fork 前处理好。",
    ),
    (
        "小白求带",
        "newbie",
        "2023-01-09 14:30:00",
        "2023.01.09",
        "请问 Windows 下是不是默认就是 spawn？",
    ),
]


def cnblogs(items):
    divs = "".join(
        f"""<div class="feedbackItem"><div class="feedbackListSubtitle"><div class="feedbackManage">&nbsp;&nbsp;<span class="comment_actions"></span></div>
<a href="#{5000 + i}" class="layer">#{i + 1}楼</a><a name="{5000 + i}" id="comment_anchor_{5000 + i}"></a> <span class="comment_date">{t}</span> <a id="a_comment_author_{5000 + i}" href="https://home.cnblogs.example.test/u/{uid}/" target="_blank">{u}</a></div>
<div class="feedbackCon"><div id="comment_body_{5000 + i}" data-format-type="Markdown" class="blog_comment_body cnb-markdown">{text}</div><div class="comment_vote"><span class="comment_error" style="color: red"></span><a href="javascript:void(0);" class="comment_digg">支持({i})</a><a href="javascript:void(0);" class="comment_burry">反对(0)</a></div></div></div>"""
        for i, (u, uid, t, text) in enumerate(items)
    )
    return f"""<html><head><title>深入理解 Go 的调度器 - 程序员老李 - 博客园</title></head><body><div id="header"><a href="/">博客园</a> <a href="/laoli/">程序员老李</a></div>
<div id="main"><div class="post"><h1 class="postTitle"><a href="/laoli/p/1.html">深入理解 Go 的调度器</a></h1><div class="postBody"><div id="cnblogs_post_body"><p>{"GMP 模型中，P 的数量决定了同时运行的 goroutine 上限，M 是真正的系统线程。" * 5}</p></div></div><div class="postDesc">posted @ <span id="post-date">2023-03-01 10:00</span> 程序员老李 阅读(1203) 评论({len(items)})</div></div>
<div id="blog-comments-placeholder"><div class="feedback_area_title">评论列表</div><div class="feedbackNoItems"></div>{divs}</div></div>
<div id="sideBar"><div id="sidebar_recentposts"><h3>最新随笔</h3><ul><li><a href="/laoli/p/2.html">1. Go 内存分配器笔记</a></li><li><a href="/laoli/p/3.html">2. channel 的底层实现</a></li></ul></div></div></body></html>"""


CNBLOGS = [
    ("gopher_wang", "gwang", "2023-03-01 12:31", "讲得很清楚，P 和 M 的关系终于弄明白了。"),
    (
        "学习使我快乐",
        "happylearn",
        "2023-03-02 08:15",
        "请问 work stealing 是每次都从全局队列偷吗？",
    ),
    (
        "程序员老李",
        "laoli",
        "2023-03-02 09:40",
        "@学习使我快乐 先从其他 P 的本地队列偷，全局队列是定期检查的。",
    ),
]
