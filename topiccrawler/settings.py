"""Default settings of the topiccrawler project.

Override any of them with `-s NAME=value`, a `SCRAPY_SETTINGS_MODULE` of your own, or the
environment variables named below. Groups: Scrapy's own, topics, the item path, storage.
"""

from topiccrawler import __version__
from topiccrawler.urls import TRACKING_PARAMETERS

BOT_NAME = "topiccrawler"
SPIDER_MODULES = ["topiccrawler.spiders"]
NEWSPIDER_MODULE = "topiccrawler.spiders"
ADDONS = {"topiccrawler.distributed.addon.DistributedCrawl": 0}  # REDIS_URL: a shared crawl
COMMANDS_MODULE = "topiccrawler.commands"  # `scrapy crawl` checks topic files first

# --- Scrapy behaviour ---------------------------------------------------------------------------
AUTOTHROTTLE_ENABLED = True  # adapt the delay to each site's latency
AUTOTHROTTLE_START_DELAY = 1.0  # first delay per site, seconds
AUTOTHROTTLE_TARGET_CONCURRENCY = 2.0  # parallel requests AutoThrottle aims for per site
# Outputs of one response handled at once. Scrapy's 100 starts 100 asyncio tasks per response;
# the pipelines are synchronous, so about a page's links is enough (with fewer, a page's links
# wait behind a full queue while other pages' links are gated, and the crawl order changes).
CONCURRENT_ITEMS = 16
CONCURRENT_REQUESTS = 16  # in flight over all sites
CONCURRENT_REQUESTS_PER_DOMAIN = 2  # in flight per site: many sites share the crawl in turn
DOWNLOAD_DELAY = 0.5  # minimum seconds between requests to one site
# Scrapy's, keeping CONCURRENT_REQUESTS_PER_DOMAIN under the asyncio reactor (downloader.py)
DOWNLOADER = "topiccrawler.downloader.SlotKeepingDownloader"
DOWNLOAD_MAXSIZE = 32 * 1024 * 1024  # larger responses are dropped
DOWNLOAD_TIMEOUT = 30  # seconds
DOWNLOAD_WARNSIZE = 8 * 1024 * 1024  # log a warning above this size
FEED_EXPORT_ENCODING = "utf-8"  # -O pages.jsonl keeps Chinese readable
LOG_LEVEL = "INFO"
REMOTE_CONTROL_ENABLED = False  # Scrapy 2.19's control server: not wanted on crawl hosts
RETRY_TIMES = 2  # retries of a failed request before it counts as dead
ROBOTSTXT_OBEY = True  # politeness first
TELNETCONSOLE_ENABLED = False
TWISTED_REACTOR = "twisted.internet.asyncioreactor.AsyncioSelectorReactor"
USER_AGENT = (
    f"topiccrawler/{__version__}"  # what robots.txt is read for; pages get a browser profile
)
ROBOTSTXT_USER_AGENT = USER_AGENT

# --- Anti-ban (SPEC §2; BAN_* were BLOCK_*, still read under those names) ----------------------------------------------------------------------
PROFILES_ENABLED = True  # each site sees one coherent browser profile (User-Agent + headers)
PROFILES_FILE = None  # TOML file of [[profile]] entries replacing the built-in list
BAN_DETECTION_ENABLED = True  # notice 403/429/503, captchas, verification redirects, short pages
BAN_RETRY_TIMES = 3  # retries of a blocked request, later, through another profile and proxy
BAN_GIVE_UP = 10  # bans in a row after which a site is left alone for BAN_COOLDOWN
BAN_GIVE_UP_AFTER = 60.0  # seconds of nothing but bans that also leave a site alone (0: off)
BAN_COOLDOWN = 600.0  # seconds
BAN_MIN_DELAY = 1.0  # a banning site's delay becomes at least this, doubling per ban
BAN_MAX_DELAY = 60.0  # and at most this
BAN_SHORT_PAGE_SHARE = 0.1  # a page shorter than this share of the site's median is suspect
PROXIES = []  # proxy URLs (http://user:pass@host:port); none and no PROXY_FILE: direct connections
PROXY_FILE = None  # one proxy URL per line, # comments
PROXY_RETRY_TIMES = 2  # a request whose proxy failed is retried through another this often
PROXY_BACKOFF = 60.0  # seconds a failed or blocked proxy is benched; doubles each time
PROXY_BACKOFF_MAX = 3600.0  # the longest a proxy is benched, seconds
SESSIONS_ENABLED = True  # a cookie jar per site; [[login]] sites of the seed file are logged into
COOKIES_FILE = None  # cookies to start with: a Netscape cookies.txt or a JSON list from a browser

