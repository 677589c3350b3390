"""Written pages, batch 14 (written after batches 1-13 were fixed, scored before its own
fixes): a Tieba-like thread (a floor's poster in a left column, the time among the floor's
"tail" spans, replies inside a floor: "楼中楼"), a Sina-blog-like comment list (the name in a
title span, the time in an <em>), an OSChina-like news comment list (the commenter's name
before "发表于", a quoted comment inside a reply), a phpBB-2-like thread (subSilver: a table
row a post, the author cell and the post cell, "Posted: Sat May 12, 2007 10:20 am", a spacer
row between posts), and a Qidian-like book-review area (a level badge after the name, the
time after the text)."""


def tieba(floors):
    def lzl(items):
        return "".join(
            f"""<li class="lzl_single_post j_lzl_s_p" data-field='{{"spid":{700 + k}}}'><a class="lzl_p_p" href="/home/main?un={u}"><img src="/face/{k}.jpg"></a><div class="lzl_cnt">
<a class="at j_user_card" href="/home/main?un={u}" username="{u}">{u}</a>:&nbsp;<span class="lzl_content_main">{text}</span><div class="lzl_content_reply"><span class="lzl_op_list j_lzl_o_l"></span><span class="lzl_time">{t}</span><a href="#" class="lzl_s_r">回复</a></div></div></li>"""
            for k, (u, t, text) in enumerate(items)
        )

    posts = "".join(
        f"""<div class="l_post j_l_post l_post_bright {"noborder" if i == 0 else ""}" data-field='{{"author":{{"user_name":"{u}"}},"content":{{"post_no":{i + 1}}}}}'>
<div class="d_author"><ul class="p_author"><li class="icon"><div class="icon_relative j_user_card"><a class="p_author_face" href="/home/main?un={u}"><img src="/face/p{i}.jpg"></a></div></li>
<li class="d_name" data-field='{{"user_id":{900 + i}}}'><a class="p_author_name j_user_card" href="/home/main?un={u}" target="_blank">{u}</a></li>
<li class="l_badge"><div class="p_badge"><a class="user_badge d_badge_bright"><div class="d_badge_title">{badge}</div><div class="d_badge_lv">{lv}</div></a></div></li></ul></div>
<div class="d_post_content_main"><div class="p_content"><cc><div id="post_content_{100 + i}" class="d_post_content j_d_post_content">{text}</div></cc></div>
<div class="core_reply j_lzl_wrapper"><div class="core_reply_tail"><ul class="p_tail"><li><span class="tail-info">来自Android客户端</span></li><li><span class="tail-info">{i + 1}楼</span></li><li><span class="tail-info">{t}</span></li></ul></div>
<div class="j_lzl_container core_reply_wrapper"><div class="j_lzl_c_b_a core_reply_content"><ul class="j_lzl_m_w">{lzl(sub)}</ul></div></div></div></div></div>"""
        for i, (u, badge, lv, t, text, sub) in enumerate(floors)
    )
    return f"""<html><head><title>新手求助，第一次养猫要准备什么？_养猫吧_百度贴吧</title></head><body><div id="com_userbar"><a href="/">贴吧</a><a href="/login">登录</a></div>
<div class="card_top_wrap"><a class="card_title_fname" href="/f?kw=养猫">养猫吧</a><span class="card_menNum">关注：1,234,567</span></div>
<div class="left_section"><div class="core_title_wrap_bright"><h3 class="core_title_txt">新手求助，第一次养猫要准备什么？</h3></div><div class="p_postlist" id="j_p_postlist">{posts}</div></div>
<div class="right_section"><div class="region_bright"><h4>本吧热帖</h4><ul><li><a href="/p/1">猫咪不吃猫粮怎么办</a><span>1234</span></li><li><a href="/p/2">晒晒我家主子</a><span>998</span></li></ul></div></div></body></html>"""


