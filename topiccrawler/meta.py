"""Every request.meta key the project sets, in one place: who writes it, who reads it, what it
means (Scrapy documents its own, e.g. `depth`, `download_slot`, `dont_retry`, the same way).

Every key is `topiccrawler_<name>`, so it never clashes with Scrapy's or another add-on's, and
components name it through the constants below, never as a string of their own. A component may
set only the keys declared here; `tests/sandbox/test_meta.py` records every key during a sandbox
crawl and fails on one that is neither here nor Scrapy's or an add-on's (SCRAPY_KEYS).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class MetaKey:
    name: str
    written_by: str
    read_by: str
    meaning: str


# The keys' names (the discovery package's own are in discovery/meta.py).
ENTRANCE = "topiccrawler_entrance"
HOPS = "topiccrawler_hops"
PAGER_HOPS = "topiccrawler_pager_hops"
AUTHORITY_SITE = "topiccrawler_authority_site"
SITE_BUDGET = "topiccrawler_site_budget"
HOP_LIMIT = "topiccrawler_hop_limit"
AT_DEPTH_LIMIT = "topiccrawler_at_depth_limit"
LINK_TEXT = "topiccrawler_link_text"
LINK_BLOCK = "topiccrawler_link_block"
ENGINE = "topiccrawler_engine"
QUERY = "topiccrawler_query"
SEARCH_PAGE = "topiccrawler_search_page"
HIT_TITLE = "topiccrawler_hit_title"
HIT_SNIPPET = "topiccrawler_hit_snippet"
LOGIN_STEP = "topiccrawler_login_step"
TUNNEL = "topiccrawler_tunnel"
CONTINUES_RELEVANT = "topiccrawler_continues_relevant"
FRONTIER = "topiccrawler_frontier"
FRONTIER_FIRST = "topiccrawler_frontier_first"
FRONTIER_RAISED = "topiccrawler_frontier_raised"
ENGINE_CHECKED = "topiccrawler_engine_checked"
ENGINE_BLOCKED = "topiccrawler_engine_blocked"
ENGINE_PROBE = "topiccrawler_engine_probe"
BAN_RETRIES = "topiccrawler_ban_retries"
ROTATE_PROFILE = "topiccrawler_rotate_profile"
ROTATE_PROXY = "topiccrawler_rotate_proxy"
POOL_PROXY = "topiccrawler_pool_proxy"
PROXY_RETRIES = "topiccrawler_proxy_retries"
LEASE = "topiccrawler_lease"

PROJECT_KEYS: tuple[MetaKey, ...] = (
    # --- how a page was found (spiders/topic.py) -------------------------------------------------
    MetaKey(
        ENTRANCE,
        "spider",
        "known-URL check, frontier, storage (PageItem.entrance), rediscovery, shared frontier",
        'how the crawl reached the page: "authority", '
        '"search", "link", "script" (a record JSON a page named), or a discovery entrance',
    ),
    MetaKey(
        HOPS,
        "spider",
        "hop limit, site budget, frontier, known-URL check, shared frontier",
        "links followed from the entrance (pager links within a thread not counted apart)",
    ),
    MetaKey(
        PAGER_HOPS,
        "frontier (continue_pages)",
        "hop limit (middlewares/hop_limit.py)",
        "of `hops`, those that were a thread's or board's next page",
    ),
    MetaKey(
        AUTHORITY_SITE,
        "spider",
        "spider (politeness), hop limit, site budget, rediscovery",
        "the seed file's authority site the page belongs to, if any",
    ),
    MetaKey(
        SITE_BUDGET,
        "site budget (middlewares/site_budget.py), discovery",
        "shared frontier (distributed/scheduler.py)",
        "(site, max_pages): the page budget the request counts against",
    ),
    MetaKey(HOP_LIMIT, "hop limit, discovery", "rediscovery", "the hop limit of the page's site"),
    MetaKey(
        AT_DEPTH_LIMIT,
        "hop limit, discovery",
        "frontier (gate)",
        "a link found on a page at its site's hop limit (followed only as a pager link)",
    ),
    MetaKey(
        LINK_TEXT, "spider", "hop limit, frontier (scoring, classifier)", "the link's anchor text"
    ),
    MetaKey(LINK_BLOCK, "spider", "frontier", 'where the link sat: "content", "navigation" …'),
    MetaKey(
        ENGINE,
        "spider (search requests and hits)",
        "spider, search-engine health (seeding/gate.py), frontier",
        "the search engine a query or hit belongs to",
    ),
    MetaKey(
        QUERY,
        "spider (search requests and hits)",
        "spider, frontier",
        "the query text a result page or hit belongs to",
    ),
    MetaKey(SEARCH_PAGE, "spider", "spider (parse_search)", "a result page's number"),
    MetaKey(HIT_TITLE, "spider", "frontier (rank_hit, link classifier)", "a search hit's title"),
    MetaKey(HIT_SNIPPET, "spider", "frontier", "a search hit's snippet"),
    MetaKey(LOGIN_STEP, "spider (logins)", "spider", "a step of a seed file's login form"),
    # --- the frontier (middlewares/frontier.py, frontier/) ----------------------------------------
    MetaKey(TUNNEL, "frontier (gate)", "frontier", "irrelevant pages in a row before this link"),
    MetaKey(
        CONTINUES_RELEVANT,
        "frontier (continue_pages)",
        "relevance judge",
        "a later page of a relevant thread or board: kept whatever its own score",
    ),
    MetaKey(
        FRONTIER,
        "frontier",
        "frontier (refresh_priority, link classifier), shared frontier",
        "the features, hops and offset the link's priority was computed from, and a link's "
        "parent's relevance (its context feature at η as it is now)",
    ),
    MetaKey(FRONTIER_FIRST, "rediscovery", "rediscovery", "the first queue entry of its URL"),
    MetaKey(
        FRONTIER_RAISED,
        "rediscovery",
        "rediscovery, known-URL check",
        "a copy of a queued URL queued again at a better place (dont_filter)",
    ),
    # --- fetching without being blocked ------------------------------------------------------------
    MetaKey(
        ENGINE_CHECKED, "search-engine health (seeding/gate.py)", "spider", "the gate looked first"
    ),
    MetaKey(ENGINE_BLOCKED, "search-engine health", "spider", "why the engine is backed off"),
    MetaKey(
        ENGINE_PROBE,
        "search-engine health",
        "search-engine health",
        "the query sent alone while the engine is in doubt (its retries carry it too)",
    ),
    MetaKey(
        BAN_RETRIES,
        "ban detector (middlewares/bans.py)",
        "ban detector",
        "times the page came back as a ban page and was asked again",
    ),
    MetaKey(
        ROTATE_PROFILE,
        "ban detector",
        "browser profiles (middlewares/profiles.py)",
        "ask again with another browser profile",
    ),
    MetaKey(
        ROTATE_PROXY,
        "ban detector, proxies",
        "proxies (middlewares/proxies.py)",
        "ask again through another proxy",
    ),
    MetaKey(POOL_PROXY, "proxies", "proxies", "the pool proxy the request went through"),
    MetaKey(PROXY_RETRIES, "proxies", "proxies", "times asked again through another proxy"),
    # --- feeds and sitemaps (discovery/; their names are discovery/meta.py's constants) --------------
    MetaKey(
        "topiccrawler_discovery",
        "discovery",
        "discovery, spider (parse), ban detector",
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
        LEASE,
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
