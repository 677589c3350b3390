"""What the crawl has learnt about where relevant pages are: the share of relevant pages among
those judged so far, per site and per section (a site's first path segment), shrunk towards the
wider estimate while there is little evidence, with an exploration bonus for places seldom
visited, so that relevant pages behind irrelevant ones ("tunnels") are still found.
"""

from __future__ import annotations

import math
from collections import OrderedDict, defaultdict
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

PRIOR_WEIGHT = 5.0  # pages of evidence the wider estimate counts for


class UrlMemo:
    """A function of a URL, remembered for the last `size` URLs asked (first in, first out):
    a queued URL is asked again at every pop and rescoring, and a long crawl asks about
    millions, so the memory is bounded (FRONTIER_URL_CACHE sets `size` when a crawl opens)."""

    def __init__(self, function: Callable[[str], Any], size: int):
        self.function = function
        self.size = size
        self.memo: OrderedDict[str, Any] = OrderedDict()
        self.__doc__ = function.__doc__

    def __call__(self, url: str) -> Any:
        try:
            return self.memo[url]
        except KeyError:
            pass
        value = self.function(url)
        if self.size > 0:
            while len(self.memo) >= self.size:
                self.memo.popitem(last=False)
            self.memo[url] = value
        return value

    def cache_clear(self) -> None:
        self.memo.clear()


def _places(url: str) -> tuple[str, str]:
    """The site and the section (site + first path segment) a URL belongs to."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    segment = parts.path.strip("/").split("/", 1)[0] if "/" in parts.path.strip("/") else ""
    return host, f"{host}/{segment}"


places = UrlMemo(_places, 100_000)


class YieldStats:
    """Judged and relevant page counts, overall, per site, per section."""

    def __init__(self, exploration: float = 0.1):
        self.exploration = exploration
        self.judged: dict[str, int] = defaultdict(int)
        self.relevant: dict[str, int] = defaultdict(int)
        self.total = 0
        self.total_relevant = 0

    def record(self, url: str, relevant: bool) -> None:
        self.total += 1
        self.total_relevant += relevant
        for place in places(url):
            self.judged[place] += 1
            self.relevant[place] += relevant

    def relabel(self, url: str, relevant: bool) -> None:
        """A page recorded with the other verdict is relevant (or not) after all: moved
        between the counts, not counted twice."""
        change = 1 if relevant else -1
        self.total_relevant += change
        for place in places(url):
            self.relevant[place] += change

    def _rate(self, place: str, prior: float) -> float:
        n = self.judged.get(place, 0)
        return (self.relevant.get(place, 0) + PRIOR_WEIGHT * prior) / (n + PRIOR_WEIGHT)

    def expected(self, url: str) -> float:
        """Expected share of relevant pages where the URL points, with the exploration bonus
        (upper confidence bound: larger where the section has been seen little)."""
        overall = (self.total_relevant + 1) / (self.total + 2)
        site, section = places(url)
        rate = self._rate(section, self._rate(site, overall))
        seen = self.judged.get(section, 0)
        bonus = self.exploration * math.sqrt(math.log(self.total + 2) / (seen + 1))
        return min(1.0, rate + bonus)
