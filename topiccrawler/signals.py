"""The project's own signals (Scrapy style: plain objects, sent through crawler.signals)."""

# A page was scored against the topic: sent with `item` (the PageItem) and `relevant` (bool).
page_judged = object()

# The storage pipeline flushed: sent with `pending`, the items still waiting for a database that
# went away (0: everything handed to the pipeline before is in the database), and `final` (True
# for the flush at the end of the crawl).
items_stored = object()

# Verdicts given while η was settling were made final: sent with `changed` (URL → the page's new
# verdict, for the pages whose verdict changed) and `state` (η and how it was set).
verdicts_settled = object()

# While η sets itself, it was estimated again and provisional verdicts given earlier read
# differently now: sent with `changed` (URL → the page's verdict now, for those that changed).
# Whoever learnt from those verdicts while crawling (the frontier, the queries' yields) corrects
# what it learnt; the stored verdicts are settled at the end (`verdicts_settled`).
verdicts_revised = object()

# The frontier (middlewares/frontier.py) is ready: sent with `frontier`, whose public face the
# schedulers use (refresh_priority, superseded, taken_up), so they need not look it up.
frontier_opened = object()

# The link classifier was fitted again (middlewares/frontier.py): the scheduler scores its queued
# requests again with `score` (a request → its priority now; None for one the frontier did not
# rank), at most `limit` a queue, and answers with how many moved (frontier/scheduler.py,
# distributed/scheduler.py).
queue_rescore_wanted = object()

# The spider is about to queue the crawl's seeds (its queries and authority start pages): a
# shared crawl's scheduler answers False when another worker queued them already, and the spider
# then queues none.
seeds_wanted = object()

# The spider has queued its seeds: a shared crawl's idle workers may now take an empty frontier
# for a finished crawl (before, they may only be waiting for the first worker's seeds).
seeds_queued = object()

# The extraction middleware's worker pool started, or is gone (given up, closed): sent with
# `pool` (extraction_workers.py ExtractionPool, or None). The scheduler counts the pages being
# read in it as requests in flight (frontier/scheduler.py).
extraction_pool_changed = object()

# The crawl's run has its row (extensions/crawl_run.py): sent with `run_id`, so what is stored
# is filed under it.
crawl_run_opened = object()

# Someone needs what the pipelines hold in the database now (a shared crawl's scheduler, before
# it frees the leases of requests whose items are stored): the storage pipeline flushes, and
# says so with `items_stored`.
storage_flush_requested = object()

# Asked by whoever needs the address guard (the browser's download handler, for what a rendered
# page asks for): the guard (middlewares/address_guard.py) answers with itself.
address_guard_wanted = object()

# A component keeps a request back out of the engine for a moment, to crawl it again
# (`engine.crawl`, dont_filter) once something is done: a login under way
# (middlewares/sessions.py). Sent with `request`. A shared crawl's scheduler keeps the request's
# lease until it is crawled again, so that a worker killed meanwhile loses nothing.
request_held = object()

# Ctrl-C or SIGTERM reached the crawl (extensions/interrupt.py): sent with `count`, 1 for the
# first (Scrapy closes the spider gracefully), 2 for the second (Scrapy stops the reactor at
# once: whoever holds something unwritten writes it now, the crawl-run row is closed).
crawl_interrupted = object()
