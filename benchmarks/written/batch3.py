"""Written pages, batch 3: a StackExchange-like question page (comments under the question and
the answers, an accepted answer, an "answered …" line in a user-named element), an
AnsPress-like Q&A page (microdata, a "Top users" widget) and a custom board whose posts are
two sibling rows (a header row and a body row) beside a "Who is online" list."""


def stackex(answers, qcomments):
    def comments(items):
        lis = "".join(
            f"""<li id="comment-{500 + i}" class="comment js-comment " data-comment-id="{500 + i}"><div class="js-comment-actions comment-actions"><div class="comment-score js-comment-edit-hide"><span title="number of upvotes" class="cool">{i + 2}</span></div></div>
<div class="comment-text js-comment-text-and-form"><div class="comment-body js-comment-edit-hide"><span class="comment-copy">{text}</span> &ndash;&nbsp;<div class="d-inline-flex ai-center"><a href="/users/{80 + i}/{u}" title="1,234 reputation" class="comment-user">{u}</a></div>
<span class="comment-date" dir="ltr"><a class="comment-link" href="#comment{500 + i}"><span title="{t}" class="relativetime-clean">{shown}</span></a></span></div></div></li>"""
            for i, (u, t, shown, text) in enumerate(items)
        )
        return f'<div class="comments js-comments-container"><ul class="comments-list js-comments-list">{lis}</ul></div>'

    def post(kind, n, u, t, shown, text, cmts, accepted=False):
        extra = " accepted-answer" if accepted else ""
        return f"""<div id="{kind}-{n}" class="{kind}{extra} js-{kind}" data-{kind}id="{n}"><div class="post-layout"><div class="votecell post-layout--left"><div class="js-voting-container"><button class="js-vote-up-btn">Up vote</button><div class="js-vote-count" itemprop="upvoteCount">{n % 17}</div><button class="js-vote-down-btn">Down vote</button></div></div>
<div class="{kind}cell post-layout--right"><div class="s-prose js-post-body" itemprop="text"><p>{text}</p></div>
<div class="mt24"><div class="d-flex fw-wrap ai-start jc-end gs8 gsy"><div class="post-signature flex--item fl0"><div class="user-info"><div class="user-action-time">{"asked" if kind == "question" else "answered"} <span title="{t}" class="relativetime">{shown}</span></div><div class="user-gravatar32"><a href="/users/{n}/{u}"><img src="/g.png" alt="{u}'s user avatar"></a></div>
<div class="user-details"><a href="/users/{n}/{u}">{u}</a><div class="-flair"><span class="reputation-score" title="reputation score">{n * 13}</span><span title="3 gold badges"><span class="badge1"></span><span class="badgecount">3</span></span></div></div></div></div></div></div></div>
<div class="post-layout--right js-post-comments-component">{comments(cmts) if cmts else ""}<div class="pt4"><a class="js-add-link comments-link" href="#">Add a comment</a></div></div></div></div>"""

    q = post("question", 11, *qcomments[0])
    ans = "".join(post("answer", 20 + i, *a, accepted=(i == 0)) for i, a in enumerate(answers))
    return f"""<html><head><title>How do I undo the last commit? - Stack Example</title></head><body><header class="s-topbar"><a href="/">Stack Example</a> <a href="/questions">Questions</a> <a href="/tags">Tags</a> <a href="/users">Users</a></header>
<div id="content"><div id="question-header"><h1 itemprop="name"><a href="/questions/11/how-do-i-undo" class="question-hyperlink">How do I undo the last commit?</a></h1></div>
<div id="mainbar">{q}<div id="answers"><div id="answers-header"><h2>{len(answers)} Answers</h2></div>{ans}</div></div>
<div id="sidebar"><div class="s-sidebarwidget"><div class="s-sidebarwidget--header">Linked</div><div class="linked"><div class="spacer"><a href="/q/1" class="question-hyperlink">Undo a git add</a></div><div class="spacer"><a href="/q/2" class="question-hyperlink">Revert a merge</a></div></div></div>
<div class="module sidebar-related"><h4>Related</h4><div class="related"><div class="spacer"><a href="/q/3"><div class="answer-votes answered-accepted">1523</div></a><a href="/q/3" class="question-hyperlink">How to modify existing commits?</a></div><div class="spacer"><a href="/q/4"><div class="answer-votes">812</div></a><a href="/q/4" class="question-hyperlink">Delete a branch locally and remotely</a></div><div class="spacer"><a href="/q/5"><div class="answer-votes">640</div></a><a href="/q/5" class="question-hyperlink">How to rename a local branch</a></div></div></div></div></div></body></html>"""


