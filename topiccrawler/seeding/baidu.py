"""Baidu result pages (HTML): `div.c-container` blocks; the real URL is in their `mu`
attribute when present, else the `baidu.com/link?url=` redirect, which the crawl follows."""

from __future__ import annotations

from urllib.parse import urlencode

from parsel import Selector

from topiccrawler.seeding.base import EngineBlocked, SearchEngine, SearchHit


class BaiduEngine(SearchEngine):
    kind = "baidu"
    default_url = "https://www.baidu.com/s"

    def query_url(self, query: str, page: int) -> str:
        return f"{self.url}?{urlencode({'wd': query, 'pn': (page - 1) * 10})}"

    def parse(self, text: str, url: str, page: int = 1) -> list[SearchHit]:
        selector = Selector(text=text)
        blocks = selector.css("#content_left > div.c-container, #content_left > div.result")
        if not blocks:
            if selector.css("#content_left, .nors, .content_none"):
                return []  # a real "no results" page
            raise EngineBlocked("no result list on the page (layout changed?)")
        hits = []
        for block in blocks:
            href = block.attrib.get("mu") or block.css("h3 a::attr(href)").get()
            link = self.absolute(href, url) if href else None
            if link:
                title = "".join(block.css("h3 a ::text").getall()).strip()
                snippet = " ".join(
                    t.strip()
                    for t in block.css(".c-abstract ::text, [class*=content-right] ::text").getall()
                ).strip()
                hits.append(SearchHit(link, self.first_rank(page) + len(hits), title, snippet))
        return hits
