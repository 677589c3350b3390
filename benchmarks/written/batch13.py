"""Written pages, batch 13 (written after batches 1-12 were fixed, scored before its own
fixes): Q&A and forum software in English not yet written: a Question2Answer-like page
("answered May 12, 2019 by alice", comments "commented May 13 by bob"), an Askbot-like page
(the time in an <abbr class="timeago">, the user's reputation after the name), a bbPress-like
topic (each reply a header row with the date, then a row with the author column and the text),
a NodeBB-like topic (the age shown by script: an empty span whose title holds the time), a
MediaWiki-talk-like discussion (each comment signed at its end: "— Alice (talk) 10:20, 12 May
2019 (UTC)", replies indented in <dl><dd>), and a Lemmy-like comment tree (the age "3h" in a
span whose title holds the date)."""


def q2a(question, answers):
    qa, qwhen, qtext = question

    def meta(kind, when, who):
        return f"""<span class="qa-{kind}-item-meta"><a href="#" class="qa-{kind}-item-what">{"asked" if kind == "q" else "answered" if kind == "a" else "commented"}</a>
<span class="qa-{kind}-item-when"><span class="qa-{kind}-item-when-data"><time itemprop="dateCreated" datetime="{when[0]}" title="{when[0]}">{when[1]}</time></span></span>
<span class="qa-{kind}-item-who"><span class="qa-{kind}-item-who-pad">by </span><span class="qa-{kind}-item-who-data"><span itemprop="author" itemscope itemtype="https://schema.org/Person"><a href="./user/{who}" class="qa-user-link" itemprop="name">{who}</a></span></span>
<span class="qa-{kind}-item-who-points"><span class="qa-{kind}-item-who-points-pad">(</span><span class="qa-{kind}-item-who-points-data">{len(who) * 37}</span><span class="qa-{kind}-item-who-points-pad"> points)</span></span></span></span>"""

    def comments(items):
        return "".join(
            f"""<div class="qa-c-list-item" id="c{300 + j}" itemscope itemtype="https://schema.org/Comment"><div class="qa-c-item-content qa-post-content"><div itemprop="text">{text}</div></div>
<span class="qa-c-item-avatar-meta">{meta("c", when, who)}</span><div class="qa-c-item-buttons"><input value="reply" title="Reply to this comment" class="qa-form-light-button qa-form-light-button-comment" type="submit"></div></div>"""
            for j, (who, when, text) in enumerate(items)
        )

    answer_blocks = "".join(
        f"""<div class="qa-a-list-item {"qa-a-list-item-selected" if i == 0 else ""}" id="a{200 + i}" itemprop="{"acceptedAnswer" if i == 0 else "suggestedAnswer"}" itemscope itemtype="https://schema.org/Answer">
<form method="post" action="./12/why-is-my-cron-job-not-running"><div class="qa-a-item-main"><div class="qa-a-item-content qa-post-content"><div itemprop="text">{text}</div></div>
<span class="qa-a-item-avatar-meta">{meta("a", when, who)}</span><div class="qa-a-item-buttons"><input value="comment" class="qa-form-light-button qa-form-light-button-comment" type="submit"></div>
<div class="qa-a-item-c-list" id="a{200 + i}_list">{comments(under)}</div></div></form></div>"""
        for i, (who, when, text, under) in enumerate(answers)
    )
    return f"""<html><head><title>Why is my cron job not running? - Linux Q&amp;A</title></head><body class="qa-template-question">
<div class="qa-header"><div class="qa-logo"><a href="./" class="qa-logo-link">Linux Q&amp;A</a></div><div class="qa-nav-main"><ul class="qa-nav-main-list"><li><a href="./questions">Questions</a></li><li><a href="./unanswered">Unanswered</a></li><li><a href="./tags">Tags</a></li><li><a href="./users">Users</a></li></ul></div></div>
<div class="qa-main"><h1><a href="./12/why-is-my-cron-job-not-running"><span class="entry-title">Why is my cron job not running?</span></a></h1>
<div class="qa-part-q-view"><div class="qa-q-view" id="q12" itemscope itemtype="https://schema.org/Question"><div class="qa-q-view-main"><div class="qa-q-view-content qa-post-content"><div itemprop="text">{qtext}</div></div>
<span class="qa-q-view-avatar-meta">{meta("q", qwhen, qa)}</span></div></div></div>
<div class="qa-part-a-list"><h2 id="a_list_title"><span itemprop="answerCount">{len(answers)}</span> Answers</h2><div class="qa-a-list" id="a_list">{answer_blocks}</div></div></div>
<div class="qa-sidepanel"><div class="qa-widget-side"><h2>Related questions</h2><ul class="qa-q-list"><li><a href="./8/cron-runs-twice">Cron runs twice</a></li><li><a href="./9/crontab-path">Crontab PATH problems</a></li></ul></div></div>
<div class="qa-footer"><div class="qa-attribution">Powered by <a href="http://www.question2answer.org/">Question2Answer</a></div></div></body></html>"""


