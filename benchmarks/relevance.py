"""Relevance benchmark: the static library against the extended one on ../shared/bench/relevance
(THUCNews titles), and scoring speed on real article pages (../shared/bench/body/zh-dev).

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/relevance.py [--topics education sports realty]

Topics are benchmarks/topics/<name>.toml, written from domain knowledge before looking at the
titles. The 10,000 titles are split in two halves (fixed seed): half A stands in for the web the
crawler searches and tunes on, half B is the test. Libraries:

- static: the topic file's terms only (STFL);
- + synonyms: and the synonyms written beside them in the topic file;
- + cilin + mined: and every candidate `terms expand` would propose, accepted unreviewed (a
  lazy reviewer): Cilin synonyms, and for each static term the top-n words of its top-L
  "search results", which here are the half-A titles containing the term.

For each library, η is the threshold with the best F1 on half A; P/R/F1 are on half B at that
η, with average precision (the PR curve's area) and precision at fixed recall levels.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared" / "bench"
TITLES = SHARED / "relevance" / "thucnews-titles-dev.txt"
PAGES = SHARED / "body" / "zh-dev"
CLASSES = {"education": 3, "sports": 7, "realty": 1}
SEARCH_TOP_L = 50  # titles are short: a title stands for a fifth of a page or less
RECALL_LEVELS = (0.5, 0.7, 0.9)


def load_titles() -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    rows = []
    with TITLES.open(encoding="utf-8") as lines:
        for line in lines:
            title, _, label = line.rstrip("\n").rpartition("\t")
            if title:
                rows.append((title, int(label)))
    random.Random(11).shuffle(rows)
    half = len(rows) // 2
    return rows[:half], rows[half:]


def libraries(name: str, pool: list[tuple[str, int]]):
    from topiccrawler.relevance.expansion import mined_candidates, thesaurus_candidates
    from topiccrawler.relevance.library import ConceptLibrary, Expansion
    from topiccrawler.topics.files import load_keyword_file

    keywords = load_keyword_file(HERE / "topics" / f"{name}.toml", topic=name)
    static = ConceptLibrary.static(keywords)
    synonyms = ConceptLibrary.extended(keywords)
    candidates = thesaurus_candidates(synonyms)
    for term in keywords.terms:
        results = [title for title, _ in pool if term.text.lower() in title.lower()][:SEARCH_TOP_L]
        candidates += mined_candidates(synonyms, term.text, results)
    accepted = [Expansion(c.word, c.concept, c.provenance, c.score) for c in candidates]
    everything = ConceptLibrary.extended(keywords, accepted)
    return {
        "static": static,
        "+ synonyms": synonyms,
        "+ cilin + mined": everything,
    }, len(candidates)


def best_threshold(scores: list[float], truth: list[bool]) -> float:
    from sklearn.metrics import precision_recall_curve

    precision, recall, thresholds = precision_recall_curve(truth, scores)
    f1 = [
        2 * p * r / (p + r) if p + r else 0.0
        for p, r in zip(precision[:-1], recall[:-1], strict=True)
    ]
    best = max(range(len(f1)), key=f1.__getitem__)
    return float(thresholds[best])


def evaluate(scores: list[float], truth: list[bool], eta: float) -> dict:
    from sklearn.metrics import average_precision_score, precision_recall_curve

    kept = [s >= eta for s in scores]
    tp = sum(k and t for k, t in zip(kept, truth, strict=True))
    precision = tp / sum(kept) if any(kept) else 0.0
    recall = tp / sum(truth)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    curve_p, curve_r, _ = precision_recall_curve(truth, scores)
    at_recall = {
        level: max((p for p, r in zip(curve_p, curve_r, strict=True) if r >= level), default=0.0)
        for level in RECALL_LEVELS
    }
    return {
        "eta": eta, "p": precision, "r": recall, "f1": f1,
        "ap": average_precision_score(truth, scores), "at_recall": at_recall,
    }  # fmt: skip


def scoring_speed(library) -> dict:
    """Pages/s of scoring (segmentation included) on real articles, one core."""
    from topiccrawler.extract.encoding import decode_html
    from topiccrawler.extract.page import extract_page
    from topiccrawler.relevance.scorer import RelevanceScorer

    scorer = RelevanceScorer(library)
    pages = []
    extract_ms = []
    for path in sorted(PAGES.glob("*.html")):
        _, text = decode_html(path.read_bytes())
        started = time.perf_counter()
        content = extract_page(text)
        extract_ms.append((time.perf_counter() - started) * 1000)
        pages.append({"title": content.title, "body": content.body, **content.blocks})
    scorer.score(pages[0])
    started = time.perf_counter()
    rounds = 5
    for _ in range(rounds):
        for blocks in pages:
            scorer.score(blocks)
    elapsed = time.perf_counter() - started
    chars = statistics.mean(sum(len(t or "") for t in b.values()) for b in pages)
    return {
        "pages_per_s": rounds * len(pages) / elapsed, "chars": chars,
        "extract_ms": statistics.median(extract_ms), "pages": len(pages),
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--topics", nargs="+", default=list(CLASSES))
    args = parser.parse_args()
    if not TITLES.is_file():
        print(f"benchmark data not found at {TITLES} (it lives in ../shared beside the checkout)")
        return 1
    from topiccrawler.relevance.scorer import RelevanceScorer

    pool, test = load_titles()
    head = (f"{'topic':10} {'library':16} | words | η      | P     | R     | F1    | AP    | "
            + " | ".join(f"P@R{level}" for level in RECALL_LEVELS))  # fmt: skip
    print(head)
    print("-" * len(head))
    gains = []
    for name in args.topics:
        label = CLASSES[name]
        libs, n_candidates = libraries(name, pool)
        results = {}
        for lib_name, library in libs.items():
            scorer = RelevanceScorer(library)
            tune = [scorer.score({"title": t}).score for t, _ in pool]
            eta = best_threshold(tune, [c == label for _, c in pool])
            scores = [scorer.score({"title": t}).score for t, _ in test]
            r = results[lib_name] = evaluate(scores, [c == label for _, c in test], eta)
            at = " | ".join(f"{r['at_recall'][level]:.3f}  " for level in RECALL_LEVELS)
            print(
                f"{name:10} {lib_name:16} | {len(library):5} | {r['eta']:.4f} | {r['p']:.3f} "
                f"| {r['r']:.3f} | {r['f1']:.3f} | {r['ap']:.3f} | {at}"
            )
        base = results["static"]["f1"]
        best = max(results.items(), key=lambda kv: kv[1]["f1"])
        gains.append((name, best[0], best[1]["f1"] / base - 1 if base else float("inf")))
        print(f"{'':10} ({n_candidates} candidates proposed)")
    print("\nextended over static, F1 (best extension per topic):")
    for name, lib_name, gain in gains:
        print(f"  {name:10} {lib_name:16} {gain:+.1%}")
    if PAGES.is_dir():
        libs, _ = libraries(args.topics[0], pool)
        speed = scoring_speed(libs["+ cilin + mined"])
        print(
            f"\nscoring speed on {speed['pages']} real articles ({speed['chars']:.0f} characters "
            f"of blocks on average): {speed['pages_per_s']:.0f} pages/s on one core, segmentation "
            f"included (extraction, done anyway for storage: {speed['extract_ms']:.1f} ms/page median)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
