"""Pipeline stage 3: what is kept of a page the relevance middleware judged (SPEC §6).

Every page is stored with its score and the reasons for it (block scores, the concepts and the
words that stood for them), kept or not, so a user can see why a page was dropped. Of a page
below η only that is stored, not its text, unless RELEVANCE_STORE_DROPPED_TEXT. A provisional
verdict (η still settling) keeps the text: the final verdict comes later (storage/verdicts.py).
"""

from __future__ import annotations

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.items import PageItem


class RelevancePipeline:
    def __init__(self, store_dropped_text: bool):
        self.store_dropped_text = store_dropped_text

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> RelevancePipeline:
        if not crawler.settings.getbool("RELEVANCE_ENABLED"):
            raise NotConfigured("RELEVANCE_ENABLED is False")
        return cls(crawler.settings.getbool("RELEVANCE_STORE_DROPPED_TEXT"))

    def process_item(self, item):
        if (
            isinstance(item, PageItem)
            and item.is_relevant is False
            and not self.store_dropped_text
            and (item.relevance_detail or {}).get("verdict") != "provisional"
        ):
            item.body = None
            item.comments, item.posts, item.threads = [], [], []
        return item