TIEBA = [
    (
        "喵星人铲屎官",
        "初级粉丝",
        "3",
        "2017-05-12 10:20",
        "下周要接一只三个月的小猫回家，第一次养猫，需要提前准备哪些东西？",
        [
            ("路过的猫奴", "2017-5-12 10:35", "猫砂盆猫砂猫粮，再买个航空箱"),
            ("喵星人铲屎官", "2017-5-12 10:40", "回复 路过的猫奴 :谢谢，航空箱是必须的吗"),
        ],
    ),
    (
        "老猫奴阿强",
        "铁杆吧友",
        "9",
        "2017-05-12 11:02",
        "猫粮选幼猫粮，别喂牛奶，疫苗和驱虫按时做，家里窗户记得装纱网。",
        [],
    ),
    (
        "橘猫爱好者",
        "活跃吧友",
        "6",
        "2017-05-13 09:15",
        "再备一个猫抓板，不然沙发要遭殃，我家的沙发就是前车之鉴。",
        [],
    ),
]


def sina_blog(items):
    lis = "".join(
        f"""<li class="SG_j_linedot1"><p class="myReFrom"><span class="SG_revert_Tit" id="nick_cmt_{i}"><a href="http://blog.sina.example.test/u/{1700 + i}" target="_blank">{u}</a></span><span class="SG_floatR"><a class="SG_linkb" href="#">删除</a></span><em class="SG_txtc">{t}</em></p>
<div class="SG_revert_Inner SG_txtb" id="body_cmt_{i}">{text}</div><p class="myReFrom"><span class="SG_revert_Re SG_floatR"><a href="#">回复</a></span></p></li>"""
        for i, (u, t, text) in enumerate(items)
    )
    return f"""<html><head><title>江南小镇三日游_旅行日记_新浪博客</title></head><body><div class="sinatopbar"><a href="http://blog.sina.example.test/">新浪博客</a></div>
<div id="column_2" class="SG_colW73"><div class="SG_conn"><div class="articalTitle"><h2 class="titName SG_txta">江南小镇三日游</h2><span class="time SG_txtc">(2012-05-10 21:30:00)</span></div>
<div class="articalContent"><p>{"五月初和朋友去了乌镇和西塘，小桥流水，游人不算太多，晚上的灯光尤其好看。" * 4}</p></div></div>
<div class="SG_conn" id="module_928"><div class="SG_connHead"><span class="title">评论</span></div><div class="SG_connBody"><div class="SG_revert_Cont"><ul id="article_comment_list">{lis}</ul></div></div></div></div>
<div id="column_1" class="SG_colW21"><div class="SG_conn"><div class="SG_connHead"><span class="title">个人资料</span></div><div class="SG_connBody"><p class="info_nm">旅行的阿美</p><ul class="info_list"><li>博客等级：12</li><li>博客积分：1024</li><li>访问：56,789</li></ul></div></div></div></body></html>"""


SINA_BLOG = [
    ("山水之间", "2012-05-10 22:14:08", "乌镇晚上确实漂亮，我去年也去过，西塘的酒吧街更热闹。"),
    ("老李看世界", "2012-05-11 08:30:51", "照片拍得真好，请问用的什么相机？"),
    ("旅行的阿美", "2012-05-11 09:02:17", "谢谢，用的是手机拍的，晚上开了夜景模式。"),
]


def oschina(items):
    divs = "".join(
        f"""<div class="comment-item" data-id="{5500 + i}"><div class="avatar"><a href="https://my.oschina.example.test/u/{320 + i}" target="_blank"><img src="/img/portrait{i}.gif"></a></div><div class="content">
<div class="extra"><a class="user-name" href="https://my.oschina.example.test/u/{320 + i}" target="_blank">{u}</a> 发表于 <span class="time">{t}</span><span class="floor">{i + 1}楼</span></div>
{f'<blockquote class="quote"><div class="quote-title">引用来自“{quoted[0]}”的评论</div><div class="quote-content">{quoted[1]}</div></blockquote>' if quoted else ""}
<div class="text">{text}</div><div class="actions"><a href="#">回复</a><a href="#">举报</a><a href="#">顶({i * 2})</a></div></div></div>"""
        for i, (u, t, quoted, text) in enumerate(items)
    )
    return f"""<html><head><title>某某数据库发布 5.0 版本，支持向量检索 - 开源中国</title></head><body><header class="header"><a href="/">开源中国</a><nav><a href="/news">资讯</a><a href="/project">软件</a><a href="/question">问答</a></nav></header>
<div class="news-detail"><h1 class="article-box__title">某某数据库发布 5.0 版本，支持向量检索</h1><div class="article-box__meta">来源: OSCHINA 编辑: 局长 2023-05-12 09:00:00</div>
<div class="article-detail"><p>{"新版本加入了向量索引和混合检索，查询性能提升约百分之三十，同时改进了集群的故障切换。" * 4}</p></div></div>
<div class="comment-list" id="comments"><h3>评论 ({len(items)})</h3>{divs}</div>
<aside class="sidebar"><div class="box"><h3>热门资讯</h3><ul><li><a href="/news/1">某编辑器发布新版</a><span>2023-05-11</span></li><li><a href="/news/2">某框架进入维护期</a><span>2023-05-10</span></li><li><a href="/news/3">某语言发布 2.0</a><span>2023-05-09</span></li></ul></div></aside></body></html>"""


