"""Written pages, batch 15 (written after batches 1-14 were fixed, scored before its own
fixes): Q&A on WordPress plugins and Chinese Q&A sites: a wpQA-theme-like question (answers
in an <ol> of comment-like items, "Added an answer on May 12, 2023 at 10:20 am"), a
CM-Answers-like question (answers in table rows: the answer text, then "Posted by NAME on
DATE"), a Sabai-Discuss-like question (answers whose author and date sit in a header above
the text, votes beside), a Sogou-Wenwen-like question (answers with "回答者：" and a date, the
best answer boxed apart), and a CSDN-Ask-like question (answers with an "采纳" badge, comments
under an answer)."""


def wpqa(question, answers):
    qa, qt, qtext = question
    items = "".join(
        f"""<li class="comment byuser comment-author-{u.lower()} {"even" if i % 2 == 0 else "odd"} depth-1 {"comment-best-answer" if best else ""}" id="li-comment-{610 + i}"><div id="comment-{610 + i}" class="comment-body clearfix">
<div class="comment-text"><div class="d-flex align-items-center header-of-comment"><div class="author-image author__avatar"><a href="https://qa.example.test/profile/{u.lower()}/"><img class="avatar" src="/a/{i}.png" alt="{u}"></a></div>
<div class="author clearfix"><div class="comment-meta"><div class="comment-author"><span itemprop="author" itemscope itemtype="https://schema.org/Person"><a itemprop="url" href="https://qa.example.test/profile/{u.lower()}/"><span itemprop="name">{u}</span></a></span>
<span class="badge-span" style="background-color: #6b3de4">{badge}</span></div><a href="https://qa.example.test/question/solar-panels/#comment-{610 + i}" class="comment-date" itemprop="url"><span class="wpqa_hide" itemprop="dateCreated" datetime="{iso}"></span>Added an answer on {t}</a></div></div></div>
<div class="text"><div itemprop="text"><p>{text}</p></div></div><div class="wpqa_clearfix"></div><div class="comment-footer-bottom"><ul class="comment-reply comment-reply-main"><li><a class="comment-reply-link" href="#respond">Reply</a></li><li class="comment-share question-share question-share-2">Share</li></ul></div></div></div></li>"""
        for i, (u, badge, iso, t, text, best) in enumerate(answers)
    )
    return f"""<html><head><title>Are solar panels worth it in a cloudy climate? &#8211; Ask Home</title></head><body class="single single-question"><header class="header"><div class="logo"><a href="/">Ask Home</a></div><nav class="nav_menu"><ul><li><a href="/questions/">Questions</a></li><li><a href="/polls/">Polls</a></li><li><a href="/groups/">Groups</a></li></ul></nav></header>
<div class="the-main-inner"><article class="article-question article-post question clearfix question-answer-before"><div class="single-inner-content"><div class="question-inner"><div class="question-head"><div class="author-image"><a href="https://qa.example.test/profile/{qa.lower()}/"><img class="avatar" src="/a/q.png"></a></div>
<div class="question-content question-content-first"><header class="article-header"><div class="question-header"><a class="post-author" itemprop="url" href="https://qa.example.test/profile/{qa.lower()}/">{qa}</a><div class="post-meta"><span class="post-date">Asked: <span class="date-separator"></span><a href="#"><span class="entry-date published">{qt}</span></a></span></div></div></header>
<h1 class="post-title">Are solar panels worth it in a cloudy climate?</h1><div class="question-content question-content-second"><div class="wpqa_clearfix"></div><div class="post-wrap-content"><div class="question-content-text"><div class="all_not_single_post_content"><p>{qtext}</p></div></div></div></div></div></div></div></div></article>
<div id="section-question-answers" class="section-question-answers"><div id="comments" class="post-section"><div class="post-inner"><div class="answers-tabs"><h3 class="section-title"><span>{len(answers)} Answers</span></h3></div>
<ol class="commentlist clearfix">{items}</ol></div></div></div></div>
<div class="hide-main-inner"></div><aside class="sidebar"><div class="widget"><h3>Top Members</h3><div class="user-section"><div class="user-content"><a href="/profile/ellen/">Ellen</a><span class="user-points">4,512 points</span></div><div class="user-content"><a href="/profile/marco/">Marco</a><span class="user-points">3,220 points</span></div><div class="user-content"><a href="/profile/yui/">Yui</a><span class="user-points">2,987 points</span></div></div></div></aside></body></html>"""


