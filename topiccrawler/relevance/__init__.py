"""Relevance to a topic (SPEC §6). Pure code; nothing here imports Scrapy."""
