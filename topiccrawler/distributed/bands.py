"""The shared frontier in priority bands: the same pops, leases, politeness and rediscovery as
the sorted sets of `frontier.py`, in about half the Redis memory a queued request.

A sorted-set entry costs Redis about 138 bytes besides the stored request (a skiplist node and a
hash-table entry); a Redis list packs its elements into 8 KB blocks at 2 or 3 bytes each. So a
site's queue here is one list per priority band, REDIS_FRONTIER_BAND priority points wide, first
in, first out within a band (the one-process queue and the sorted sets keep the exact priority;
within a band the order is by arrival). Keys, P the crawl's prefix:

- P:sites: sites by their best band (score -band, plus a fraction that takes sites of one band
  in turn), as in the sorted-set layout: the pop, `len` and `finished` read it alike;
- P:bands:<site>: the site's bands with requests (a small sorted set, score -band);
- P:band:<site>:<band>: a list of stored requests (codec.py); "" is a tombstone, the place of a
  request that moved to another band (rescored, raised), skipped when it comes up;
- P:head:<site>: band → the position number of the band's first element. A request keeps its
  number while the elements before it are popped, so its place is (site, band, number): the
  list index is the number minus the head;
- P:w:<4 hex digits>: rediscovery's index (distributed/rediscovery.py), in 65,536 hashes by the
  fingerprint's first two bytes, each small enough for Redis's compact encoding (512 fields up
  to about 33M queued links): the next four bytes → the request's priority and position number
  as one integer (priorities in [-8192, 8192)), with its site when that is not the URL's host
  or the priority is outside. A raise is a move: the old
  place becomes a tombstone, the request is pushed to its new band, the index follows.

A popped request is leased as in `frontier.py`; its lease says its band, so a dead worker's
request goes back to the front of its band with the number it had (REQUEUE in state.py).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator

from scrapy import Request
from scrapy.utils.httpobj import urlparse_cached

from topiccrawler.distributed.bloom import SET_BITS, TEST_BITS
from topiccrawler.distributed.frontier import SEQUENCE_SPAN, SharedFrontier, pop_script
from topiccrawler.distributed.state import SharedCrawl

logger = logging.getLogger(__name__)

READ_BANDS = 16  # bands of a site read in one round trip when the queue is listed (rescoring)
INDEX_BUCKET_BYTES = 2  # of the fingerprint: 65,536 index hashes
# ... and the next four bytes name a request in its hash: 48 bits in all. At 10M queued, two
# URLs share an entry 0.2 times in expectation (the later one's replaces the first's, which is
# then not raised); a look-up that finds another URL's entry is told apart by the fingerprint.
INDEX_FIELD_BYTES = 4

# Lua helpers shared by the scripts below. `place_value` packs a request's priority and
# position number (and its site, when not its URL's host) for the index; `place_of` reads it.
HELPERS = """
local function place_value(site, host, priority, number)
  if site == host and priority >= -8192 and priority < 8192 then
    return string.format('%d', number * 16384 + priority + 8192)
  end
  return site .. '\\t' .. string.format('%d', priority) .. '\\t' .. string.format('%d', number)
end
local function place_of(value, host)
  if not string.find(value, '\\t', 1, true) then
    local n = tonumber(value)
    local low = n % 16384
    return host, low - 8192, (n - low) / 16384
  end
  local site, priority, number = string.match(value, '^(.*)\\t([^\\t]*)\\t([^\\t]*)$')
  return site, tonumber(priority), tonumber(number)
end
local function head_of(prefix, site, band)
  return tonumber(redis.call('HGET', prefix .. 'head:' .. site, band) or '0')
end
local function push(prefix, site, band, score, data)
  local n = redis.call('RPUSH', prefix .. 'band:' .. site .. ':' .. band, data)
  redis.call('ZADD', prefix .. 'bands:' .. site, -tonumber(band), band)
  redis.call('ZADD', prefix .. 'sites', 'LT', score, site)
  return head_of(prefix, site, band) + n - 1
end
local function index(key, field, site, host, priority, number)
  if key ~= '' then
    redis.call('HSET', key, field, place_value(site, host, tonumber(priority), number))
  end
