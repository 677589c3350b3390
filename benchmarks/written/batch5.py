"""Written pages, batch 5 (written after batches 1-4 were fixed, scored before its own fixes):
a Weibo-like comment list ("name：text" lines), a Xiaohongshu-like comment list (month-day
dates), a Hupu-like reply list ("亮了(3)" tallies), and two article pages with dated lists of
related articles and no records at all."""


def weibo(items):
    lis = "".join(
        f"""<div class="list_li S_line1 clearfix" comment_id="{4500 + i}"><div class="WB_face W_fl"><a target="_blank" href="//weibo.example.test/u/{uid}"><img width="30" height="30" alt="{u}" src="/face.jpg" usercard="id={uid}"></a></div>
<div class="list_con" node-type="replywrap"><div class="WB_text"><a target="_blank" href="//weibo.example.test/u/{uid}" usercard="id={uid}">{u}</a>：{text}</div>
<div class="WB_func clearfix"><div class="WB_handle W_fr"><ul class="clearfix"><li><span class="line S_line1"><a href="javascript:void(0);" class="S_txt1" action-type="reply">回复</a></span></li><li><span class="line S_line1"><a href="javascript:void(0);" class="S_txt1" action-type="fl_like"><span><em class="W_ficon ficon_praised S_txt2">ñ</em><em>{i * 9 + 1}</em></span></a></span></li></ul></div><div class="WB_from S_txt2">{t}</div></div></div></div>"""
        for i, (u, uid, t, text) in enumerate(items)
    )
    return f"""<html><head><title>微博正文</title></head><body><div class="WB_global_nav"><a href="/">微博</a> <a href="/hot">热门</a></div>
<div class="WB_frame"><div class="WB_cardwrap WB_feed_type"><div class="WB_detail"><div class="WB_info"><a class="W_f14 W_fb S_txt1" href="/u/1">城市气象台</a></div><div class="WB_from S_txt2"><a>11月20日 08:00</a> 来自 微博网页版</div><div class="WB_text W_f14">【降温提醒】明天起冷空气南下，全市气温下降6到8度，请注意添衣保暖。</div></div>
<div class="WB_feed_repeat"><div class="repeat_list"><div class="list_box"><div class="list_ul">{lis}</div></div></div></div></div></div>
<div class="WB_frame_b"><div class="WB_cardwrap S_bg2"><h4>热门话题</h4><ul><li><a href="/t/1">#初雪#</a><span>阅读1.2亿</span></li><li><a href="/t/2">#降温#</a><span>阅读8000万</span></li></ul></div></div></body></html>"""


WEIBO = [
    ("晨跑的猫", "2001", "11月20日 08:12", "终于凉快了，明天的晨跑可以穿长袖了。"),
    ("小城故事多", "2002", "11月20日 08:40", "又要降温，家里的暖气什么时候来啊？"),
    ("路过的风", "2003", "11月20日 09:05", "谢谢提醒，给爸妈也转发一下，让他们多穿点。"),
]


def xhs(items):
    divs = "".join(
        f"""<div class="parent-comment"><div class="comment-item" id="comment-{600 + i}"><div class="comment-inner-container"><div class="avatar"><a href="/user/profile/{uid}" class=""><img class="avatar-item" src="/a.jpg"></a></div>
<div class="right"><div class="author-wrapper"><div class="author"><a href="/user/profile/{uid}" class="name" target="_blank">{u}</a></div></div>
<div class="content"><span class="note-text"><span>{text}</span></span></div>
<div class="info"><div class="date"><span>{t}</span><span class="location">{loc}</span></div><div class="interactions"><div class="like"><span class="like-wrapper"><span class="count">{i * 4 + 2}</span></span></div><div class="reply icon-container"><span class="count">回复</span></div></div></div></div></div></div></div>"""
        for i, (u, uid, t, loc, text) in enumerate(items)
    )
    return f"""<html><head><title>秋天去哪里看银杏 - 小红书</title></head><body><div class="side-bar"><a href="/explore">发现</a> <a href="/publish">发布</a> <a href="/notification">通知</a></div>
<div class="note-container"><div class="note-content"><div class="title">秋天去哪里看银杏</div><div class="desc"><span class="note-text">整理了几个市区就能到的银杏大道，周末去正好。</span></div><div class="bottom-container"><span class="date">11-02 北京</span></div></div>
<div class="comments-el"><div class="comments-container"><div class="total">共 {len(items)} 条评论</div><div class="list-container">{divs}</div></div></div></div></body></html>"""


