"""What the crawl learns, shared by its workers: every worker's judgements help every other.

- Section yields (`frontier/learning.py`): judged and relevant counts per site and section are
  added up in Redis hashes; each worker adds its own and reads the sums back every
  SYNC_INTERVAL seconds.
- Search queries' yields (`frontier/queries.py`): hits and judged hits per query, summed in
  Redis; a query's next result page is held there, and the worker whose judgement settles the
  query asks it (the page is taken from Redis once, by one worker).
- The online link classifier (`frontier/classifier.py`): its examples (a judged page's link or
  hit, and its title) go to one Redis list, trimmed to the classifier's window. When the window
  has grown by the classifier's refit share, one worker refits on it and publishes the model
  (weights and bias); the others take that model instead of fitting the same one again.
"""

from __future__ import annotations

import json
import struct
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

from topiccrawler.distributed.state import SharedCrawl
from topiccrawler.frontier.classifier import LinkClassifier
from topiccrawler.frontier.learning import YieldStats, places
from topiccrawler.frontier.queries import QueryYields

SYNC_INTERVAL = 0.25  # seconds between exchanges of counts with the other workers
SEND_INTERVAL = 0.25  # seconds a worker's examples and scores may wait before they go to Redis
FIT_LOCK_MS = 30_000  # a worker that died while fitting holds the model for this long
TOTAL = "*"  # the field of the hashes that holds the counts over all places
_VERSION = struct.Struct("<q")  # a published model starts with the count it was fitted on


class SharedModel:
    """A model fitted by one worker at a time and published for all: `<name>:fitting` is the
    lock, `<name>:model` the payload, prefixed with the number of examples it was fitted on."""

    def __init__(self, crawl: SharedCrawl, name: str):
        self.crawl = crawl
        self.lock = crawl.key(name, "fitting")
        self.key = crawl.key(name, "model")

    @contextmanager
    def fitting(self) -> Iterator[bool]:
        """True when this worker holds the lock (released after), False when another does."""
        server = self.crawl.server
        mine = bool(server.set(self.lock, self.crawl.worker, nx=True, px=FIT_LOCK_MS))
        try:
            yield mine
        finally:
            if mine and server.get(self.lock) == self.crawl.worker.encode():
                server.delete(self.lock)

    def publish(self, fitted_on: int, payload: bytes) -> None:
        self.crawl.server.set(self.key, _VERSION.pack(fitted_on) + payload)

    def version(self) -> int | None:
        """The count the published model was fitted on, or None: its first 8 bytes only, read
        before deciding to fetch the whole model (a worker asks on every page while another
        fits)."""
        head = self.crawl.server.getrange(self.key, 0, _VERSION.size - 1)
        return _VERSION.unpack(head)[0] if len(head) == _VERSION.size else None

    def published(self) -> tuple[int, bytes] | None:
        """(fitted on, payload) of the model published last, or None."""
        raw = self.crawl.server.get(self.key)
        if raw is None:
            return None
        return _VERSION.unpack_from(raw)[0], raw[_VERSION.size :]


class SharedYieldStats(YieldStats):
    """Counts go to Redis with the next sync (one round trip every SYNC_INTERVAL, not one a
    page); a worker killed meanwhile loses at most that long of its counts."""

    def __init__(self, crawl: SharedCrawl, exploration: float = 0.1):
        super().__init__(exploration)
        self.crawl = crawl
        self.synced = 0.0
        self.unsent: Counter[tuple[str, str]] = Counter()  # (hash, place) → count not in Redis

    def record(self, url: str, relevant: bool) -> None:
        super().record(url, relevant)
        for place in (TOTAL, *places(url)):
            self.unsent["judged", place] += 1
            if relevant:
                self.unsent["relevant", place] += 1

    def relabel(self, url: str, relevant: bool) -> None:
        super().relabel(url, relevant)
        change = 1 if relevant else -1
        for place in (TOTAL, *places(url)):
            self.unsent["relevant", place] += change

    def expected(self, url: str) -> float:
        if time.monotonic() - self.synced >= SYNC_INTERVAL:
            self.sync()
        return super().expected(url)

    def sync(self) -> None:
        """This worker's counts added to Redis's, and every worker's sums read back."""
        pipe = self.crawl.server.pipeline(transaction=False)
        for (name, place), count in self.unsent.items():
            pipe.hincrby(self.crawl.key("yield", name), place, count)
        pipe.hgetall(self.crawl.key("yield", "judged"))
        pipe.hgetall(self.crawl.key("yield", "relevant"))
        judged, relevant = pipe.execute()[-2:]
        self.unsent.clear()
        self.judged = defaultdict(int, {k.decode(): int(v) for k, v in judged.items()})
        self.relevant = defaultdict(int, {k.decode(): int(v) for k, v in relevant.items()})
        self.total = self.judged.pop(TOTAL, 0)
        self.total_relevant = self.relevant.pop(TOTAL, 0)
        self.synced = time.monotonic()


