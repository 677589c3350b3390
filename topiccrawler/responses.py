"""A response read in the page's own encoding, parsed once where Scrapy already reads it so."""

from __future__ import annotations

import codecs

from scrapy.http import Response, TextResponse


def in_encoding(response: Response, encoding: str | None) -> TextResponse:
    """The response read in `encoding` (the extractor's decoding of the page): itself when
    Scrapy reads it so already (its parsed tree is then shared by the components that read it:
    the canonical claim, the spider's links), else a copy, parsed anew."""
    if isinstance(response, TextResponse):
        if encoding and _codec(response.encoding) == _codec(encoding):
            return response
        decoded = response.replace(encoding=encoding or response.encoding)
        assert isinstance(decoded, TextResponse)
        return decoded
    return TextResponse(response.url, body=response.body, encoding=encoding or "utf-8")


def _codec(name: str) -> str:
    try:
        return codecs.lookup(name).name
    except LookupError:
        return name
