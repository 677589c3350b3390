"""Title dedup benchmark: cost per new title and memory as the index grows to 10k, 100k and 1M
stored titles, and precision / recall on injected reposts; peers side by side.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/dedup.py [--sizes 10000 100000 1000000] [--peer-sizes 10000 100000]
    .venv/bin/python benchmarks/dedup.py --startup 1000000   # start-up: titles loaded from SQLite

Stored titles: 9,000 real news titles from ../shared/bench/relevance (read in place), indexed
through the crawler's own path (normalise → tokenize → index), then filler up to the size:
titles of 8 tokens drawn from the real titles' token frequencies (6) and from jieba's dictionary
(2, standing in for the names and rare words that make real vocabularies keep growing), indexed
as token lists (jieba would only cost the build time, which is not what is measured here).

Queries, each through the full path (normalise, tokenize, best match, add), at every size:
- 1,000 reposts of stored real titles, as sites rewrite them: channel/site suffixes, repost
  prefixes, full-width letters and digits, spaces, "(组图)";
- 1,000 real titles never stored (the other 1,000 of the file): none should match;
- 500 "same template, other story" titles: a stored real title with half its words replaced.
Precision = right matches / all matches; recall = reposts matched to their original / reposts.

Each size runs in a fresh process, so resident memory (RSS) growth is the index's own.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

TITLES = (
    Path(__file__).resolve().parents[2]
    / "shared"
    / "bench"
    / "relevance"
    / "thucnews-titles-dev.txt"
)
REAL_STORED = 9000
REPOSTS = 1000
EDITED = 500
SEED = 20261122

SUFFIXES = ["-新华网", "_财经频道_新浪网", " - 无忧雅思网 无忧雅思网", " | 凤凰网", "-移民-滴答网",
            "_网易新闻", " - 中国日报网", "-搜狐"]  # fmt: skip
PREFIXES = ["【转载】", "转帖：", "[独家]", "快讯："]


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 / 2**20


def load_titles() -> list[str]:
    with TITLES.open(encoding="utf-8") as lines:
        return [line.split("\t")[0].strip() for line in lines if line.strip()]


def full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in text)


def repost_of(title: str, rng: random.Random) -> str:
    """The title as another site would carry it: one or two rewrites."""
    rewrites = [
        lambda t: t + rng.choice(SUFFIXES),
        lambda t: rng.choice(PREFIXES) + t,
        full_width,
        lambda t: t.replace("：", " ").replace(":", " ") if (":" in t or "：" in t) else t + " ",
        lambda t: t + "(组图)",
    ]
    for rewrite in rng.sample(rewrites, rng.choice((1, 2))):
        title = rewrite(title)
    return title


def edited(tokens: list[str], pool: list[str], rng: random.Random) -> str:
    """Half the words replaced: the same template, another story."""
    tokens = list(tokens)
    for i in rng.sample(range(len(tokens)), max(1, (len(tokens) + 1) // 2)):
        tokens[i] = rng.choice(pool)
    return "".join(tokens)


class Workload:
    """Everything a run needs, built the same way (same seed) in every process."""

    def __init__(self, tokenizer):
        rng = random.Random(SEED)
        titles = load_titles()
        rng.shuffle(titles)
        self.stored_real = titles[:REAL_STORED]
        self.fresh = titles[REAL_STORED:]
        self.tokens = {t: tokenizer(t) for t in self.stored_real}
        counts = Counter(tok for toks in self.tokens.values() for tok in toks)
        self.common_words, self.common_weights = zip(*counts.items(), strict=True)
        self.dictionary = [w for w in tokenizer.dictionary() if len(w) >= 2]
        originals = rng.sample(range(REAL_STORED), REPOSTS)
        self.queries: list[tuple[str, int | None]] = [
            (repost_of(self.stored_real[i], rng), i) for i in originals
        ]
        self.queries += [(t, None) for t in self.fresh]
        for i in rng.sample(range(REAL_STORED), EDITED):
            toks = self.tokens[self.stored_real[i]]
            if len(toks) >= 4:
                self.queries.append((edited(toks, list(self.common_words), rng), None))
        rng.shuffle(self.queries)

    def same_title(self, key: str, original: int) -> bool:
        """Matched to its original, or to a stored copy of it (the file repeats a few titles)."""
        if not key.startswith("real/"):
            return False
        matched = self.stored_real[int(key.removeprefix("real/"))]
        return self.tokens[matched] == self.tokens[self.stored_real[original]]

    def filler(self, count: int, rng: random.Random):
        """Token lists standing in for more stored titles, drawn in batches with numpy (10M
        titles in about a minute, memory flat: one batch of indices at a time)."""
        import numpy as np

        generator = np.random.default_rng(rng.getrandbits(64))
        common = np.array(self.common_words, dtype=object)
        weights = np.array(self.common_weights, dtype=np.float64)
        weights /= weights.sum()
        dictionary = np.array(self.dictionary, dtype=object)
        batch = 50_000
        while count > 0:
            n = min(batch, count)
            words = np.concatenate(
                [
                    common[generator.choice(len(common), size=(n, 6), p=weights)],
                    dictionary[generator.integers(0, len(dictionary), size=(n, 2))],
                ],
                axis=1,
            )
            yield from words.tolist()
            count -= n


class TitleTokenizer:
    """The crawler's own normalise + tokenize."""

    def __init__(self):
        from topiccrawler.dedup.titles import normalize_title
        from topiccrawler.relevance.tokenizer import Tokenizer

        self.normalize = normalize_title
        self.tokenizer = Tokenizer()

    def __call__(self, title: str) -> list[str]:
        return self.tokenizer.tokens(self.normalize(title))

    def dictionary(self) -> list[str]:
        import jieba

        with open(Path(jieba.__file__).parent / "dict.txt", encoding="utf-8") as lines:
            return sorted(line.split(" ", 1)[0] for line in lines if line.strip())


