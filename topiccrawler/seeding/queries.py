"""Queries from a topic's library (SPEC §1): each term, class × class combinations where the seed
file asks for them, and every one of those restricted to each target site with `site:`."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from topiccrawler.topics.model import Topic


@dataclass(frozen=True)
class Query:
    """A query's text and what it was built from."""

    text: str
    terms: tuple[str, ...]
    site: str | None = None


def build_queries(topic: Topic, limit: int | None = None) -> list[Query]:
    """Plain queries first (broad discovery), then each of them once per target site; duplicates
    removed, order stable, at most `limit`."""
    seeds, library = topic.seeds, topic.keywords
    bases: list[tuple[str, ...]] = [
        (term.text,) for term_class in seeds.query_classes for term in library.by_class(term_class)
    ]
    for first, second in seeds.combinations:
        for a, b in product(library.by_class(first), library.by_class(second)):
            bases.append((a.text, b.text))
    queries = [Query(" ".join(terms), terms) for terms in bases]
    for terms in bases:
        for site in seeds.target_sites:
            queries.append(Query(f"{' '.join(terms)} site:{site}", terms, site))
    unique = list(dict.fromkeys(queries))
    return unique[:limit] if limit is not None else unique