XHS = [
    ("银杏控", "u1", "11-02", "北京", "钓鱼台那条路太美了，就是人有点多，建议早上去。"),
    ("周末去哪儿", "u2", "11-03", "天津", "收藏了，这周六就去地坛公园看看。"),
    ("摄影小白", "u3", "11-05", "河北", "请问拍银杏用什么参数比较好？我拍出来总是发灰。"),
]


def hupu(items):
    divs = "".join(
        f"""<div class="index_bbs-post-web-body-right-wrapper__O6HVR"><div class="post-reply-list_post-reply-list-wrapper__o4_81"><div class="post-reply-list_post-reply-list-container__uDqYo" id="{800 + i}">
<div class="post-reply-list-user-info-top-content"><div class="user-base-info"><a href="https://my.hupu.example.test/{uid}" class="post-reply-list-user-info-top-name">{u}</a><span class="post-reply-list-user-info-top-time">{t}</span><span class="post-reply-list-user-info-top-ip">{loc}</span></div></div>
<div class="thread-content-detail"><p>{text}</p></div>
<div class="post-reply-list-operate-com"><div class="todo-list"><div class="todo-list-item"><span class="todo-list-text">亮了({i * 12 + 3})</span></div><div class="todo-list-item"><span class="todo-list-text">回复</span></div></div></div></div></div></div>"""
        for i, (u, uid, t, loc, text) in enumerate(items)
    )
    return f"""<html><head><title>湖人今天这场赢得漂亮吗？-虎扑社区</title></head><body><div class="hp-pc-rc-header"><a href="/">虎扑</a> <a href="/nba">NBA</a> <a href="/soccer">足球</a></div>
<div class="index_bbs-post-web-main__D_K6v"><div class="post-wrapper_bbs-post-wrapper__skTrn"><h1 class="name">湖人今天这场赢得漂亮吗？</h1><div class="index_bbs-thread-comp__BXlYR"><div class="thread-content-detail"><p>防守端明显比上一场积极，你们怎么看？</p></div></div></div>
<div class="post-reply_post-reply-wrapper"><div class="post-reply_post-reply-title">全部回复</div>{divs}</div></div>
<div class="right-side"><div class="hot-list"><p class="hot-title">热帖</p><a href="/1.html"><span>詹姆斯又砍三双</span><span>1234亮</span></a><a href="/2.html"><span>湖人交易流言汇总</span><span>998亮</span></a></div></div></body></html>"""


HUPU = [
    (
        "紫金城卫士",
        "11001",
        "2024-01-15 12:30",
        "浙江",
        "防守确实有进步，轮转快了很多，希望能保持下去。",
    ),
    (
        "篮球老炮",
        "11002",
        "2024-01-15 12:41",
        "广东",
        "对手太弱了，别高兴太早，下周背靠背才是考验。",
    ),
    ("湖蜜一号", "11003", "2024-01-15 13:05", "江苏", "替补终于打出来了，这才是赢球的关键。"),
]


