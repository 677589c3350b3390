"""The limits a page's site sets on following its links: one lookup, read by the spider (which
links are the site's), the hop limit (middlewares/hop_limit.py) and the site budget
(middlewares/site_budget.py).

A page of an authority site is held to that site's seed-file limits; any other page (a search
hit and the pages reached from it) to SEARCH_FOLLOW_DEPTH hops and SITE_MAX_PAGES pages of its
host.
"""

from __future__ import annotations

from typing import Any, NamedTuple
from urllib.parse import urlsplit

from topiccrawler.topics.model import AuthoritySite, SeedList


class SiteLimits(NamedTuple):
    key: str  # what the page budget is counted under: the authority site's name, or the host
    site: AuthoritySite | None  # the authority site, if the page is one's
    domains: tuple[str, ...]  # the hosts (and their subdomains) that are the same site
    max_hops: int  # links followed from the entrance, at most
    budget: int  # distinct pages requested, at most


def authority_site(seeds: SeedList, name: str | None) -> AuthoritySite | None:
    """The seed file's authority site of that name, if any."""
    if name is None:
        return None
    return next((s for s in seeds.authority if s.name == name), None)


def download_slot(site: AuthoritySite) -> str | None:
    """The authority site's own download slot, when the seed file gives it a delay or a
    concurrency (Scrapy's per-slot settings then hold for all its hosts); None otherwise."""
    if site.download_delay is None and site.concurrency is None:
        return None
    return f"authority:{site.name}"


def site_limits(seeds: SeedList, settings: Any, site_name: str | None, url: str) -> SiteLimits:
    """The limits of the page at `url`, found through the authority site `site_name` (None:
    through no authority site); `settings` are the crawl's (SEARCH_FOLLOW_DEPTH,
    SITE_MAX_PAGES)."""
    site = authority_site(seeds, site_name)
    if site is not None:
        return SiteLimits(site.name, site, site.allowed_domains, site.depth_limit, site.max_pages)
    host = urlsplit(url).hostname or ""
    return SiteLimits(
        host,
        None,
        (host,),
        settings.getint("SEARCH_FOLLOW_DEPTH"),
        settings.getint("SITE_MAX_PAGES"),
    )
