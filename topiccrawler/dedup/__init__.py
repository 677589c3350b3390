"""Title de-duplication and repost tracking (SPEC §7). Pure code; nothing here imports Scrapy."""
