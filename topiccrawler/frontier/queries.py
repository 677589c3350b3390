"""What each search query has brought so far: the share of relevant pages among its judged hits.

A query's yield ranks its hits (hits of a query that keeps bringing irrelevant pages wait behind
those of a good one) and decides whether it is worth another result page. Before any hit of a
query is judged, its yield is the mean over all queries (0.5 before anything is judged), so a
query is neither favoured nor punished for being asked late.
"""

from __future__ import annotations

from collections import defaultdict

PRIOR_WEIGHT = 2.0  # judged hits the mean over all queries counts for


class QueryYields:
    def __init__(self) -> None:
        self.judged: dict[tuple[str, str], int] = defaultdict(int)
        self.relevant: dict[tuple[str, str], int] = defaultdict(int)
        self.hits: dict[tuple[str, str], int] = defaultdict(int)  # hits handed to the frontier
        self.next_pages: dict[tuple[str, str], int] = {}  # result pages waiting on the yield

    def add_hits(self, engine: str, query: str, count: int) -> None:
        self.hits[engine, query] += count

    def record(self, engine: str, query: str, relevant: bool) -> None:
        self.judged[engine, query] += 1
        self.relevant[engine, query] += relevant

    def relabel(self, engine: str, query: str, relevant: bool) -> None:
        """A hit recorded with the other verdict is relevant (or not) after all."""
        self.relevant[engine, query] += 1 if relevant else -1

    def overall(self) -> float:
        judged = sum(self.judged.values())
        return (sum(self.relevant.values()) + 1) / (judged + 2)

    def expected(self, engine: str, query: str) -> float:
        """The query's share of relevant hits, shrunk towards the mean over all queries."""
        key = (engine, query)
        prior = self.overall()
        return (self.relevant[key] + PRIOR_WEIGHT * prior) / (self.judged[key] + PRIOR_WEIGHT)

    def settled(self, engine: str, query: str, share: float = 0.5) -> bool:
        """True once at least `share` of the query's hits so far have been judged."""
        key = (engine, query)
        return self.hits[key] > 0 and self.judged[key] >= share * self.hits[key]

    def hold_next_page(self, engine: str, query: str, page: int) -> None:
        """The query's next result page, asked once its hits so far have proved worth it."""
        self.next_pages[engine, query] = page

    def take_next_page(self, engine: str, query: str) -> int | None:
        """The query's held next page, if its hits have settled (once: it is no longer held)."""
        if (engine, query) not in self.next_pages or not self.settled(engine, query):
            return None
        return self.next_pages.pop((engine, query))
