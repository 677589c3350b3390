"""Which static pages show that their comments, posts or body are built by script (pages we
wrote, one per sign), and that ordinary pages show none."""

from __future__ import annotations

import pytest

from topiccrawler.render.detect import script_need

URL = "http://news.example/a/1.html"
ARTICLE = "<p>" + "国家税务总局发布公告，进一步规范增值税发票管理。" * 6 + "</p>"


def page(extra: str, body: str = ARTICLE) -> str:
    return f"<html><head><title>t</title></head><body><div class='article'>{body}</div>{extra}</body></html>"


@pytest.mark.parametrize(
    ("extra", "endpoint"),
    [
        ('<ul class="comment-list" data-src="/api/comments/7.json"></ul>', "http://news.example/api/comments/7.json"),
        ('<div id="posts" data-api="https://bbs.example/api/t/9/posts"></div>', "https://bbs.example/api/t/9/posts"),
        ('<div id="c"></div><script>var box = "comments"; fetch("/api/v1/comments?id=7").then(r => r.json())</script>',
         "http://news.example/api/v1/comments?id=7"),
        ("<div id='c'></div><script>$.getJSON('/cmt/7.json', function (replies) {})</script>",
         "http://news.example/cmt/7.json"),
    ],
)  # fmt: skip
def test_a_named_json_endpoint_is_fetched_directly(extra, endpoint):
    need = script_need(page(extra), URL, records_found=0, body_chars=300)
    assert need is not None and need.reason == "json-endpoint" and need.endpoint == endpoint
    assert not need.render


@pytest.mark.parametrize(
    ("extra", "found", "reason"),
    [
        ('<div id="comments" class="comment-widget"></div><script src="/w.js"></script>', 0, "empty-container"),
        ("<h3>网友评论（25）</h3><ul><li>好</li></ul>", 3, "count"),
        ("<p>共 12 条评论</p>", 0, "count"),
        ("<h3>48 comments</h3>", 10, "count"),
        ('<ol class="x"><li>a</li></ol><button>加载更多评论</button>', 5, "load-more"),
        ('<div id="disqus_thread">loading</div><script src="https://x.disqus.com/embed.js"></script>', 0, "widget"),
    ],
)  # fmt: skip
def test_signs_that_only_a_browser_completes(extra, found, reason):
    need = script_need(page(extra), URL, records_found=found, body_chars=300)
    assert need is not None and need.reason == reason and need.render


def test_an_application_shell_is_rendered():
    shell = page(f"<script>{'var x = 1;' * 3000}</script>", body='<div id="app"></div>')
    assert script_need(shell, URL, records_found=0, body_chars=0).reason == "shell"


@pytest.mark.parametrize(
    ("extra", "found"),
    [
        ("", 0),  # an article without comments
        ("<h3>网友评论（3）</h3>" + "<div class='c'>好文章</div>" * 3, 3),  # all its comments there
        ("<h3>网友评论（1）</h3><div class='c'>好文章</div>", 0),  # one the extractor missed
        ("<h3>网友评论（6）</h3>", 5),  # one short of the count
        ('<div class="comments"><p class="empty">暂无评论，快来抢沙发！</p></div>', 0),  # none yet
        ("<script src='/analytics.js'></script><script>var a = 1;</script>", 0),
        ('<ul class="comment-list" data-src="/api/comments/7.json"><li>x</li></ul>', 4),  # static
    ],
)  # fmt: skip
def test_ordinary_pages_are_never_rendered(extra, found):
    assert script_need(page(extra), URL, records_found=found, body_chars=300) is None


def test_unparseable_input_needs_nothing():
    assert script_need("", URL, 0, 0) is None
    assert script_need("\x00\x01 binary", URL, 0, 0) is None
