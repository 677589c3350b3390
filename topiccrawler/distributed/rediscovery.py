"""Rediscovery in a shared crawl: a queued page found again through a better link moves up the
shared frontier in place, keeping what it was queued as.

In one process the frontier raises a URL's priority when a link FRONTIER_REDISCOVERY_GAIN points
or more better than the one it is queued under turns up (frontier/rediscovery.py). Over Redis the
seen-URL filter knows the URL and, without this, the better link is dropped: the page waits at its
first link's priority. Here every queued link the frontier ranked has an entry in one hash of
the crawl, `where`: the first WHERE_KEY_BYTES bytes of its fingerprint → its site and score (its
place in the site's queue). A link whose URL the filter knows looks its place up in the same
script that tests the filter; when it is still queued at a priority `gain` or more below, the
script answers with the entries at that place, and the worker rebuilds the queued request
(`raised`) and replaces it (SharedFrontier.move: nothing happens when a worker took it
meanwhile, so a request in flight is never queued a second time, and one taken back from a dead
worker is queued once, as it was).

The rebuilt request keeps everything it was queued with: entrance, authority site, download
slot, site budget, hop limit, callback and errback, and whatever else is in its meta. It takes
from the better link only its priority and the frontier's features it was computed from; when
both are links (not search hits), also the anchor text and block the link classifier reads
again and the irrelevant pages in a row before the link (LINK_KEYS), and when the better link
has fewer hops from the same entrance and site, its hops (NEARER_KEYS). What a request is
stays whole: a link never takes a hit's hop count of 0 (it would pass for a hit without its
query), a hit never takes a link's.

An index entry goes when its request is popped (`taken`, sent in batches with the scheduler's
sweep) unless the request is queued at its place again by then (taken back from a dead worker:
it can be raised again). Pushes, moves and rescorings keep it up to date (SharedFrontier.where).
With band lists (REDIS_FRONTIER_BAND, distributed/bands.py) the same steps go through that
layout's index and scripts: a place is a band and a position there, a move leaves a tombstone.
Repeats of a link below the gain do not reach Redis: the worker remembers the best priority it
sent for each URL (distributed/scheduler.py).
"""

from __future__ import annotations

from collections.abc import Callable

from scrapy import Request

from topiccrawler.distributed.bands import BandedFrontier
from topiccrawler.distributed.bloom import TEST_BITS
from topiccrawler.distributed.frontier import QUEUE_NEW, SEEN, SharedFrontier
from topiccrawler.meta import (
    AUTHORITY_SITE,
    ENTRANCE,
    FRONTIER,
    HOPS,
    LINK_BLOCK,
    LINK_TEXT,
    PAGER_HOPS,
    TUNNEL,
)

RAISED = 3  # push_new's outcome: the URL was queued lower, its queued request now has this priority
# What the frontier computed a link's priority from besides its features: a raised link takes
# them from the better link (refresh_priority and the link classifier read them again later).
LINK_KEYS = (LINK_TEXT, LINK_BLOCK, TUNNEL)
NEARER_KEYS = (HOPS, PAGER_HOPS, "depth")  # taken together, when the better link has fewer hops
SAME_PLACE = (ENTRANCE, AUTHORITY_SITE)  # ... from the same entrance and site
WHERE_KEY_BYTES = 8  # of the fingerprint; a clash is told apart by the whole fingerprint

# As ENQUEUE (distributed/frontier.py), for a link the frontier ranked. KEYS[6]: where; ARGV[6]:
# its where key, ARGV[7] its priority, ARGV[8] the gain, ARGV[9] the queues' key prefix. A seen
# URL still queued at a priority `gain` or more below answers {its site, the entries at its
# place (scores are unique to a request but for clashes: 4 at most)}; otherwise 1 (seen), 2 (over
# budget) or 0 (queued, and indexed).
ENQUEUE_TRACKED = (
    "local first = 10"
    + TEST_BITS
    + """
if first <= #ARGV and seen == 1 then
  local place = redis.call('HGET', KEYS[6], ARGV[6])
  if not place then return 1 end
  local tab = string.find(place, '\\t', 1, true)
  local site, score = string.sub(place, 1, tab - 1), string.sub(place, tab + 1)
  local queued = redis.call('ZRANGEBYSCORE', ARGV[9] .. site, score, score, 'LIMIT', 0, 4)
  if not queued[1] then return 1 end
  if tonumber(ARGV[7]) < math.ceil(-tonumber(score)) + tonumber(ARGV[8]) then return 1 end
  table.insert(queued, 1, site)
  return queued
end"""
    + QUEUE_NEW
    + """
redis.call('HSET', KEYS[6], ARGV[6], ARGV[3] .. '\\t' .. ARGV[2])
return 0
"""
)

# The index entry ARGV[1] of a popped request goes, unless its place holds an entry again (the
# request was queued back there). KEYS[1]: where; ARGV[2]: the queues' key prefix.
FORGET = """
local place = redis.call('HGET', KEYS[1], ARGV[1])
if not place then return 0 end
local tab = string.find(place, '\\t', 1, true)
local score = string.sub(place, tab + 1)
if redis.call('ZCOUNT', ARGV[2] .. string.sub(place, 1, tab - 1), score, score) > 0 then
  return 0
end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
"""