# Each method: build(index items) then check(tokens, key) -> matched key or None, then add.


class Ours:
    name = "topiccrawler TitleIndex"

    def __init__(self):
        from topiccrawler.dedup.index import TitleIndex

        self.index = TitleIndex()

    def add(self, key, tokens):
        self.index.add(key, tokens)

    def add_many(self, items):
        """The start-up path: stored titles loaded in batches (as from the database)."""
        self.index.add_many((key, tokens, 0) for key, tokens in items)

    def check(self, key, tokens):
        match = self.index.best_match(tokens, exclude=key)
        self.index.add(key, tokens)
        return match.key if match else None


class MinHashLSH:
    """datasketch MinHash-LSH over token sets (Jaccard ≥ 0.7, 128 permutations), with the exact
    TF-IDF cosine ≥ 0.8 on its candidates, as a user of that library would set it up."""

    name = "datasketch MinHashLSH + cosine"

    def __init__(self):
        from datasketch import MinHash, MinHashLSH

        self.MinHash = MinHash
        self.lsh = MinHashLSH(threshold=0.7, num_perm=128)
        self.df: Counter = Counter()
        self.tokens: dict[str, list[str]] = {}

    def _minhash(self, tokens):
        minhash = self.MinHash(num_perm=128)
        minhash.update_batch([t.encode() for t in set(tokens)])
        return minhash

    def _insert(self, key, tokens, minhash):
        self.lsh.insert(key, minhash)
        self.df.update(set(tokens))
        self.tokens[key] = tokens

    def add(self, key, tokens):
        self._insert(key, tokens, self._minhash(tokens))

    def _vector(self, tokens):
        n = len(self.tokens)
        weights = {
            t: c * (math.log((1 + n) / (1 + self.df[t])) + 1) for t, c in Counter(tokens).items()
        }
        norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
        return {t: w / norm for t, w in weights.items()}

    def check(self, key, tokens):
        minhash = self._minhash(tokens)
        query = self._vector(tokens)
        best = None
        for candidate in self.lsh.query(minhash):
            stored = self._vector(self.tokens[candidate])
            cosine = sum(w * stored.get(t, 0.0) for t, w in query.items())
            if cosine >= 0.8 and (best is None or cosine > best[1]):
                best = (candidate, cosine)
        self._insert(key, tokens, minhash)
        return best[0] if best else None


