"""A page found again through a better link moves up the queue.

Scrapy's scheduler drops a request for a URL it has seen, so a page keeps the priority of the
first link that named it: a fund report first seen as the hit of a query whose snippet said
nothing, or in a sports page's related links, waits behind the weak evidence it came with,
though a finance channel's list names it a moment later (a best-first crawler keeps each URL's
best priority). Scrapy's priority queues cannot move an entry, so the better discovery is queued
as a copy (`dont_filter`) at its priority, and when one of the URL's entries comes up the rest
are dropped (lazy deletion): the page is still fetched once.

The bookkeeping lives in memory: after a resume from JOBDIR a URL queued twice before the stop
may be fetched twice.
"""

from __future__ import annotations

from scrapy import Request

from topiccrawler.meta import (
    AUTHORITY_SITE,
    ENTRANCE,
    FRONTIER_FIRST,
    FRONTIER_RAISED,
    HOP_LIMIT,
    HOPS,
    PAGER_HOPS,
)

# What a page is recorded as, from the link that found it first: a copy queued for a better
# link keeps it (the page's entrance, its authority site's budget, its download slot).
IDENTITY = (ENTRANCE, AUTHORITY_SITE, "download_slot")
PENDING_MAX = 10_000  # first discoveries remembered between gating and scheduling, at most


def at_hop_limit(request: Request) -> bool:
    """True for a link whose page would be fetched at its site's depth limit (the spider's
    `hop_limit`; pager hops do not count)."""
    limit = request.meta.get(HOP_LIMIT)
    hops = request.meta.get(HOPS, 0) - request.meta.get(PAGER_HOPS, 0)
    return limit is not None and hops >= limit


class Rediscoveries:
    """Best queued priority per URL, and how many queue entries a raised URL has."""

    def __init__(self, gain: int):
        self.gain = gain  # priority points a new link must add to queue the page again
        # URL → best priority queued, whether a queue entry stops short of the depth limit, and
        # the first entry's identity (IDENTITY), which a copy keeps
        self.best: dict[str, tuple[int, bool, dict]] = {}
        self.entries: dict[str, int] = {}  # URL queued more than once → entries still queued
        self.taken: set[str] = set()  # URLs of `entries` one of whose entries came up
        # First discoveries gated but not yet through the scheduler (they wait with the other
        # outputs of their page while other pages' links are gated): a better link raises such
        # a request in place instead of queuing a copy, since the scheduler may yet refuse it
        # (its URL fetched long ago) after a copy had been fetched.
        self.pending: dict[str, Request] = {}

    def track(self, request: Request) -> bool:
        """Note a request on its way to the scheduler; True when it should be queued again
        (it is marked `dont_filter`): its URL waits at a priority `gain` or more below."""
        url, short = request.url, not at_hop_limit(request)
        known = self.best.get(url)
        if known is None or url in self.taken:
            if url not in self.taken:
                identity = {key: request.meta[key] for key in IDENTITY if key in request.meta}
                self.best[url] = (request.priority, short, identity)
                request.meta[FRONTIER_FIRST] = True
                if len(self.pending) >= PENDING_MAX:  # never scheduled (filtered on the way)
                    self.pending.clear()
                self.pending[url] = request
            return False
        best, queued_short, identity = known
        if request.priority < best + self.gain:
            return False
        if queued_short and not short:
            # Fetched from here the page would be at the depth limit, its links not followed,
            # and fetched again when its nearer entry is found: it waits where it is.
            return False
        self.best[url] = (request.priority, queued_short or short, identity)
        first = self.pending.get(url)
        if first is not None:  # not scheduled yet: it becomes this link, as a copy would
            first.priority = request.priority
            first.meta.update(
                (key, value) for key, value in request.meta.items() if key not in IDENTITY
            )
            first.meta[FRONTIER_FIRST] = True
            first.meta[FRONTIER_RAISED] = True
            return False
        request.meta.update(identity)  # found first as it was: its entrance, site and slot
        self.entries[url] = self.entries.get(url, 1) + 1
        request.dont_filter = True  # past the dupefilter; known URLs still apply (its meta)
        request.meta[FRONTIER_RAISED] = True
        return True

    def scheduled(self, request: Request) -> None:
        """The request reaches the scheduler (queued, or refused just after): a first
        discovery is no longer pending."""
        if self.pending.get(request.url) is request:
            del self.pending[request.url]

    def dropped(self, request: Request) -> bool:
        """The scheduler refused a first discovery (the URL was seen another way: a start URL,
        a canonical address, an entry already fetched): nothing of it is queued. Copies queued
        for better links meanwhile (between a link's gating and its scheduling other pages'
        links are gated) were raised over an entry that never was: the URL is queued or
        fetched by that other way, so they are dropped when they come up, not fetched a second
        time. True when there were such copies."""
        if not request.meta.get(FRONTIER_FIRST) or request.dont_filter:
            return False
        url = request.url
        known = self.best.get(url)
        if known is None:
            return False
        copies = self.entries.get(url, 1) - 1
        if copies <= 0 or url in self.taken:
            if known[0] == request.priority:
                del self.best[url]
            return False
        del self.best[url]
        self.entries[url] = copies
        self.taken.add(url)
        return True

    def superseded(self, request: Request) -> bool:
        """True for a queue entry of a URL another entry of which already came up (it is
        forgotten); call it for every entry that comes up."""
        url = request.url
        left = self.entries.get(url)
        if left is None or url not in self.taken:
            return False
        self._forget(url, left)
        return True

    def taken_up(self, request: Request) -> None:
        """The request leaves the queue to be fetched."""
        url = request.url
        self.best.pop(url, None)
        left = self.entries.get(url)
        if left is not None:
            self.taken.add(url)
            self._forget(url, left)

    def left_queue(self, request: Request) -> bool:
        """A queue entry was dropped unfetched (FRONTIER_MAX_QUEUED): forgotten, its URL's other
        entries still valid. True when no entry of the URL is left queued."""
        url = request.url
        left = self.entries.get(url)
        if left is None:
            self.best.pop(url, None)
            return True
        if left > 1:
            self.entries[url] = left - 1
            return False
        del self.entries[url]
        self.taken.discard(url)
        self.best.pop(url, None)
        return True

    def _forget(self, url: str, left: int) -> None:
        if left > 1:
            self.entries[url] = left - 1
        else:
            del self.entries[url]
            self.taken.discard(url)
