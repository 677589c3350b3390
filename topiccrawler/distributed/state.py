"""One crawl shared by many workers: its Redis keys, the workers' heartbeats and the leases on
requests in flight.

A request taken from the shared frontier is leased to the worker that took it until that worker
has processed its response and stored what came of it. A worker that stops beating for
REDIS_WORKER_TIMEOUT seconds (killed with SIGKILL, its machine gone) is dead: any other worker
puts its leased requests back into the frontier, so nothing in flight is lost. The heartbeat runs
in a thread of its own (`Heartbeat`): a crawl busy for seconds on a loaded machine is alive.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from weakref import WeakKeyDictionary

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.crawl.topic import crawl_topic

logger = logging.getLogger(__name__)

REDIS_URL_ENV = "TOPICCRAWLER_REDIS_URL"
SEEDS_PUSHED = b"pushed"  # the value of the seeded key once the first worker's seeds are queued

# The lease's site has one request fewer in flight (its download is over). KEYS: busy, active.
FREE = """
local site = redis.call('HGET', KEYS[1], ARGV[1])
if not site then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HINCRBY', KEYS[2], site, -1) < 0 then redis.call('HSET', KEYS[2], site, 0) end
return 1
"""

# The lease is over (what came of its request is stored). KEYS: lease, meta, busy, active.
RELEASE = """
local site = redis.call('HGET', KEYS[3], ARGV[1])
if site then
  redis.call('HDEL', KEYS[3], ARGV[1])
  if redis.call('HINCRBY', KEYS[4], site, -1) < 0 then redis.call('HSET', KEYS[4], site, 0) end
end
return redis.call('HDEL', KEYS[1], ARGV[1]) + redis.call('HDEL', KEYS[2], ARGV[1])
"""

# The lease of a dead worker goes back into its site's queue (if that worker still owns it:
# another worker may have re-queued it already), at its score, or at the front of its band
# ("b<band>": distributed/bands.py) with the position number it had there. KEYS: lease, meta,
# busy, active, sites; ARGV[3]: the sorted sets' key prefix, ARGV[4]: the crawl's.
REQUEUE = """
local meta = redis.call('HGET', KEYS[2], ARGV[1])
if not meta then return 0 end
local owner, site, score = string.match(meta, '^([^\t]*)\t([^\t]*)\t(.*)$')
if ARGV[2] ~= '' and owner ~= ARGV[2] then return 0 end
if redis.call('HDEL', KEYS[3], ARGV[1]) == 1 then
  if redis.call('HINCRBY', KEYS[4], site, -1) < 0 then redis.call('HSET', KEYS[4], site, 0) end
end
local data = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
if string.sub(score, 1, 1) == 'b' then
  local band = string.sub(score, 2)
  redis.call('LPUSH', ARGV[4] .. 'band:' .. site .. ':' .. band, data)
  redis.call('HINCRBY', ARGV[4] .. 'head:' .. site, band, -1)
  redis.call('ZADD', ARGV[4] .. 'bands:' .. site, -tonumber(band), band)
  redis.call('ZADD', KEYS[5], 'LT', -tonumber(band), site)
  return 1
end
redis.call('ZADD', ARGV[3] .. site, score, data)
redis.call('ZADD', KEYS[5], 'LT', score, site)
return 1
"""


class Heartbeat:
    """A worker's heartbeat, from a thread of its own, every `interval` seconds.

    On the reactor's thread a beat waits for whatever the crawl is doing: on a loaded machine a
    large page took 3.6 s to parse and score, longer than a short REDIS_WORKER_TIMEOUT, and a
    live worker was declared dead (its requests in flight fetched twice). The crawl `tick()`s
    from the reactor instead; when it has not for `stall_limit` seconds (hung for good), the
    thread stops beating and the worker counts as dead after all."""

    def __init__(self, crawl: SharedCrawl, interval: float, stall_limit: float):
        self.crawl = crawl
        self.interval = interval
        self.stall_limit = stall_limit
        self.ticked = time.monotonic()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="topiccrawler-heartbeat", daemon=True)

    def start(self) -> None:
        self.crawl.beat()
        self.thread.start()

    def tick(self) -> None:
        """The crawl's reactor ran: the worker is not hung."""
        self.ticked = time.monotonic()

    def stop(self) -> None:
        self.stopped.set()
        if self.thread.is_alive():
            self.thread.join(timeout=10)

    def _run(self) -> None:
        import redis

        while not self.stopped.wait(self.interval):
            stalled = time.monotonic() - self.ticked
            if stalled > self.stall_limit:
                continue  # hung: let the alive key expire
            try:
                self.crawl.beat()
            except redis.RedisError as exc:  # the next beat may get through; the reactor's
                logger.warning("Heartbeat of worker %s failed: %s", self.crawl.worker, exc)