WPQA_Q = (
    "Hannah",
    "May 11, 2023",
    "We live in the north of England where it is cloudy most of the year. Would solar panels on a south-facing roof ever pay for themselves?",
)
WPQA_A = [
    (
        "Ellen",
        "Enlightened",
        "2023-05-12T10:20:00+00:00",
        "May 12, 2023 at 10:20 am",
        "Yes, panels still produce on cloudy days, about a third of their peak. With today's prices most households break even in eight to twelve years.",
        True,
    ),
    (
        "Marco",
        "Explainer",
        "2023-05-12T14:02:00+00:00",
        "May 12, 2023 at 2:02 pm",
        "Get a quote that includes a battery; without one you sell most of the summer power back for very little.",
        False,
    ),
    (
        "Yui",
        "Beginner",
        "2023-05-13T08:45:00+00:00",
        "May 13, 2023 at 8:45 am",
        "Check whether your roof needs work first; taking panels off later to fix the roof costs a lot.",
        False,
    ),
]


def cm_answers(question, answers):
    qa, qt, qtext = question
    rows = "".join(
        f"""<tr><td class="cma-answer-content"><div class="cma-answer-body">{text}</div><div class="cma-answer-meta">Posted by <a href="/answers/contributor/{u.lower()}/" class="cma-contributor">{u}</a> on {t}</div></td>
<td class="cma-answer-rating"><div class="cma-rating"><a href="#" class="cma-thumbs-up">+</a><span class="cma-rating-count">{votes}</span><a href="#" class="cma-thumbs-down">-</a></div></td></tr>"""
        for u, t, votes, text in answers
    )
    return f"""<html><head><title>How do I reset the router to factory settings? | Support Answers</title></head><body><div id="page"><header id="masthead"><a href="/">NetGear Help</a> <a href="/answers/">Answers</a> <a href="/contact/">Contact</a></header>
<div class="cma-container"><div class="cma-thread-wrapper"><h1 class="cma-thread-title">How do I reset the router to factory settings?</h1>
<table class="cma-thread-content"><tr><td class="cma-question-content"><div class="cma-question-body">{qtext}</div><div class="cma-question-meta">Asked by <a href="/answers/contributor/{qa.lower()}/" class="cma-contributor">{qa}</a> on {qt}</div></td><td class="cma-question-stats">Views: 214</td></tr></table>
<h3 class="cma-answers-header">Answers</h3><table class="cma-answers-list"><thead><tr><th>Answer</th><th>Rating</th></tr></thead><tbody>{rows}</tbody></table>
<div class="cma-answer-form"><h3>Post your Answer</h3><form><textarea name="content"></textarea><input type="submit" value="Post your Answer"></form></div></div></div></div></body></html>"""


CMA_Q = (
    "Pavel",
    "May 11, 2023",
    "I changed the admin password and forgot it. How do I get the router back to how it came out of the box?",
)
CMA_A = [
    (
        "SupportTeam",
        "May 11, 2023",
        4,
        "Hold the reset button on the back for ten seconds while the router is on; it restarts with the password printed on its label.",
    ),
    (
        "kate_l",
        "May 12, 2023",
        1,
        "Note that a reset also clears your Wi-Fi name and password, so write them down before.",
    ),
]


