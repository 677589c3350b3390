"""The shared frontier: best-first across sites, polite per site, for every worker at once.

The same rule as `frontier/queue.py`, kept in Redis: one sorted set of requests per site (its
download slot), scored by priority, and an index of sites by their best request. A worker pops,
among the sites that are free (fewer requests in flight over all workers than the site's
concurrency, and its delay since the last request to it over), the one whose best request has
the highest priority. One Lua script does the choice, the pop, the site's next allowed time and
the lease, so two workers never take the same request or hit one site together: a site's delay
and concurrency hold across workers instead of being multiplied by their number.

Within a priority, requests come out first in, first out (a sequence number in the score).
This is the layout of REDIS_FRONTIER_BAND 0; with bands, `bands.py` keeps the queues in lists.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

from scrapy import Request
from scrapy_redis.queue import Base

from topiccrawler.distributed.bloom import SET_BITS, TEST_BITS
from topiccrawler.distributed.codec import decode_request, encode_request
from topiccrawler.distributed.state import SharedCrawl
from topiccrawler.meta import LEASE

SCAN_SITES = 200  # sites looked at per pop, best first
QUEUED, SEEN, OVER_BUDGET = range(3)  # what push_new did
RESCORE_BATCH = 500  # moves sent to Redis in one round trip
SEQUENCE_SPAN = 10_000_000  # FIFO order within one priority: score = -priority + seq / span


def pop_script(take: str) -> str:
    """The pop script around a queue layout's `take`: a Lua chunk that, for the free `site`,
    takes its best request into `data` and sets `next_score` (the site's new place among the
    sites; nil when its queue is now empty) and `place` (where the request stood, kept in its
    lease so that a requeue puts it back there). The rest is every layout's: the best free
    site (its delay and concurrency the strictest any worker reported), the lease, and how long
    until a busy site is free."""
    return (
        """
local sites = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[6]) - 1)
local now = tonumber(ARGV[1])
local wait = -1
for _, site in ipairs(sites) do
  local delay, concurrency = tonumber(ARGV[2]), tonumber(ARGV[3])
  local reports = redis.call('HVALS', KEYS[4] .. site)
  if reports[1] then
    delay, concurrency = 0, 1000000
    for _, report in ipairs(reports) do
      local d, c = string.match(report, '^(%S+) (%S+)$')
      delay, concurrency = math.max(delay, tonumber(d)), math.min(concurrency, tonumber(c))
    end
  end
  local active = tonumber(redis.call('HGET', KEYS[3], site) or '0')
  local after = tonumber(redis.call('HGET', KEYS[2], site) or '0')
  if active < concurrency and after <= now then
    local data, next_score, place
"""
        + take
        + """
    if data then
      if next_score then redis.call('ZADD', KEYS[1], next_score, site) else redis.call('ZREM', KEYS[1], site) end
      redis.call('HSET', KEYS[2], site, now + delay)
      redis.call('HINCRBY', KEYS[3], site, 1)
      redis.call('HSET', KEYS[5], ARGV[5], data)
      redis.call('HSET', KEYS[6], ARGV[5], ARGV[4] .. '\\t' .. site .. '\\t' .. place)
      redis.call('HSET', KEYS[7], ARGV[5], site)
      return {data, site}
    end
    redis.call('ZREM', KEYS[1], site)
  elseif active < concurrency then
    if wait < 0 or after - now < wait then wait = after - now end
  end
end
return {false, tostring(wait)}
"""
    )


# One sorted set per site (ARGV[7]: its key without the site), scored by priority.
POP = pop_script(
    """
    local queue = ARGV[7] .. site
    local top = redis.call('ZPOPMIN', queue)
    if top[1] then
      data, place = top[1], top[2]
      next_score = redis.call('ZRANGE', queue, 0, 0, 'WITHSCORES')[2]
    end
"""
)

# A new URL into its site's queue, unless the site's budget is spent (then 2 is returned, and
# the URL is not marked seen: SET_BITS). After TEST_BITS (`first`, `seen`). KEYS[3..5]: budget,
# the site's queue, sites; ARGV[1..5]: stored form, score, site, budget site ('' none), limit.
# Shared with the rediscovery's enqueue (distributed/rediscovery.py).
QUEUE_NEW = (
    """
if ARGV[4] ~= '' and redis.call('HINCRBY', KEYS[3], ARGV[4], 1) > tonumber(ARGV[5]) then
  return 2