OSCHINA = [
    ("码农老王", "2023-05-12 09:31", None, "向量检索现在是标配了，期待一下性能测试。"),
    ("数据库小白", "2023-05-12 10:02", None, "集群故障切换终于改了，之前切一次要几十秒。"),
    (
        "DBA阿亮",
        "2023-05-12 10:45",
        ("数据库小白", "集群故障切换终于改了，之前切一次要几十秒。"),
        "新版本我们测了，切换在五秒以内，确实好很多。",
    ),
]


def phpbb2(items):
    rows = "".join(
        f"""<tr><td width="150" align="left" valign="top" class="row{1 + i % 2}"><span class="name"><a name="{3300 + i}"></a><b>{u}</b></span><br /><span class="postdetails">{rank}<br /><img src="templates/subSilver/images/{rank.lower()}.gif" alt="{rank}" title="{rank}" border="0" /><br /><br />Joined: {joined}<br />Posts: {(i + 2) * 61}<br />Location: {loc}</span><br /></td>
<td class="row{1 + i % 2}" width="100%" height="28" valign="top"><table width="100%" border="0" cellspacing="0" cellpadding="0"><tr><td width="100%"><a href="viewtopic.php?p={3300 + i}#{3300 + i}"><img src="templates/subSilver/images/icon_minipost.gif" width="12" height="9" alt="Post" title="Post" border="0" /></a><span class="postdetails">Posted: {t}<span class="gen">&nbsp;</span>&nbsp; &nbsp;Post subject: {subject}</span></td>
<td valign="top" nowrap="nowrap"><a href="posting.php?mode=quote&amp;p={3300 + i}"><img src="templates/subSilver/images/lang_english/icon_quote.gif" alt="Reply with quote" title="Reply with quote" border="0" /></a></td></tr>
<tr><td colspan="2"><hr /></td></tr><tr><td colspan="2"><span class="postbody">{text}</span><span class="gensmall"></span></td></tr></table></td></tr>
<tr><td class="row{1 + i % 2}" width="150" align="left" valign="middle"><span class="nav"><a href="#top" class="nav">Back to top</a></span></td><td class="row{1 + i % 2}" width="100%" height="28" valign="bottom" nowrap="nowrap"><a href="profile.php?mode=viewprofile&amp;u={40 + i}"><img src="templates/subSilver/images/lang_english/icon_profile.gif" alt="View user's profile" title="View user's profile" border="0" /></a></td></tr>
<tr><td class="spaceRow" colspan="2" height="1"><img src="templates/subSilver/images/spacer.gif" alt="" width="1" height="1" /></td></tr>"""
        for i, (u, rank, joined, loc, t, subject, text) in enumerate(items)
    )
    return f"""<html><head><title>Old Radios Forum :: View topic - Hum in a 1950s valve radio</title></head><body bgcolor="#E5E5E5"><a name="top"></a>
<table width="100%" cellspacing="0" cellpadding="10" border="0" align="center"><tr><td class="bodyline"><table width="100%" cellspacing="0" cellpadding="0" border="0"><tr><td><a href="index.php"><img src="templates/subSilver/images/logo_phpBB.gif" border="0" alt="Old Radios Forum Forum Index" /></a></td>
<td align="center" width="100%" valign="middle"><span class="maintitle">Old Radios Forum</span><br /><span class="gen">Restoring valve radios since 2001<br />&nbsp; </span><table cellspacing="0" cellpadding="2" border="0"><tr><td align="center" valign="top" nowrap="nowrap"><span class="mainmenu">&nbsp;<a href="faq.php" class="mainmenu">FAQ</a>&nbsp; &nbsp;<a href="search.php" class="mainmenu">Search</a>&nbsp; &nbsp;<a href="memberlist.php" class="mainmenu">Memberlist</a>&nbsp; &nbsp;<a href="groupcp.php" class="mainmenu">Usergroups</a>&nbsp;</span></td></tr></table></td></tr></table>
<table width="100%" cellspacing="2" cellpadding="2" border="0"><tr><td align="left" valign="bottom" colspan="2"><a class="maintitle" href="viewtopic.php?t=812">Hum in a 1950s valve radio</a><br /></td></tr></table>
<table class="forumline" width="100%" cellspacing="1" cellpadding="3" border="0"><tr align="right"><td class="catHead" colspan="2" height="28"><span class="nav"><a href="viewtopic.php?t=812&amp;view=previous" class="nav">View previous topic</a> :: <a href="viewtopic.php?t=812&amp;view=next" class="nav">View next topic</a> &nbsp;</span></td></tr>
<tr><th class="thLeft" width="150" height="26" nowrap="nowrap">Author</th><th class="thRight" nowrap="nowrap">Message</th></tr>{rows}</table></td></tr></table></body></html>"""


