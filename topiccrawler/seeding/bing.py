"""Bing result pages (HTML): `li.b_algo` blocks, `/ck/a` redirect links decoded offline."""

from __future__ import annotations

import base64
from urllib.parse import parse_qs, urlencode, urlsplit

from parsel import Selector

from topiccrawler.seeding.base import EngineBlocked, SearchEngine, SearchHit


class BingEngine(SearchEngine):
    """Options: url (default Bing's /search), market (e.g. zh-CN)."""

    kind = "bing"
    default_url = "https://www.bing.com/search"

    def query_url(self, query: str, page: int) -> str:
        params = {"q": query, "first": self.first_rank(page)}
        if "market" in self.options:
            params["mkt"] = self.options["market"]
        return f"{self.url}?{urlencode(params)}"

    def parse(self, text: str, url: str, page: int = 1) -> list[SearchHit]:
        selector = Selector(text=text)
        blocks = selector.css("li.b_algo")
        if not blocks:
            if selector.css("#b_results, li.b_no"):
                return []  # a real "no results" page
            raise EngineBlocked("no result list on the page (layout changed?)")
        first = self.first_rank(page)
        hits = []
        for block in blocks:
            href = block.css("h2 a::attr(href)").get()
            link = self.absolute(_decode_redirect(href), url) if href else None
            if link:
                title = " ".join(block.css("h2 a ::text").getall()).strip()
                snippet = " ".join(
                    block.css(".b_caption p ::text, p.b_lineclamp2 ::text").getall()
                ).strip()
                hits.append(SearchHit(link, first + len(hits), title, snippet))
        return hits


def _decode_redirect(href: str) -> str:
    """Bing wraps results as /ck/a?…&u=a1<base64url of the target>; unwrap without fetching."""
    parts = urlsplit(href)
    if parts.path == "/ck/a":
        encoded = (parse_qs(parts.query).get("u") or [""])[0]
        if encoded.startswith("a1"):
            payload = encoded[2:]
            try:
                return base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8")
            except (ValueError, UnicodeDecodeError):
                return href
    return href