class SharedLinkClassifier(LinkClassifier):
    def __init__(self, crawl: SharedCrawl, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.crawl = crawl
        self.model = SharedModel(crawl, "classifier")
        self.window = self.examples.maxlen or 5000
        self.adopted = 0  # models taken from another worker
        self.unsent: list[str] = []  # examples (JSON) not yet in Redis
        self.unsent_pages = 0  # judged pages they came from (the frontier's rescoring clock)
        self.shared_seen = 0  # examples over all workers, when last sent
        self.sent = 0.0

    def learn(self, examples, relevant: bool, key: str | None = None) -> bool:
        """Examples go to Redis at most SEND_INTERVAL apart (one round trip), and whenever a
        refit may be due by the count known here."""
        examples = list(examples)
        for features in examples:
            self.unsent.append(json.dumps([features, relevant], ensure_ascii=False))
        if key is not None:
            self.keyed[key] = [[features, relevant] for features in examples]
            while len(self.keyed) > self.window:
                self.keyed.popitem(last=False)
        self.unsent_pages += 1
        self.seen = self.shared_seen + len(self.unsent)
        due = self.seen >= max(self.min_examples, (1 + self.refit_growth) * self.fitted_on)
        if due or time.monotonic() - self.sent >= SEND_INTERVAL:
            self.send()
        due = self.seen >= max(self.min_examples, (1 + self.refit_growth) * self.fitted_on)
        return due and self.fit()

    def relabel(self, changed: dict[str, bool]) -> int:
        """As one process's, in the shared window: each example of a page whose verdict changed
        is taken out of it (or out of those not sent yet) and put back with its new label."""
        key = self.crawl.key("classifier", "examples")
        pipe = self.crawl.server.pipeline(transaction=True)
        relabelled = 0
        for page, relevant in changed.items():
            records = self.keyed.get(page)
            if not records or records[0][1] == relevant:
                continue
            for record in records:
                old = json.dumps(record, ensure_ascii=False)
                record[1] = relevant
                new = json.dumps(record, ensure_ascii=False)
                if old in self.unsent:
                    self.unsent[self.unsent.index(old)] = new
                else:
                    pipe.lrem(key, 1, old)
                    pipe.rpush(key, new)
            relabelled += 1
        if len(pipe):
            pipe.ltrim(key, -self.window, -1)
            pipe.execute()
        return relabelled

    def send(self) -> None:
        """This worker's new examples into the shared window; the count over all workers back."""
        key = self.crawl.key("classifier", "examples")
        pipe = self.crawl.server.pipeline(transaction=True)
        if self.unsent:
            pipe.rpush(key, *self.unsent)
            pipe.ltrim(key, -self.window, -1)
        pipe.incrby(self.crawl.key("classifier", "pages"), self.unsent_pages)
        pipe.incrby(self.crawl.key("classifier", "seen"), len(self.unsent))
        self.shared_seen = self.seen = pipe.execute()[-1]
        self.unsent.clear()
        self.unsent_pages = 0
        self.sent = time.monotonic()

    def fit(self) -> bool:
        """Take the model another worker fitted, if it is recent enough; else fit on the shared
        window and publish the model (one worker at a time: the others keep their model until
        it is published)."""
        if self.adopt():
            return True
        with self.model.fitting() as mine:
            if not mine:
                return False
            shared = self.crawl.server.lrange(self.crawl.key("classifier", "examples"), 0, -1)
            self.examples.clear()
            self.examples.extend(tuple(json.loads(raw)) for raw in shared)
            if not super().fit():
                return False
            self.model.publish(self.fitted_on, json.dumps([self.bias, self.weights]).encode())
            return True

    def _due(self, fitted_on: int) -> bool:
        return self.seen >= max(self.min_examples, (1 + self.refit_growth) * fitted_on)

    def adopt(self) -> bool:
        """The published model, when it is newer than this worker's and not yet due a refit."""
        fitted_on = self.model.version()
        if fitted_on is None or fitted_on <= self.fitted_on or self._due(fitted_on):
            return False
        published = self.model.published()
        if published is None or self._due(published[0]):
            return False
        fitted_on, payload = published
        self.bias, self.weights = json.loads(payload)
        self.fitted_on = fitted_on
        self.adopted += 1
        return True


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

    def relabel(self, engine: str, query: str, relevant: bool) -> None:
        field = f"{engine}\t{query}"
        change = 1 if relevant else -1
        self.relevant[engine, query] = self.crawl.server.hincrby(
            self._counts("relevant"), field, change
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