# --- The web is hostile input: addresses a crawl may reach, what is exported -----------------
ADDRESS_GUARD_ENABLED = True  # refuse requests to loopback, private, link-local … addresses
ALLOWED_ADDRESSES = []  # reachable anyway: networks ("10.1.0.0/16"), address:port, name[:port]
FEED_EXPORTERS = {"csv": "topiccrawler.exporters.FormulaSafeCsvItemExporter"}  # no formulas

# --- Topics -------------------------------------------------------------------------------------
TOPIC_DEFAULT = "tax"  # crawled when `-a topic=` is not given (so `scrapy check` runs)
TOPIC_KEYWORDS_DIR = "keywords"  # keyword libraries; relative paths start at the project root
TOPIC_SEEDS_DIR = "seeds"  # seed lists; same rule
TOPIC_LOCK_DIR = None  # where each topic's crawl lock lives; None: data/locks under the project
TOPIC_DIRS = []  # more folders of keywords/ + seeds/; []: $TOPICCRAWLER_TOPICS_DIR

# --- Entrances (SPEC §1) ------------------------------------------------------------------------
SEARCH_BACKOFF = 300.0  # seconds an engine is left alone after its first block; doubles per block
SEARCH_BACKOFF_MAX = 3600.0  # longest back-off
SEARCH_EMPTY_STREAK = 20  # empty answers in a row (to queries without site:) that mean blocked
SEARCH_FOLLOW_DEPTH = 1  # same-site link hops followed from a page the search entrance found
SEARCH_MAX_QUERIES = 0  # queries built per crawl at most (0: all of them)
SEARCH_NEXT_PAGE_YIELD = 0.3  # relevant share of judged hits a query needs for its next page
SEARCH_REPEAT_AFTER = 86400.0  # seconds before a query answered with results is asked again
SITE_MAX_PAGES = 500  # page budget per site reached through search (authority sites: seed file)
# Links of pages fetched at the hop limit kept, in all, to follow should the page turn up nearer
HOP_HELD_LINKS_MAX = 50_000  # (about 20 MB); past it such a page is fetched once more
# Pages remembered as fetched at the hop limit (about 150 B each: 15 MB); past it the oldest is
# forgotten with its held links, and found nearer later it is not fetched again
HOP_LIMITED_MAX = 100_000
# Feeds and sitemaps of authority sites (discovery/): their entries join the best-first queue.
DISCOVERY_ENABLED = True  # read feeds and sitemaps (per site: `discover = false` in the seed file)
DISCOVERY_FEED_MAX_BYTES = 10 * 1024 * 1024  # a feed larger than this is not downloaded
DISCOVERY_FRESH_BONUS = 200  # priority points (of 1000) an entry dated now gains; halves ...
DISCOVERY_FRESH_HALF_LIFE = 86400.0  # ... every this many seconds of the entry's age
DISCOVERY_HUB_HOPS = 1  # list pages this near a start URL are read for feed links (and start pages)
DISCOVERY_MAX_ENTRIES = 50_000  # entries read per feed or sitemap (the sitemap protocol's limit)
DISCOVERY_MAX_SOURCES = 100  # feeds and sitemaps fetched per site and crawl, at most
DISCOVERY_SITEMAP_DEPTH = 2  # sitemap indexes followed below the first one (nested indexes)
DISCOVERY_SITEMAP_MAX_BYTES = 50 * 1024 * 1024  # a sitemap, downloaded or unpacked, above: dropped

