"""The sandbox's search engines: one index over the sandbox's pages, answered as a SearXNG JSON
API and as a Bing-like HTML result page.

Matching is what a user expects of a keyword engine: every query word must occur in the page
(title or text), `site:host` restricts to a host and its subdomains, results are ranked by
how often the words occur (title counts triple), ties broken by URL so answers are stable.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from html import escape
from urllib.parse import quote_plus

from topiccrawler.sandbox.resources import PORT_MARK, SandboxWeb

RESULTS_PER_PAGE = 10
_SITE = re.compile(r"\bsite:(\S+)")


@dataclass(frozen=True)
class Hit:
    url: str
    title: str
    snippet: str


class SearchIndex:
    def __init__(self, web: SandboxWeb):
        self.documents = []
        for host, path, resource in web.searchable():
            title, _, text = resource.searchable.partition("\n")
            self.documents.append((host, path, title, text))
        self.documents.sort()

    def search(self, query: str) -> list[Hit]:
        sites = [s.lower().strip(".") for s in _SITE.findall(query)]
        words = [w.strip('"') for w in _SITE.sub(" ", query).split() if w.strip('"')]
        if not words and not sites:
            return []
        scored = []
        for host, path, title, text in self.documents:
            if sites and not any(host == s or host.endswith("." + s) for s in sites):
                continue
            score = 0
            for word in words:
                count = title.count(word) * 3 + text.count(word)
                if count == 0:
                    break
                score += count
            else:
                scored.append((-score, host, path, title, text))
        scored.sort()
        return [
            Hit(f"http://{host}:{PORT_MARK}{path}", title, _snippet(text, words))
            for _, host, path, title, text in scored
        ]


def _snippet(text: str, words: list[str], width: int = 80) -> str:
    first = min((text.find(w) for w in words if w in text), default=0)
    start = max(0, first - 20)
    return text[start : start + width].replace("\n", " ")


def searxng_json(index: SearchIndex, query: str, page: int) -> bytes:
    """The shape of SearXNG's /search?format=json answer (the fields crawlers read)."""
    hits = index.search(query)
    chunk = hits[(page - 1) * RESULTS_PER_PAGE : page * RESULTS_PER_PAGE]
    answer = {
        "query": query,
        "number_of_results": len(hits),
        "results": [
            {
                "url": h.url,
                "title": h.title,
                "content": h.snippet,
                "engine": "sandbox",
                "engines": ["sandbox"],
                "score": 1.0 / (rank + 1),
                "category": "general",
            }
            for rank, h in enumerate(chunk)
        ],  # fmt: skip
        "answers": [],
        "suggestions": [],
        "unresponsive_engines": [],
    }
    return json.dumps(answer, ensure_ascii=False).encode("utf-8")


def bing_html(index: SearchIndex, query: str, first: int) -> bytes:
    """A result page with Bing's structure: li.b_algo > h2 > a, div.b_caption > p, a.sb_pagN."""
    hits = index.search(query)
    start = max(first, 1) - 1
    chunk = hits[start : start + RESULTS_PER_PAGE]
    items = "\n".join(
        f'<li class="b_algo"><h2><a href="{escape(h.url)}" h="ID=SERP,{start + i}">{escape(h.title)}</a></h2>'
        f'<div class="b_caption"><div class="b_attribution"><cite>{escape(h.url)}</cite></div>'
        f'<p class="b_lineclamp2">{escape(h.snippet)}</p></div></li>'
        for i, h in enumerate(chunk)
    )
    if not chunk:
        items = f'<li class="b_no"><h1>There are no results for <strong>{escape(query)}</strong></h1></li>'
    next_link = ""
    if start + RESULTS_PER_PAGE < len(hits):
        next_first = start + RESULTS_PER_PAGE + 1
        next_link = (
            f'<li><a class="sb_pagN" title="Next page" '
            f'href="/search?q={quote_plus(query)}&amp;first={next_first}">Next</a></li>'
        )
    page = f"""<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8"><title>{escape(query)} - 搜索</title></head>
<body><div id="b_header"><form action="/search"><input id="sb_form_q" name="q" value="{escape(query)}"></form></div>
<div id="b_content"><main aria-label="搜索结果"><ol id="b_results">
<li class="b_ans"><span class="sb_count">约 {len(hits)} 个结果</span></li>
{items}
<li class="b_pag"><nav><ul>{next_link}</ul></nav></li>
</ol></main></div></body></html>"""
    return page.encode("utf-8")
