"""Scrapy's seen filter, with one more public method, `forget`: a request the capped memory queue
drops unfetched (FRONTIER_MAX_QUEUED, frontier/scheduler.py) leaves the filter, so that a link to
its URL found later queues it again at that link's priority. The scheduler calls `forget` and
never looks inside a filter; a crawl whose DUPEFILTER_CLASS is another keeps its URLs seen."""

from __future__ import annotations

from scrapy import Request
from scrapy.dupefilters import RFPDupeFilter


class ForgettingDupeFilter(RFPDupeFilter):
    def forget(self, request: Request) -> None:
        """`request`'s URL counts as not seen any more (in memory; a JOBDIR's requests.seen
        keeps it: a resumed crawl sees it again, as a queue on disk is never capped)."""
        # RFPDupeFilter keeps its fingerprints in a set of its own and has no public way to
        # take one out: the one reach into its private names, here in its subclass.
        self._fingerprints.discard(self._fingerprint(request))
