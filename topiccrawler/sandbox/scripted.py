"""Sandbox pages whose comments or posts only a browser (or a client that reads the page's
JSON) sees: a blog post whose comments come from an embedded widget that shows five at a time
behind a "load more" button, and a forum thread whose posts arrive by XHR from a JSON endpoint
the page names. Built with a random generator of their own, so the rest of the web is the same
byte for byte with or without them."""

from __future__ import annotations

import json
from html import escape

from topiccrawler.sandbox import render
from topiccrawler.sandbox.text import format_time
from topiccrawler.sandbox.web import BLOG, FORUM_DIV, FORUM_TABLE, TOPIC, Record, Resource, Truth

# Truth kinds whose records only a browser completes (the widget's list grows behind "load more");
# the other script-built pages name the JSON their records come from, fetched without one.
BROWSER_ONLY_KINDS = ("article-widget-comments",)

WIDGET_SCRIPT = """(function () {
  var box = document.getElementById("comments");
  fetch("/widget/threads/" + box.dataset.thread).then(function (r) { return r.json(); })
    .then(function (data) {
      var shown = 0, list = document.createElement("ol");
      list.className = "widget-comments";
      box.appendChild(list);
      var more = document.createElement("button");
      more.textContent = "加载更多评论";
      function show() {
        data.items.slice(shown, shown + 5).forEach(function (c) {
          var li = document.createElement("li");
          li.className = "widget-comment";
          li.innerHTML = '<div class="w-head"><span class="w-user"></span> <time class="w-time"></time></div><p class="w-text"></p>';
          li.querySelector(".w-user").textContent = c.user.nickname;
          li.querySelector(".w-time").textContent = c.created_at;
          li.querySelector(".w-text").textContent = c.content;
          list.appendChild(li);
        });
        shown += 5;
        if (shown >= data.items.length) { more.remove(); }
      }
      more.addEventListener("click", show);
      show();
      box.appendChild(more);
    });
})();
"""

XHR_THREAD_SCRIPT = """(function () {
  var box = document.getElementById("posts");
  fetch(box.getAttribute("data-api")).then(function (r) { return r.json(); }).then(function (posts) {
    box.innerHTML = "";
    posts.forEach(function (p, n) {
      var div = document.createElement("div");
      div.className = "post";
      div.innerHTML = '<div class="post-user"><a href="#"></a></div><div class="post-time"></div><div class="post-content"></div>';
      div.querySelector("a").textContent = p.author;
      div.querySelector(".post-time").textContent = p.time;
      div.querySelector(".post-content").textContent = p.text;
      box.appendChild(div);
    });
  });
})();
"""


def add_scripted_pages(builder) -> None:
    """Add the pages to the builder's web, and links to them from their sites' home pages."""
    state, clock, rng = builder.rng.getstate(), builder.clock, builder.rng
    rng.seed(f"scripted-{builder.web.seed}")
    try:
        _widget_post(builder)
        _xhr_thread(builder)
        add_active_thread(builder)
    finally:
        rng.setstate(state)
        builder.clock = clock


def _widget_post(builder) -> None:
    story = builder.story(TOPIC)
    comments = builder.records(12, True, story.published, "iso")
    path, thread = "/post/w1.html", "w1"
    builder.web.add(BLOG, "/static/comment-widget.js",
                    Resource("application/javascript", WIDGET_SCRIPT.encode()))  # fmt: skip
    payload = {
        "thread": thread,
        "items": [
            {"content": c.text, "user": {"nickname": c.author}, "created_at": c.time}
            for c in comments
        ],
    }
    builder.web.add(BLOG, f"/widget/threads/{thread}",
                    Resource("application/json", json.dumps(payload, ensure_ascii=False).encode()))  # fmt: skip
    site = builder.web.site_names[BLOG]
    body = f"""<header id="masthead"><a href="/">{escape(site)}</a></header>
<main><article class="entry">
<h1 class="entry-title">{escape(story.title)}</h1>
<div class="entry-meta">发布于 {format_time(story.published, "zh")} · {escape(story.author)}</div>
<div class="entry-content">
{"".join(f"<p>{escape(p)}</p>" for p in story.paragraphs)}
</div></article>
<div id="comments" class="comment-widget" data-thread="{thread}"></div>
<script src="/static/comment-widget.js" async></script></main>
<footer id="colophon">{escape(site)}</footer>"""
    markup = render.page_markup(f"{story.title} – {site}", body)
    truth = builder.article_truth(story, comments, kind=BROWSER_ONLY_KINDS[0])
    builder.add_page(BLOG, path, markup, truth)
    builder.homes[BLOG]["links"].insert(0, (story.title, path))


def _thread(builder, replies: int):
    """A tax story as a thread's opening post, and replies half an hour or so apart."""
    opening = builder.story(TOPIC)
    posts = [Record("".join(opening.paragraphs[:2]), opening.author,
                    format_time(opening.published, "iso"))]  # fmt: skip
    when = opening.published
    for _ in range(replies):
        when = builder.write.time_after(when, 30)
        posts.append(Record(builder.write.comment(True), builder.write.nickname(),
                            format_time(when, "iso")))  # fmt: skip
    return opening, posts


def _xhr_thread(builder) -> None:
    opening, posts = _thread(builder, replies=6)
    topic_id = 9001
    api = f"/api/topic/{topic_id}/posts.json"
    builder.web.add(FORUM_DIV, api, Resource(
        "application/json",
        json.dumps([p.as_dict() for p in posts], ensure_ascii=False).encode(),
    ))  # fmt: skip
    site = builder.web.site_names[FORUM_DIV]
    body = f"""<div class="header"><a href="/">{escape(site)}</a> / <a href="/">直播答疑</a></div>
<h1 class="topic-heading">{escape(opening.title)}</h1>
<div class="posts" id="posts" data-api="{api}"><p class="loading">帖子加载中…</p></div>
<script>{XHR_THREAD_SCRIPT}</script>
<div class="footer">{escape(site)}</div>"""
    markup = render.page_markup(f"{opening.title} - {site}", body)
    truth = Truth(kind="thread-xhr", relevant=True, topic=TOPIC, title=opening.title, posts=posts)
    builder.add_page(FORUM_DIV, f"/topic/{topic_id}", markup, truth)
    builder.homes[FORUM_DIV]["links"].insert(
        0, ("直播答疑：" + opening.title, f"/topic/{topic_id}")
    )


def add_active_thread(builder) -> None:
    """A plain forum thread that gets two replies on the server's day 1 (its page changes; the
    other pages do not), for revisits and conditional GET."""
    opening, posts = _thread(builder, replies=4)
    today, tomorrow = posts[:3], posts
    site = builder.web.site_names[FORUM_TABLE]
    path, topic_id = "/thread-9002-1-1.html", 9002
    for day, shown in ((0, today), (1, tomorrow)):
        markup = render.discuz_thread(site, "直播答疑", opening.title, shown, topic_id, 1, 1, 1)
        truth = Truth(kind="thread", relevant=True, topic=TOPIC, title=opening.title, posts=shown)
        if day == 0:
            builder.add_page(FORUM_TABLE, path, markup, truth)
        else:
            builder.web.changes.setdefault(day, {})[(FORUM_TABLE, path)] = Resource(
                "text/html", builder.html(markup), truth=truth
            )
    builder.homes[FORUM_TABLE]["links"].insert(0, ("答疑：" + opening.title, path))
