"""The project's own signals (Scrapy style: plain objects, sent through crawler.signals)."""

# A page was scored against the topic: sent with `item` (the PageItem) and `relevant` (bool).
page_judged = object()

# The storage pipeline committed a batch: everything handed to it before is in the database.
items_stored = object()
