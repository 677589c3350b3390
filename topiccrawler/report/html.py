"""The report as one self-contained HTML file.

Everything crawled (titles, sites, summaries, names, keywords, URLs) is escaped as text; plots
are SVG images (data URIs), which run no script. A Content-Security-Policy forbids loading
anything from anywhere and runs only the table-sorting script, by its hash."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Sequence
from datetime import datetime
from html import escape
from urllib.parse import urlsplit

from topiccrawler.guard.text import drop_controls
from topiccrawler.report import plots
from topiccrawler.report.data import ReportData
from topiccrawler.storage.known_urls import as_utc

SORT_SCRIPT = (
    "document.querySelectorAll('table.sortable th').forEach(function(th){"
    "th.addEventListener('click',function(){"
    "var table=th.closest('table'),body=table.tBodies[0],"
    "i=Array.prototype.indexOf.call(th.parentNode.children,th),"
    "up=th.getAttribute('data-dir')!=='up';th.setAttribute('data-dir',up?'up':'down');"
    "var rows=Array.prototype.slice.call(body.rows);"
    "rows.sort(function(x,y){"
    "var a=x.cells[i].getAttribute('data-v')||x.cells[i].textContent,"
    "b=y.cells[i].getAttribute('data-v')||y.cells[i].textContent,"
    "na=parseFloat(a),nb=parseFloat(b),"
    "r=(!isNaN(na)&&!isNaN(nb))?na-nb:a.localeCompare(b);return up?r:-r;});"
    "rows.forEach(function(r){body.appendChild(r);});});});"
)
STYLE = """
body{font-family:"Noto Sans CJK SC","PingFang SC","Microsoft YaHei",system-ui,sans-serif;
margin:0 auto;max-width:1100px;padding:24px;color:#1a202c;background:#fff}
h1{font-size:26px;margin:0 0 4px}h2{font-size:19px;margin:32px 0 10px;border-bottom:2px solid #e2e8f0;
padding-bottom:4px}.meta{color:#718096;font-size:13px}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:18px 0}.card{background:#f7fafc;border:1px solid #e2e8f0;
border-radius:8px;padding:10px 16px;min-width:120px}.card b{display:block;font-size:24px;color:#2b6cb0}
.card span{font-size:12px;color:#4a5568}img.plot{max-width:100%;display:block;margin:8px 0}
table{border-collapse:collapse;font-size:13px;margin:8px 0;width:100%}th,td{border-bottom:1px solid #e2e8f0;
padding:4px 8px;text-align:left;vertical-align:top}th{background:#edf2f7;cursor:pointer;user-select:none}
td.n{text-align:right;font-variant-numeric:tabular-nums}.story{border-left:4px solid #2b6cb0;
padding:4px 12px;margin:14px 0}.story h3{margin:4px 0;font-size:16px}.muted{color:#718096}
.two{display:grid;grid-template-columns:1fr 1fr;gap:24px}.tag{display:inline-block;background:#ebf8ff;
border-radius:4px;padding:0 6px;margin:2px;font-size:12px}
"""


def render(data: ReportData) -> str:
    """The whole report for `data`, as HTML text."""
    script_hash = base64.b64encode(hashlib.sha256(SORT_SCRIPT.encode()).digest()).decode()
    policy = (
        "default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{script_hash}'; base-uri 'none'; form-action 'none'"
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="zh"><head><meta charset="utf-8">',
        f'<meta http-equiv="Content-Security-Policy" content="{escape(policy)}">',
        '<meta name="referrer" content="no-referrer">',
        f"<title>专题简报 · {text(data.topic)}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>专题简报 · Topic briefing: {text(data.topic)}</h1>",
        f'<p class="meta">Generated {data.generated_at:%Y-%m-%d %H:%M %Z}'
        + (f" · pages fetched since {data.since:%Y-%m-%d}" if data.since else "")
        + f" · {data.runs} crawl runs</p>",
        _cards(data),
        *_harvest(data),
        *_sites(data),
        *_stories(data),
        *_records(data),
        *_names(data),
        *_health(data),
        *_candidates(data),
        f"<script>{SORT_SCRIPT}</script></body></html>",
    ]
    return "\n".join(parts)


def text(value: object) -> str:
    """Crawled text for HTML: controls dropped, then escaped (quotes too, for attributes)."""
    return escape(drop_controls("" if value is None else str(value)), quote=True)


def link(url: str | None) -> str:
    """A URL as a link when it is http(s), else as text; escaped either way."""
    if not url:
        return ""
    if urlsplit(url).scheme in ("http", "https"):
        return f'<a href="{text(url)}" rel="noreferrer noopener">{text(url)}</a>'
    return text(url)


def table(head: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A sortable table; numbers are right-aligned and sort as numbers."""
    cells = []
    for row in rows:
        tds = []
        for value in row:
            if isinstance(value, int | float) and not isinstance(value, bool):
                shown = f"{value:.3f}" if isinstance(value, float) else str(value)
                tds.append(f'<td class="n" data-v="{value}">{shown}</td>')
            elif isinstance(value, Markup):
                tds.append(f"<td>{value}</td>")
            else:
                tds.append(f"<td>{text(value)}</td>")
        cells.append("<tr>" + "".join(tds) + "</tr>")
    header = "".join(f"<th>{escape(h)}</th>" for h in head)
    return (
        f'<table class="sortable"><thead><tr>{header}</tr></thead><tbody>'
        + "".join(cells)
        + "</tbody></table>"
    )


class Markup(str):
    """HTML this module built itself (already escaped)."""


def image(uri: str, alt: str) -> str:
    return f'<img class="plot" src="{uri}" alt="{escape(alt)}">'


def _cards(data: ReportData) -> str:
    rate = f"{data.harvest_rate:.2f}" if data.harvest_rate is not None else "–"
    cards = [
        (data.pages, "pages stored"), (data.kept, "pages kept (relevant)"), (rate, "harvest rate"),
        (len(data.sites), "sites"), (data.comments, "comments"), (data.posts, "forum posts"),
        (len(data.stories), "reposted stories"),
    ]  # fmt: skip
    return '<div class="cards">' + "".join(
        f'<div class="card"><b>{escape(str(v))}</b><span>{escape(k)}</span></div>' for v, k in cards
    ) + "</div>"  # fmt: skip


def _harvest(data: ReportData) -> list[str]:
    out = ["<h2>Harvest rate over the crawl · 收获率</h2>"]
    if not data.harvest:
        return out + ['<p class="muted">No page judged yet.</p>']
    out.append(image(plots.harvest(data.harvest), "harvest rate over the crawl"))
    out.append("<h2>Relevance scores · 相关度分布</h2>")
    out.append(
        image(
            plots.scores(data.kept_scores, data.dropped_scores, data.threshold, data.threshold_how),
            "relevance scores of kept and dropped pages",
        )
    )
    zeros = sum(1 for s in data.dropped_scores if s <= 0)
    how = {
        "auto": "estimated from the crawl's own scores (no number in the topic file)",
        "fixed": "the topic file's number",
    }.get(data.threshold_how, "read off the stored verdicts")
    eta = "–" if data.threshold is None else f"{data.threshold:.4f}"
    out.append(
        f'<p class="muted">η = {escape(eta)}, {escape(how)}. {len(data.kept_scores)} pages '
        f"kept, {len(data.dropped_scores)} dropped ({zeros} of them without a word of the "
        "topic, not drawn).</p>"
    )
    return out


def _sites(data: ReportData) -> list[str]:
    out = ["<h2>Pages kept per site · 站点</h2>"]
    if not data.sites:
        return out + ['<p class="muted">No page stored.</p>']
    top = data.sites[:15]
    out.append(image(plots.bars([s.site for s in top], {"kept": [s.kept for s in top],
                                "stored": [s.stored for s in top]}, "pages"), "pages per site"))  # fmt: skip
    out.append(table(("site", "stored", "kept", "share kept", "comments", "posts"), (
        (s.site, s.stored, s.kept, s.kept / s.stored if s.stored else 0.0, s.comments, s.posts)
        for s in data.sites
    )))  # fmt: skip
    return out


def _stories(data: ReportData) -> list[str]:
    out = ["<h2>Top stories and their spread · 热点事件与传播</h2>"]
    if not data.stories:
        return out + ['<p class="muted">No story was reposted by another site.</p>']
    rows = [
        (s.title, [(as_utc(p.published_at) or as_utc(p.fetched_at), p.site, p is s.first)
                   for p in s.pages])
        for s in data.stories
    ]  # fmt: skip
    out.append(image(plots.spread(rows), "how the top stories spread over time"))
    for story in data.stories:
        first = story.first
        reposts = ", ".join(
            f"{text(p.site)} ({_when(p.published_at or p.fetched_at)})" for p in story.pages[1:]
        )
        out.append(
            '<div class="story">'
            f"<h3>{text(story.title)}</h3>"
            f'<p class="meta">First published by {text(first.site)} on '
            f"{_when(first.published_at or first.fetched_at)} · {len(story.pages)} pages on "
            f"{len(story.sites)} sites · attention: {story.attention} comments and posts</p>"
            + (f"<p>{text(story.summary)}</p>" if story.summary else "")
            + f"<p><b>Reposted by</b> {reposts}</p>"
            + (f"<p><b>Keywords</b> {_tags(story.keywords)}</p>" if story.keywords else "")
            + (
                f"<p><b>Names</b> {_tags(f'{n} ({k})' for n, k in story.entities)}</p>"
                if story.entities
                else ""
            )
            + f'<p class="meta">{link(first.url)}</p></div>'
        )
    return out


def _records(data: ReportData) -> list[str]:
    out = ["<h2>Comments and posts per day · 评论与帖子</h2>"]
    if not data.records_per_day:
        return out + ['<p class="muted">No comment or forum post stored.</p>']
    out.append(image(plots.per_day(data.records_per_day), "comments and posts per day"))
    return out


def _names(data: ReportData) -> list[str]:
    out = ["<h2>Top keywords and names · 关键词与实体</h2>", '<div class="two"><div>']
    if data.keywords:
        top = data.keywords[:15]
        out.append(image(plots.bars([w for w, _ in top], {"weight": [v for _, v in top]},
                                    "summed keyword weight"), "top keywords"))  # fmt: skip
        out.append(table(("keyword", "weight"), data.keywords))
    else:
        out.append('<p class="muted">No keyword yet.</p>')
    out.append("</div><div>")
    if data.entities:
        out.append(table(("name", "kind", "mentions"), data.entities))
    else:
        out.append('<p class="muted">No person, place or organisation named yet.</p>')
    out.append("</div></div>")
    return out


def _health(data: ReportData) -> list[str]:
    out = ["<h2>Blocked and slow sites · 封锁与慢速站点</h2>"]
    if not data.health:
        return out + ['<p class="muted">No crawl run recorded.</p>']
    out.append(table(("site", "pages fetched", "mean answer time (ms)", "block pages seen"), (
        (h.site, h.fetched, h.mean_latency_ms if h.mean_latency_ms is not None else "–", h.blocked)
        for h in data.health
    )))  # fmt: skip
    return out


def _candidates(data: ReportData) -> list[str]:
    out = ["<h2>Candidate terms waiting for review · 待审候选词</h2>"]
    if not data.candidates:
        return out + ['<p class="muted">None waiting.</p>']
    out.append(
        table(
            ("term", "class", "concept", "found by", "score"),
            (
                (
                    t.term,
                    t.term_class,
                    t.concept,
                    t.provenance,
                    t.score if t.score is not None else "–",
                )
                for t in data.candidates
            ),
        )  # fmt: skip
    )
    out.append('<p class="meta">Accept or reject them with <code>topiccrawler terms</code>.</p>')
    return out


def _tags(values: Iterable[str]) -> str:
    return "".join(f'<span class="tag">{text(v)}</span>' for v in values)


def _when(value: datetime | None) -> str:
    value = as_utc(value)
    return f"{value:%Y-%m-%d %H:%M}" if value else "–"