SE_Q = [
    (
        "newbie",
        "2020-03-01 10:00:00Z",
        "Mar 1, 2020 at 10:00",
        "I committed the wrong files to Git. How can I undo that commit before I push it to the server?",
        [
            (
                "helper",
                "2020-03-01 10:05:00Z",
                "Mar 1, 2020 at 10:05",
                "Do you want to keep the changes in the working tree or throw them away?",
            )
        ],
    )
]
SE_A = [
    (
        "gitguru",
        "2020-03-01 10:20:00Z",
        "Mar 1, 2020 at 10:20",
        "Use git reset --soft HEAD~1 to undo the commit and keep your changes staged, then fix and commit again.",
        [
            (
                "newbie",
                "2020-03-01 10:30:00Z",
                "Mar 1, 2020 at 10:30",
                "Thanks, this worked and my changes are still there.",
            ),
            (
                "pedant",
                "2020-03-01 11:00:00Z",
                "Mar 1, 2020 at 11:00",
                "Note that this rewrites history: never do it after pushing.",
            ),
        ],
    ),
    (
        "oldtimer",
        "2020-03-02 08:00:00Z",
        "Mar 2, 2020 at 8:00",
        "If you already pushed, prefer git revert HEAD, which adds a new commit that undoes the last one.",
        [],
    ),
]


def anspress():
    def one(n, u, t, shown, text, kind):
        return f"""<div id="post-{n}" class="ap-{kind} ap-q-outer" itemscope itemtype="https://schema.org/Answer"><div class="ap-avatar ap-pull-left"><a href="/profile/{u}/"><img alt="" src="/av.png" class="avatar avatar-50 photo"></a></div>
<div class="ap-cell clearfix"><div class="ap-cell-inner"><div class="ap-q-metas"><span class="ap-author" itemprop="author" itemscope itemtype="http://schema.org/Person"><a href="/profile/{u}/" itemprop="url"><span itemprop="name">{u}</span></a></span>
<a href="/question/q/answer/{n}/" class="ap-posted"><time itemprop="datePublished" datetime="{t}">Posted {shown}</time></a><span class="ap-comments-count"><span itemprop="commentCount">0</span> Comments</span></div>
<div class="ap-q-inner"><div class="question-content ap-q-content" itemprop="text"><p>{text}</p></div></div><div class="ap-post-footer clearfix"><a href="#" class="ap-btn-newcomment">Add a Comment</a></div></div></div></div>"""

    ans = "".join(
        one(100 + i, u, t, s, x, "answer") for i, (u, t, s, x) in enumerate(ANSPRESS_ANSWERS)
    )
    return f"""<html><head><title>Form does not show after update – Support Q&amp;A</title></head><body><header id="masthead"><a href="/">Support</a><nav><a href="/questions/">Questions</a> <a href="/ask/">Ask</a></nav></header>
<div id="anspress" class="anspress"><div class="ap-q-single"><h1 class="entry-title">Form does not show after update</h1>
<div id="post-90" class="ap-question-lr"><div class="ap-q-metas"><span class="ap-author"><a href="/profile/asker/"><span>asker</span></a></span> <time datetime="2021-05-01T18:00:00+00:00">Posted 3 years ago</time></div><div class="question-content ap-q-content"><p>After updating to version 4 the contact form does not appear anymore. What changed?</p></div></div>
<apanswersw><div id="ap-answers-c"><div class="ap-sorting-tab"><a href="#">Active</a> <a href="#">Voted</a> <a href="#">Newest</a> <a href="#">Oldest</a></div><div id="answers">{ans}</div></div></apanswersw></div></div>
<aside id="secondary"><section class="widget ap-widget-users"><h2 class="widget-title">Top users</h2><ul><li><a href="/profile/maria/">maria</a> <span>1,204 points</span></li><li><a href="/profile/devon/">devon</a> <span>860 points</span></li><li><a href="/profile/li_wei/">li_wei</a> <span>512 points</span></li></ul></section>
<section class="widget widget_recent_entries"><h2>Recent questions</h2><ul><li><a href="/q/1">Plugin slows down admin</a><span class="post-date">June 3, 2024</span></li><li><a href="/q/2">Translate the form labels</a><span class="post-date">June 1, 2024</span></li><li><a href="/q/3">Export answers to CSV</a><span class="post-date">May 28, 2024</span></li></ul></section></aside></body></html>"""