Q2A_QUESTION = (
    "newadmin",
    ("2019-05-12T10:20:00+0000", "May 12, 2019"),
    "I added a line to my crontab to run a backup script every night at 2am, but nothing happens. Running the script by hand works fine. What am I missing?",
)
Q2A_ANSWERS = [
    (
        "alice",
        ("2019-05-12T11:05:00+0000", "May 12, 2019"),
        "Cron runs with a minimal environment, so your PATH is not the same as in your shell. Use full paths to every command in the script, or set PATH at the top of the crontab.",
        [
            (
                "newadmin",
                ("2019-05-13T08:00:00+0000", "May 13"),
                "That was it, the script called rsync without a path. Thanks!",
            ),
            (
                "bob",
                ("2019-05-13T09:12:00+0000", "May 13"),
                "Also check /var/log/syslog, cron logs every run there.",
            ),
        ],
    ),
    (
        "carol",
        ("2019-05-14T16:40:00+0000", "May 14, 2019"),
        "Make sure the crontab file ends with a newline; the last line is ignored otherwise.",
        [],
    ),
]


def askbot(question, answers):
    qa, qwhen, qtext = question

    def comments(items):
        return "".join(
            f"""<div class="comment" id="comment-{900 + j}"><div class="comment-votes"><div class="upvote"></div></div><div class="comment-body"><div class="comment-content"><p>{text}</p></div>
<a class="author" href="/users/{40 + j}/{who}/">{who}</a> <span class="age">(<abbr class="timeago" title="{when}">{when[:10]}</abbr>)</span></div></div>"""
            for j, (who, when, text) in enumerate(items)
        )

    def info(who, when, rep, verb):
        return f"""<div class="post-update-info-container"><div class="post-update-info"><p style="line-height:12px;"><a class="question-timestamp" href="#">{verb} <abbr class="timeago" title="{when}">{when}</abbr></a></p>
<img alt="" class="gravatar" height="32" src="/avatar/{who}.png" title="{who}" width="32"><a href="/users/{len(who)}/{who}/">{who}</a><br><span class="reputation-score" title="{who}'s karma">{rep}</span> <span class="badge1">&#9679;</span><span class="badgecount">{rep // 100}</span></div></div>"""

    answer_blocks = "".join(
        f"""<div class="post answer {"accepted-answer" if i == 0 else ""}" id="post-id-{500 + i}"><div class="vote-buttons"><div class="upvote"></div><div class="vote-number">{5 - i}</div></div>
<div class="answer-table"><div class="answer-body"><div class="post-body"><p>{text}</p></div></div><div class="answer-controls post-controls"><span class="action-link"><a>permanent link</a></span></div>
{info(who, when, rep, "answered")}</div><div class="comments" id="comments-for-answer-{500 + i}">{comments(under)}</div></div>"""
        for i, (who, when, rep, text, under) in enumerate(answers)
    )
    return f"""<html><head><title>Calc: how to keep leading zeros in a column? - Ask Office Suite</title></head><body class="user-messages anon">
<div id="header"><a id="logo" href="/">Ask Office Suite</a><div id="userToolsNav"><a href="/account/signin/">login</a></div><div id="secondaryHeader"><a href="/questions/">questions</a> <a href="/tags/">tags</a> <a href="/users/">users</a> <a href="/badges/">badges</a></div></div>
<div id="ContentFull"><h1><a href="/question/4711/calc-leading-zeros/">Calc: how to keep leading zeros in a column?</a></h1>
<div class="question-page"><div class="post question" id="post-id-4711"><div class="vote-buttons"><div class="vote-number">3</div></div><div class="question-content"><div id="question-table"><div class="question-body"><p>{qtext}</p></div>
<div id="question-tags" class="tags"><a class="tag" href="/tags/calc/">calc</a><a class="tag" href="/tags/format/">format</a></div>{info(qa, qwhen, 12, "asked")}</div></div></div>
<div class="clean"></div><h2 class="answers-header">{len(answers)} answers</h2>{answer_blocks}</div></div>
<div id="ContentRight"><div class="box"><h2>Stats</h2><p>Asked: <strong><abbr class="timeago" title="{qwhen}">{qwhen[:10]}</abbr></strong></p><p>Seen: <strong>1,204 times</strong></p></div>
<div class="box"><h2>Related questions</h2><ul><li><a href="/question/12/">Zip codes lose their zeros</a></li><li><a href="/question/13/">Text format for numbers</a></li></ul></div></div></body></html>"""