def sabai(question, answers):
    qa, qt, qtext = question
    divs = "".join(
        f"""<div class="sabai-entity sabai-entity-type-content sabai-entity-bundle-name-questions-answers sabai-entity-mode-full sabai-questions-answer {"sabai-questions-accepted" if i == 0 else ""}" id="sabai-entity-content-{830 + i}">
<div class="sabai-questions-side"><div class="sabai-voting-updown"><a class="sabai-voting-btn-up">+</a><span class="sabai-voting-count">{3 - i}</span></div></div>
<div class="sabai-questions-main"><div class="sabai-questions-custom-fields"></div><div class="sabai-questions-activity sabai-questions-activity-inline"><ul class="sabai-entity-activity"><li><a href="/questions/users/{u.lower()}" class="sabai-user sabai-user-with-thumbnail" rel="nofollow" data-popover-url="/questions/users/{u.lower()}/profile"><img src="/u/{i}.png" class="sabai-user-thumbnail">{u}</a> answered <span title="{title}">{t}</span></li></ul></div>
<div class="sabai-questions-body"><p>{text}</p></div><div class="sabai-questions-links"><a href="#">Link</a> <a href="#">Comment</a></div></div></div>"""
        for i, (u, title, t, text) in enumerate(answers)
    )
    return f"""<html><head><title>Best way to store winter tyres? | Car Care Q&amp;A</title></head><body><div class="site"><header><a href="/">Car Care</a></header><div class="sabai sabai-main">
<div class="sabai-entity sabai-entity-type-content sabai-entity-bundle-name-questions sabai-entity-mode-full sabai-questions"><h1 class="sabai-questions-title">Best way to store winter tyres?</h1><div class="sabai-questions-body"><p>{qtext}</p></div>
<div class="sabai-questions-activity"><ul class="sabai-entity-activity"><li><a href="/questions/users/{qa.lower()}" class="sabai-user sabai-user-with-thumbnail">{qa}</a> asked <span title="{qt}">{qt}</span></li></ul></div></div>
<div class="sabai-questions-answers"><h2>{len(answers)} Answers</h2>{divs}</div></div>
<div class="widget-area"><h3>Recent Questions</h3><ul><li><a href="/questions/1">Brake fluid colour</a> <span>2 days ago</span></li><li><a href="/questions/2">Wiper blades squeak</a> <span>3 days ago</span></li><li><a href="/questions/3">Tyre pressure in winter</a> <span>5 days ago</span></li></ul></div></div></body></html>"""


SABAI_Q = (
    "lenka",
    "May 10, 2023 10:00 am",
    "I have a set of winter tyres on rims. Should I stack them flat or stand them up in the garage over the summer?",
)
SABAI_A = [
    (
        "tyreguy",
        "May 10, 2023 11:30 am",
        "3 days ago",
        "On rims, stack them flat or hang them by the rims; without rims stand them up and turn them every few weeks.",
    ),
    (
        "mo_h",
        "May 11, 2023 9:05 am",
        "2 days ago",
        "Keep them out of the sun and away from the boiler, heat and light age the rubber faster than use.",
    ),
]


def wenwen(question, best, answers):
    qa, qt, qtext = question

    def answer(u, t, text, cls):
        return f"""<div class="{cls}"><div class="replay-info"><div class="replay-info-txt"><p class="replay-user">回答者：<a class="user-name" href="/user/{len(u)}">{u}</a><span class="user-level">{len(u) + 2}级</span></p><p class="replay-time">{t}</p></div></div>
<div class="replay-info-txt answer_con"><pre>{text}</pre></div><div class="replay-info-extra"><a class="good-btn">赞同 {len(text) % 9}</a><a class="comment-btn">评论</a></div></div>"""

    others = "".join(answer(u, t, text, "replay-section") for u, t, text in answers)
    return f"""<html><head><title>手机充电很慢是什么原因？_搜狗问问</title></head><body><div class="header"><a href="/">搜狗问问</a><a href="/ask">我要提问</a></div>
<div class="main"><div class="question-main"><h1 class="question-title">手机充电很慢是什么原因？</h1><div class="question-con">{qtext}</div><div class="question-info"><span class="user-name">{qa}</span><span class="question-time">{qt}</span></div></div>
<div class="replay-wrap"><div class="best-answer"><div class="best-title">最佳答案</div>{answer(*best, "replay-section best")}</div>
<div class="other-answers"><div class="other-title">其他回答（{len(answers)}）</div>{others}</div></div></div>
<div class="side"><div class="side-box"><h3>相关问题</h3><ul><li><a href="/q/1">手机电池鼓包怎么办</a></li><li><a href="/q/2">快充伤电池吗</a></li></ul></div><div class="side-box"><h3>热心网友</h3><ul><li><a href="/user/1">数码达人</a>回答 1203</li><li><a href="/user/2">电工老刘</a>回答 877</li></ul></div></div></body></html>"""


