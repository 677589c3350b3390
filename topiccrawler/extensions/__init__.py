"""Scrapy extensions: crawl-wide behaviour hooked on signals."""