# --- What storage already knows (dead links, revisits) -----------------------------------------
DEAD_LINK_MAX_FAILURES = 3  # failed crawls (DNS, timeouts) before a URL is dead; 404/410: at once
DEAD_LINK_RETRY_AFTER = 30 * 86400.0  # seconds before a dead link is tried again
REVISIT_ENABLED = True  # skip pages stored recently (needs storage)
REVISIT_AFTER = 7 * 86400.0  # seconds before an article page is fetched again
REVISIT_DISCUSSIONS_AFTER = 86400.0  # pages with comments or posts: they grow
REVISIT_HUBS_AFTER = 3600.0  # list and home pages: new links appear on them
REVISIT_HUB_LINK_DENSITY = 0.5  # link text share from which a page counts as a hub
DOWNLOADER_MIDDLEWARES = {
    # Off: no spider here sets allowed_domains (the spider keeps a page's links on its site,
    # topics/limits.py); its check of every link as it is scheduled cost 3 % of a crawl's CPU.
    "scrapy.downloadermiddlewares.offsite.OffsiteMiddleware": None,
    "topiccrawler.middlewares.address_guard.AddressGuardMiddleware": 10,  # first: before robots.txt
    "topiccrawler.middlewares.known_urls.KnownUrlsMiddleware": 50,
    "topiccrawler.seeding.gate.SearchEngineHealthMiddleware": 60,  # engines' back-off, held queries
    "topiccrawler.middlewares.profiles.BrowserProfileMiddleware": 390,  # before default headers
    "topiccrawler.middlewares.bans.BanMiddleware": 560,  # sees 429/503 before RetryMiddleware
    "topiccrawler.middlewares.sessions.SessionMiddleware": 690,  # before the cookie jars
    "topiccrawler.middlewares.proxies.ProxyMiddleware": 740,  # before HttpProxyMiddleware
}

# --- The item path: extraction → judged → links gated; then dedup → relevance → briefing → storage --
# Pages are read and judged by spider middlewares, so that links of irrelevant pages are not
# followed; the pipelines (fixed slots: dedup 200, relevance 300, briefing 400, storage 800, feed
# clean-up 900) mark reposts, drop the text of dropped pages, brief and store.
SPIDER_MIDDLEWARES = {  # a page's way out of the spider, highest first
    "topiccrawler.middlewares.canonical.CanonicalLinksMiddleware": 975,  # rel=canonical claimed
    "topiccrawler.middlewares.extraction.ExtractionMiddleware": 970,  # read once, here
    "topiccrawler.middlewares.scripted.ScriptedPagesMiddleware": 960,  # completed by script
    "topiccrawler.middlewares.relevance.RelevanceMiddleware": 950,  # judged
    "topiccrawler.middlewares.hop_limit.HopLimitMiddleware": 948,  # hop limit; links held at it
    "topiccrawler.middlewares.site_budget.SiteBudgetMiddleware": 946,  # each site's page budget
    "topiccrawler.middlewares.frontier.FrontierMiddleware": 940,  # its links gated and ranked
    # feeds and sitemaps of judged start and list pages; their entries ranked by the frontier
    "topiccrawler.discovery.middleware.DiscoveryMiddleware": 930,
}
ITEM_PIPELINES = {
    "topiccrawler.pipelines.dedup.DedupPipeline": 200,
    "topiccrawler.pipelines.relevance.RelevancePipeline": 300,
    "topiccrawler.pipelines.briefing.BriefingPipeline": 400,
    "topiccrawler.pipelines.storage.StoragePipeline": 800,
    "topiccrawler.pipelines.feed.DropRawHtmlPipeline": 900,
}
EXTENSIONS = {
    "topiccrawler.extensions.crawl_run.CrawlRunRecorder": 500,
    "topiccrawler.extensions.live_stats.LiveRunStats": 470,  # for `topiccrawler serve`
    "topiccrawler.extensions.harvest.HarvestMonitor": 490,  # before the run is recorded
    "topiccrawler.extensions.progress.CrawlProgress": 480,  # its summary goes into the run's stats
    "topiccrawler.extensions.offline.BundledSuffixList": 100,  # before any cookie is handled
    "topiccrawler.extensions.meta_keys.MetaKeysCheck": 0,  # with META_KEYS_CHECK
    "topiccrawler.redact.SecretRedaction": 0,  # passwords masked in logs before any is written
    "topiccrawler.extensions.jobdir.KilledJobdirGuard": 0,  # before the scheduler reads JOBDIR
    "topiccrawler.extensions.interrupt.CrawlInterrupts": 0,  # Ctrl-C: what was fetched is written
    "topiccrawler.crawl.topic.CrawlTopic": 0,  # the crawl's topic and its scorer, held once
    # What the crawl learns and holds (crawl/stores.py); in Redis with REDIS_URL (the add-on
    # puts topiccrawler.distributed.stores.RedisCrawlStores in its place)
    "topiccrawler.crawl.stores.CrawlStores": 0,
}

CRAWL_RUN_LIVE_INTERVAL = 5.0  # seconds between a running crawl's figures written to its run
# (what `topiccrawler serve` shows of a crawl as it runs); 0: never

