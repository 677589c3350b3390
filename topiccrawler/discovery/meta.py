"""The request.meta keys of feeds and sitemaps, in one place: who writes them, who reads them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from topiccrawler.items import FOUND_BY_WAYS
from topiccrawler.meta import ENTRANCE, HOPS, QUERY

DISCOVERY = "topiccrawler_discovery"
"""On a request for a feed, a sitemap or a robots.txt read for its `Sitemap:` lines: a dict
`{"kind": "feed" | "sitemap" | "robots", "site": authority site name, "depth": sitemap indexes
above it, "lastmod": the <lastmod> its index gave it (ISO), if any}`. Written by DiscoveryMiddleware; read by it (on the response), by the topic spider's
`parse` (which leaves such responses to it: they are no pages) and by BanMiddleware (such
answers are short by nature, no sign of a ban)."""

FOUND_BY = "topiccrawler_found_by"
"""On a page request made from a feed or sitemap entry: "feed" or "sitemap". Written by
DiscoveryMiddleware; read by it to set `PageItem.found_by`, stored as `pages.found_by`."""

CHANGED = "topiccrawler_changed"
"""True on a page request whose entry is dated after the page was last stored (its feed or
sitemap says it changed). Written by DiscoveryMiddleware; read by KnownUrlsMiddleware, which
fetches such a page although its revisit is not due."""

WAYS = FOUND_BY_WAYS  # values of PageItem.found_by


def found_by(meta: Mapping[str, Any]) -> str:
    """How the page of a request with this meta was found (one of WAYS)."""
    if meta.get(FOUND_BY):
        return str(meta[FOUND_BY])
    if meta.get(HOPS, 0):
        return "link"
    # A search hit carries its query (its entrance may read "authority" when the URL was
    # queued first from an authority site: frontier/rediscovery.py).
    return "search" if meta.get(ENTRANCE) == "search" or QUERY in meta else "start"
