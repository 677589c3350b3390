"""What the crawl learns, shared by its workers: every worker's judgements help every other.

- Section yields (`frontier/learning.py`): judged and relevant counts per site and section are
  added up in Redis hashes; each worker reads the sums back every SYNC_INTERVAL seconds.
- Search queries' yields (`frontier/queries.py`): hits and judged hits per query, summed in
  Redis; a query's next result page is held there, and the worker whose judgement settles the
  query asks it (the page is taken from Redis once, by one worker).
- The online link classifier (`frontier/classifier.py`): its examples (a judged page's link or
  hit, and its title) go to one Redis list, trimmed to the classifier's window; each worker refits
  on the shared window when it has grown by the classifier's refit share.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict

from topiccrawler.distributed.state import SharedCrawl
from topiccrawler.frontier.classifier import LinkClassifier
from topiccrawler.frontier.learning import YieldStats, places
from topiccrawler.frontier.queries import QueryYields

SYNC_INTERVAL = 2.0  # seconds between reads of the other workers' counts
TOTAL = "*"  # the field of the hashes that holds the counts over all places


class SharedYieldStats(YieldStats):
    def __init__(self, crawl: SharedCrawl, exploration: float = 0.1):
        super().__init__(exploration)
        self.crawl = crawl
        self.synced = 0.0

    def record(self, url: str, relevant: bool) -> None:
        super().record(url, relevant)
        pipe = self.crawl.server.pipeline(transaction=False)
        for place in (TOTAL, *places(url)):
            pipe.hincrby(self.crawl.key("yield", "judged"), place, 1)
            if relevant:
                pipe.hincrby(self.crawl.key("yield", "relevant"), place, 1)
        pipe.execute()

    def expected(self, url: str) -> float:
        if time.monotonic() - self.synced >= SYNC_INTERVAL:
            self.sync()
        return super().expected(url)

    def sync(self) -> None:
        pipe = self.crawl.server.pipeline(transaction=False)
        pipe.hgetall(self.crawl.key("yield", "judged"))
        pipe.hgetall(self.crawl.key("yield", "relevant"))
        judged, relevant = pipe.execute()
        self.judged = defaultdict(int, {k.decode(): int(v) for k, v in judged.items()})
        self.relevant = defaultdict(int, {k.decode(): int(v) for k, v in relevant.items()})
        self.total = self.judged.pop(TOTAL, 0)
        self.total_relevant = self.relevant.pop(TOTAL, 0)
        self.synced = time.monotonic()


class SharedLinkClassifier(LinkClassifier):
    def __init__(self, crawl: SharedCrawl, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.crawl = crawl
        self.window = self.examples.maxlen or 5000

    def learn(self, examples, relevant: bool) -> bool:
        examples = list(examples)
        key = self.crawl.key("classifier", "examples")
        pipe = self.crawl.server.pipeline(transaction=True)
        for features in examples:
            pipe.rpush(key, json.dumps([features, relevant], ensure_ascii=False))
        pipe.ltrim(key, -self.window, -1)
        pipe.incrby(self.crawl.key("classifier", "seen"), len(examples))
        self.seen = pipe.execute()[-1]
        due = self.seen >= max(self.min_examples, (1 + self.refit_growth) * self.fitted_on)
        return due and self.fit()

    def fit(self) -> bool:
        shared = self.crawl.server.lrange(self.crawl.key("classifier", "examples"), 0, -1)
        self.examples.clear()
        self.examples.extend(tuple(json.loads(raw)) for raw in shared)
        return super().fit()


class SharedQueryYields(QueryYields):
    def __init__(self, crawl: SharedCrawl):
        super().__init__()
        self.crawl = crawl
        self.synced = 0.0

    def _counts(self, name: str) -> str:
        return self.crawl.key("queries", name)

    def add_hits(self, engine: str, query: str, count: int) -> None:
        field = f"{engine}\t{query}"
        self.hits[engine, query] = self.crawl.server.hincrby(self._counts("hits"), field, count)

    def record(self, engine: str, query: str, relevant: bool) -> None:
        """Counted in Redis; this query's counts come back fresh (so `settled` is exact)."""
        field = f"{engine}\t{query}"
        pipe = self.crawl.server.pipeline(transaction=True)
        pipe.hincrby(self._counts("judged"), field, 1)
        pipe.hincrby(self._counts("relevant"), field, int(relevant))
        pipe.hget(self._counts("hits"), field)
        judged, relevant_count, hits = pipe.execute()
        key = (engine, query)
        self.judged[key], self.relevant[key], self.hits[key] = (
            judged,
            relevant_count,
            int(hits or 0),
        )

    def expected(self, engine: str, query: str) -> float:
        if time.monotonic() - self.synced >= SYNC_INTERVAL:
            self.sync()
        return super().expected(engine, query)

    def sync(self) -> None:
        pipe = self.crawl.server.pipeline(transaction=False)
        for name in ("judged", "relevant", "hits"):
            pipe.hgetall(self._counts(name))
        for name, counts in zip(("judged", "relevant", "hits"), pipe.execute(), strict=True):
            table = defaultdict(int)
            for field, value in counts.items():
                engine, _, query = field.decode().partition("\t")
                table[engine, query] = int(value)
            setattr(self, name, table)
        self.synced = time.monotonic()

    def hold_next_page(self, engine: str, query: str, page: int) -> None:
        self.crawl.server.hset(self.crawl.key("queries", "next"), f"{engine}\t{query}", page)

    def take_next_page(self, engine: str, query: str) -> int | None:
        key = self.crawl.key("queries", "next")
        field = f"{engine}\t{query}"
        if not self.settled(engine, query):
            return None
        page = self.crawl.server.hget(key, field)
        if page is None or not self.crawl.server.hdel(key, field):
            return None  # none held, or another worker took it first
        return int(page)
