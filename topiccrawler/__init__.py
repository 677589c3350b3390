"""topiccrawler: a Scrapy-based focused crawler for Chinese and English web content."""

__version__ = "0.1.0"
