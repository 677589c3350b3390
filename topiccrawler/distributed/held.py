"""The hop limit's held links in a shared crawl: in Redis, so that any worker that finds a page
nearer than it was fetched at its hop limit follows its held links, whichever worker fetched it
(each worker's own store would lose them when the other worker finds the page, or when the worker
that holds them is killed).

Two hashes keyed by the page's requested URL: the hops it was fetched at (`hop_limited`), and
its held links as JSON (`held`); `held_links` counts the links held, against the cap, and the
list `hop_order` the pages in the order they were limited, so that past the cap of pages the
oldest is forgotten, as in one process. `limited` and `take` are one Lua call each, so a page
found nearer by two workers at once is released by one of them.
"""

from __future__ import annotations

from topiccrawler.distributed.state import SharedCrawl
from topiccrawler.frontier.held import NOT_NEARER, HeldLinks, HeldPage, Taken

# KEYS: hop_limited, held, held_links, hop_order; ARGV: url, hops, the cap of pages (0: none).
# Past the cap, the pages limited longest ago go with their held links (HeldPage's 8th field).
LIMITED = """
if redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('RPUSH', KEYS[4], ARGV[1])
end
local cap = tonumber(ARGV[3])
while cap > 0 and redis.call('HLEN', KEYS[1]) > cap do
  local oldest = redis.call('LPOP', KEYS[4])
  if not oldest then break end
  redis.call('HDEL', KEYS[1], oldest)
  local held = redis.call('HGET', KEYS[2], oldest)
  if held then
    redis.call('HDEL', KEYS[2], oldest)
    redis.call('DECRBY', KEYS[3], #cjson.decode(held)[8])
  end
end
"""
# KEYS: as LIMITED's; ARGV: url, hops now. Returns nil (not nearer), or {1, the held page's JSON
# or ""}.
TAKE = """
local earlier = redis.call('HGET', KEYS[1], ARGV[1])
if not earlier or tonumber(ARGV[2]) >= tonumber(earlier) then return nil end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('LREM', KEYS[4], 1, ARGV[1])
local held = redis.call('HGET', KEYS[2], ARGV[1])
if not held then return {1, ''} end
redis.call('HDEL', KEYS[2], ARGV[1])
return {1, held}
"""


class SharedHeldLinks(HeldLinks):
    def __init__(self, crawl: SharedCrawl, max_links: int, max_pages: int = 0):
        super().__init__(max_links, max_pages)
        self.crawl = crawl
        self.keys = [
            crawl.key("hop_limited"), crawl.key("held"), crawl.key("held_links"),
            crawl.key("hop_order"),
        ]  # fmt: skip
        self._limited = crawl.server.register_script(LIMITED)
        self._take = crawl.server.register_script(TAKE)

    def limited(self, url: str, hops: int) -> None:
        self._limited(keys=self.keys, args=[url, hops, self.max_pages])

    def hold(self, url: str, page: HeldPage) -> bool:
        server, count = self.crawl.server, len(page.links)
        if server.incrby(self.keys[2], count) > self.max_links:
            server.decrby(self.keys[2], count)
            return False
        server.hset(self.keys[1], url, page.dumps())
        return True

    def take(self, url: str, hops: int) -> Taken:
        answer = self._take(keys=self.keys, args=[url, hops])
        if answer is None:
            return NOT_NEARER
        if not answer[1]:
            return Taken(True, None)
        page = HeldPage.loads(answer[1])
        self.crawl.server.decrby(self.keys[2], len(page.links))
        return Taken(True, page)