def wp_article():
    rel = "".join(
        f"""<article class="related-post"><a href="/2023/0{i}/post-{i}/" class="related-thumb"><img src="/t{i}.jpg"></a><h4 class="related-title"><a href="/2023/0{i}/post-{i}/">{title}</a></h4><div class="related-meta"><span class="author">by <a href="/author/{a}/">{a}</a></span> <time datetime="2023-0{i}-1{i}">{d}</time></div></article>"""
        for i, (title, a, d) in enumerate(
            [
                ("How to repot a monstera without killing it", "jane", "March 12, 2023"),
                ("Five houseplants that survive dark rooms", "tom", "April 13, 2023"),
                ("Watering schedules are a myth", "jane", "May 14, 2023"),
                ("Fungus gnats: the complete guide", "lee", "June 15, 2023"),
            ],
            1,
        )
    )
    return f"""<html><head><title>Growing herbs on a windowsill – Green Rooms</title></head><body><header class="site-header"><a href="/">Green Rooms</a><nav><a href="/plants/">Plants</a> <a href="/guides/">Guides</a></nav></header>
<main><article class="post type-post"><h1 class="entry-title">Growing herbs on a windowsill</h1><div class="entry-meta">By <a href="/author/jane/">jane</a> · <time datetime="2023-09-01">September 1, 2023</time></div>
<div class="entry-content"><p>{"A south-facing windowsill gives basil, thyme and rosemary the six hours of light they need. " * 3}</p><p>{"Water when the top centimetre of soil is dry, and pinch off flower buds to keep the leaves coming. " * 3}</p><p>{"Rotate the pots every week so the plants grow straight instead of leaning towards the glass. " * 3}</p></div></article>
<section class="related-posts"><h3>You might also like</h3><div class="related-grid">{rel}</div></section></main>
<aside class="widget-area"><section class="widget widget_recent_comments"><h2>Recent comments</h2><ul><li class="recentcomments"><span class="comment-author-link">Mo</span> on <a href="/a#c1">Watering schedules are a myth</a></li><li class="recentcomments"><span class="comment-author-link">Ana</span> on <a href="/b#c2">Fungus gnats: the complete guide</a></li><li class="recentcomments"><span class="comment-author-link">Raj</span> on <a href="/c#c3">How to repot a monstera</a></li></ul></section></aside>
<footer>© 2023 Green Rooms</footer></body></html>"""


def zh_article():
    rel = "".join(
        f"""<li><a href="/news/2024/0{i}/{i}.html" target="_blank">{t}</a><span class="time">2024-0{i}-1{i} 10:0{i}</span><span class="source">来源：{src}</span></li>"""
        for i, (t, src) in enumerate(
            [
                ("我市出台促进消费十条措施", "市政府网"),
                ("一季度全市GDP同比增长5.2%", "统计局"),
                ("重点项目集中开工 总投资超千亿", "发改委"),
                ("外贸进出口实现开门红", "海关"),
            ],
            1,
        )
    )
    return f"""<html><head><title>全市经济运行总体平稳_本地新闻网</title></head><body><div class="topnav"><a href="/">首页</a> <a href="/news">新闻</a> <a href="/gov">政务</a></div>
<div class="main"><div class="article"><h1>全市经济运行总体平稳 重点项目加快推进</h1><div class="info"><span class="time">2024-04-10 08:30</span><span class="source">来源：本地日报</span><span class="author">作者：李明</span></div>
<div class="content"><p>{"本报讯 记者从有关部门获悉，今年以来全市经济运行总体平稳，重点项目建设加快推进。" * 4}</p><p>{"下一步，全市将继续加大招商引资力度，推动产业转型升级，确保全年目标任务完成。" * 4}</p></div><div class="editor">责任编辑：王芳</div></div>
<div class="related"><h3>相关新闻</h3><ul>{rel}</ul></div></div>
<div class="sidebar"><h3>排行榜</h3><ol><li><a href="/r1">地铁新线今日开通</a><em>12.3万</em></li><li><a href="/r2">春季招聘会本周末举行</a><em>9.8万</em></li><li><a href="/r3">多个公园迎来赏花高峰</a><em>7.1万</em></li></ol></div></body></html>"""
