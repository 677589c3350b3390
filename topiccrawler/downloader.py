"""Scrapy's downloader, keeping each site's concurrency (DOWNLOADER).

Scrapy 2.19 starts a download as an asyncio task under the asyncio reactor (the project's), and
a download counts against its slot's CONCURRENT_REQUESTS_PER_DOMAIN (or a seed file's
`concurrency`) only once that task runs. The loop that takes requests out of a slot's queue checks
the count before any of the tasks it has just scheduled has run, so it starts every request
waiting in the queue at once: with no download delay, a site set to 2 requests at a time got 14
(tests/test_downloader.py serves the proof). With a delay the loop takes one request a turn, so
the defaults (DOWNLOAD_DELAY, AutoThrottle) hid it; a seed file's `download_delay = 0` or the
testbed's overrides did not. Beside politeness, it cost connections: the pool keeps
CONCURRENT_REQUESTS_PER_DOMAIN open connections a host, so the extra downloads opened new ones
and closed others, in bursts a small server's accept queue refuses (its clients then wait a
second for the SYN to be sent again).

`drop_waiting`: requests a slot holds back (for its delay or its concurrency) that the crawl no
longer wants sent: a site left alone after bans (middlewares/bans.py), a crawl stopping at its
page limit (extensions/harvest.py), where a banned site's slot, one request a raised delay, kept
the crawl open 10-15 s past its limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.core.downloader import Downloader
from scrapy.exceptions import IgnoreRequest
from twisted.python.failure import Failure

if TYPE_CHECKING:
    from scrapy import Request
    from scrapy.core.downloader import Slot


class SlotKeepingDownloader(Downloader):
    """A download counts against its slot from the moment it is scheduled, not from when its
    task first runs."""

    def _wait_for_download(self, slot: Slot, request: Request, queue_dfd: Any) -> Any:
        # Called synchronously by the queue loop, which reads `free_transfer_slots()` next;
        # the download itself adds the request again (a set) and removes it when done.
        slot.transferring.add(request)
        return super()._wait_for_download(slot, request, queue_dfd)


def drop_waiting(slot: Slot, reason: str) -> int:
    """Drop the requests waiting in a download slot's queue, not yet sent (each fails with
    IgnoreRequest(reason), which the spider's errback passes over); how many."""
    dropped = 0
    while slot.queue:
        _request, deferred = slot.queue.popleft()
        deferred.errback(Failure(IgnoreRequest(reason)))
        dropped += 1
    return dropped
