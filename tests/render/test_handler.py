"""Rendering in Debian's Chromium through the crawl: the browser completes a page built by
script, and what the page's script asks for on its own passes the address guard."""

from __future__ import annotations

import json

import pytest
from scrapy.utils.defer import deferred_f_from_coro_f
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.crawl import crawl
from tests.middlewares.test_address_guard import INTERNAL_HOST, RecordingServer
from tests.report.chromium import chromium
from topiccrawler.storage.models import Comment, Page

COMMENTS = [
    {
        "text": f"第{n}条评论：增值税发票新规很实用。",
        "author": f"网友{n}",
        "time": f"2026-03-0{n} 10:00",
    }
    for n in range(1, 7)
]


def scripted_page(internal_port: int) -> str:
    """Comments drawn by a script from data it carries, and two requests to an internal
    address the page has no business making."""
    data = json.dumps(COMMENTS, ensure_ascii=False)
    return f"""<html><head><meta charset="utf-8"><title>增值税发票新规解读</title></head><body>
<article><h1>增值税发票新规解读</h1><p>{"增值税发票管理新规自下月起施行，纳税人应及时了解变化。" * 4}</p></article>
<div id="comments" class="comment-list"></div>
<script>
const list = document.getElementById("comments");
for (const c of {data}) {{
  const item = document.createElement("div"); item.className = "comment";
  item.innerHTML = '<span class="user"></span> <span class="time"></span><p class="text"></p>';
  item.querySelector(".user").textContent = c.author;
  item.querySelector(".time").textContent = c.time;
  item.querySelector(".text").textContent = c.text;
  list.appendChild(item);
}}
fetch("http://{INTERNAL_HOST}:{internal_port}/secret/xhr").catch(() => {{}});
const frame = document.createElement("iframe");
frame.src = "http://{INTERNAL_HOST}:{internal_port}/secret/frame"; document.body.appendChild(frame);
</script></body></html>"""


@pytest.fixture
def internal():
    with RecordingServer(INTERNAL_HOST) as server:
        yield server


async def crawl_scripted_page(internal, tmp_path, sqlite_url, site_options: str = ""):
    """Crawl the one scripted page as an authority site; the crawler's stats."""
    with RecordingServer("127.0.0.1", {"/a.html": (200, {}, scripted_page(internal.port))}) as site:
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(
            f'[[authority]]\nname = "site"\nstart_urls = ["{site.url}/a.html"]\ndepth_limit = 0\n'
            + site_options,
            encoding="utf-8",
        )
        crawler = await crawl(
            {"DATABASE_URL": sqlite_url, "RELEVANCE_ENABLED": False, "SEARCH_MAX_QUERIES": 0},
            topic="tax",
            seeds=str(seeds),
        )
    return crawler.stats.get_stats()


@deferred_f_from_coro_f
async def test_the_browser_completes_the_page_and_the_guard_holds(internal, tmp_path, sqlite_url):
    chromium()  # fails in CI without it, skips elsewhere
    stats = await crawl_scripted_page(internal, tmp_path, sqlite_url)
    assert stats["topiccrawler/render/pages"] == 1
    assert stats["topiccrawler/render/needed/empty-container"] == 1
    assert internal.requests == []  # neither the XHR nor the frame reached it
    assert stats["topiccrawler/render/refused_subrequests"] >= 2
    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        page = session.scalars(select(Page)).one()
        stored = session.scalars(select(Comment).where(Comment.page_id == page.id)).all()
    engine.dispose()
    assert [(c.text, c.author, c.published_text) for c in stored] == [
        (c["text"], c["author"], c["time"]) for c in COMMENTS
    ]


@deferred_f_from_coro_f
async def test_render_mode_never_leaves_the_page_static(internal, tmp_path, sqlite_url):
    stats = await crawl_scripted_page(internal, tmp_path, sqlite_url, 'render = "never"\n')
    assert not stats.get("topiccrawler/render/pages") and not stats.get("playwright/page_count")
    assert internal.requests == []
