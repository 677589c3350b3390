"""Many workers on one crawl: the frontier, the seen-URL filter and the learning state in Redis
(scrapy-redis's connection and request serialisation), pages in one PostgreSQL.

Switched on by settings alone: `-s REDIS_URL=redis://host:6379/0` (or $TOPICCRAWLER_REDIS_URL)
makes the add-on (`addon.py`) install the shared scheduler; the spider does not change. Every
worker started with the same topic and Redis joins the same crawl.

- `state.py`: the crawl's keys, this worker's heartbeat, leases on requests in flight (a worker
  that dies has its leases re-queued by the others).
- `frontier.py`: best-first across sites with per-site politeness shared by all workers.
- `bands.py`: the same in lists per site and priority band (REDIS_FRONTIER_BAND), in about half
  the Redis memory a queued request.
- `bloom.py`: the seen-URL filter, a Bloom filter in a Redis string.
- `scheduler.py`: the Scrapy scheduler over the three.
- `learning.py`: per-section yields and the link classifier's examples, shared.
- `judging.py`: the relevance judge's automatic η and page classifier, learnt from every worker's
  pages and fitted by one worker at a time.
"""
