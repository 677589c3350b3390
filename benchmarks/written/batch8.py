"""Written pages, batch 8 (written after batches 1-7 were fixed, scored before its own fixes):
kinds the held-out forum pages showed (a handful of posts, ten to forty records found): a
thread above a "who is online" list of members with their last-seen times and a "top posters"
table (plain <div>s, no landmark), a thread whose posts quote earlier posts with the quoted
author and time, and a thread above a "similar threads" list."""


def online_and_top(posts, online, top):
    ps = "".join(
        f"""<div class="post" id="p{i}"><div class="author-line"><a class="poster" href="/member/{u}">{u}</a> wrote on <span class="stamp">{t}</span></div><div class="message">{text}</div></div>"""
        for i, (u, t, text) in enumerate(posts)
    )
    on = "".join(
        f"""<div class="who"><a href="/member/{u}">{u}</a> <span class="seen">{t}</span> <span class="doing">Viewing thread: {where}</span></div>"""
        for u, t, where in online
    )
    tp = "".join(
        f"""<tr><td class="rank">{i + 1}</td><td><a href="/member/{u}">{u}</a></td><td class="count">{n} posts</td><td class="joined">Joined {j}</td></tr>"""
        for i, (u, n, j) in enumerate(top)
    )
    return f"""<html><head><title>Rear derailleur keeps skipping - Cycling Forum</title></head><body><div class="top"><a href="/">Cycling Forum</a> › <a href="/f/maintenance">Maintenance</a></div>
<h1>Rear derailleur keeps skipping</h1><div class="thread">{ps}</div>
<div class="online-box"><h3>Members online now</h3>{on}</div>
<div class="top-box"><h3>Top posters this month</h3><table class="top-table">{tp}</table></div></body></html>"""


ONLINE_POSTS = [
    (
        "gearhead",
        "Apr 2, 2024 7:10 pm",
        "Since I changed the chain the derailleur skips on the middle cogs under load. Any ideas?",
    ),
    (
        "wrenchy",
        "Apr 2, 2024 8:02 pm",
        "New chain on an old cassette often skips. Check the cassette for worn, shark-fin teeth.",
    ),
    (
        "gearhead",
        "Apr 3, 2024 6:45 am",
        "You were right, the cassette was worn out. New one fitted and no more skipping. Thanks!",
    ),
]
ONLINE = [
    (u, t, w)
    for u, t, w in [
        ("spinner", "2 minutes ago", "Tubeless sealant"),
        ("climbmax", "3 minutes ago", "Best saddle?"),
        ("roadie88", "5 minutes ago", "Forum index"),
        ("mtbmike", "6 minutes ago", "Brake bleed help"),
        ("cadence", "8 minutes ago", "Rear derailleur keeps skipping"),
        ("velo_vera", "9 minutes ago", "Forum index"),
        ("sprocket", "11 minutes ago", "Winter tyres"),
        ("bikepacker", "12 minutes ago", "Frame bags"),
    ]
]
TOP = [
    ("wrenchy", 214, "Mar 2015"),
    ("spinner", 187, "Jun 2018"),
    ("climbmax", 140, "Jan 2020"),
    ("mtbmike", 122, "Aug 2012"),
    ("cadence", 98, "Feb 2021"),
]


def quoting(posts):
    def one(i, u, t, quote, text):
        q = (
            f'<blockquote class="quote"><div class="quote-head">{quote[0]} said on {quote[1]}:</div><div class="quote-body">{quote[2]}</div></blockquote>'
            if quote
            else ""
        )
        return f"""<article class="message" id="post-{i}"><header class="message-head"><a class="message-user" href="/members/{u}">{u}</a> <time class="message-date" datetime="{t[0]}">{t[1]}</time></header><div class="message-content">{q}<div class="message-text">{text}</div></div><footer class="message-foot"><a href="#" class="like">Like</a> <a href="#" class="reply">Reply</a></footer></article>"""

    items = "".join(one(i, *p) for i, p in enumerate(posts))
    return f"""<html><head><title>Is a heat pump worth it in an old house?</title></head><body><nav class="crumbs"><a href="/">Home Forum</a> › <a href="/f/heating">Heating</a></nav><h1>Is a heat pump worth it in an old house?</h1>
<div class="messages">{items}</div></body></html>"""


QUOTING = [
    (
        "oldhouse",
        ("2024-01-10T09:00:00Z", "Jan 10, 2024"),
        None,
        "Our house is from 1920 with single glazing in half the rooms. Is a heat pump worth it or should we insulate first?",
    ),
    (
        "heatnerd",
        ("2024-01-10T11:30:00Z", "Jan 10, 2024"),
        ("oldhouse", "Jan 10, 2024", "Is a heat pump worth it or should we insulate first?"),
        "Insulate first. A heat pump in a leaky house needs big radiators and runs expensive.",
    ),
    (
        "plumber_pat",
        ("2024-01-11T08:15:00Z", "Jan 11, 2024"),
        (
            "heatnerd",
            "Jan 10, 2024",
            "Insulate first. A heat pump in a leaky house needs big radiators.",
        ),
        "Agreed, but you can size the pump for after the insulation and do both in one year.",
    ),
    (
        "oldhouse",
        ("2024-01-12T19:40:00Z", "Jan 12, 2024"),
        ("plumber_pat", "Jan 11, 2024", "you can size the pump for after the insulation"),
        "Good idea, we will get the windows done in spring and the pump in autumn.",
    ),
]


def similar(posts, threads):
    ps = "".join(
        f"""<li class="post-item"><div class="post-meta"><a href="/u/{u}" class="post-author">{u}</a><span class="post-time">{t}</span></div><div class="post-body">{text}</div></li>"""
        for u, t, text in posts
    )
    th = "".join(
        f"""<li class="similar-item"><a class="similar-title" href="/t/{70 + i}">{title}</a><span class="similar-by">{a}</span><span class="similar-replies">{r} replies</span><span class="similar-time">{t}</span></li>"""
        for i, (title, a, r, t) in enumerate(threads)
    )
    return f"""<html><head><title>Learning Rust after Python</title></head><body><div class="bar"><a href="/">Dev Talk</a></div><h1>Learning Rust after Python</h1><ul class="post-list">{ps}</ul>
<div class="similar"><h3>Similar threads</h3><ul class="similar-list">{th}</ul></div></body></html>"""


SIM_POSTS = [
    (
        "pyfan",
        "2024-05-01 10:00",
        "What is the hardest part of Rust for someone coming from Python?",
    ),
    (
        "crab",
        "2024-05-01 10:45",
        "The borrow checker, for a few weeks. After that lifetimes, mostly in structs.",
    ),
    ("pyfan", "2024-05-02 09:12", "Thanks, I will start with the book and small CLI tools."),
]
SIM_THREADS = [
    ("Rust vs Go for a first systems language", "gopher", 31, "2024-04-28 18:02"),
    ("Async Rust is confusing", "tokio_fan", 12, "2024-04-27 09:30"),
    ("Best Rust book in 2024?", "reader", 44, "2024-04-25 21:15"),
    ("Moving a Python service to Rust", "migrator", 19, "2024-04-22 13:40"),
]
