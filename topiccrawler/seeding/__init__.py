"""The meta-search entrance: queries from a topic's keywords, and one engine module each.

Engines are pure code on text (URLs in, result lists out), no Scrapy inside, so their parsers
are tested on saved result pages.
"""

from topiccrawler.seeding.base import EngineBlocked, SearchEngine, SearchHit, engine_from_config
from topiccrawler.seeding.queries import Query, build_queries

__all__ = [
    "EngineBlocked",
    "Query",
    "SearchEngine",
    "SearchHit",
    "build_queries",
    "engine_from_config",
]