end"""
    + SET_BITS
    + """
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
redis.call('ZADD', KEYS[5], 'LT', ARGV[2], ARGV[3])
"""
)

# A request queued unless the seen-URL filter knows it (offsets given) or its site's budget is
# spent; 0 queued, 1 seen, 2 over budget. One round trip per request the spider finds.
ENQUEUE = (
    "local first = 6"
    + TEST_BITS
    + "\nif first <= #ARGV and seen == 1 then return 1 end"
    + QUEUE_NEW
    + "return 0\n"
)

# A queued request given a new priority, if no worker has taken it meanwhile; with ARGV[5] (its
# key in the rediscovery's index KEYS[3]) the index follows it to its new score.
REPLACE = """
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[2], 'LT', ARGV[3], ARGV[4])
if ARGV[5] then redis.call('HSET', KEYS[3], ARGV[5], ARGV[4] .. '\\t' .. ARGV[3]) end
return 1
"""


class SharedFrontier(Base):
    """Requests of one crawl in Redis, per site; `site_of` names a request's site (the
    downloader's slot key), `policy_of` a site's (delay seconds, concurrency) when unknown."""

    def __init__(
        self,
        crawl: SharedCrawl,
        spider,
        site_of: Callable[[Request], str],
        default_policy: tuple[float, int],
        serializer=None,
    ):
        super().__init__(crawl.server, spider, crawl.key("q"), serializer)
        self.serializer_given = serializer is not None
        self.crawl = crawl
        self.site_of = site_of
        self.default_policy = default_policy
        self.policies: dict[str, tuple[float, int]] = {}
        self.sequence = int(time.time() * 1000) % SEQUENCE_SPAN
        self._pop = crawl.server.register_script(POP)
        self._replace = crawl.server.register_script(REPLACE)
        self._enqueue = crawl.server.register_script(ENQUEUE)
        self.next_free: float | None = None  # seconds until a site frees up, after an empty pop
        # With rediscovery on (distributed/rediscovery.py): a request's key in its index of
        # queued URLs (None: not indexed), which pushes and moves keep up to date.
        self.where: Callable[[Request], bytes | None] | None = None

    def __len__(self) -> int:
        """Sites with queued requests (cheap; zero exactly when the frontier is empty)."""
        return self.server.zcard(self.crawl.key("sites"))

    def size(self) -> int:
        """Queued requests over all sites."""
        sites = [s.decode() for s in self.server.zrange(self.crawl.key("sites"), 0, -1)]
        pipe = self.server.pipeline()
        for site in sites:
            pipe.zcard(self.crawl.key("q", site))
        return sum(pipe.execute())

    def score_of(self, priority: int) -> float:
        """A request's score in its site's sorted set: best first, first in first out among
        requests of one priority."""
        self.sequence = (self.sequence + 1) % SEQUENCE_SPAN
        return -priority + self.sequence / SEQUENCE_SPAN

    def push(self, request: Request, client=None) -> None:
        """Queued at its priority; with `client` (a pipeline), only queued there."""
        site = self.site_of(request)
        score = self.score_of(request.priority)
        pipe = client if client is not None else self.server.pipeline(transaction=True)
        pipe.zadd(self.crawl.key("q", site), {self.stored_form(request, site): score})
        pipe.zadd(self.crawl.key("sites"), {site: score}, lt=True)
        where = self.where(request) if self.where is not None else None
        if where is not None:
            pipe.hset(self.crawl.key("where"), where, f"{site}\t{score!r}")
        if client is None:
            pipe.execute()

    def push_new(self, request: Request, offsets: list[int], budget: tuple[str, int] | None) -> int:
        """Queue a request unless the seen-URL filter knows it (`offsets`, none: queue anyway)
        or `budget` (site, limit) is spent over all workers: 0 queued, 1 seen, 2 over budget."""
        site = self.site_of(request)
        data = self.stored_form(request, site)
        budget_site, limit = budget if budget else ("", 0)
        keys = [
            self.crawl.key("seen"), self.crawl.key("seen", "count"), self.crawl.key("budget"),
            self.crawl.key("q", site), self.crawl.key("sites"),
        ]  # fmt: skip
        args = [data, self.score_of(request.priority), site, budget_site, limit, *offsets]
        return int(self._enqueue(keys=keys, args=args))

    def set_policy(self, site: str, delay: float, concurrency: int) -> None:
        """Report a site's delay and concurrency as this worker's downloader has them now (the
        seed file's, AutoThrottle's, a block's back-off). Pops go by the most careful report of
        all workers: the one that was blocked slows everyone down on that site."""
        policy = (round(delay, 3), int(concurrency))
        if self.policies.get(site) != policy:
            self.policies[site] = policy
            value = f"{int(policy[0] * 1000)} {policy[1]}"
            self.server.hset(self.crawl.key("policy", site), self.crawl.worker, value)

    def pop(
        self, timeout: int = 0, lease: str | None = None, free: Sequence[str] = ()
    ) -> tuple[Request, str] | None:
        """The best request of the best free site, leased to this worker under `lease`;
        None when no site is free (then `next_free` says when one will be, if known). The
        leases in `free` are freed first, in the same round trip."""
        lease = lease or f"{self.crawl.worker}:{self.sequence}"
        delay, concurrency = self.default_policy
        keys = [
            self.crawl.key("sites"), self.crawl.key("next"), self.crawl.key("active"),
            self.crawl.key("policy", ""), *self.crawl.lease_keys(),
        ]  # fmt: skip
        args = [
            int(time.time() * 1000), int(delay * 1000), concurrency, self.crawl.worker, lease,
            SCAN_SITES, *self._pop_layout(),
        ]  # fmt: skip
        if free:
            pipe = self.server.pipeline(transaction=False)
            for done in free:
                self.crawl.free(done, client=pipe)
            self._pop(keys=keys, args=args, client=pipe)
            data, detail = pipe.execute()[-1]
        else:
            data, detail = self._pop(keys=keys, args=args)
        if not data:
            wait = int(detail)
            self.next_free = wait / 1000 if wait >= 0 else None
            return None
        self.next_free = None
        request = self.from_stored(data, detail)
        request.meta[LEASE] = lease
        return request, lease

    def _pop_layout(self) -> list:
        """The pop script's last arguments, which say where the sites' queues are."""
        return [self.crawl.key("q", "")]

    def queued(self, limit: int) -> Iterator[tuple[str, bytes, Request]]:
        """Up to `limit` queued requests as (site, stored form, request), best sites first."""
        sites = [s.decode() for s in self.server.zrange(self.crawl.key("sites"), 0, -1)]
        left = limit
        for site in sites:
            if left <= 0:
                return
            for data in self.server.zrange(self.crawl.key("q", site), 0, left - 1):
                left -= 1
                yield site, data, self.from_stored(data, site)

    def rescore(self, score: Callable[[Request], int | None], limit: int = 20000) -> int:
        """Queued requests scored again (None keeps a priority) and moved to their new place,
        unless a worker took them meanwhile; returns how many moved. The moves go to Redis in
        batches (one round trip per RESCORE_BATCH)."""
        moved = 0
        pipe = self.server.pipeline(transaction=False)
        for site, data, request in list(self.queued(limit)):
            priority = score(request)
            if priority is None or priority == request.priority:
                continue
            request.priority = priority
            self.move(site, data, request, client=pipe)
            if len(pipe) >= RESCORE_BATCH:
                moved += sum(pipe.execute())
        if len(pipe):
            moved += sum(pipe.execute())
        return moved

    def move(self, site: str, data: bytes, request: Request, client=None) -> int:
        """The queued entry `data` of `site` replaced by `request` (at its priority), unless a
        worker took it meanwhile: 1 moved, 0 not. With `client` (a pipeline), only queued there
        (the answer comes with the pipeline's)."""
        keys = [self.crawl.key("q", site), self.crawl.key("sites"), self.crawl.key("where")]
        score = self.score_of(request.priority)
        args = [data, self.stored_form(request, site), score, site]
        where = self.where(request) if self.where is not None else None
        if where is not None:
            args.append(where)
        return self._replace(keys=keys, args=args, client=client)

    def stored_form(self, request: Request, site: str) -> bytes:
        """The compact stored form (codec.py), or the given serializer's."""
        if self.serializer_given:
            return self._encode_request(request)
        return encode_request(request, self.spider, site)

    def from_stored(self, data: bytes, site: bytes | str) -> Request:
        """The request a stored form holds (the inverse of `stored_form`)."""
        if self.serializer_given:
            return self._decode_request(data)
        return decode_request(data, self.spider, site.decode() if isinstance(site, bytes) else site)

    def clear(self) -> None:
        self.crawl.clear()