end
"""

# A request pushed to the back of its band. ARGV: prefix, site, band, score, stored form,
# index key ('' none), field, host, priority. Returns its position number.
PUSH = (
    HELPERS
    + """
local number = push(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
index(ARGV[6], ARGV[7], ARGV[2], ARGV[8], ARGV[9], number)
return number
"""
)

# A new request queued unless the seen-URL filter knows it (offsets given) or its site's budget
# is spent: 0 queued, 1 seen, 2 over budget. KEYS: seen, seen count, budget. ARGV: prefix, site,
# band, score, stored form, budget site ('' none), limit, index key ('' untracked), field, host,
# priority, gain, band width, offsets... A tracked request whose URL is still queued at a
# priority `gain` or more below answers {site, band, number, stored form} of that place.
ENQUEUE = (
    HELPERS
    + "local first = 14"
    + TEST_BITS
    + """
if first <= #ARGV and seen == 1 then
  if ARGV[8] == '' then return 1 end
  local value = redis.call('HGET', ARGV[8], ARGV[9])
  if not value then return 1 end
  local site, priority, number = place_of(value, ARGV[10])
  if tonumber(ARGV[11]) < priority + tonumber(ARGV[12]) then return 1 end
  local band = string.format('%d', math.floor(priority / tonumber(ARGV[13])))
  local at = number - head_of(ARGV[1], site, band)
  if at < 0 then return 1 end
  local data = redis.call('LINDEX', ARGV[1] .. 'band:' .. site .. ':' .. band, at)
  if not data or data == '' then return 1 end
  return {site, band, string.format('%d', number), data}
end
if ARGV[6] ~= '' and redis.call('HINCRBY', KEYS[3], ARGV[6], 1) > tonumber(ARGV[7]) then
  return 2
end"""
    + SET_BITS
    + """
local number = push(ARGV[1], ARGV[2], ARGV[3], ARGV[4], ARGV[5])
index(ARGV[8], ARGV[9], ARGV[2], ARGV[10], ARGV[11], number)
return 0
"""
)

# A queued request replaced by its new form (new priority), unless no longer at its place (a
# worker took it): in place when its band is the same, else its place becomes a tombstone and
# it goes to the back of its new band. 1 moved, 0 not. ARGV: prefix, site, band, number, stored
# form there, new band, score, new form, index key ('' none), field, host, new priority.
MOVE = (
    HELPERS
    + """
local prefix, site, band = ARGV[1], ARGV[2], ARGV[3]
local list = prefix .. 'band:' .. site .. ':' .. band
local at = tonumber(ARGV[4]) - head_of(prefix, site, band)
if at < 0 or redis.call('LINDEX', list, at) ~= ARGV[5] then return 0 end
local number = tonumber(ARGV[4])
if ARGV[6] == band then
  redis.call('LSET', list, at, ARGV[8])
else
  redis.call('LSET', list, at, '')
  redis.call('INCR', prefix .. 'tombstones')
  number = push(prefix, site, ARGV[6], ARGV[7], ARGV[8])
end
index(ARGV[9], ARGV[10], site, ARGV[11], ARGV[12], number)
return 1
"""
)

# As POP in frontier.py, over bands: the best free site's best band gives its first request
# (tombstones skipped); the lease's meta names the band (state.py's REQUEUE puts it back
# there). ARGV[7]: the crawl's key prefix, ARGV[8]: the fraction that orders sites of a band.
POP = pop_script(
    """
    local prefix = ARGV[7]
    local bands = prefix .. 'bands:' .. site
    local band
    while true do
      band = redis.call('ZRANGE', bands, 0, 0)[1]
      if not band then break end
      local list = prefix .. 'band:' .. site .. ':' .. band
      local popped = 0
      repeat
        data = redis.call('LPOP', list)
        if data then popped = popped + 1 end
        if data == '' then redis.call('DECR', prefix .. 'tombstones') end
      until data ~= ''
      if popped > 0 then redis.call('HINCRBY', prefix .. 'head:' .. site, band, popped) end
      if data and redis.call('LLEN', list) > 0 then break end
      redis.call('ZREM', bands, band)
      if data then break end
    end
    if data then
      local best = redis.call('ZRANGE', bands, 0, 0)[1]
      if best then next_score = -tonumber(best) + tonumber(ARGV[8]) end
      place = 'b' .. band
    end
"""
)

# The index entry of a popped request goes, unless its place holds a request again (it was
# queued back there, or moved). ARGV: prefix, index key, field, host, band width.
FORGET = (
    HELPERS
    + """
local value = redis.call('HGET', ARGV[2], ARGV[3])
if not value then return 0 end
local site, priority, number = place_of(value, ARGV[4])
local band = string.format('%d', math.floor(priority / tonumber(ARGV[5])))
local at = number - head_of(ARGV[1], site, band)
if at >= 0 then
  local data = redis.call('LINDEX', ARGV[1] .. 'band:' .. site .. ':' .. band, at)
  if data and data ~= '' then return 0 end
end
redis.call('HDEL', ARGV[2], ARGV[3])
return 1
"""
)


def crawl_band(crawl: SharedCrawl, band: int) -> int:
    """The crawl's band width: the first worker's REDIS_FRONTIER_BAND, recorded in Redis, so
    that workers started with another value still read the queues the crawl has (0: sorted
    sets, `frontier.py`)."""
    key = crawl.key("band")
    crawl.server.set(key, band, nx=True)
    recorded = int(crawl.server.get(key))
    if recorded != band:
        logger.warning(
            "REDIS_FRONTIER_BAND is %d but crawl %r was queued with %d: %d is used",
            band, crawl.name, recorded, recorded,
        )  # fmt: skip
    return recorded


class BandedFrontier(SharedFrontier):
    """SharedFrontier's interface over band lists; `band` is the width in priority points."""

    def __init__(
        self,
        crawl: SharedCrawl,
        spider,
        site_of: Callable[[Request], str],
        default_policy: tuple[float, int],
        band: int,
        serializer=None,
    ):
        if band < 1:
            raise ValueError(f"a band is at least 1 priority point wide, not {band}")
        super().__init__(crawl, spider, site_of, default_policy, serializer)
        self.band = band
        self.prefix = crawl.key("")
        server = crawl.server
        self._push = server.register_script(PUSH)
        self._enqueue = server.register_script(ENQUEUE)
        self._move = server.register_script(MOVE)
        self._pop = server.register_script(POP)
        self._forget = server.register_script(FORGET)

    # --- places -----------------------------------------------------------------------------------

    def band_of(self, priority: int) -> int:
        return priority // self.band

    def _fraction(self) -> float:
        self.sequence = (self.sequence + 1) % SEQUENCE_SPAN
        return self.sequence / SEQUENCE_SPAN

    def _site_score(self, band: int) -> float:
        return -band + self._fraction()

    @staticmethod
    def host_of(request: Request) -> str:
        """What a request's index entry leaves out when its site is this (the downloader's slot
        key unless a request names another)."""
        return urlparse_cached(request).hostname or ""

    @staticmethod
    def index_place(where: bytes) -> tuple[str, bytes]:
        """(index hash, field) of a request's index key (the first bytes of its
        fingerprint)."""
        field = where[INDEX_BUCKET_BYTES : INDEX_BUCKET_BYTES + INDEX_FIELD_BYTES]
        return where[:INDEX_BUCKET_BYTES].hex(), field

    def _index_args(self, request: Request, where: bytes | None) -> list:
        if where is None:
            return ["", b"", "", request.priority]
        bucket, field = self.index_place(where)
        return [self.crawl.key("w", bucket), field, self.host_of(request), request.priority]

    def _where(self, request: Request) -> bytes | None:
        return self.where(request) if self.where is not None else None

    # --- the queue ----------------------------------------------------------------------------------

    def size(self) -> int:
        """Queued requests over all sites (tombstones left out)."""
        server = self.server
        sites = [s.decode() for s in server.zrange(self.crawl.key("sites"), 0, -1)]
        pipe = server.pipeline()
        for site in sites:
            pipe.zrange(self.crawl.key("bands", site), 0, -1)
        lists = [
            self.crawl.key("band", site, band.decode())
            for site, bands in zip(sites, pipe.execute(), strict=True)
            for band in bands
        ]
        pipe = server.pipeline()
        for key in lists:
            pipe.llen(key)
        pipe.get(self.crawl.key("tombstones"))
        *lengths, tombstones = pipe.execute()
        return sum(lengths) - int(tombstones or 0)

    def push(self, request: Request, client=None) -> None:
        site = self.site_of(request)
        band = self.band_of(request.priority)
        args = [
            self.prefix, site, band, self._site_score(band), self.stored_form(request, site),
            *self._index_args(request, self._where(request)),
        ]  # fmt: skip
        self._push(args=args, client=client)

    def push_new(self, request: Request, offsets: list[int], budget: tuple[str, int] | None) -> int:
        return int(self.enqueue(request, offsets, budget, None, 0))

    def enqueue(
        self,
        request: Request,
        offsets: list[int],
        budget: tuple[str, int] | None,
        where: bytes | None,
        gain: int,
    ) -> int | tuple[str, tuple[int, int, bytes]]:
        """push_new's outcome; with `where` (rediscovery's key of a tracked request), a seen URL
        still queued `gain` or more below answers (its site, its place: band, number, stored
        form) instead."""
        site = self.site_of(request)
        band = self.band_of(request.priority)
        budget_site, limit = budget if budget else ("", 0)
        keys = [self.crawl.key("seen"), self.crawl.key("seen", "count"), self.crawl.key("budget")]
        args = [
            self.prefix, site, band, self._site_score(band), self.stored_form(request, site),
            budget_site, limit, *self._index_args(request, where), gain, self.band, *offsets,
        ]  # fmt: skip
        answer = self._enqueue(keys=keys, args=args)
        if not isinstance(answer, list):
            return int(answer)
        place, band_at, number, data = answer
        return place.decode(), (int(band_at), int(number), data)

    def _pop_layout(self) -> list:
        """The bands' pop script takes the crawl's key prefix and the site score's fraction."""
        return [self.prefix, self._fraction()]

    def queued(self, limit: int) -> Iterator[tuple[str, tuple[int, int, bytes], Request]]:
        """Up to `limit` queued requests as (site, place, request), best sites and bands
        first; a place is (band, position number, stored form)."""
        server = self.server
        sites = [s.decode() for s in server.zrange(self.crawl.key("sites"), 0, -1)]
        left = limit
        for site in sites:
            if left <= 0:
                return
            bands = [int(b) for b in server.zrange(self.crawl.key("bands", site), 0, -1)]
            for start in range(0, len(bands), READ_BANDS):
                if left <= 0:
                    return
                pipe = server.pipeline(transaction=True)  # heads and lists as one
                pipe.hgetall(self.crawl.key("head", site))
                for band in bands[start : start + READ_BANDS]:
                    pipe.lrange(self.crawl.key("band", site, str(band)), 0, left - 1)
                heads, *lists = pipe.execute()
                for band, entries in zip(bands[start : start + READ_BANDS], lists, strict=True):
                    head = int(heads.get(str(band).encode(), 0))
                    for at, data in enumerate(entries):
                        if left <= 0:
                            return
                        if not data:
                            continue
                        left -= 1
                        yield site, (band, head + at, data), self.from_stored(data, site)

    def move(self, site: str, place, request: Request, client=None) -> int:
        """The queued request at `place` (band, number, stored form) replaced by `request` at
        its priority, unless a worker took it meanwhile: 1 moved, 0 not."""
        band, number, data = place
        new_band = self.band_of(request.priority)
        args = [
            self.prefix, site, band, number, data, new_band, self._site_score(new_band),
            self.stored_form(request, site), *self._index_args(request, self._where(request)),
        ]  # fmt: skip
        return self._move(args=args, client=client)

    # --- rediscovery's index ------------------------------------------------------------------------

    def forget(self, entries: list[tuple[bytes, str]]) -> None:
        """The index entries (key, host) of popped requests go, unless queued again."""
        pipe = self.server.pipeline(transaction=False)
        for where, host in entries:
            bucket, field = self.index_place(where)
            args = [self.prefix, self.crawl.key("w", bucket), field, host, self.band]
            self._forget(args=args, client=pipe)
        pipe.execute()

    def index_size(self) -> int:
        """Entries in rediscovery's index."""
        keys = list(self.server.scan_iter(match=self.crawl.key("w", "*"), count=1000))
        pipe = self.server.pipeline(transaction=False)
        for key in keys:
            pipe.hlen(key)
        return sum(pipe.execute())
