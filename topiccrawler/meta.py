"""Every request.meta key the project sets, in one place: who writes it, who reads it, what it
means (Scrapy documents its own, e.g. `depth`, `download_slot`, `dont_retry`, the same way).

A component may set only the keys declared here; `tests/sandbox/test_meta.py` records every
key during a sandbox crawl and fails on one that is neither here nor Scrapy's or an add-on's
(SCRAPY_KEYS). The names are short and unprefixed for history's sake; none of them is one of
Scrapy's or scrapy-playwright's (that is checked too).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MetaKey:
    name: str
    written_by: str
    read_by: str
    meaning: str


PROJECT_KEYS: tuple[MetaKey, ...] = (
    # --- how a page was found (spiders/topic.py) -------------------------------------------------
    MetaKey(
        "entrance",
        "spider",
        "known-URL check, frontier, storage (PageItem.entrance), rediscovery, shared frontier",
        'how the crawl reached the page: "authority", '
        '"search", "link", "script" (a record JSON a page named), or a discovery entrance',
    ),
    MetaKey(
        "hops",
        "spider",
        "spider (hop limits), frontier, known-URL check, shared frontier",
        "links followed from the entrance (pager links within a thread not counted apart)",
    ),
    MetaKey(
        "pager_hops",
        "frontier (continue_pages)",
        "spider (hop limits)",
        "of `hops`, those that were a thread's or board's next page",
    ),
    MetaKey(
        "authority_site",
        "spider",
        "spider (budgets, politeness), rediscovery",
        "the seed file's authority site the page belongs to, if any",
    ),
    MetaKey(
        "site_budget",
        "spider",
        "shared frontier (distributed/scheduler.py)",
        "(site, max_pages): the page budget the request counts against",
    ),
    MetaKey("hop_limit", "spider", "rediscovery", "the hop limit of the page's site"),
    MetaKey(
        "at_depth_limit",
        "spider",
        "frontier (gate)",
        "a link found on a page at its site's hop limit (followed only as a pager link)",
    ),
    MetaKey("link_text", "spider", "frontier (scoring, link classifier)", "the link's anchor text"),
    MetaKey("link_block", "spider", "frontier", 'where the link sat: "content", "navigation" …'),
    MetaKey(
        "engine",
        "spider (search requests and hits)",
        "spider, engine gate, frontier",
        "the search engine a query or hit belongs to",
    ),
    MetaKey(
        "query",
        "spider (search requests and hits)",
        "spider, frontier",
        "the query text a result page or hit belongs to",
    ),
    MetaKey("search_page", "spider", "spider (parse_search)", "a result page's number"),
    MetaKey("hit_title", "spider", "frontier (rank_hit, link classifier)", "a search hit's title"),
    MetaKey("hit_snippet", "spider", "frontier", "a search hit's snippet"),
    MetaKey("login_step", "spider (logins)", "spider", "a step of a seed file's login form"),
    # --- the frontier (middlewares/frontier.py, frontier/) ----------------------------------------
    MetaKey("tunnel", "frontier (gate)", "frontier", "irrelevant pages in a row before this link"),
    MetaKey(
        "continues_relevant",
        "frontier (continue_pages)",
        "relevance judge",
        "a later page of a relevant thread or board: kept whatever its own score",
    ),
    MetaKey(
        "frontier",
        "frontier",
        "frontier (refresh_priority, link classifier), shared frontier",
        "the features, hops and offset the link's priority was computed from",
    ),
    MetaKey("frontier_first", "rediscovery", "rediscovery", "the first queue entry of its URL"),
    MetaKey(
        "frontier_raised",
        "rediscovery",
        "rediscovery, known-URL check",
        "a copy of a queued URL queued again at a better place (dont_filter)",
    ),
    # --- fetching without being blocked ------------------------------------------------------------
    MetaKey("engine_checked", "engine gate (seeding/gate.py)", "spider", "the gate looked first"),
    MetaKey("engine_blocked", "engine gate", "spider", "why the engine is backed off"),
    MetaKey(
        "block_retries",
        "block detector (middlewares/blocks.py)",
        "block detector",
        "times the page came back as a block page and was asked again",
    ),
    MetaKey(
        "rotate_profile",
        "block detector",
        "browser profiles (middlewares/profiles.py)",
        "ask again with another browser profile",
    ),
    MetaKey(
        "rotate_proxy",
        "block detector, proxies",
        "proxies (middlewares/proxies.py)",
        "ask again through another proxy",
    ),
    MetaKey("pool_proxy", "proxies", "proxies", "the pool proxy the request went through"),
    MetaKey("proxy_retries", "proxies", "proxies", "times asked again through another proxy"),
    # --- feeds and sitemaps (discovery/; their names are discovery/meta.py's constants) --------------
    MetaKey(
        "topiccrawler_discovery",
        "discovery",
        "discovery, spider (parse), block detector",
        "a feed, sitemap or robots.txt request: its kind, site, depth and lastmod",
    ),
    MetaKey(
        "topiccrawler_found_by",
        "discovery",
        "discovery (PageItem.found_by)",
        'a page request made from a feed or sitemap entry: "feed" or "sitemap"',
    ),
    MetaKey(
        "topiccrawler_changed",
        "discovery",
        "known-URL check",
        "the entry is dated after the page was stored: fetched although not due",
    ),
    # --- many workers (distributed/) -----------------------------------------------------------------
    MetaKey(
        "lease",
        "shared frontier (distributed/frontier.py)",
        "distributed scheduler",
        "the lease under which this worker fetches the request",
    ),
)

# Scrapy's own keys and its add-ons' (scrapy-playwright), which components may set or read.
SCRAPY_KEYS = frozenset(
    """depth download_slot download_latency download_timeout download_maxsize download_warnsize
    dont_redirect dont_retry dont_obey_robotstxt dont_merge_cookies dont_cache cookiejar proxy
    handle_httpstatus_list handle_httpstatus_all redirect_urls redirect_times redirect_ttl
    redirect_reasons retry_times max_retry_times is_start_request bindaddress referrer_policy
    _auth_proxy ftp_user ftp_password ftp_local_filename
    playwright playwright_context playwright_context_kwargs playwright_include_page
    playwright_page_methods playwright_page_goto_kwargs playwright_page_event_handlers
    playwright_security_details playwright_page""".split()
)

DECLARED = frozenset(key.name for key in PROJECT_KEYS)