WENWEN_Q = (
    "匿名用户",
    "2023-05-11",
    "以前一个小时就能充满，现在要三个多小时，换了充电线也一样，是电池坏了吗？",
)
WENWEN_BEST = (
    "数码达人",
    "2023-05-11 10:20",
    "先看充电口有没有灰尘，用牙签轻轻清理一下；再看是不是开了省电充电或者边充边玩，电池老化也会变慢。",
)
WENWEN_A = [
    ("电工老刘", "2023-05-11 12:05", "充电头功率不够也会这样，换原装充电头试试。"),
    ("路人乙", "2023-05-12 08:30", "我的也是这样，清理了充电口就好了。"),
]


def csdn_ask(question, answers):
    qa, qt, qtext = question
    divs = "".join(
        f"""<div class="answer-item {"answer-item-accepted" if accepted else ""}" data-answerid="{7700 + i}"><div class="answer-item-head"><a class="answer-user" href="https://blog.csdn.example.test/{uid}"><img class="avatar" src="/a/{i}.png"><span class="nickname">{u}</span></a>
<span class="answer-time">{t}</span>{'<span class="accepted-tag">已采纳</span>' if accepted else ""}</div><div class="answer-item-content"><div class="md_content_show">{text}</div></div>
<div class="answer-item-comments">{"".join(f'<div class="comment-item"><a class="comment-user" href="https://blog.csdn.example.test/{cu}">{cu}</a><span class="comment-content">{ct}</span><span class="comment-time">{ctime}</span></div>' for cu, ctime, ct in comments)}</div>
<div class="answer-item-footer"><span class="like-btn">点赞 {3 - i}</span><span class="comment-btn">评论</span><span class="report-btn">举报</span></div></div>"""
        for i, (u, uid, t, accepted, text, comments) in enumerate(answers)
    )
    return f"""<html><head><title>Python读取大文件内存溢出怎么解决？-CSDN问答</title></head><body><div class="toolbar"><a href="/">CSDN</a><a href="/ask">问答</a></div>
<div class="ask-main"><div class="question-detail"><h1 class="title">Python读取大文件内存溢出怎么解决？</h1><div class="question-user"><a href="https://blog.csdn.example.test/{qa}">{qa}</a><span class="time">{qt}</span></div><div class="md_content_show">{qtext}</div></div>
<div class="answer-list"><div class="answer-count">{len(answers)}条回答</div>{divs}</div></div>
<div class="ask-side"><div class="side-card"><h3>相关推荐</h3><ul><li><a href="/questions/1">pandas读取csv很慢</a><span>3 回答</span></li><li><a href="/questions/2">python生成器和迭代器</a><span>5 回答</span></li></ul></div></div></body></html>"""


CSDN_Q = (
    "qq_4521",
    "2023-05-12 09:00",
    "用 readlines 读一个 8G 的日志文件，程序直接内存溢出崩溃了，有什么办法一行一行处理吗？",
)
CSDN_A = [
    (
        "老王写代码",
        "wang_code",
        "2023-05-12 09:20",
        True,
        "不要用 readlines，直接 for line in f 遍历文件对象，它是按行惰性读取的，内存占用很小。",
        [
            ("qq_4521", "2023-05-12 09:40", "试了，内存只占几十兆，谢谢！"),
            ("pythonista", "2023-05-12 10:02", "补充：大文件建议加 buffering 参数。"),
        ],
    ),
    (
        "数据搬运工",
        "data_mover",
        "2023-05-12 10:30",
        False,
        "如果要分块处理，可以用 pandas 的 read_csv 加 chunksize 参数。",
        [],
    ),
]
