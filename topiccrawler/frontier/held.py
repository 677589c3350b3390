"""Pages fetched at their site's hop limit, and the links they held (middlewares/hop_limit.py).

A page fetched at the hop limit is `limited` (its requested URL and hops), up to a cap of pages:
past it the page limited longest ago is forgotten with its held links (found nearer later, it is
not fetched again and its links stay cut off, as with no hop memory). Its links that were not
followed are `hold`-ed, up to a cap of links in all, with what following them later needs.
Should the page come up again fewer hops away, `take` hands them back once. This is one
process's store; the shared crawl's (distributed/held.py) keeps the same in Redis, so the worker
that finds the page nearer need not be the one that fetched it.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple


class HeldPage(NamedTuple):
    """A page fetched at the hop limit: what following its links later needs."""

    url: str  # the page's (response) URL
    site: str | None  # its authority site
    relevance: float | None  # its verdict
    is_relevant: bool | None
    identity: dict[str, Any]  # the meta its links keep of it (entrance, site, download slot)
    callback: str | None  # the links' callback and errback: names of spider methods
    errback: str | None
    links: list[tuple[str, str, str]]  # URL, anchor text, block

    def dumps(self) -> str:
        return json.dumps(self, ensure_ascii=False)

    @classmethod
    def loads(cls, text: str | bytes) -> HeldPage:
        url, site, relevance, is_relevant, identity, callback, errback, links = json.loads(text)
        return cls(url, site, relevance, is_relevant, identity, callback, errback,
                   [tuple(link) for link in links])  # fmt: skip


class Taken(NamedTuple):
    nearer: bool  # the page was fetched at the limit, more hops away than now
    page: HeldPage | None  # its held links, when they were kept


NOT_NEARER = Taken(False, None)


class HeldLinks:
    def __init__(self, max_links: int, max_pages: int = 0):
        self.max_links = max_links
        self.max_pages = max_pages  # pages remembered as fetched at the limit (0: no cap)
        self.hop_limited: dict[str, int] = {}  # requested URL → hops when fetched, oldest first
        self.held: dict[str, HeldPage] = {}
        self.total = 0  # links held, in all

    def limited(self, url: str, hops: int) -> None:
        self.hop_limited[url] = hops
        while self.max_pages and len(self.hop_limited) > self.max_pages:
            oldest = next(iter(self.hop_limited))
            del self.hop_limited[oldest]
            page = self.held.pop(oldest, None)
            if page is not None:
                self.total -= len(page.links)

    def hold(self, url: str, page: HeldPage) -> bool:
        """Keep the page's links; False when the cap would be passed (nothing kept)."""
        if self.total + len(page.links) > self.max_links:
            return False
        self.held[url] = page
        self.total += len(page.links)
        return True

    def take(self, url: str, hops: int) -> Taken:
        """The page at `url`, now `hops` away: nearer than when it was fetched at the limit?
        Then its held links (once; None if they were not kept)."""
        earlier = self.hop_limited.get(url)
        if earlier is None or hops >= earlier:
            return NOT_NEARER
        del self.hop_limited[url]
        page = self.held.pop(url, None)
        if page is not None:
            self.total -= len(page.links)
        return Taken(True, page)