class SharedCrawl:
    """The Redis side of one crawl (`prefix` = topiccrawler:<crawl name>) as seen by one worker."""

    def __init__(self, server, name: str, worker_timeout: float = 30.0):
        self.server = server
        self.name = name
        self.prefix = f"topiccrawler:{name}"
        self.worker_timeout = worker_timeout
        self.worker = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"
        self.last_out = False  # set when this worker closes the crawl (the last one to leave)
        self._free = server.register_script(FREE)
        self._release = server.register_script(RELEASE)
        self._requeue = server.register_script(REQUEUE)

    def key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    # --- workers ----------------------------------------------------------------------------------

    def beat(self) -> None:
        """Say this worker is alive for another REDIS_WORKER_TIMEOUT seconds."""
        pipe = self.server.pipeline()
        pipe.sadd(self.key("workers"), self.worker)
        pipe.set(
            self.key("alive", self.worker), int(time.time()), px=int(self.worker_timeout * 1000)
        )
        pipe.execute()

    def alive_workers(self) -> set[str]:
        workers = [w.decode() for w in self.server.smembers(self.key("workers"))]
        if not workers:
            return set()
        pipe = self.server.pipeline()
        for worker in workers:
            pipe.exists(self.key("alive", worker))
        return {w for w, alive in zip(workers, pipe.execute(), strict=True) if alive}

    def leave(self) -> set[str]:
        """Leave the crawl; the other workers still alive, looked at after leaving. Of two
        workers leaving at once, the second to look finds itself alone and closes the crawl;
        had each looked before it left, both could have seen the other and left the crawl's
        keys behind (a finished crawl the next one with its name would join)."""
        pipe = self.server.pipeline()
        pipe.srem(self.key("workers"), self.worker)
        pipe.delete(self.key("alive", self.worker))
        pipe.execute()
        return self.alive_workers() - {self.worker}

    # --- leases -----------------------------------------------------------------------------------

    def lease_keys(self) -> list[str]:
        return [self.key("lease"), self.key("lease", "meta"), self.key("lease", "busy")]

    def free(self, lease: str, client=None) -> bool:
        """The leased request's download is over: its site may take another (politeness).
        With `client` (a pipeline), only queued there."""
        keys = [self.key("lease", "busy"), self.key("active")]
        return bool(self._free(keys=keys, args=[lease], client=client))

    def release(self, *leases: str) -> int:
        """The leases are over: what came of their requests is stored (or nothing did). One
        round trip for all; returns how many were still held."""
        if not leases:
            return 0
        pipe = self.server.pipeline(transaction=False)
        for lease in leases:
            self._release(keys=[*self.lease_keys(), self.key("active")], args=[lease], client=pipe)
        return sum(bool(released) for released in pipe.execute())

    def requeue(self, lease: str, owner: str = "") -> bool:
        """Put a leased request back into the frontier (only if `owner` still holds it)."""
        keys = [*self.lease_keys(), self.key("active"), self.key("sites")]
        args = [lease, owner, self.key("q", ""), self.key("")]
        return bool(self._requeue(keys=keys, args=args))

    def leases_in_flight(self) -> int:
        return self.server.hlen(self.key("lease"))

    def reclaim_dead(self) -> int:
        """Re-queue the leases of workers that stopped beating; returns how many."""
        metas = self.server.hgetall(self.key("lease", "meta"))
        if not metas:
            return 0
        alive = self.alive_workers() | {self.worker}
        reclaimed = 0
        for lease, meta in metas.items():
            owner = meta.decode().split("\t", 1)[0]
            if owner not in alive and self.requeue(lease.decode(), owner):
                reclaimed += 1
        dead = {w.decode() for w in self.server.smembers(self.key("workers"))} - alive
        if dead:
            self.server.srem(self.key("workers"), *dead)
            logger.warning(
                "Workers %s stopped beating: %d of their requests in flight re-queued",
                ", ".join(sorted(dead)), reclaimed,
            )  # fmt: skip
        return reclaimed

    # --- the crawl as a whole -----------------------------------------------------------------------

    def finished(self) -> bool:
        """Seeds pushed, nothing queued and nothing in flight anywhere: no worker can find
        anything more."""
        return (
            self.server.get(self.key("seeded")) == SEEDS_PUSHED
            and not self.server.zcard(self.key("sites"))
            and not self.leases_in_flight()
        )

    def clear(self) -> int:
        """Delete every key of the crawl (a finished crawl, or a fresh start)."""
        keys = list(self.server.scan_iter(match=f"{self.prefix}:*", count=1000))
        for start in range(0, len(keys), 500):
            self.server.delete(*keys[start : start + 500])
        return len(keys)


_crawls: WeakKeyDictionary[Crawler, SharedCrawl] = WeakKeyDictionary()


def redis_url(settings) -> str | None:
    return settings.get("REDIS_URL") or os.environ.get(REDIS_URL_ENV) or None


def shared_crawl_for(crawler: Crawler, topic_name: str | None = None) -> SharedCrawl | None:
    """The crawler's shared crawl, or None when the crawl runs in one process (no REDIS_URL).
    Its name is REDIS_CRAWL_NAME, else the crawl's topic: workers of a topic join one crawl. The
    spider opens it first, while it is being made, and so gives its topic's name (`topic_name`):
    the crawl's topic component (crawl/topic.py) reads it off the spider only once the spider
    is made."""
    settings = crawler.settings
    url = redis_url(settings)
    if not url:
        return None
    crawl = _crawls.get(crawler)
    if crawl is None:
        from scrapy_redis import defaults
        from scrapy_redis.connection import get_redis

        name = settings.get("REDIS_CRAWL_NAME") or topic_name or crawl_topic(crawler).name
        if not name:
            raise NotConfigured("a shared crawl needs REDIS_CRAWL_NAME or a topic spider")
        server = get_redis(url=url, **{**defaults.REDIS_PARAMS, **settings.getdict("REDIS_PARAMS")})
        server.ping()  # fail now, with the address, rather than at the first request
        crawl = SharedCrawl(server, str(name), settings.getfloat("REDIS_WORKER_TIMEOUT"))
        _crawls[crawler] = crawl
    return crawl