ASK_QUESTION = (
    "jkl",
    "2019-05-12 10:20:31 +0200",
    "I import a CSV with customer numbers like 00123 and Calc turns them into 123. How do I keep the zeros?",
)
ASK_ANSWERS = [
    (
        "Lupp",
        "2019-05-12 11:05:07 +0200",
        21450,
        "In the import dialog select the column and set its type to Text before you press OK; Calc then keeps every character.",
        [
            (
                "jkl",
                "2019-05-12 12:00:00 +0200",
                "Works, thank you. I never noticed the column type box.",
            ),
            (
                "erAck",
                "2019-05-12 13:30:00 +0200",
                "You can also format the cells as 00000 if they are numbers after all.",
            ),
        ],
    ),
    (
        "Opaque",
        "2019-05-13 08:44:50 +0200",
        8720,
        'If the data is already imported, use =TEXT(A1;"00000") in a helper column and paste the values back.',
        [],
    ),
]


def bbpress(items):
    replies = "".join(
        f"""<li class="bbp-body"><div id="post-{1200 + i}" class="bbp-reply-header"><div class="bbp-meta"><span class="bbp-reply-post-date">{t}</span><a href="#post-{1200 + i}" class="bbp-reply-permalink">#{1200 + i}</a><span class="bbp-admin-links"><a href="#" class="bbp-reply-reply-link">Reply</a></span></div></div>
<div class="loop-item-{i} user-id-{7 + i} bbp-parent-forum-55 bbp-parent-topic-1199 bbp-reply-position-{i + 1} {"odd" if i % 2 == 0 else "even"} post-{1200 + i} reply type-reply status-publish hentry">
<div class="bbp-reply-author"><a href="/forums/users/{u.lower()}/" title="View {u}&#039;s profile" class="bbp-author-link"><span class="bbp-author-avatar"><img alt="" src="/avatar/{i}.png" class="avatar avatar-80 photo" height="80" width="80"></span><span class="bbp-author-name">{u}</span></a><div class="bbp-author-role">{role}</div></div>
<div class="bbp-reply-content"><p>{text}</p></div></div></li>"""
        for i, (u, role, t, text) in enumerate(items)
    )
    return f"""<html><head><title>Topic: Child theme styles not loading &laquo; Theme Help &laquo; Support Forums</title></head><body class="topic bbpress">
<header class="site-header"><a href="/">Support Forums</a><nav><a href="/forums/">Forums</a> <a href="/forums/view/no-replies/">Unanswered</a></nav></header>
<div id="bbpress-forums" class="bbpress-wrapper"><div class="bbp-breadcrumb"><p><a href="/forums/" class="bbp-breadcrumb-root">Forums</a> <span class="bbp-breadcrumb-sep">&rsaquo;</span> <a href="/forums/forum/theme-help/">Theme Help</a> <span class="bbp-breadcrumb-sep">&rsaquo;</span> <span class="bbp-breadcrumb-current">Child theme styles not loading</span></p></div>
<div class="bbp-template-notice info"><ul><li class="bbp-topic-description">This topic has {len(items) - 1} replies, {len(set(u for u, _, _, _ in items))} voices, and was last updated by <a href="/forums/users/x/">{items[-1][0]}</a>.</li></ul></div>
<ul id="topic-1199-replies" class="forums bbp-replies"><li class="bbp-header"><div class="bbp-reply-author">Author</div><div class="bbp-reply-content">Posts</div></li>{replies}
<li class="bbp-footer"><div class="bbp-reply-author">Author</div><div class="bbp-reply-content">Posts</div></li></ul></div>
<aside class="widget-area"><section class="widget bbp_widget_login"><h2>Log In</h2><form><input type="text" name="log"></form></section><section class="widget widget_display_replies"><h2>Recent Replies</h2><ul><li><a href="/forums/users/maria/" class="bbp-author-link">maria</a> on <a class="bbp-reply-topic-title" href="/forums/topic/menu/">Menu disappears on mobile</a><div>2 days ago</div></li><li><a href="/forums/users/tom/" class="bbp-author-link">tom</a> on <a class="bbp-reply-topic-title" href="/forums/topic/fonts/">Custom fonts</a><div>3 days ago</div></li></ul></section></aside></body></html>"""


