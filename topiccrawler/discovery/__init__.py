"""Feeds and sitemaps: find an authority site's articles without walking the site again.

`feeds.py` reads RSS, Atom and RDF feeds (feedparser) and finds the feeds a page announces
(`<link rel="alternate">`); `sitemaps.py` reads robots.txt `Sitemap:` lines, sitemap indexes and
URL sets, gzipped or not (Scrapy's own sitemap utilities), news sitemaps included; both return
`Entry` values (`entries.py`). `middleware.py` is the Scrapy component that asks for them and
turns their entries into page requests of the one best-first queue. Nothing here but the
middleware imports Scrapy's engine parts.
"""
