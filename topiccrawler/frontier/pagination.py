"""Which links of a forum page lead to more of the same thread or thread list (SPEC §5: a
thread's replies and a board's threads run over many pages). Such links continue the page
rather than leave it: they keep its hop count, its place in the relevance tunnel and its
priority."""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlsplit

# Anchor texts of pagers: page numbers, next/previous, "下一页", "›", "Weiter".
PAGER_TEXT = re.compile(
    r"^\s*(?:\d{1,5}|下一?页|上一?页|后页|前页|末页|尾页|首页|next(?: page)?|prev(?:ious)?(?: page)?|"
    r"older|newer|last|first|weiter|nächste(?: seite)?|vorherige|suivant|précédent|siguiente|"
    r"anterior|[›»→>]+|[‹«←<]+|\.\.\.|…)\s*[›»→>]*\s*$",
    re.I,
)
# Query parameters that number pages.
PAGE_PARAMETERS = frozenset(("page", "p", "pg", "pn", "start", "offset", "sort_page", "extra"))
_DIGITS = re.compile(r"\d+")


def is_pagination(url: str, page_url: str, anchor: str) -> bool:
    """True for a pager link of the page: its anchor reads like a pager, and its address is
    the page's with only numbers changed (thread-1001-2-1.html for thread-1001-1-1.html), or
    with a page-number parameter added or changed (/topic/501?page=2 for /topic/501)."""
    if not PAGER_TEXT.match(anchor or ""):
        return False
    link, page = urlsplit(url), urlsplit(page_url)
    if link.netloc != page.netloc or url == page_url:
        return False
    if _DIGITS.sub("#", link.path) == _DIGITS.sub("#", page.path) and link.path != page.path:
        return _query_without_pages(link.query) == _query_without_pages(page.query)
    if link.path.rstrip("/") == page.path.rstrip("/"):
        changed = set(parse_qsl(link.query)) ^ set(parse_qsl(page.query))
        return bool(changed) and all(key.lower() in PAGE_PARAMETERS for key, _ in changed)
    return False


def _query_without_pages(query: str) -> set[tuple[str, str]]:
    return {(k, v) for k, v in parse_qsl(query) if k.lower() not in PAGE_PARAMETERS}
