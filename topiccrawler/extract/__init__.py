"""Pure extraction functions on bytes, text and lxml trees; nothing here imports Scrapy."""
