"""Is this response a ban (the site refusing the crawl, not a page)? Status codes that mean
"go away" (403, 429, 503), captcha and "verify you are human" pages, redirects to verification
hosts, and pages much shorter than the site's usual (an empty shell in place of the page: the
middleware also asks that it have next to no links, as a site's own small index pages do have
them)."""

from __future__ import annotations

import re
import statistics
from collections import defaultdict, deque

from scrapy.http import Response, TextResponse

BAN_STATUSES = frozenset({403, 429, 503})
CAPTCHA = re.compile(
    r"captcha|verify you are (?:a )?human|are you a robot|unusual traffic|access denied|"
    r"安全验证|人机验证|验证码|滑动验证|请完成验证|访问过于频繁|异常访问|请求过于频繁",
    re.I,
)
VERIFY_LOCATION = re.compile(r"captcha|verify|challenge|/sec/|antibot|validate", re.I)
CHECK_CHARS = 20_000  # captcha pages are small: the start of a page tells


def ban_reason(response: Response) -> str | None:
    """Why this response is a ban, from the response alone; None if it is not one."""
    if response.status in BAN_STATUSES:
        return f"HTTP {response.status}"
    if 300 <= response.status < 400:
        location = response.headers.get(b"Location", b"").decode("latin-1")
        if VERIFY_LOCATION.search(location):
            return "redirect to a verification page"
        return None
    if isinstance(response, TextResponse) and len(response.body) < 200_000:
        head = response.text[:CHECK_CHARS]
        match = CAPTCHA.search(head)
        # A page about captchas can mention one; a captcha page is little else.
        if match and len(_visible(head)) < 2_000:
            return f"captcha page ({match.group(0)})"
    return None


def _visible(html: str) -> str:
    return re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", html))
    )


class PageSizes:
    """The usual size of a site's pages, to notice one that is suddenly much shorter."""

    def __init__(self, window: int = 50, minimum_pages: int = 10, share: float = 0.1):
        self.sizes: dict[str, deque[int]] = defaultdict(lambda: deque(maxlen=window))
        self.minimum_pages = minimum_pages
        self.share = share

    def suspicious(self, host: str, size: int) -> bool:
        sizes = self.sizes[host]
        return len(sizes) >= self.minimum_pages and size < self.share * statistics.median(sizes)

    def add(self, host: str, size: int) -> None:
        self.sizes[host].append(size)
