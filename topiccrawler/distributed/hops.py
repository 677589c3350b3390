"""Pages fetched at the hop limit, known to every worker of a shared crawl.

One process remembers which pages it fetched at their site's hop limit (their links were held,
not followed), so that when such a page turns up again fewer hops away (the seen filter drops the
request) its links are followed from there (middlewares/hop_limit.py). In a shared crawl the
worker that finds the page nearer is often not the one that fetched it: without this record the
page's links would never be followed, and which pages a crawl reaches would depend on which worker
happened to take which request.

Each page at the limit goes to a Redis hash (URL → hops) and to a log every worker reads on from
where it stopped, at most every REFRESH seconds (one round trip, not one per dropped request:
most requests a page yields are repeats). The worker that finds the page nearer claims it
(HDEL: one worker wins) and follows its links, from the links it held itself or by fetching the
page once more.
"""

from __future__ import annotations

import time

from topiccrawler.distributed.state import SharedCrawl

REFRESH = 0.5  # seconds between reads of the other workers' new records


class SharedHopLimits:
    def __init__(self, crawl: SharedCrawl, refresh: float = REFRESH):
        self.crawl = crawl
        self.hash = crawl.key("hops", "limited")
        self.log = crawl.key("hops", "log")
        self.refresh = refresh
        self.known: dict[str, int] = {}  # every worker's records read so far: URL → hops
        self.read = 0  # entries of the log read
        self.refreshed = float("-inf")

    def record(self, url: str, hops: int) -> None:
        """`url` was fetched `hops` away, at its site's limit."""
        pipe = self.crawl.server.pipeline(transaction=False)
        pipe.hset(self.hash, url, hops)
        pipe.rpush(self.log, f"{hops}\t{url}")
        pipe.execute()
        self.known[url] = hops

    def recorded(self, url: str) -> int | None:
        """The hops `url` was fetched at, at the limit, by any worker (as last read)."""
        if time.monotonic() - self.refreshed >= self.refresh:
            self._read_on()
        return self.known.get(url)

    def _read_on(self) -> None:
        for entry in self.crawl.server.lrange(self.log, self.read, -1):
            self.read += 1
            hops, _, url = entry.decode().partition("\t")
            self.known[url] = int(hops)
        self.refreshed = time.monotonic()

    def claim(self, url: str) -> bool:
        """True for the one worker that takes the page's links on (the record is removed)."""
        self._read_on()  # the log up to now: a record read later would bring the page back
        self.known.pop(url, None)
        return bool(self.crawl.server.hdel(self.hash, url))
