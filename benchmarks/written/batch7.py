"""Written pages, batch 7 (written after batches 1-6 were fixed, scored before its own fixes):
a board whose posts are three sibling rows each (head, body, foot with a signature), a
vBulletin-like thread beside a "Latest threads" box of titles, authors and times, a blog
post whose sidebar lists recent comments (author, excerpt, date) above its own comments, a
mailing-list archive (messages with From/Date headers), and a product page with reviews
("Reviewed in … on March 3, 2023", helpful counts)."""


def three_rows(posts):
    rows = "".join(
        f"""<div class="p-head"><b class="p-user"><a href="/u/{u}">{u}</a></b> <span class="p-when">{t}</span></div>
<div class="p-body">{text}</div>
<div class="p-foot"><span class="p-sig">{sig}</span> <a href="/quote/{i}">Quote</a> <a href="/report/{i}">Report</a></div>"""
        for i, (u, t, text, sig) in enumerate(posts)
    )
    return f"""<html><head><title>Sourdough starter smells like acetone</title></head><body><div class="crumbs"><a href="/">Bread Forum</a> › <a href="/c/sourdough">Sourdough</a></div>
<h2>Sourdough starter smells like acetone</h2><div class="posts">{rows}</div><div class="pager"><a href="?p=2">2</a> <a href="?p=3">3</a></div></body></html>"""


THREE = [
    (
        "crumbqueen",
        "Jan 4, 2024 8:02 am",
        "My starter smells like nail polish remover after two days. Is it dead or just hungry?",
        "Baking since 2019",
    ),
    (
        "levain_larry",
        "Jan 4, 2024 9:40 am",
        "It is hungry. Feed it twice a day at a higher ratio and the smell goes away in a few days.",
        "Flour, water, patience",
    ),
    (
        "ryeguy",
        "Jan 4, 2024 1:15 pm",
        "Some rye flour in the feed helps too. Mine smelled the same the first week.",
        "Rye not?",
    ),
    (
        "crumbqueen",
        "Jan 6, 2024 7:55 pm",
        "Fed it twice a day and it smells yeasty now. Thanks, both of you!",
        "Baking since 2019",
    ),
]


def vbulletin(posts, latest):
    lis = "".join(
        f"""<li class="postbitlegacy postbitim postcontainer old" id="post_{300 + i}"><div class="posthead"><span class="postdate old"><span class="date">{d}<span class="time">{tm}</span></span></span><span class="nodecontrols"><a name="post{300 + i}" href="#post{300 + i}" class="postcounter">#{i + 1}</a></span></div>
<div class="postdetails"><div class="userinfo"><div class="username_container"><a class="username offline popupctrl" href="member.php?u={40 + i}"><strong>{u}</strong></a></div><span class="usertitle">{title}</span><dl class="userinfo_extra"><dt>Join Date</dt><dd>{join}</dd><dt>Posts</dt><dd>{(i + 1) * 123}</dd></dl></div>
<div class="postbody"><div class="postrow"><div class="content"><div id="post_message_{300 + i}"><blockquote class="postcontent restore">{text}</blockquote></div></div></div></div></div></li>"""
        for i, (u, title, join, d, tm, text) in enumerate(posts)
    )
    side = "".join(
        f"""<li class="widget_post_item"><h5 class="widget_post_header"><a href="showthread.php?t={70 + j}">{t}</a></h5><div class="meta">by <a href="member.php?u={90 + j}">{a}</a>, <span class="date">{dt}</span></div></li>"""
        for j, (t, a, dt) in enumerate(latest)
    )
    return f"""<html><head><title>Best budget tube amp? - Guitar Forum</title></head><body><div id="header"><a href="/">Guitar Forum</a></div><div id="breadcrumb"><a href="forum.php">Forum</a> › <a href="forumdisplay.php?f=2">Amps</a></div>
<div id="content_container"><div id="content"><div id="postlist" class="postlist restrain"><h2 class="title">Best budget tube amp?</h2><ol id="posts" class="posts">{lis}</ol></div></div></div>
<div id="sidebar_container"><div class="block"><h4 class="blocksubhead">Latest Threads</h4><ul class="blockrow">{side}</ul></div></div></body></html>"""


