"""A spider middleware that reads one page's output as a whole, on Scrapy's BaseSpiderMiddleware.

BaseSpiderMiddleware gives a middleware the sync and the async `process_spider_output` from one
method per output (`get_processed_request`, `get_processed_item`); a middleware whose outputs
depend on each other (a page's links on its judged item, what the page yields on what it
held back or learnt once its output ended) needs a little more: a state per response, and a
last word when the output ends. This class writes both forms of that once; its subclasses write
`open_page`, `process_output` and `close_page`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from typing import Any

from scrapy.http import Response
from scrapy.spidermiddlewares.base import BaseSpiderMiddleware


class PageOutputMiddleware(BaseSpiderMiddleware):
    def open_page(self, response: Response) -> Any:
        """The state this middleware keeps while one response's output goes through it."""
        return None

    def process_output(self, output: Any, response: Response, page: Any) -> Any:
        """One output of the page's (item or request): the same, another, or None to drop it."""
        return output

    def close_page(self, response: Response, page: Any) -> Iterable[Any]:
        """The page's output has ended: what the middleware adds after it (usually nothing)."""
        return ()

    def process_spider_output(self, response: Response, result: Iterable[Any], spider=None):
        page = self.open_page(response)
        for output in result:
            if (output := self.process_output(output, response, page)) is not None:
                yield output
        yield from self.close_page(response, page)

    async def process_spider_output_async(
        self, response: Response, result: AsyncIterator[Any], spider=None
    ):
        page = self.open_page(response)
        async for output in result:
            if (output := self.process_output(output, response, page)) is not None:
                yield output
        for output in self.close_page(response, page):
            yield output
