"""SearXNG's JSON API (`/search?q=…&format=json&pageno=N`): the robust choice for long crawls."""

from __future__ import annotations

import json
from urllib.parse import urlencode

from topiccrawler.seeding.base import EngineBlocked, SearchEngine, SearchHit


class SearxngEngine(SearchEngine):
    """Options: url (the instance's /search), language, categories, time_range."""

    kind = "searxng"
    default_url = "http://127.0.0.1:8888/search"

    def query_url(self, query: str, page: int) -> str:
        params = {"q": query, "format": "json", "pageno": page}
        for key in ("language", "categories", "time_range"):
            if key in self.options:
                params[key] = self.options[key]
        return f"{self.url}?{urlencode(params)}"

    def parse(self, text: str, url: str, page: int = 1) -> list[SearchHit]:
        try:
            data = json.loads(text)
        except ValueError as exc:
            kind = "HTML" if text.lstrip()[:1] == "<" else "not JSON"
            raise EngineBlocked(f"{kind} where JSON was expected") from exc
        if not isinstance(data, dict) or not isinstance(data.get("results"), list):
            raise EngineBlocked("JSON without a results list (API changed?)")
        hits = []
        for result in data["results"]:
            link = (
                self.absolute(str(result.get("url") or ""), url)
                if isinstance(result, dict)
                else None
            )
            if link:
                rank = self.first_rank(page) + len(hits)
                hits.append(
                    SearchHit(
                        link, rank, str(result.get("title") or ""), str(result.get("content") or "")
                    )
                )
        return hits
