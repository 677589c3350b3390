"""Does a page build its comments, posts or body by script? What the static HTML says.

Signs, each general (no site is named):
- a JSON endpoint for the records named in the page: a `data-*` attribute of a comment or post
  container, or a `fetch`/`getJSON`/`XMLHttpRequest` URL in an inline script near comment or
  post words → fetched directly, cheaper than a browser;
- an empty comment container (a comment-named element with no text of its own);
- a comment count the page shows ("评论（25）", "共25条评论", "25 comments") at least two above
  the comments found, or a "load more" control;
- a known comment widget (the script or the element ids of common embeds);
- a body far shorter than the page's scripts (an application shell).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin

from lxml import etree

from topiccrawler.extract.parse import parse_html, text_content

RECORD_NAMES = re.compile(
    r"comment|reply|replies|review|discuss|post-?list|posts|thread|floor|评论|留言|回复|跟帖|楼层",
    re.I,
)
ENDPOINT_ATTRIBUTES = (
    "data-src",
    "data-url",
    "data-api",
    "data-endpoint",
    "data-source",
    "data-load",
)
# URLs in inline scripts: fetch("…"), $.getJSON("…"), axios.get("…"), xhr.open("GET", "…").
SCRIPT_URL = re.compile(
    r"""(?:fetch|getJSON|\.get|\.ajax|open)\s*\(\s*(?:["']GET["']\s*,\s*)?["']([^"'\s]+)["']"""
)
WIDGETS = re.compile(
    r"disqus|changyan|SOHUCS|livere|utteranc|giscus|commento|remark42|hypercomments|gitalk|"
    r"valine|twikoo|waline|fb-comments|comment-?widget|cmt-?widget|comments?\.js",
    re.I,
)
COUNT = re.compile(
    r"(?:评论|留言|回复|跟帖)\s*[（(\[]\s*(\d+)\s*[）)\]]|共\s*(\d+)\s*条(?:评论|留言|回复)|"
    r"(\d+)\s+(?:comments|replies|responses)\b",
    re.I,
)
LOAD_MORE = re.compile(
    r"加载更多|查看更多(?:评论|回复)?|更多评论|load more|show more|more comments", re.I
)
MIN_LIST = 2  # comments a shown count must announce: a single one is no list to complete
SHELL_BODY_CHARS = 200  # a body shorter than this …
SHELL_SCRIPT_CHARS = 20_000  # … on a page with this much inline script is an application shell


@dataclass(frozen=True)
class ScriptNeed:
    reason: str  # json-endpoint, empty-container, count, load-more, widget, shell
    endpoint: str | None = None  # absolute URL of the JSON the page names, if any

    @property
    def render(self) -> bool:
        """True when only a browser can complete the page."""
        return self.endpoint is None


def script_check_key(html: str, url: str, records_found: int, body_chars: int) -> tuple[str, ...]:
    """What a `script_need` answer computed elsewhere (an extraction worker) is keyed by
    (read_ahead.py): its inputs, the source by its length (nothing between extraction and the
    check changes it, and a key of 100 KB of text would cost a third of the check)."""
    return str(len(html)), url, str(records_found), str(body_chars)


def script_need(html: str, url: str, records_found: int, body_chars: int) -> ScriptNeed | None:
    """Why the page needs its scripts run (None: it does not), given how many comments and
    posts the static page gave and how long its body is."""
    try:
        root = parse_html(html)
    except Exception:  # noqa: BLE001 (an unparseable page has nothing to render either)
        return None
    endpoint = _named_endpoint(root, url)
    if endpoint is not None and records_found == 0:
        return ScriptNeed("json-endpoint", endpoint)
    for element in root.iter(etree.Element):
        names = f"{element.get('id') or ''} {element.get('class') or ''}"
        if (
            element.tag in ("div", "ul", "ol", "section")
            and RECORD_NAMES.search(names)
            and not text_content(element).strip()
            and records_found == 0
        ):
            return ScriptNeed("empty-container")
    text = text_content(root.find("body") if root.find("body") is not None else root)
    shown = max((int(next(g for g in m.groups() if g)) for m in COUNT.finditer(text)), default=0)
    if shown >= max(MIN_LIST, records_found + 2):  # one missing comment is no script's doing
        return ScriptNeed("count")
    if records_found and any(
        LOAD_MORE.search(text_content(e))
        for e in root.iter("button", "a")
        if len(text_content(e)) < 30
    ):
        return ScriptNeed("load-more")
    scripts = root.xpath("//script")
    if any(WIDGETS.search(f"{s.get('src') or ''} {s.get('id') or ''}") for s in scripts) or any(
        WIDGETS.search(e.get("id") or "") for e in root.iter(etree.Element)
    ):
        if records_found == 0:
            return ScriptNeed("widget")
    inline = sum(len(s.text or "") for s in scripts if not s.get("src"))
    if body_chars < SHELL_BODY_CHARS and inline > SHELL_SCRIPT_CHARS:
        return ScriptNeed("shell")
    return None


def _named_endpoint(root: etree._Element, url: str) -> str | None:
    """The JSON URL a comment or post container names (data-* attribute), or an inline
    script that mentions comments or posts fetches."""
    for element in root.iter(etree.Element):
        names = f"{element.get('id') or ''} {element.get('class') or ''}"
        if not RECORD_NAMES.search(names):
            continue
        for attribute in ENDPOINT_ATTRIBUTES:
            value = (element.get(attribute) or "").strip()
            if value and not value.startswith(("javascript:", "#")):
                return urljoin(url, value)
    for script in root.iter("script"):
        code = script.text or ""
        if script.get("src") or not RECORD_NAMES.search(code):
            continue
        for match in SCRIPT_URL.finditer(code):
            target = match.group(1)
            if ".json" in target or "/api/" in target:
                return urljoin(url, target)
    return None
