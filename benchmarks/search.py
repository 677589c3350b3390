"""Full-text search benchmark: the store's own index at 10k, 100k and 1M stored pages, on SQLite
(FTS5) and PostgreSQL (tsvector + GIN), beside a LIKE scan of the same store.

    .venv/bin/python benchmarks/search.py [--sizes 10000 100000 1000000] [--db sqlite postgresql]
        [--queries 40] [--json FILE]

Pages are made from real article text read in place from ../shared/bench (skipped with a
reason where it is absent): Chinese news articles (crawl/cnews-dev.txt) and English articles
(body/en-dev/*.txt), cut into sentences and mixed at random (seeded), four pages in five
Chinese; a page has 6-24 sentences, a third have 1-4 comments and one in ten is a forum thread
of 3-8 posts (sentences again). Nine pages in ten are kept (relevant), as a crawl keeps them.

For each size and store:
- index: seconds to index every stored page, comment and post (`db reindex`'s path, timed
  alone), per page; and the index's bytes (FTS5's tables and the entries' table; on
  PostgreSQL search_documents with its GIN index) beside the stored text's UTF-8 bytes;
- latency: p50 and p95 over the queries of each kind (Chinese one word, Chinese two words,
  English one word, English two words), words drawn from the stored text at every frequency;
  `search` (top 20 with snippets and the total) and a LIKE scan (`like_scan`, every match)
  beside it, the scan on at most 10 queries of each kind;
- recall: for single words, the share of what an exact scan finds that search finds too,
  and the share of what search finds that the scan finds (precision), kept pages only. The
  exact answer for a Chinese word is every page whose title or body holds it (LIKE); for an
  English word, every page with a word of the same stem (read here, in Python), since
  search is by stem ("taxes" finds "tax" and "taxed").
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import create_engine, select, text  # noqa: E402

from topiccrawler.relevance.tokenizer import Tokenizer  # noqa: E402
from topiccrawler.search.query import parse_query  # noqa: E402
from topiccrawler.search.text import latin_stem  # noqa: E402
from topiccrawler.storage.db import Database  # noqa: E402
from topiccrawler.storage.models import Comment, ForumPost, Page  # noqa: E402
from topiccrawler.storage.search import (  # noqa: E402
    SearchFilters,
    agreement,
    like_scan,
    matches,
    search,
)
from topiccrawler.storage.search_index import index_size, rebuild  # noqa: E402
from topiccrawler.urls import url_hash  # noqa: E402

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"
CHINESE = BENCH / "crawl" / "cnews-dev.txt"
ENGLISH = BENCH / "body" / "en-dev"
POSTGRES_URL = "postgresql+psycopg://127.0.0.1:5432/test"
SEED = 20261127
SCAN_QUERIES = 10  # LIKE scans per kind of query (each reads the whole store)
_SENTENCE = re.compile(r"[^。！？!?.\n]+[。！？!?.]?")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_LATIN = re.compile(r"[A-Za-z]+")


def sentences() -> tuple[list[str], list[str]]:
    if not CHINESE.is_file() or not ENGLISH.is_dir():
        raise SystemExit(f"skipped: the article text is read from {BENCH}, which is absent here")
    chinese = [
        s.strip()
        for line in CHINESE.read_text(encoding="utf-8").splitlines()
        for s in _SENTENCE.findall(line.split("\t", 1)[-1])
        if len(s.strip()) >= 8
    ]
    english = [
        s.strip()
        for path in sorted(ENGLISH.glob("*.txt"))
        for s in _SENTENCE.findall(path.read_text(encoding="utf-8"))
        if len(s.strip()) >= 30 and not _HAN.search(s)
    ]
    return chinese, english


def generate(database: Database, pages: int, chinese: list[str], english: list[str]) -> int:
    """`pages` stored pages (with comments and posts) in bulk, not indexed; returns the stored
    text's UTF-8 bytes."""
    rng = random.Random(SEED)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    text_bytes = 0
    batch = 2000
    with database.engine.begin() as connection:
        for first in range(0, pages, batch):
            rows, comments, posts = [], [], []
            for n in range(first, min(pages, first + batch)):
                pool, joiner = (english, " ") if rng.random() < 0.2 else (chinese, "")
                body = joiner.join(rng.choices(pool, k=rng.randint(6, 24)))
                title = rng.choice(pool)[:60]
                url = f"http://site{n % 500}.test/a/{n}.html"
                when = start + timedelta(minutes=n)
                rows.append({
                    "id": n + 1, "topic": "bench", "url": url, "url_hash": url_hash(url),
                    "canonical_url": url, "site": f"site{n % 500}.test", "status": 200,
                    "title": title, "body": body, "published_at": when,
                    "relevance": rng.random() * 0.3, "is_relevant": rng.random() < 0.9,
                    "first_seen_at": when, "fetched_at": when,
                })  # fmt: skip
                text_bytes += len(title.encode()) + len(body.encode())
                if rng.random() < 1 / 3:
                    for position in range(rng.randint(1, 4)):
                        said = rng.choice(pool)
                        comments.append({"page_id": n + 1, "position": position, "text": said,
                                         "content_hash": uuid.uuid4().hex[:40],
                                         "first_seen_at": when})  # fmt: skip
                        text_bytes += len(said.encode())
                if rng.random() < 0.1:
                    for position in range(rng.randint(3, 8)):
                        said = joiner.join(rng.choices(pool, k=rng.randint(1, 3)))
                        posts.append({"page_id": n + 1, "position": position, "text": said,
                                      "content_hash": uuid.uuid4().hex[:40],
                                      "first_seen_at": when})  # fmt: skip
                        text_bytes += len(said.encode())
            connection.execute(Page.__table__.insert(), rows)
            if comments:
                connection.execute(Comment.__table__.insert(), comments)
            if posts:
                connection.execute(ForumPost.__table__.insert(), posts)
        if connection.dialect.name == "postgresql":  # ids were given: move the sequences on
            for table in ("pages", "comments", "forum_posts"):
                connection.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                        f"(SELECT coalesce(max(id), 1) FROM {table}))"
                    )
                )
    return text_bytes