VB = [
    (
        "tonechaser",
        "Junior Member",
        "Mar 2019",
        "03-14-2023,",
        " 09:12 PM",
        "Looking for a tube amp under 500 for home practice. Low wattage, decent clean channel.",
    ),
    (
        "valve_vic",
        "Senior Member",
        "Aug 2011",
        "03-14-2023,",
        " 10:03 PM",
        "A 5 watt head with an attenuator is the usual answer. Cleans are fine at bedroom volume.",
    ),
    (
        "fuzzface",
        "Member",
        "Jan 2020",
        "03-15-2023,",
        " 07:48 AM",
        "Used market is your friend here. Plenty of 15 watt combos around that price.",
    ),
]
VB_LATEST = [
    ("Pickup swap on a budget strat", "strat_sam", "03-15-2023, 08:10 AM"),
    ("Which pedalboard power supply?", "boardbuilder", "03-15-2023, 07:59 AM"),
    ("String gauge for drop C", "lowtuner", "03-15-2023, 07:30 AM"),
]


def blog_recent(comments, recent):
    ol = "".join(
        f"""<li class="comment even thread-even depth-1" id="comment-{40 + i}"><article id="div-comment-{40 + i}" class="comment-body"><footer class="comment-meta"><div class="comment-author vcard"><img alt="" src="/g.png" class="avatar avatar-32"><b class="fn">{u}</b> <span class="says">says:</span></div>
<div class="comment-metadata"><a href="#comment-{40 + i}"><time datetime="{iso}">{shown}</time></a></div></footer><div class="comment-content"><p>{text}</p></div><div class="reply"><a rel="nofollow" class="comment-reply-link" href="#">Reply</a></div></article></li>"""
        for i, (u, iso, shown, text) in enumerate(comments)
    )
    side = "".join(
        f"""<li class="recentcomments"><span class="comment-author-link"><a href="/u/{a}">{a}</a></span> on <a href="/p/{j}#comment-{j}">{post}</a><div class="rc-excerpt">{ex}</div><span class="rc-date">{dt}</span></li>"""
        for j, (a, post, ex, dt) in enumerate(recent)
    )
    return f"""<html><head><title>Pruning tomatoes: suckers or not? – Garden Notes</title></head><body><header><a href="/">Garden Notes</a></header>
<aside id="secondary" class="widget-area"><section class="widget widget_recent_comments"><h2 class="widget-title">Recent Comments</h2><ul id="recentcomments">{side}</ul></section></aside>
<main><article class="post"><h1 class="entry-title">Pruning tomatoes: suckers or not?</h1><div class="entry-content"><p>{"Indeterminate tomatoes grow side shoots in every leaf axil; removing some of them keeps the plant airy and the fruit larger. " * 4}</p></div></article>
<div id="comments" class="comments-area"><h2 class="comments-title">{len(comments)} thoughts on “Pruning tomatoes”</h2><ol class="comment-list">{ol}</ol></div></main></body></html>"""


BLOG = [
    (
        "Greta",
        "2023-06-10T08:12:00+00:00",
        "June 10, 2023 at 8:12 am",
        "I stopped pruning last year and got twice the tomatoes, just smaller ones.",
    ),
    (
        "Omar",
        "2023-06-11T17:40:00+00:00",
        "June 11, 2023 at 5:40 pm",
        "In a humid summer the airflow matters more than yield. I prune to two stems.",
    ),
    (
        "Lucia",
        "2023-06-12T06:05:00+00:00",
        "June 12, 2023 at 6:05 am",
        "Do you prune cherry tomatoes the same way, or leave them bushy?",
    ),
]
BLOG_RECENT = [
    (
        "Hank",
        "Composting in winter",
        "Keep the pile big enough to hold its heat, at least a cubic metre.",
        "June 9, 2023",
    ),
    (
        "Ines",
        "Slugs and beer traps",
        "The traps worked until the hedgehogs found them first, which was fine by me.",
        "June 8, 2023",
    ),
    (
        "Paul",
        "Raised beds on clay",
        "Break up the clay under the bed or the water has nowhere to go.",
        "June 7, 2023",
    ),
]


