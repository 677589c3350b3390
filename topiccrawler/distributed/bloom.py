"""The seen-URL filter of a shared crawl: a Bloom filter in one Redis string.

A set of fingerprints (scrapy-redis's RFPDupeFilter) grows by about 60 bytes of Redis memory per
URL, 600 MB for 10 million; a Bloom filter sized for REDIS_BLOOM_CAPACITY URLs at a false-positive
rate REDIS_BLOOM_ERROR is fixed in size: 10 million URLs at 1 in 10,000 take 24 MB (2.4 MB per
million), whatever the crawl adds. The price of a false positive is one page not fetched, at that
rate only once the filter holds its full capacity. Test and set happen in one Lua script, so of
two workers that see one new URL at once exactly one fetches it.

Fingerprints are Scrapy's (the request fingerprinter: method, canonical URL, body), of URLs the
spider has already stripped of tracking parameters: the same identity as a one-process crawl.
"""

from __future__ import annotations

import logging
import math

from scrapy import Request
from scrapy.dupefilters import BaseDupeFilter

from topiccrawler.distributed.state import SharedCrawl

logger = logging.getLogger(__name__)

# Whether all the bits ARGV[first..] of the filter KEYS[1] are set: `seen` 1 if so.
TEST_BITS = """
local seen = 1
for i = first, #ARGV do
  if redis.call('GETBIT', KEYS[1], ARGV[i]) == 0 then
    seen = 0
    break
  end
end
"""
# Sets them for a URL not `seen` before, and counts it (KEYS[2]). The frontier's enqueue scripts
# run it only once the URL is queued: a link turned away by its site's budget is not marked seen,
# so the same URL can still come in another way (a search hit), as in a one-process crawl, where
# the budget turns the link away before the seen-URL filter sees it.
SET_BITS = """
if seen == 0 then
  for i = first, #ARGV do
    redis.call('SETBIT', KEYS[1], ARGV[i], 1)
  end
  redis.call('INCR', KEYS[2])
end
"""
TEST_AND_SET_BITS = TEST_BITS + SET_BITS
TEST_AND_SET = "local first = 1" + TEST_AND_SET_BITS + "return seen"

MAX_BITS = 2**32  # a Redis string holds at most 512 MB


def bloom_size(capacity: int, error: float) -> tuple[int, int]:
    """(bits, hash functions) of a Bloom filter for `capacity` items at false-positive `error`."""
    bits = math.ceil(-capacity * math.log(error) / math.log(2) ** 2)
    if bits > MAX_BITS:
        raise ValueError(f"a Bloom filter of {capacity} items at {error} needs over 512 MB")
    hashes = max(1, round(bits / capacity * math.log(2)))
    return bits, hashes


def bit_offsets(fingerprint: bytes, bits: int, hashes: int) -> list[int]:
    """The filter's bit positions for a fingerprint (Kirsch-Mitzenmacher double hashing over the
    fingerprint's own bytes: it is a SHA-1 already)."""
    first = int.from_bytes(fingerprint[:8], "big")
    second = int.from_bytes(fingerprint[8:16], "big") | 1
    return [(first + i * second) % bits for i in range(hashes)]


class BloomDupeFilter(BaseDupeFilter):
    """Scrapy's dupefilter interface over a shared Bloom filter."""

    def __init__(self, crawl: SharedCrawl, fingerprinter, capacity: int, error: float, debug=False):
        self.crawl = crawl
        self.fingerprinter = fingerprinter
        self.bits, self.hashes = bloom_size(capacity, error)
        self.debug = debug
        self._test_and_set = crawl.server.register_script(TEST_AND_SET)
        self.keys = [crawl.key("seen"), crawl.key("seen", "count")]

    def fingerprint(self, request: Request) -> bytes:
        return self.fingerprinter.fingerprint(request)

    def offsets(self, request: Request, fingerprint: bytes | None = None) -> list[int]:
        fingerprint = fingerprint or self.fingerprint(request)
        return bit_offsets(fingerprint, self.bits, self.hashes)

    def request_seen(self, request: Request) -> bool:
        return bool(self._test_and_set(keys=self.keys, args=self.offsets(request)))

    def count(self) -> int:
        """URLs added so far (new to the filter when added)."""
        return int(self.crawl.server.get(self.keys[1]) or 0)

    def memory(self) -> int:
        """Bytes the filter takes in Redis (its string grows up to bits / 8)."""
        return self.crawl.server.strlen(self.keys[0])

    def log(self, request: Request, spider) -> None:
        if self.debug:
            logger.debug("Filtered duplicate request: %s", request)

    def clear(self) -> None:
        self.crawl.server.delete(*self.keys)
