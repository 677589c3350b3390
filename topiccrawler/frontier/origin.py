"""Where a link was found, as the frontier's policies read it: the page's address, its verdict
and relevance, how many irrelevant pages lie behind it (the tunnel), and what a pager link of it
continues (its pager hops, its request's priority, whether it is a forum's). A page's links
carry it out of the spider; a link followed later without its page (one held at the hop limit,
a feed's entry) carries one made from what was kept of the page, so every link is admitted the
same way (middlewares/frontier.py `admit`)."""

from __future__ import annotations

from dataclasses import dataclass

from scrapy.http import Response

from topiccrawler.items import PageItem
from topiccrawler.meta import PAGER_HOPS, TUNNEL


@dataclass(frozen=True, slots=True)
class LinkOrigin:
    url: str
    relevance: float | None = None
    # The page's verdict for the frontier: an unjudged page (relevance off) counts as relevant.
    relevant: bool = True
    tunnel: int = 0  # irrelevant pages in a row up to the page
    pager_hops: int = 0  # pager links followed to reach the page (not counted as hops)
    priority: int | None = None  # the page's request's priority, kept by its pager links
    forum: bool = False  # the page has posts or a thread list

    @classmethod
    def of_page(cls, response: Response, page: PageItem) -> LinkOrigin:
        """The origin of the links a judged page yields."""
        request = response.request
        return cls(
            response.url,
            page.relevance,
            page.is_relevant is not False,
            response.meta.get(TUNNEL, 0),
            response.meta.get(PAGER_HOPS, 0),
            request.priority if request is not None else None,
            bool(page.posts or page.threads),
        )