def mailing(messages):
    items = "".join(
        f"""<div class="message" id="msg{i}"><table class="headers"><tr><th>From:</th><td><a href="/people/{u.split()[0].lower()}">{u}</a> &lt;{u.split()[0].lower()}@example.test&gt;</td></tr><tr><th>Date:</th><td>{d}</td></tr><tr><th>Subject:</th><td>Re: [dev] Release 3.2 freeze</td></tr></table>
<pre class="body">{text}</pre></div>"""
        for i, (u, d, text) in enumerate(messages)
    )
    return f"""<html><head><title>[dev] Release 3.2 freeze - dev mailing list archive</title></head><body><div class="nav"><a href="/lists/">Lists</a> › <a href="/lists/dev/">dev</a> › <a href="/lists/dev/2024-02/">February 2024</a></div>
<h1>[dev] Release 3.2 freeze</h1><div class="thread">{items}</div><div class="nav-bottom"><a href="/lists/dev/2024-02/thread.html">thread index</a> <a href="/lists/dev/2024-02/date.html">date index</a></div></body></html>"""


MAIL = [
    (
        "Ada Park",
        "Mon, 12 Feb 2024 09:15:02 +0100",
        "Hi all,\nthe 3.2 branch is cut. Please only merge bug fixes from now on.\nAda",
    ),
    (
        "Ben Ortiz",
        "Mon, 12 Feb 2024 11:40:55 +0100",
        "Thanks Ada. The flaky test in the scheduler still needs a fix before the release; I will send a patch today.",
    ),
    (
        "Chen Li",
        "Tue, 13 Feb 2024 08:02:13 +0100",
        "Patch reviewed and merged. The nightly is green again.",
    ),
]


def reviews(items):
    divs = "".join(
        f"""<div id="R{9000 + i}" data-hook="review" class="a-section review aok-relative"><div class="a-profile-content"><span class="a-profile-name">{u}</span></div>
<div class="a-row"><i data-hook="review-star-rating" class="a-icon a-icon-star a-star-{stars}"><span class="a-icon-alt">{stars}.0 out of 5 stars</span></i> <a data-hook="review-title" class="review-title" href="/review/R{9000 + i}"><span>{title}</span></a></div>
<span data-hook="review-date" class="a-size-base a-color-secondary review-date">Reviewed in the United States on {d}</span><div class="a-row review-format-strip"><span data-hook="avp-badge" class="a-size-mini a-color-state a-text-bold">Verified Purchase</span></div>
<div class="a-row review-data"><span data-hook="review-body" class="review-text"><span>{text}</span></span></div><div class="a-row"><span data-hook="helpful-vote-statement" class="cr-vote-text">{(i + 1) * 7} people found this helpful</span> <a class="a-link-normal" href="#">Helpful</a> <a href="#">Report</a></div></div>"""
        for i, (u, stars, title, d, text) in enumerate(items)
    )
    return f"""<html><head><title>Amazon.example: Stainless Steel Kettle 1.7L</title></head><body><div id="nav-main"><a href="/">Home</a> <a href="/deals">Deals</a> <a href="/cart">Cart</a></div>
<div id="dp"><h1 id="title"><span id="productTitle">Stainless Steel Kettle 1.7L</span></h1><div id="feature-bullets"><ul><li>Boils 1.7 litres in under four minutes</li><li>Auto shut-off and boil-dry protection</li></ul></div></div>
<div id="cm-cr-dp-review-list" class="a-section review-views">{divs}</div>
<div id="sims"><h2>Customers who viewed this item also viewed</h2><ol><li><a href="/dp/1">Glass Electric Kettle</a><span class="a-price">$29.99</span><span class="a-icon-alt">4.5 out of 5 stars</span></li><li><a href="/dp/2">Gooseneck Kettle</a><span class="a-price">$49.99</span><span class="a-icon-alt">4.6 out of 5 stars</span></li></ol></div></body></html>"""


REVIEWS = [
    (
        "Jordan",
        5,
        "Fast and quiet",
        "March 3, 2023",
        "Boils faster than my old one and the lid does not drip. Very happy with it after a month.",
    ),
    (
        "Priya S.",
        2,
        "Handle gets hot",
        "April 18, 2023",
        "The handle gets too hot to hold after boiling a full kettle. Otherwise it works.",
    ),
    (
        "mike_t",
        4,
        "Good value",
        "May 2, 2023",
        "Solid for the price. The water level window is hard to read in a dark kitchen.",
    ),
]
