"""Written pages, batch 10 (written after batches 1-9 were fixed, scored before its own fixes):
support communities and Q&A: a Khoros-like thread (date and time in two spans, a rank line,
"Kudos (3)"), an Apple-Communities-like thread ("Level 1 (8 points)" beside the name), a
Zendesk-like comment list, a Microsoft-Q&A-like answer list (reputation points, an "Accepted
answer" label), and a Quora-like answer list (hashed class names, "Answered 2y")."""


def khoros(items):
    divs = "".join(
        f"""<div class="lia-message-view-wrapper lia-js-data-messageUid-{4000 + i}" id="M{4000 + i}"><div class="lia-quilt-row lia-quilt-row-header"><div class="lia-message-author-avatar"><img class="lia-user-avatar-message" src="/av.png"></div>
<div class="lia-message-author-username"><a class="lia-link-navigation lia-page-link lia-user-name-link" href="/t5/user/viewprofilepage/user-id/{70 + i}"><span class="login-bold">{u}</span></a></div><div class="lia-message-author-rank">{rank}</div>
<span class="DateTime lia-message-posted-date lia-component-common-widget-date"><span class="local-date">&lrm;{d}</span> <span class="local-time">{tm}</span></span></div>
<div class="lia-message-body-content"><p>{text}</p></div><div class="lia-quilt-row lia-quilt-row-footer"><a class="lia-button-image-kudos-give" href="#">Kudos</a> <span class="MessageKudosCount">Kudos ({i + 1})</span> <a href="#" class="lia-action-reply">Reply</a></div></div>"""
        for i, (u, rank, d, tm, text) in enumerate(items)
    )
    return f"""<html><head><title>Printer goes offline after sleep - Support Community</title></head><body><div class="lia-header"><a href="/">Community</a> <a href="/t5/printers/ct-p/printers">Printers</a></div>
<div class="lia-content"><h1 class="lia-message-subject">Printer goes offline after sleep</h1><div class="lia-thread">{divs}</div></div>
<div class="lia-sidebar"><div class="lia-panel"><h3>Top Kudoed Authors</h3><table><tr><td><a href="/u/1">inkjet_ian</a></td><td>125</td></tr><tr><td><a href="/u/2">tonerqueen</a></td><td>98</td></tr><tr><td><a href="/u/3">paperjam</a></td><td>77</td></tr></table></div></div></body></html>"""


KHOROS = [
    (
        "officemgr",
        "New member",
        "03-14-2023",
        "09:12 AM",
        "Our network printer goes offline every morning after it wakes from sleep. Restarting fixes it until the next night.",
    ),
    (
        "inkjet_ian",
        "Super Contributor",
        "03-14-2023",
        "10:40 AM",
        "Give the printer a reserved address in the router; after sleep it often gets a new one and the computers lose it.",
    ),
    (
        "officemgr",
        "New member",
        "03-15-2023",
        "08:05 AM",
        "Reserved the address yesterday and it stayed online this morning. Thank you!",
    ),
]


def apple(items):
    arts = "".join(
        f"""<article class="post-reply" id="reply-{600 + i}"><div class="post-author"><a class="author-link" href="/en/profile/{u}">{u}</a><span class="author-level">Level {lvl} ({pts} points)</span></div>
<div class="post-meta"><time class="post-date" datetime="{iso}">{shown}</time></div><div class="post-body"><p>{text}</p></div><div class="post-actions"><button class="helpful-button">Helpful</button> <button class="reply-button">Reply</button></div></article>"""
        for i, (u, lvl, pts, iso, shown, text) in enumerate(items)
    )
    return f"""<html><head><title>iPhone battery drains overnight - Apple Community</title></head><body><header class="community-header"><a href="/">Community</a> <a href="/en/iphone">iPhone</a></header>
<main><h1 class="post-title">iPhone battery drains overnight</h1><section class="thread">{arts}</section></main>
<aside class="community-sidebar"><h2>Similar questions</h2><ul><li><a href="/q/1">Battery health dropped fast</a> <span>12 replies</span></li><li><a href="/q/2">Phone warm while charging</a> <span>5 replies</span></li></ul></aside></body></html>"""


APPLE = [
    (
        "nightowl_ann",
        1,
        8,
        "2023-03-03T22:10:00Z",
        "Mar 3, 2023 10:10 PM",
        "My iPhone loses 30 percent overnight with nothing open. It started after the last update.",
    ),
    (
        "tech_tom",
        9,
        24512,
        "2023-03-04T07:25:00Z",
        "Mar 4, 2023 7:25 AM",
        "Check Settings, Battery for the app using it in the background, and turn off background refresh for it.",
    ),
    (
        "nightowl_ann",
        1,
        8,
        "2023-03-05T21:02:00Z",
        "Mar 5, 2023 9:02 PM",
        "It was a weather widget refreshing every few minutes. Removed it and the drain stopped.",
    ),
]