# --- Full-text search (storage/search_index.py, `topiccrawler search`, `topiccrawler serve`) ----
# Pages, comments and posts indexed as they are stored, in the same transaction; False: not
# (a crawl a few per cent faster, docs/benchmarks.md) until `topiccrawler db reindex`.
SEARCH_INDEX = True
SEARCH_RELEVANCE_WEIGHT = 2.0  # a hit's text rank × (1 + this × its page's relevance score)
# A query matching more entries than this is ranked among the newest this many (what one
# search costs stays bounded on a store of millions of pages); its total says "more than".
SEARCH_RANK_WINDOW = 10000

# --- Comments and forum records (SPEC §4, §5) ----------------------------------------------------
RECORDS_ENABLED = True  # extract comments, forum posts and thread lists from every page
COMMENT_MEASURE = "pol"  # "pol" (the paper's), "ed", "stm", "lcs", "mct"; "signature" (learned)
COMMENT_SIMILARITY = 0.8  # a: siblings more similar than this repeat one template
COMMENT_LEVEL = 6  # nodes this close to <html> are tested only with strong evidence (menus)
COMMENT_MIN_BLOCKS = 5  # b: comments a region needs on structure alone
COMMENT_MIN_BLOCKS_WITH_EVIDENCE = 2  # ... when every block carries a time and an author
FORUM_SIMILARITY = 0.9  # SoL above which two blocks share a layout
FORUM_WEIGHTS = [0.6, 0.3, 0.1]  # SoL's weight of each level compared (N = their number)
FORUM_MIN_BLOCKS = 2  # K: alike blocks a node needs to hold posts or thread-list rows
# Pages read in worker processes on other cores while the crawl goes on, with the later stages'
# per-page work (extraction_workers.py, read_ahead.py); 0: all in the crawl's process; "auto":
# one worker where the crawl may use two cores or more. One worker makes the testbed crawl
# 1.0-1.1x the plain spider's fetches/s, in process about 0.75-0.8x (docs/benchmarks.md, Throughput,
# rounds 11-12); the scheduler holds requests back while the pages in it are expected to bring
# links that outrank them, and takes none while taking early is expected to be regretted
# (frontier/scheduler.py): the large sandbox's first hundred pages as relevant as in process.
# A page that finds EXTRACT_IN_FLIGHT pages handed out waits its turn (2 s at most, then it is
# read here).
EXTRACT_PROCESSES = "auto"
EXTRACT_IN_FLIGHT = 0  # 0: eight per worker process (with two, a quarter stayed in the crawl's)

# --- Title de-duplication (SPEC §7) -------------------------------------------------------------
DEDUP_ENABLED = True  # mark reposts (duplicate_of); they are stored all the same
DEDUP_MAX_TITLES = 500_000  # titles in the repost index (~150 B each); past it: newest half
DEDUP_REFRESH_INTERVAL = 30.0  # seconds between looks for titles other processes stored
DEDUP_SAME_SITE = False  # also match pages of the same site (pagination shares titles: off)
DEDUP_THRESHOLD = 0.8  # TF-IDF cosine of normalised titles from which a page is a repost

# --- Relevance (SPEC §6) -------------------------------------------------------------------------
RELEVANCE_ENABLED = True  # score pages against the topic library; False: keep and follow all
RELEVANCE_LIBRARY = "extended"  # "extended": terms, synonyms, accepted expansions; "static": terms
RELEVANCE_THRESHOLD = None  # η: a number, or "auto"; None: the topic file's `threshold`
# With η auto (a topic file without a number): a page classifier learnt during the crawl from the
# library's confident verdicts joins the verdict (relevance/page_classifier.py)
RELEVANCE_CLASSIFIER = True
# how the classifier labels short texts (titles, notices, posts: fewer than 60 words and
# character pairs): "em" self-trains them from the score's verdicts (expectation-maximisation:
# a short text on the topic often has none of its words); "confident" takes the score's sure
# verdicts as for long pages (page_classifier.py)
RELEVANCE_CLASSIFIER_SELF_TRAINING = "em"
# how sure the score alone may make a verdict with η auto: its probability is held within
# [1 − this, this] before it is combined with the classifier's (set across the six dev webs)
RELEVANCE_LIBRARY_CERTAINTY = 0.7
RELEVANCE_TUNNEL_DEPTH = 2  # irrelevant pages in a row whose links keep their own priority
RELEVANCE_TUNNEL_DEFER = True  # links past that wait behind all others (False: not followed)
RELEVANCE_STORE_DROPPED_TEXT = False  # store the body of pages below η too (scores always are)
RELEVANCE_BLOCK_IMPACT = {}  # block → impact factor; {}: title 3, body 4, anchors 1, other 1, navigation 0.5