ANSPRESS_ANSWERS = [
    (
        "maria",
        "2021-05-02T09:00:00+00:00",
        "3 years ago",
        "Reinstall the plugin and clear the cache, then the form shows again on the page.",
    ),
    (
        "devon",
        "2021-05-02T12:30:00+00:00",
        "3 years ago",
        "Check the shortcode: it changed in version 4, the old one renders nothing now.",
    ),
    (
        "li_wei",
        "2021-05-03T07:45:00+00:00",
        "3 years ago",
        "Same problem here; switching the theme back to default fixed it for me.",
    ),
]
# The question, then the answers: (author, text)
ANSPRESS = [
    ("asker", "After updating to version 4 the contact form does not appear anymore. What changed?")
] + [(u, x) for u, _, _, x in ANSPRESS_ANSWERS]


def split_theme(posts):
    rows = "".join(
        f"""<div class="postHead"><span class="pName"><a href="/member.php?u={i}">{u}</a></span><span class="pDate">{t}</span><span class="pNum">#{i + 1}</span></div>
<div class="postBody"><div class="pText">{text}</div><div class="pSig">-- {sig}</div></div>"""
        for i, (u, t, text, sig) in enumerate(posts)
    )
    return f"""<html><head><title>Best tent for winter camping - Outdoor Board</title></head><body><div id="nav"><a href="/">Board index</a> » <a href="/f/camping">Camping</a></div>
<h2 class="threadTitle">Best tent for winter camping</h2><div id="thread">{rows}</div>
<div id="online"><h3>Who is online</h3><div class="onlineList"><div class="onlineRow"><a href="/member.php?u=7">frostbite</a> <span>last active 10:42</span></div><div class="onlineRow"><a href="/member.php?u=8">campfire</a> <span>last active 10:40</span></div><div class="onlineRow"><a href="/member.php?u=9">yeti</a> <span>last active 10:31</span></div><div class="onlineRow"><a href="/member.php?u=10">ranger_rick</a> <span>last active 10:15</span></div></div></div>
<div id="footer">Powered by a custom board © 2024</div></body></html>"""


SPLIT = [
    (
        "polarbear",
        "12-01-2023, 08:15 AM",
        "Looking for a four-season tent that two people can carry for a week in the mountains. Budget is flexible.",
        "Cold hands, warm heart",
    ),
    (
        "frostbite",
        "12-01-2023, 09:02 AM",
        "A geodesic dome holds up best in wind and snow load; tunnel tents are lighter but need careful pitching.",
        "Winter is coming",
    ),
    (
        "yeti",
        "12-01-2023, 11:47 AM",
        "I have used the same dome tent for ten winters. Get one with a vestibule big enough for your boots.",
        "Bigfoot was here",
    ),
    (
        "campfire",
        "12-02-2023, 07:30 PM",
        "Do not forget snow stakes: normal pegs do nothing in powder, and the tent will blow away.",
        "Marshmallows forever",
    ),
]