def zendesk(items):
    lis = "".join(
        f"""<li id="community_comment_{7000 + i}" class="comment"><div class="comment-wrapper"><div class="comment-info"><div class="comment-author"><div class="avatar comment-avatar"><img src="/z.png" alt="" class="user-avatar"></div>
<div class="comment-meta"><span title="{u}"><a href="/hc/en-us/profiles/{900 + i}-{u.replace(" ", "-")}">{u}</a></span><ul class="meta-group"><li class="meta-data"><time datetime="{iso}" title="{iso}" data-datetime="relative">{ago}</time></li></ul></div></div>
<section class="comment-body"><p>{text}</p></section></div><div class="comment-actions-container"><div class="comment-vote vote"><button type="button" class="vote-up">Up</button><span class="vote-sum">{i}</span><button type="button" class="vote-down">Down</button></div></div></div></li>"""
        for i, (u, iso, ago, text) in enumerate(items)
    )
    return f"""<html><head><title>Export reports to CSV – Help Center</title></head><body><header class="header"><a href="/hc/en-us">Help Center</a></header>
<main><article class="post"><h1 class="post-title">Export reports to CSV</h1><div class="post-body"><p>It would help a lot to export the monthly reports to CSV for our accounting tool.</p></div></article>
<section class="comment-section"><h2 class="comment-heading">Comments</h2><ul class="comment-list">{lis}</ul></section></main></body></html>"""


ZENDESK = [
    (
        "Maria Lopez",
        "2022-05-02T10:00:00Z",
        "2 years ago",
        "Same request from our team. We copy the numbers by hand every month at the moment.",
    ),
    (
        "Kai Tanaka",
        "2022-06-14T15:20:00Z",
        "2 years ago",
        "Plus one. Even a plain export without formatting would save us an afternoon.",
    ),
    (
        "Product Team",
        "2023-01-09T09:00:00Z",
        "1 year ago",
        "Thanks for the votes. CSV export is planned for the spring release.",
    ),
]


def msqa(items):
    divs = "".join(
        f"""<div class="answer{" accepted" if acc else ""}" id="answer-{300 + i}">{'<div class="accepted-answer-label"><span>Accepted answer</span></div>' if acc else ""}<div class="answer-meta"><a class="profile-url" href="/en-us/users/na/?userid={uid}">{u}</a> <span class="reputation">{rep} Reputation points</span> <local-time format="datetime" datetime="{iso}" class="is-visually-hidden">{iso}</local-time><span class="shown-date">{shown}</span></div>
<div class="answer-body"><p>{text}</p></div><div class="answer-footer"><button class="vote-button">{i + 2} votes</button> <a href="#" class="comment-link">Comment</a></div></div>"""
        for i, (u, uid, rep, iso, shown, text, acc) in enumerate(items)
    )
    return f"""<html><head><title>Azure function times out after 5 minutes - Microsoft Q&amp;A</title></head><body><header><a href="/en-us/">Learn</a> <a href="/en-us/answers/">Q&amp;A</a></header>
<main><h1 class="title">Azure function times out after 5 minutes</h1><div class="question-body"><p>My function stops after exactly five minutes although the job needs ten. What limits it?</p></div>
<div class="answers"><h2>{len(items)} answers</h2>{divs}</div></main></body></html>"""


MSQA = [
    (
        "Sam Greene",
        "aa1",
        "12,840",
        "2023-06-01T08:00:00Z",
        "Jun 1, 2023, 8:00 AM",
        "The Consumption plan defaults to a five minute timeout. Set functionTimeout in host.json, up to ten minutes.",
        True,
    ),
    (
        "Devika R",
        "bb2",
        "310",
        "2023-06-01T12:30:00Z",
        "Jun 1, 2023, 12:30 PM",
        "If the job can run longer than ten minutes, move it to a Premium plan or a durable function.",
        False,
    ),
]


def quora(items):
    divs = "".join(
        f"""<div class="q-box qu-pt--medium qu-borderBottom"><div class="q-flex qu-alignItems--center"><div class="q-inlineFlex"><img class="q-image qu-display--block" src="/q.png"></div><div class="q-box qu-ml--small"><span class="q-text qu-dynamicFontSize--small qu-bold"><a class="q-box Link___StyledBox-t2xg9c-0" href="/profile/{u.replace(" ", "-")}">{u}</a></span>
<div class="q-text qu-dynamicFontSize--small qu-color--gray">{cred} · {ago}</div></div></div><div class="q-box spacing_log_answer_content"><div class="q-text qu-wordBreak--break-word"><span class="q-box qu-userSelect--text"><p class="q-text qu-display--block">{text}</p></span></div></div>
<div class="q-flex qu-mt--small"><button class="q-click-wrapper">{i * 13 + 4} upvotes</button><button class="q-click-wrapper">Share</button></div></div>"""
        for i, (u, cred, ago, text) in enumerate(items)
    )
    return f"""<html><head><title>Is it worth learning Latin today? - Quora</title></head><body><div class="q-box qu-bg--raised"><a href="/">Quora</a> <a href="/answer">Answer</a></div>
<div class="q-box puppeteer_test_question_main"><div class="q-text puppeteer_test_question_title"><span>Is it worth learning Latin today?</span></div></div><div class="q-box">{divs}</div></body></html>"""


QUORA = [
    (
        "Helen Marsh",
        "Teacher of Classics",
        "Answered 2y",
        "Yes, if you enjoy languages: it makes the grammar of half of Europe transparent and you read Virgil as he wrote.",
    ),
    (
        "Raj Patel",
        "Software engineer",
        "Updated 1y",
        "For most people a living language is a better use of the time, unless you study history or law.",
    ),
    (
        "Ines Costa",
        "Linguist",
        "Answered 3y",
        "Latin trains close reading like nothing else. Whether that is worth two years depends on what you want from it.",
    ),
]