# --- Pages built by script (render/, middlewares/scripted.py) -----------------------------------
# Plain HTTP as Scrapy does it; requests marked for the browser go to scrapy-playwright, which
# starts on the first of them with the system Chromium (never a browser Playwright downloads).
DOWNLOAD_HANDLERS = {
    "http": "topiccrawler.render.handler.RenderingDownloadHandler",
    "https": "topiccrawler.render.handler.RenderingDownloadHandler",
}
# "auto": complete pages whose records or body are built by script; "always"; "never"
RENDER_MODE = "auto"
RENDER_BROWSER = None  # Chromium's path; None: `chromium` on PATH (Debian's package)
RENDER_BROWSER_ARGS = []  # extra Chromium flags (the sandbox maps its .test hosts with one)
RENDER_MAX_PAGES = 2  # pages rendered at once (one browser, one context)
RENDER_TIMEOUT = 20.0  # seconds a page may take to load in the browser
RENDER_LOAD_MORE_ROUNDS = 5  # "load more" clicks and scrolls to the end, at most, per page

# --- The briefing (topiccrawler report) ---------------------------------------------------------
BRIEFING_ENABLED = True  # keywords, a summary and named entities of every page whose text is stored
BRIEFING_KEYWORDS = 10  # keywords kept per page (TF-IDF, the topic's terms weighted ×2)
BRIEFING_SUMMARY_SENTENCES = 3  # sentences of the page's own in its summary
BRIEFING_ENTITIES = 20  # people, places and organisations kept per page, most mentioned first

# --- The focused frontier ----------------------------------------------------------------------
FRONTIER_ENABLED = True  # best-first: links get a priority (parent, anchor, URL, block, learned)
FRONTIER_CLASSIFIER = True  # an online link classifier learns from judged pages what to fetch next
FRONTIER_LEARNING = True  # learn each site's and section's share of relevant pages while crawling
FRONTIER_EXPLORATION = 0.1  # weight of the bonus for sections seen little (finds tunnels)
FRONTIER_HUB_LINKS = 0  # on-topic content links that make a page a hub, learnt as worth
FRONTIER_HUB_SHARE = 0.3  # fetching, when they are this share of its links too (0 links: off)
# an irrelevant page on which a relevant one was found is learnt as worth fetching (a tunnel
# entry: the link classifier's label of the link that led to it replaced)
FRONTIER_TUNNEL_LABELS = False
# a page found again through a link this many priority points better (of 1000) is queued again
# there, and fetched once, from its best place (a shared crawl raises its queued request in place
# in Redis: distributed/rediscovery.py); 0: a page keeps its first link's priority
FRONTIER_REDISCOVERY_GAIN = 50
FRONTIER_MAX_QUEUED = 30_000  # requests queued in memory at most (~2 KB each); the worst dropped
FRONTIER_URL_CACHE = 30_000  # URLs whose site, section and URL words are remembered (~1.1 KB each)
FRONTIER_RESCORE_LIMIT = 20000  # queued requests scored again after a classifier refit, at most
# feature → weight; {}: text .3, context .15, url .05, block .05, learned .15, model .3
FRONTIER_WEIGHTS = {}
FRONTIER_SCORE_HITS = True  # search hits ranked by title, snippet and query yield (False: first)
# Best-first across sites, per-site concurrency kept (frontier/queue.py); Scrapy's default is
# "scrapy.pqueues.DownloaderAwarePriorityQueue" (sites served in turn, whatever their links).
SCHEDULER_PRIORITY_QUEUE = "topiccrawler.frontier.queue.BestFirstPriorityQueue"
# Scrapy's scheduler, plus `rescore` after a link-classifier refit (a shared crawl: the Redis one)
SCHEDULER = "topiccrawler.frontier.scheduler.FrontierScheduler"
# Scrapy's seen filter, plus `forget` for requests the capped queue drops (frontier/seen.py)
DUPEFILTER_CLASS = "topiccrawler.frontier.seen.ForgettingDupeFilter"
CRAWL_MAX_PAGES = 0  # stop after this many judged pages (0: no limit)
HARVEST_WINDOW = 200  # pages over which the running harvest rate is measured
HARVEST_STOP_BELOW = 0.0  # stop when the harvest rate over the window falls below this (0: never)
HARVEST_CURVE_EVERY = 100  # a point of the harvest curve (pages, relevant) every N judged pages