class BruteForce:
    """Every stored title scored: scikit-learn TF-IDF over all titles, one sparse product per
    query. The all-pairs loop an index is there to avoid; the vectors are refitted per query
    batch of 100 (new titles change the IDF)."""

    name = "all-pairs (scikit-learn TF-IDF)"

    def __init__(self):
        from sklearn.feature_extraction.text import TfidfVectorizer

        self.Vectorizer = TfidfVectorizer
        self.keys: list[str] = []
        self.docs: list[list[str]] = []
        self.matrix = None
        self.vectorizer = None
        self.pending = 0

    def add(self, key, tokens):
        self.keys.append(key)
        self.docs.append(tokens)
        self.pending += 1

    def check(self, key, tokens):
        if self.matrix is None or self.pending >= 100:
            self.vectorizer = self.Vectorizer(analyzer=lambda doc: doc)
            self.matrix = self.vectorizer.fit_transform(self.docs)
            self.pending = 0
        scores = (self.matrix @ self.vectorizer.transform([tokens]).T).toarray().ravel()
        best = int(scores.argmax()) if len(scores) else -1
        self.add(key, tokens)
        return self.keys[best] if best >= 0 and scores[best] >= 0.8 else None


METHODS = {cls.name: cls for cls in (Ours, MinHashLSH, BruteForce)}


def run(method_name: str, size: int) -> dict:
    """One method at one index size, in this (fresh) process."""
    tokenize = TitleTokenizer()
    work = Workload(tokenize)
    method = METHODS[method_name]()  # libraries imported before memory is measured
    gc.collect()
    before = rss_mb()
    started = time.perf_counter()
    stored = itertools.chain(
        ((f"real/{i}", work.tokens[title]) for i, title in enumerate(work.stored_real)),
        (
            (f"filler/{i}", tokens)
            for i, tokens in enumerate(work.filler(size - REAL_STORED, random.Random(SEED + 1)))
        ),
    )
    generate_s = 0.0
    if hasattr(method, "add_many"):
        while True:
            t0 = time.perf_counter()
            batch = list(itertools.islice(stored, 20_000))  # generating is not the index's time
            generate_s += time.perf_counter() - t0
            if not batch:
                break
            method.add_many(batch)
    else:
        for key, tokens in stored:
            method.add(key, tokens)
    build_s = time.perf_counter() - started - generate_s
    gc.collect()
    memory = rss_mb() - before

    right = wrong = found = 0
    tokenize_us, check_us = [], []
    reposts = sum(1 for _, original in work.queries if original is not None)
    for n, (title, original) in enumerate(work.queries):
        t0 = time.perf_counter()
        tokens = tokenize(title)
        t1 = time.perf_counter()
        match = method.check(f"query/{n}", tokens)
        t2 = time.perf_counter()
        tokenize_us.append((t1 - t0) * 1e6)
        check_us.append((t2 - t1) * 1e6)
        if match is None:
            continue
        if original is not None and work.same_title(match, original):
            right += 1
            found += 1
        else:
            wrong += 1
    return {
        "method": method_name, "size": size, "build_s": build_s, "memory_mb": memory,
        "tokenize_us": statistics.mean(tokenize_us), "check_us": statistics.mean(check_us),
        "check_p99_us": statistics.quantiles(check_us, n=100)[98],
        "precision": right / (right + wrong) if right + wrong else 1.0,
        "recall": found / reposts, "wrong": wrong,
    }  # fmt: skip


