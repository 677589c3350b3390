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

# The frontier (middlewares/frontier.py) is ready: sent with `frontier`, whose public face the
# schedulers use (refresh_priority, superseded, taken_up), so they need not look it up.
frontier_opened = object()