BBPRESS = [
    (
        "dmitri",
        "Participant",
        "May 12, 2019 at 10:20 am",
        "I made a child theme with its own style.css, activated it, but none of my changes show up. The parent's styles load fine.",
    ),
    (
        "sabine_w",
        "Moderator",
        "May 12, 2019 at 11:02 am",
        "Child theme styles need to be enqueued in functions.php since WordPress 4.7; the old @import line is not enough any more.",
    ),
    (
        "dmitri",
        "Participant",
        "May 12, 2019 at 1:45 pm",
        "Enqueued it with wp_enqueue_style and it works now, thank you!",
    ),
]


def nodebb(items):
    posts = "".join(
        f"""<li component="post" class="{"topic-owner-post" if i == 0 else ""}" data-index="{i}" data-pid="{88 + i}" data-uid="{5 + i}" data-timestamp="{ms}" itemscope itemtype="http://schema.org/Comment">
<a component="post/anchor" data-index="{i}" id="{i}"></a><meta itemprop="datePublished" content="{iso}"><meta itemprop="dateModified" content="">
<div class="clearfix post-header"><div class="icon pull-left"><a href="/user/{u}"><span class="avatar avatar-sm2x avatar-rounded" style="background-color: #009688;">{u[0].upper()}</span><i component="user/status" class="fa fa-circle status offline" title="Offline"></i></a></div>
<small class="pull-left"><strong><a href="/user/{u}" itemprop="author" data-username="{u}" data-uid="{5 + i}">{u}</a></strong><span class="visible-xs-inline-block visible-sm-inline-block visible-md-inline-block visible-lg-inline-block"><a class="permalink" href="/post/{88 + i}"><span class="timeago" title="{iso}"></span></a><i component="post/edit-indicator" class="fa fa-pencil-square hidden"></i></span></small>
<small class="pull-right"><span class="bookmarked"><i class="fa fa-bookmark-o"></i></span></small></div><br>
<div class="content" component="post/content" itemprop="text"><p>{text}</p></div>
<div class="clearfix post-footer"><small class="pull-right"><span class="post-tools"><a component="post/reply" href="#" class="no-select">Reply</a><a component="post/quote" href="#" class="no-select">Quote</a></span><span class="votes"><a component="post/upvote" href="#"><i class="fa fa-chevron-up"></i></a><span component="post/vote-count" data-votes="{3 - i}">{3 - i}</span></span></small></div></li>"""
        for i, (u, iso, ms, text) in enumerate(items)
    )
    return f"""<html><head><title>Plugin update breaks login page | Community</title></head><body class="page-topic">
<nav class="navbar"><a href="/">Community</a><ul id="main-nav"><li><a href="/categories">Categories</a></li><li><a href="/recent">Recent</a></li><li><a href="/tags">Tags</a></li><li><a href="/popular">Popular</a></li><li><a href="/users">Users</a></li></ul></nav>
<div class="container" id="content"><ol class="breadcrumb"><li><a href="/">Home</a></li><li><a href="/category/4/plugins">Plugins</a></li><li>Plugin update breaks login page</li></ol>
<div class="topic"><h1 component="post/header" itemprop="name"><span class="topic-title" component="topic/title">Plugin update breaks login page</span></h1>
<ul component="topic" class="posts" data-tid="31">{posts}</ul></div></div></body></html>"""