# --- URL identity -------------------------------------------------------------------------------
URL_TRACKING_PARAMETERS = list(TRACKING_PARAMETERS)  # removed before a URL is requested (globs)
URL_CANONICAL_LINKS = True  # a page's rel=canonical address counts as fetched with it

# --- Running a crawl: progress, the end-of-crawl summary, what cannot be reached -------------------
PROGRESS_INTERVAL = 60.0  # seconds between progress lines (pages, kept, harvest, queue); 0: off
META_KEYS_CHECK = False  # warn of request.meta keys not declared in topiccrawler/meta.py (tests)
PROGRESS_STALL_TIMEOUT = 600.0  # end the crawl (no_progress) after this long unfetched; 0: never
SEARCH_ENGINE_TIMEOUT = 15.0  # download timeout of engine requests: a hanging engine is found soon
# Longest a query waits for its engine's probe (the one query sent while the engine is in doubt).
SEARCH_PROBE_WAIT = 40.0
LOGSTATS_INTERVAL = 0  # Scrapy's "Crawled N pages" line: the progress line replaces it
PUBLIC_SUFFIX_LIST_FETCH = False  # True: tldextract may download the suffix list (else bundled)

# --- Many workers on one crawl (distributed/): on when REDIS_URL is set -------------------------
REDIS_URL = None  # redis://host:6379/0; None: $TOPICCRAWLER_REDIS_URL, else one process, no Redis
REDIS_PARAMS = {}  # more redis-py client arguments (socket_timeout, password, ...)
REDIS_CRAWL_NAME = None  # workers with the same name share one crawl; None: the topic's name
REDIS_WORKER_TIMEOUT = 30.0  # seconds without a heartbeat after which a worker counts as dead
REDIS_IDLE_TIMEOUT = 60.0  # seconds an idle worker waits for others' requests in flight
REDIS_FLUSH_ON_START = False  # True: the first worker deletes a stopped crawl's state (no resume)
REDIS_BLOOM_CAPACITY = 10_000_000  # URLs the shared seen-URL filter is sized for (24 MB at 1e-4)
REDIS_BLOOM_ERROR = 1e-4  # its false-positive rate at full capacity (a URL wrongly seen: skipped)
REDIS_LOCAL_SEEN_MAX = 200_000  # URLs a worker remembers sending (~20 MB): repeats skip Redis
# The shared frontier: one list per site and band of this many priority points, first in, first
# out within a band (about 150 bytes of Redis a queued link at 10M, its rediscovery entry
# included); 0: a sorted set per site, exact priority order (about 330). The crawl keeps its
# first worker's value.
REDIS_FRONTIER_BAND = 10
# The heartbeat beats from a thread (a busy crawl is alive); a crawl whose reactor has not run
# for this long is hung and stops beating, so that its requests in flight go to other workers.
REDIS_WORKER_STALL_TIMEOUT = 300.0  # seconds; at least REDIS_WORKER_TIMEOUT

# --- Storage ------------------------------------------------------------------------------------
STORAGE_ENABLED = True  # False: no database, items only go to feeds (-O)
DATABASE_URL = None  # None: $TOPICCRAWLER_DATABASE_URL, else sqlite data/topiccrawler.db
DATABASE_AUTO_UPGRADE = True  # run Alembic migrations to head when a crawl opens the database
STORAGE_BATCH_SIZE = 50  # items written per transaction
STORAGE_FLUSH_INTERVAL = 5.0  # seconds: a partial batch is written at least this often
# A database that is gone (unreachable, locked by another writer) costs no item: they are held in
# memory and written again with backoff; the crawl stops ("storage_unavailable", an ERROR line)
# past either bound, and at once when the disk is full ("disk_full"). What is still unwritten
# at close is saved to STORAGE_SPILL_DIR and stored by the next crawl into the same database.
STORAGE_MAX_PENDING = 10_000  # items held in memory while the database is away (~100 MB)
STORAGE_OUTAGE_TIMEOUT = 300.0  # seconds the database may stay away before the crawl stops
STORAGE_RETRY_DELAY = 1.0  # seconds before the first retry; doubled each time ...
STORAGE_RETRY_MAX_DELAY = 30.0  # ... up to this
STORAGE_SPILL_DIR = None  # None: data/unstored under the project
DATABASE_BUSY_TIMEOUT = 30.0  # seconds SQLite waits for another writer before "locked"