PHPBB2 = [
    (
        "valvefan",
        "Member",
        "12 Mar 2005",
        "Leeds",
        "Sat May 12, 2007 10:20 am",
        "Hum in a 1950s valve radio",
        "My old Bush radio has a loud hum as soon as it warms up, even with the volume at zero. Where should I start looking?",
    ),
    (
        "solderpot",
        "Moderator",
        "02 Jan 2002",
        "Bristol",
        "Sat May 12, 2007 11:02 am",
        "",
        "A hum at zero volume is almost always the smoothing capacitors. Replace them before anything else, and never run it for long like that.",
    ),
    (
        "valvefan",
        "Member",
        "12 Mar 2005",
        "Leeds",
        "Sun May 13, 2007 9:15 am",
        "",
        "Replaced both smoothing caps and the hum is gone. Thanks!",
    ),
]


def qidian(items):
    lis = "".join(
        f"""<li class="comment-item"><div class="user-head"><a href="//my.qidian.example.test/user/{8800 + i}" target="_blank"><img src="/avatar/{i}.png"></a></div><div class="comment-main">
<div class="comment-user"><a class="user-name" href="//my.qidian.example.test/user/{8800 + i}" target="_blank">{u}</a><span class="fans-level">{level}</span></div>
<div class="comment-title"><a href="//forum.qidian.example.test/post/10/{8800 + i}">{title}</a></div><p class="comment-text">{text}</p>
<div class="comment-info"><span class="comment-time">{t}</span><span class="comment-reply"><a href="//forum.qidian.example.test/post/10/{8800 + i}">{i * 3}</a></span><span class="comment-like">{i * 11 + 2}</span></div></div></li>"""
        for i, (u, level, title, text, t) in enumerate(items)
    )
    return f"""<html><head><title>某某修仙传_书评区_起点中文网</title></head><body><div class="top-nav"><a href="/">起点中文网</a><a href="/rank">排行</a></div>
<div class="book-info"><h1><em>某某修仙传</em><span><a href="/author/1">某作者</a> 著</span></h1><p class="intro">一个普通少年的修仙之路。</p><p><span>182.3万字</span><span>连载中</span></p></div>
<div class="discuss-wrap"><h3>书友评论 <span>({len(items)})</span></h3><ul class="comment-list">{lis}</ul></div>
<div class="right-bar"><div class="fans-rank"><h4>粉丝榜</h4><ol><li><a href="/u/1">白银盟主</a><span>12345</span></li><li><a href="/u/2">书虫老张</a><span>9876</span></li><li><a href="/u/3">夜读人</a><span>5432</span></li></ol></div></div></body></html>"""


QIDIAN = [
    (
        "书虫老张",
        "LV5",
        "前五十章很精彩",
        "开头节奏很好，主角不降智，设定也新鲜，追了。",
        "2023-05-12",
    ),
    (
        "夜读人",
        "LV3",
        "中期有点拖",
        "到第三卷开始拖沓了，配角戏份太多，希望作者收一收。",
        "2023-05-13",
    ),
    ("修仙爱好者", "LV1", "催更", "作者大大今天还更新吗？等着看秘境那一段。", "2023-05-14"),
]