NODEBB = [
    (
        "martin",
        "2023-05-12T10:20:31.000Z",
        1683886831000,
        "After updating the SSO plugin to 4.2 the login page shows a blank screen. Rolling back fixes it. Anyone else?",
    ),
    (
        "julian",
        "2023-05-12T11:02:47.000Z",
        1683889367000,
        "Yes, 4.2 needs NodeBB 3.1 or newer. Check the compatibility field in its plugin.json before updating.",
    ),
    (
        "martin",
        "2023-05-13T09:15:08.000Z",
        1683969308000,
        "We were on 3.0. Upgraded the forum first and the plugin works now.",
    ),
]


def wikitalk(items):
    def signed(who, when, text):
        return f"""{text} &mdash;&nbsp;<a href="/wiki/User:{who}" title="User:{who}">{who}</a> (<a href="/wiki/User_talk:{who}" title="User talk:{who}">talk</a>) {when} (UTC)"""

    first, rest = items[0], items[1:]
    nested = "".join(f"<dl><dd>{signed(*item)}" for item in rest) + "</dd></dl>" * len(rest)
    return f"""<html><head><title>Talk:River Thames - Wikipedia</title></head><body class="mediawiki ns-1 ns-talk page-Talk_River_Thames">
<div id="mw-head"><div id="p-namespaces" class="vector-menu-tabs"><ul><li><a href="/wiki/River_Thames">Article</a></li><li class="selected"><a href="/wiki/Talk:River_Thames">Talk</a></li></ul></div></div>
<div id="content" class="mw-body"><h1 id="firstHeading" class="firstHeading">Talk:River Thames</h1><div id="bodyContent" class="vector-body"><div id="mw-content-text" class="mw-body-content mw-content-ltr"><div class="mw-parser-output">
<table class="plainlinks tmbox tmbox-notice"><tr><td class="mbox-text">This is the talk page for discussing improvements to the River Thames article. This is not a forum for general discussion of the article's subject.</td></tr></table>
<h2><span class="mw-headline" id="Length_of_the_river">Length of the river</span></h2>
<p>{signed(*first)}</p>{nested}
<h2><span class="mw-headline" id="Source">Source</span></h2><p>Older discussion of the source is in the archive.</p></div></div></div></div>
<div id="mw-panel"><div class="portal"><h3>Navigation</h3><ul><li><a href="/wiki/Main_Page">Main page</a></li><li><a href="/wiki/Portal:Current_events">Current events</a></li></ul></div></div></body></html>"""


WIKITALK = [
    (
        "Riverbank",
        "10:20, 12 May 2019",
        "The infobox gives the length as 346 km but the lead says 215 miles. Which source should we follow?",
    ),
    (
        "Hydro42",
        "11:02, 12 May 2019",
        "The Environment Agency gives 346 km (215 mi); the two figures are the same length in different units.",
    ),
    (
        "Riverbank",
        "09:15, 13 May 2019",
        "You are right, I misread the conversion. I'll add the citation to the infobox.",
    ),
]


