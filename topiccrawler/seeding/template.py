"""An engine declared entirely in the seed file: URL template plus selectors.

[engines.mysite]
type = "template"
url = "https://search.example/?q={query}&p={page}"   # {query}, {page}, {offset}
results = "div.result"            # one block per result (CSS, or XPath if it starts with /)
link = "a::attr(href)"            # inside a block; default: the first link
title = "a ::text"                # default: the link's text
snippet = "p ::text"              # optional
per_page = 10                     # for {offset} and ranks
"""

from __future__ import annotations

from urllib.parse import quote_plus

from parsel import Selector, SelectorList

from topiccrawler.seeding.base import EngineBlocked, SearchEngine, SearchHit


class TemplateEngine(SearchEngine):
    kind = "template"
    default_url = ""

    def __init__(self, name: str, options: dict | None = None):
        super().__init__(name, options)
        self.results = self.options["results"]
        self.link = self.options.get("link", "a::attr(href)")
        self.title = self.options.get("title", "a ::text")
        self.snippet = self.options.get("snippet")
        self.per_page = int(self.options.get("per_page", 10))
        self.results_per_page = self.per_page

    def query_url(self, query: str, page: int) -> str:
        return self.url.format(
            query=quote_plus(query), page=page, offset=(page - 1) * self.per_page
        )

    def parse(self, text: str, url: str, page: int = 1) -> list[SearchHit]:
        blocks = _select(Selector(text=text), self.results)
        if not blocks:
            return []
        hits = []
        for block in blocks:
            href = _select(block, self.link).get()
            link = self.absolute(href, url) if href else None
            if link:
                title = " ".join(t.strip() for t in _select(block, self.title).getall()).strip()
                snippet = (
                    " ".join(t.strip() for t in _select(block, self.snippet).getall()).strip()
                    if self.snippet
                    else ""
                )
                hits.append(SearchHit(link, self.first_rank(page) + len(hits), title, snippet))
        if not hits:
            raise EngineBlocked(
                f"results selector {self.results!r} matched but no links (layout changed?)"
            )
        return hits


def _select(selector, query: str) -> SelectorList:
    return selector.xpath(query) if query.startswith(("/", "./", "(")) else selector.css(query)