def raised(queued: Request, better: Request) -> Request:
    """The queued request at the priority of the `better` link (or hit) to its URL: all it was
    queued with is kept but the frontier's features, which are the better one's, and between
    two links the LINK_KEYS and the hops when fewer from the same place."""
    meta = dict(queued.meta)
    meta[FRONTIER] = better.meta[FRONTIER]
    if LINK_TEXT in queued.meta and LINK_TEXT in better.meta:
        for key in LINK_KEYS:
            if key in better.meta:
                meta[key] = better.meta[key]
        same_place = all(better.meta.get(key) == queued.meta.get(key) for key in SAME_PLACE)
        if same_place and 0 < better.meta.get(HOPS, 0) < queued.meta.get(HOPS, 0):
            for key in NEARER_KEYS:
                if key in better.meta:
                    meta[key] = better.meta[key]
                else:
                    meta.pop(key, None)
    return queued.replace(priority=better.priority, meta=meta)


class SharedRediscovery:
    """The `where` index of one shared frontier and the enqueue that raises through it (with
    band lists, `bands.py` keeps the index and its scripts: the places differ)."""

    def __init__(self, queue: SharedFrontier, fingerprint: Callable[[Request], bytes], gain: int):
        self.queue = queue
        self.crawl = queue.crawl
        self.fingerprint = fingerprint
        self.gain = gain
        self.key = self.crawl.key("where")
        self.prefix = self.crawl.key("q", "")
        server = self.crawl.server
        self._enqueue = server.register_script(ENQUEUE_TRACKED)
        self._forget = server.register_script(FORGET)
        self.banded = isinstance(queue, BandedFrontier)
        self.to_forget: list = []  # index keys (with band lists: and the request's host)
        queue.where = self.where_key

    @staticmethod
    def tracked(request: Request) -> bool:
        """A link the frontier ranked, through the seen-URL filter: indexed, and raised when
        found again through a better link."""
        return FRONTIER in request.meta and not request.dont_filter

    def where_key(self, request: Request, fingerprint: bytes | None = None) -> bytes | None:
        """The request's key in the index (None: not indexed)."""
        if not self.tracked(request):
            return None
        return (fingerprint or self.fingerprint(request))[:WHERE_KEY_BYTES]

    def push_new(
        self,
        request: Request,
        fingerprint: bytes,
        offsets: list[int],
        budget: tuple[str, int] | None,
    ) -> int:
        """SharedFrontier.push_new for a tracked request (QUEUED, SEEN or OVER_BUDGET), or
        RAISED: its URL was queued `gain` or more below and the queued request now has its
        priority."""
        queue = self.queue
        if self.banded:
            where = fingerprint[:WHERE_KEY_BYTES]
            answer = queue.enqueue(request, offsets, budget, where, self.gain)
            if not isinstance(answer, tuple):
                return answer
            site, place = answer
            raised_ = self._raise(site, [(place, place[2])], request, fingerprint)
            return RAISED if raised_ else SEEN
        site = queue.site_of(request)
        budget_site, limit = budget if budget else ("", 0)
        crawl = self.crawl
        keys = [
            crawl.key("seen"), crawl.key("seen", "count"), crawl.key("budget"),
            crawl.key("q", site), crawl.key("sites"), self.key,
        ]  # fmt: skip
        args = [
            queue.stored_form(request, site), queue.score_of(request.priority), site, budget_site,
            limit, fingerprint[:WHERE_KEY_BYTES], request.priority, self.gain, self.prefix,
            *offsets,
        ]  # fmt: skip
        answer = self._enqueue(keys=keys, args=args)
        if not isinstance(answer, list):
            return int(answer)
        place, *entries = answer
        entries = [(data, data) for data in entries]  # a sorted set's place is the entry
        return RAISED if self._raise(place.decode(), entries, request, fingerprint) else SEEN

    def _raise(self, site: str, entries: list, better: Request, fingerprint: bytes) -> bool:
        """The queued request among `entries` (place, stored form) that has the fingerprint,
        moved to the better link's priority."""
        for place, data in entries:
            queued = self.queue.from_stored(data, site)
            if self.fingerprint(queued) == fingerprint:
                return bool(self.queue.move(site, place, raised(queued, better)))
        return False  # the place holds another URL's entry (a clash of where keys)

    def taken(self, request: Request) -> None:
        """A request left the queue: its index entry goes with the next `flush`."""
        key = self.where_key(request)
        if key is not None:
            self.to_forget.append((key, BandedFrontier.host_of(request)) if self.banded else key)

    def flush(self) -> None:
        if not self.to_forget:
            return
        keys, self.to_forget = self.to_forget, []
        if self.banded:
            self.queue.forget(keys)
            return
        pipe = self.crawl.server.pipeline(transaction=False)
        for key in keys:
            self._forget(keys=[self.key], args=[key, self.prefix], client=pipe)
        pipe.execute()

    def size(self) -> int:
        """Entries in the index."""
        if self.banded:
            return self.queue.index_size()
        return self.crawl.server.hlen(self.key)