def lemmy(items):
    def node(i, item, children):
        u, title, age, text = item
        return f"""<li class="comment" role="comment"><article class="comment-node py-2 ms-1" id="comment-{4400 + i}"><div class="d-flex flex-wrap align-items-center text-muted small">
<button class="btn btn-sm text-muted me-2" aria-label="Collapse">&#9660;</button><span class="person-listing d-inline-flex align-items-baseline text-info"><a class="text-info" title="{u}" href="/u/{u}"><img class="overflow-hidden pictrs-image img-fluid avatar-overlay rounded-circle" src="/avatar/{i}.png"><span>{u}</span></a></span>
<span class="ms-1 font-weight-bold">&middot;</span><span class="unselectable pointer ms-2"><span class="me-1"><svg class="icon icon-inline"></svg>{5 - i}</span></span><span class="ms-1 font-weight-bold">&middot;</span>
<span class="moment-time pointer unselectable" data-tippy-content="{title}">{age}</span></div><div class="md-div"><p>{text}</p></div>
<div class="d-flex justify-content-between justify-content-lg-start flex-wrap text-muted font-weight-bold"><button class="btn btn-link btn-animate text-muted" aria-label="Reply">Reply</button><button class="btn btn-link btn-animate text-muted" aria-label="more">&hellip;</button></div></article>{children}</li>"""

    first, second, third, fourth = items
    tree = node(
        0,
        first,
        f"""<ul class="comments">{node(1, second, f'<ul class="comments">{node(2, third, "")}</ul>')}</ul>""",
    ) + node(3, fourth, "")
    return f"""<html><head><title>Which distro for an old laptop? - Linux</title></head><body><nav class="navbar"><a class="navbar-brand" href="/">lemmy.example</a><a href="/communities">Communities</a><a href="/create_post">Create Post</a></nav>
<div class="container-lg"><div class="row"><main class="col-12 col-md-8"><div class="post-listing mt-2"><h1 class="h4 d-inline"><a href="/post/777">Which distro for an old laptop?</a></h1><div class="small text-muted">by <a href="/u/oldthinkpad">oldthinkpad</a> to <a href="/c/linux">linux</a> &middot; <span data-tippy-content="Friday, May 12, 2023 at 8:00:00 AM">1y</span></div>
<div class="md-div"><p>I have a ThinkPad from 2012 with 4 GB of RAM. Which distribution would you put on it for browsing and writing?</p></div></div>
<div class="comments"><ul class="comments">{tree}</ul></div></main>
<aside class="col-12 col-md-4 sidebar"><div class="card"><div class="card-body"><h5>linux</h5><ul class="list-inline small"><li class="list-inline-item">1.2K subscribers</li><li class="list-inline-item">45 users / day</li></ul><p>Everything about Linux.</p><h5>Moderators</h5><ul class="list-inline"><li><a href="/u/mod1">mod1</a></li><li><a href="/u/mod2">mod2</a></li></ul></div></div></aside></div></div></body></html>"""


LEMMY = [
    (
        "penguin",
        "Friday, May 12, 2023 at 9:15:00 AM",
        "1y",
        "Linux Mint with the Xfce edition runs well on 4 GB, and it is easy for someone new.",
    ),
    (
        "oldthinkpad",
        "Friday, May 12, 2023 at 9:40:00 AM",
        "1y",
        "Thanks, does it still support 32-bit? Not sure my CPU is 64-bit.",
    ),
    (
        "penguin",
        "Friday, May 12, 2023 at 10:02:00 AM",
        "1y",
        "A ThinkPad from 2012 has a 64-bit CPU, so any current release will do.",
    ),
    (
        "arch_btw",
        "Saturday, May 13, 2023 at 7:30:00 PM",
        "1y",
        "Debian with a light desktop is even leaner if you are fine setting it up yourself.",
    ),
]