def query_words(database: Database, rng: random.Random) -> dict[str, list[str]]:
    """Words the stored text uses, Chinese and English, drawn at every frequency: the
    segmenter's words (Chinese of two characters or more, English of four letters or more)
    counted over a sample of pages, then drawn uniformly over frequency ranks."""
    tokenizer = Tokenizer()
    counts: dict[str, Counter] = {"zh": Counter(), "en": Counter()}
    with database.engine.connect() as connection:
        bodies = connection.execute(
            select(Page.body).where(Page.is_relevant.is_(True)).limit(3000)
        ).scalars()
        for body in bodies:
            for word in set(tokenizer.tokens(body)):
                if _HAN.match(word) and len(word) >= 2:
                    counts["zh"][word] += 1
                elif word.isascii() and word.isalpha() and len(word) >= 4:
                    counts["en"][word] += 1
    return {lang: [w for w, n in c.most_common() if n >= 2] for lang, c in counts.items()}


def english_agreement(connection, words: list[str]) -> dict:
    """Search against a scan of every kept page's words by stem, for English single words."""
    stems = {latin_stem(word): word for word in words}
    holders: dict[str, set[str]] = {stem: set() for stem in stems}
    rows = connection.execute(
        select(Page.url, Page.title, Page.body).where(Page.is_relevant.is_(True))
    )
    for url, title, body in rows:
        for word in set(_LATIN.findall(f"{title} {body}")):
            stem = latin_stem(word)
            if stem in holders:
                holders[stem].add(url)
    exact = found = both = 0
    for stem, word in stems.items():
        hits = {
            url for _, url in matches(connection, parse_query(word), SearchFilters(kinds=("page",)))
        }
        exact, found, both = (
            exact + len(holders[stem]),
            found + len(hits),
            both + len(hits & holders[stem]),
        )
    return {"recall": round(both / exact, 3) if exact else 1.0,
            "precision": round(both / found, 3) if found else 1.0, "exact_hits": exact}  # fmt: skip


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(url: str, size: int, chinese, english, queries: int, built: dict | None = None) -> dict:
    """The figures of one store of `size` pages; `built`: the build's figures of a store kept
    from an earlier run (its queries are measured again, nothing is built)."""
    database = Database(url)
    database.upgrade()
    figures: dict = {"pages": size, "store": database.dialect}
    if built is None:
        started = time.perf_counter()
        text_bytes = generate(database, size, chinese, english)
        figures["generate_s"] = round(time.perf_counter() - started, 1)
        with database.engine.begin() as connection:
            started = time.perf_counter()
            rebuild(connection, batch=1000)
            seconds = time.perf_counter() - started
    else:
        text_bytes, seconds = built["text_bytes"], built["index_s"]
    figures["text_bytes"] = text_bytes
    with database.engine.connect() as connection:
        if connection.dialect.name == "sqlite" and built is None:
            connection.execute(text("INSERT INTO search_index(search_index) VALUES ('optimize')"))
            connection.commit()
        entries = connection.execute(text("SELECT count(*) FROM search_documents")).scalar()
        figures |= {
            "entries": entries,
            "index_s": round(seconds, 1),
            "index_ms_per_page": round(seconds * 1000 / size, 3),
            "text_mb": round(text_bytes / 2**20, 1),
            "index_mb": round(index_size(connection) / 2**20, 1),
        }
        figures["index_per_text"] = round(figures["index_mb"] / figures["text_mb"], 2)
    rng = random.Random(SEED + size)
    words = query_words(database, rng)
    kinds = {}
    for lang in ("zh", "en"):
        pool = words[lang]
        step = max(1, len(pool) // queries)
        singles = [pool[i] for i in range(0, len(pool), step)][:queries]
        kinds[f"{lang} 1 word"] = singles
        kinds[f"{lang} 2 words"] = [" ".join(rng.sample(pool[: len(pool) // 4 or 1], 2))
                                    for _ in range(queries)]  # fmt: skip
    latency = {}
    with database.engine.connect() as connection:
        for kind, texts in kinds.items():
            searched, scanned = [], []
            for n, query_text in enumerate(texts):
                query = parse_query(query_text)
                started = time.perf_counter()
                search(connection, query, SearchFilters(), limit=20)  # as the CLI and view do
                searched.append((time.perf_counter() - started) * 1000)
                if n < SCAN_QUERIES:
                    started = time.perf_counter()
                    like_scan(connection, query, SearchFilters(kinds=("page",)))
                    scanned.append((time.perf_counter() - started) * 1000)
            latency[kind] = {
                "p50_ms": round(statistics.median(searched), 1),
                "p95_ms": round(percentile(searched, 0.95), 1),
                "like_p50_ms": round(statistics.median(scanned), 1),
            }
        figures["latency"] = latency
        recall = {}
        zh = agreement(
            connection, kinds["zh 1 word"][:SCAN_QUERIES], SearchFilters(kinds=("page",))
        )
        recall["zh"] = {"recall": round(zh.recall, 3), "precision": round(zh.precision, 3),
                        "exact_hits": zh.exact}  # fmt: skip
        recall["en"] = english_agreement(connection, kinds["en 1 word"][:SCAN_QUERIES])
        figures["single_words"] = recall
    database.dispose()
    return figures


def postgres_schema() -> tuple[str, callable]:
    admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
    schema = f"tc_search_bench_{uuid.uuid4().hex[:8]}"
    with admin.connect() as connection:
        connection.execute(text(f'create schema "{schema}"'))

    def drop() -> None:
        with admin.connect() as connection:
            connection.execute(text(f'drop schema "{schema}" cascade'))
        admin.dispose()

    return f"{POSTGRES_URL}?options=-csearch_path%3D{schema}", drop


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--db", nargs="+", default=["sqlite", "postgresql"],
                        choices=("sqlite", "postgresql"))  # fmt: skip
    parser.add_argument("--queries", type=int, default=40, help="queries of each kind")
    parser.add_argument("--json", type=Path, help="write the figures here too")
    parser.add_argument(
        "--keep", type=Path,
        help="SQLite stores are built in this folder and kept; a store found there is measured "
        "again without being built (its queries on a quieter machine, say)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    chinese, english = sentences()
    print(f"{len(chinese)} Chinese and {len(english)} English sentences from {BENCH}")
    results = []
    print("| store | pages | entries | index s (ms/page) | text MB | index MB (× text) "
          "| zh 1 word p50/p95 ms | zh 2 words | en 1 word | en 2 words | LIKE p50 ms (zh 1) "
          "| single words recall / precision (zh, en) |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for size in args.sizes:
        for store in args.db:
            with tempfile.TemporaryDirectory(prefix="tc-search-") as folder:
                built = None
                if store == "sqlite":
                    kept = args.keep or Path(folder)
                    kept.mkdir(parents=True, exist_ok=True)
                    url, drop = f"sqlite:///{kept}/search-{size}.db", (lambda: None)
                    record = kept / f"search-{size}.json"
                    if args.keep and record.is_file():
                        built = json.loads(record.read_text(encoding="utf-8"))
                else:
                    url, drop = postgres_schema()
                try:
                    figures = measure(url, size, chinese, english, args.queries, built)
                finally:
                    drop()
                if store == "sqlite" and args.keep and built is None:
                    record.write_text(json.dumps(
                        {"text_bytes": figures["text_bytes"], "index_s": figures["index_s"]}
                    ), encoding="utf-8")  # fmt: skip
            results.append(figures)
            lat = figures["latency"]
            words = figures["single_words"]
            print(
                f"| {store} | {size:,} | {figures['entries']:,} | {figures['index_s']} "
                f"({figures['index_ms_per_page']}) | {figures['text_mb']} | {figures['index_mb']} "
                f"({figures['index_per_text']}×) | "
                + " | ".join(f"{lat[k]['p50_ms']} / {lat[k]['p95_ms']}"
                             for k in ("zh 1 word", "zh 2 words", "en 1 word", "en 2 words"))
                + f" | {lat['zh 1 word']['like_p50_ms']} | {words['zh']['recall']} / "
                f"{words['zh']['precision']}, {words['en']['recall']} / {words['en']['precision']} |",
                flush=True,
            )  # fmt: skip
            if args.json:
                args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
