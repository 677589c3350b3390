"""Last pipeline stage: drop the raw HTML so feeds (-O pages.jsonl) carry what was extracted."""

from __future__ import annotations

from topiccrawler.items import PageItem


class DropRawHtmlPipeline:
    """Clears `PageItem.html`, the relevance blocks and what a worker did for stages that did
    not take it once every stage that reads them ran."""

    def process_item(self, item):
        if isinstance(item, PageItem):
            item.html = ""
            item.blocks = {}
            item.read_ahead = {}
        return item