def startup(size: int) -> dict:
    """Start-up: `size` titles stored in a fresh SQLite file (as the crawler stores them), then
    loaded by the dedup stage's own path (storage/titles.py); CPU seconds of the load."""
    import datetime
    import tempfile

    from sqlalchemy import create_engine, insert
    from sqlalchemy.orm import Session

    from topiccrawler.dedup.index import TitleIndex, dictionary_frequencies
    from topiccrawler.storage.models import Base, Page
    from topiccrawler.storage.titles import load_stored_titles

    work = Workload(TitleTokenizer())
    now = datetime.datetime.now(datetime.UTC)
    rng = random.Random(SEED + 2)
    with tempfile.TemporaryDirectory() as folder:
        engine = create_engine(f"sqlite:///{folder}/pages.db")
        Base.metadata.create_all(engine)
        rows = []
        with engine.begin() as connection:
            for i, tokens in enumerate(work.filler(size, random.Random(SEED + 1))):
                url = f"https://www.site{i % 500}.example.cn/news/2026/{i}.html"
                rows.append(
                    dict(topic="t", url=url, url_hash=f"{i:040x}", canonical_url=url,
                         site=f"site{i % 500}", status=200, title_key=" ".join(tokens),
                         body_hash=rng.getrandbits(63), first_seen_at=now, fetched_at=now)
                )  # fmt: skip
                if len(rows) == 50_000:
                    connection.execute(insert(Page), rows)
                    rows = []
            if rows:
                connection.execute(insert(Page), rows)
        dictionary_frequencies()  # once per process, timed apart
        index = TitleIndex()
        started = time.process_time()
        with Session(engine) as session:
            load_stored_titles(session, index, "t")
        load_s = time.process_time() - started
        engine.dispose()
    return {"size": len(index), "load_s": load_s}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--peer-sizes", nargs="*", type=int, default=[10_000, 100_000])
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument(
        "--startup", type=int, metavar="N",
        help="instead: store N titles in SQLite and time loading them at start (CPU seconds)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.startup:
        r = startup(args.startup)
        print(f"{r['size']:,} stored titles loaded from SQLite in {r['load_s']:.1f} s of CPU: "
              f"{r['load_s'] * 1e6 / r['size']:.1f} s per million")  # fmt: skip
        return 0
    if not TITLES.is_file():
        print(f"benchmark data not found at {TITLES} (it lives in ../shared beside the checkout)")
        return 1
    runs = [(Ours.name, size) for size in args.sizes]
    if not args.no_peers:
        for cls in (MinHashLSH, BruteForce):
            runs += [(cls.name, size) for size in args.peer_sizes]
    context = multiprocessing.get_context("spawn")
    results = []
    for name, size in runs:
        if size < REAL_STORED:
            print(f"skip {name} at {size}: below the {REAL_STORED} real titles", file=sys.stderr)
            continue
        with context.Pool(1) as pool:
            try:
                results.append(pool.apply(run, (name, size)))
            except ImportError as exc:
                print(f"note: {name} skipped: {exc}", file=sys.stderr)
                continue
        r = results[-1]
        print(f"done: {name} at {size:,} in {r['build_s']:.0f} s build", file=sys.stderr)

    head = (f"{'method':34}| {'stored':>9} | check µs mean (p99) | tokenize µs | titles/s "
            f"| RSS +MB | B/title | precision | recall | wrong | build s/M")  # fmt: skip
    print(head)
    print("-" * len(head))
    for r in results:
        per_title = r["check_us"] + r["tokenize_us"]
        print(
            f"{r['method']:34}| {r['size']:>9,} | {r['check_us']:8.0f} ({r['check_p99_us']:6.0f})  "
            f"| {r['tokenize_us']:11.0f} | {1e6 / per_title:8.0f} | {r['memory_mb']:7.0f} "
            f"| {r['memory_mb'] * 2**20 / r['size']:7.0f} | {r['precision']:9.3f} "
            f"| {r['recall']:6.3f} | {r['wrong']:5} | {r['build_s'] * 1e6 / r['size']:9.1f}"
        )
    ours = {r["size"]: r for r in results if r["method"] == Ours.name}
    if ours:
        smallest = ours[min(ours)]
        print(f"\nours, time per new title relative to {min(ours):,} stored:")
        for size, r in sorted(ours.items()):
            total = (r["check_us"] + r["tokenize_us"]) / (
                smallest["check_us"] + smallest["tokenize_us"]
            )
            print(
                f"  {size:>9,}: check {r['check_us'] / smallest['check_us']:.2f}x, "
                f"with tokenizing {total:.2f}x"
            )
        peers = [r for r in results if r["method"] != Ours.name and r["size"] in ours]
        if peers:
            print("\npeers' check time relative to ours at the same size:")
            for r in peers:
                print(
                    f"  {r['method']:34} at {r['size']:>9,}: "
                    f"{r['check_us'] / ours[r['size']]['check_us']:.1f}x"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
