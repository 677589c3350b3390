"""Comment and forum-post extraction benchmark on ../shared/bench/records, scored by its own
scorer (read in place), beside the peers' figures in ../shared/bench/README.md.

    .venv/bin/python benchmarks/records.py [--measures pol ed stm lcs mct] [--sources trafilatura]
    .venv/bin/python benchmarks/records.py --leave-out software [--measures pol pol-gate signature]
    .venv/bin/python benchmarks/records.py --body-pages --measures pol signature

`signature` is the signature scorer's detector (signature.py) and `pol-gate` POL with its
"no records here" first. `--leave-out software` prints per source the in-sample figures beside
leave-one-software-out ones, the scorer refitted for each software without its pages
(`leave_out`); a page whose truth holds comments is scored on our comments where we found any
(a Q&A page's comments under its answers), else on posts as before.

For each similarity measure (POL and the four the paper compares against), every page goes
through the same detection and field extraction; rows give record P/R/F1 (macro over pages),
author and time accuracy on matched records, by source and language, and ms per page (the
extractor call, parse included; the fastest of --repeat runs), and the median as a ratio to
trafilatura's (with comments) in the same run. `pol-structure` is POL with the paper's
structure test only.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from topiccrawler.extract.dates import find_time
from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.records.comments import RecordOptions
from topiccrawler.extract.records.page import extract_records

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "records"
DEFAULT_SOURCES = ["trafilatura", "harvest", "magichtml"]
ALL_SOURCES = ["harvest", "trafilatura", "magichtml", "magichtml-forums"]


def pages(sources: list[str]) -> list[tuple[str, str, str]]:
    """(key, decoded HTML, URL) of the manifest's pages from `sources`."""
    found = []
    with open(BENCH / "manifest.csv", encoding="utf-8") as manifest:
        for row in csv.DictReader(manifest):
            if row["source"] in sources:
                data = (BENCH / "data" / row["source"] / f"{row['stem']}.html").read_bytes()
                found.append((f"{row['source']}/{row['stem']}", decode_html(data)[1], row["url"]))
    return found


def tasks() -> dict[str, str]:
    """What each page's truth holds: "comments" (under an article, or under a Q&A page's
    answers) or "forum" (posts), by page key, as the manifest says."""
    with open(BENCH / "manifest.csv", encoding="utf-8") as manifest:
        return {f"{r['source']}/{r['stem']}": r["task"] for r in csv.DictReader(manifest)}


def ours(options: RecordOptions, models: dict | None = None):
    """Our extractor's records of the kind the page's truth holds where it found that kind:
    its comments for a truth of comments (a Q&A page's comments under the answers, not the
    answers), else forum posts if it found any, else its comments.
    `models`: the signature scorer to use for each page key (trained without its software)."""
    task = tasks()

    def extract(text: str, url: str, key: str = "") -> list[dict]:
        page_options = replace(options, model=models[key]) if models else options
        found = extract_records(text, page_options, url=url)
        return [
            {"text": r.text, "author": _author(r), "time": _time(r)}
            for r in (
                found.comments
                if task.get(key) == "comments" and found.comments
                else found.posts or found.comments
            )
        ]

    return extract


def trafilatura_peer():
    """trafilatura 2.3 with comments, split by paragraph (as in ../shared/bench/README.md)."""
    try:
        import trafilatura
    except ImportError:
        return None

    def extract(text: str, url: str, key: str = "") -> list[dict]:
        document = trafilatura.bare_extraction(text, url=url, include_comments=True)
        comments = (getattr(document, "comments", None) or "") if document else ""
        return [{"text": line} for line in comments.splitlines() if line.strip()]

    return extract


def run(name: str, extract, corpus, sources: list[str], out: Path, repeat: int) -> dict:
    predictions, times = {}, []
    for key, text, url in corpus:
        best = float("inf")
        for _ in range(repeat):  # the fastest of a few runs: the machine is noisy
            find_time.cache_clear()  # no run profits from an earlier one
            started = time.perf_counter()
            records = extract(text, url, key)
            best = min(best, (time.perf_counter() - started) * 1000)
        times.append(best)
        predictions[key] = records
    path = out / f"{name}.json"
    path.write_text(json.dumps(predictions, ensure_ascii=False), encoding="utf-8")
    scored = out / f"{name}.score.json"
    subprocess.run(
        [sys.executable, str(BENCH / "score.py"), str(path), "--data", str(BENCH / "data"),
         "--manifest", str(BENCH / "manifest.csv"), "--split", "all", "--by", "source,lang",
         "--source", ",".join(sources), "--json", str(scored),
         "--per-page", str(out / f"{name}.pages.csv")],
        check=True, capture_output=True,
    )  # fmt: skip
    by_source: dict[str, list[float]] = {}
    for (key, _, _), ms in zip(corpus, times, strict=True):
        by_source.setdefault(key.split("/")[0], []).append(ms)
    medians = {source: statistics.median(v) for source, v in sorted(by_source.items())}
    return {"scores": json.loads(scored.read_text()), "median_ms": statistics.median(times),
            "medians": medians,
            "max_ms": max(times), "slowest": corpus[times.index(max(times))][0]}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--measures", nargs="+", default=["pol", "pol-structure", "ed", "stm", "lcs", "mct"]
    )
    parser.add_argument("--sources", nargs="+", default=DEFAULT_SOURCES)
    parser.add_argument("--no-peers", action="store_true", help="ours only")
    parser.add_argument("--out", type=Path, help="keep predictions and scores here")
    parser.add_argument(
        "--repeat", type=int, default=3, help="time each page this many times, keep the fastest"
    )
    parser.add_argument(
        "--leave-out",
        choices=["software"],
        help="score each page with any learned part (the signature scorer) trained without "
        "its software, beside in-sample; all four dev sources unless --sources",
    )
    parser.add_argument(
        "--model-kind", choices=["logistic", "forest"], default=None,
        help="the signature scorer's model refitted per fold (default: records_model.KIND)",
    )  # fmt: skip
    parser.add_argument(
        "--body-pages", action="store_true",
        help="records found on the body bench's article pages, which the records pages do not "
        "measure: how many, and how many are the article's own text",
    )  # fmt: skip
    args = parser.parse_args()
    if not BENCH.is_dir():
        sys.exit(f"no benchmark data at {BENCH}")
    if args.body_pages:
        body_pages(args.measures)
        return
    if args.leave_out:
        leave_out(args)
        return
    corpus = pages(args.sources)
    out = args.out or Path(tempfile.mkdtemp(prefix="records-bench-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"{len(corpus)} pages; predictions and scores in {out}")
    extractors = {}
    for name in args.measures:
        extractors[name] = ours(options_named(name))
    peer = None if args.no_peers else trafilatura_peer()
    if peer:
        extractors["trafilatura"] = peer
    header = f"{'extractor':14} {'group':24} {'pages':>5} {'P':>6} {'R':>6} {'F1':>6} {'author':>7} {'time':>6}"
    medians = {}
    for name, extract in extractors.items():
        result = run(name, extract, corpus, args.sources, out, args.repeat)
        medians[name] = result["median_ms"]
        print(f"\n{header}")
        for group, row in sorted(_groups(result["scores"]).items()):
            print(
                f"{name:14} {group:24} {row.get('pages', 0):5} {row.get('macro_p', 0):6.3f} "
                f"{row.get('macro_r', 0):6.3f} {row.get('macro_f1', 0):6.3f} "
                f"{_fmt(row.get('author_acc'))} {_fmt(row.get('time_acc'), 6)}"
            )
        per_source = ", ".join(f"{k} {v:.1f}" for k, v in result["medians"].items())
        print(
            f"{name}: median {result['median_ms']:.1f} ms/page ({per_source}), "
            f"max {result['max_ms']:.0f} ms ({result['slowest']})"
        )
    if "trafilatura" in medians:
        print("\nmedian time relative to trafilatura (same run):")
        for name, ms in medians.items():
            print(f"  {name:14} {ms / medians['trafilatura']:.2f}x")


def options_named(name: str) -> RecordOptions:
    """pol, pol-structure (the paper's test only), pol-gate (the signature scorer's "no records
    here" first), signature (the signature scorer's groups), ed, stm, lcs, mct."""
    measure, _, variant = name.partition("-")
    return RecordOptions(measure=measure, evidence=variant != "structure", gate=variant == "gate")


LEARNED = ("signature", "gate")  # measures with a learned part; the others are rules only

BODY_BENCH = BENCH.parent / "body"
# A record whose text lies this much in the article's true text is the article, not a comment.
ARTICLE_SHARE = 0.5
ARTICLE_FOLDS = 5


def body_pages(measures: list[str]) -> None:
    """Records each measure finds on the body bench's article pages (en-dev, zh-dev: news and
    blog articles, a few with comments, none in the records bench), and those that are the
    article's own text by the page's body truth: records invented where the records pages,
    which all hold records, cannot show it. The signature scorer learns from article pages
    too (as groups that are not records): each page is judged by one fitted without its fifth
    of them."""
    from records_model import all_examples, fit

    corpus = [
        (f"{folder.name}/{path.stem}", decode_html(path.read_bytes())[1],
         "".join(path.with_suffix(".txt").read_text(encoding="utf-8").split()))
        for folder in (BODY_BENCH / "en-dev", BODY_BENCH / "zh-dev")
        for path in sorted(folder.glob("*.html"))
    ]  # fmt: skip
    print(f"{len(corpus)} article pages (body bench); a record is the article's when "
          f"{ARTICLE_SHARE:.0%} of its characters are in the page's true body text")  # fmt: skip
    print(f"\n{'extractor':11} {'pages with records':>18} {'records':>8} "
          f"{'article taken':>13} {'on pages':>8}")  # fmt: skip
    examples = all_examples()
    # The scorer for a page is fitted without its fifth of the article pages (left out).
    part = {key: n % ARTICLE_FOLDS for n, (key, _, _) in enumerate(corpus)}
    models = {
        k: fit([p for p in examples if p.fold != "article" or part.get(p.key) != k])
        for k in range(ARTICLE_FOLDS)
    }
    for name in [m for m in measures if m in ("pol", "pol-gate", "signature")] or ["pol"]:
        pages_with = found = article = pages_article = 0
        worst = []
        for key, html, truth in corpus:
            options = replace(options_named(name), model=models[part[key]])
            records = extract_records(html, options)
            texts = [r.text for r in (*records.comments, *records.posts)]
            taken = sum(_in_text(text, truth) >= ARTICLE_SHARE for text in texts)
            pages_with += bool(texts)
            found += len(texts)
            article += taken
            pages_article += bool(taken)
            worst.append((taken, key))
        print(
            f"{name:11} {pages_with:18} {found:8} {article:13} {pages_article:8}   most: "
            + ", ".join(f"{k[:14]}… {n}" for n, k in sorted(worst, reverse=True)[:3] if n)
        )


def _in_text(text: str, truth: str) -> float:
    """The share of the record's characters (lines of 10 or more, white space aside) that
    appear in `truth` (white space removed)."""
    lines = ["".join(line.split()) for line in text.splitlines()]
    total = sum(len(line) for line in lines)
    inside = sum(len(line) for line in lines if len(line) >= 10 and line in truth)
    return inside / total if total else 0.0


def leave_out(args) -> None:
    """Per source, in-sample and leave-one-software-out figures side by side: macro over
    pages of F1, author and time accuracy (each page's share of matched records with the field
    right, over pages whose truth has the field), and the Chinese pages' F1. A measure without
    a learned part scores the same both ways (said so in its row)."""
    from records_model import all_examples, fit

    sources = args.sources if args.sources != DEFAULT_SOURCES else list(ALL_SOURCES)
    corpus = pages(sources)
    out = args.out or Path(tempfile.mkdtemp(prefix="records-leave-out-"))
    out.mkdir(parents=True, exist_ok=True)
    examples = all_examples(sources)
    fold = {p.key: p.fold for p in examples if p.fold != "article"}  # article pages: negatives
    full = fit(examples, args.model_kind)
    per_fold = {
        f: fit([p for p in examples if p.fold != f], args.model_kind)
        for f in sorted(set(fold.values()))
    }
    left = {key: per_fold[f] for key, f in fold.items()}
    print(f"{len(corpus)} pages, {len(per_fold)} software folds; predictions in {out}")
    measures = [m for m in args.measures if m in ("pol", "pol-gate", "signature")] or ["pol"]
    print(f"\n{'extractor':11} {'group':24} {'pages':>5}  {'F1 in':>6} {'out':>6}  "
          f"{'author in':>9} {'out':>6}  {'time in':>7} {'out':>6}")  # fmt: skip
    for name in measures:
        learned = any(word in name for word in LEARNED)
        rows = {}
        for mode, models in (("in", {k: full for k in fold}), ("out", left)):
            if mode == "out" and not learned:
                rows["out"] = rows["in"]  # rules only: nothing trained, nothing to leave out
                continue
            result = run(f"{name}-{mode}", ours(options_named(name), models), corpus, sources,
                         out, 1)  # fmt: skip
            rows[mode] = macro_rows(out / f"{name}-{mode}.pages.csv")
            rows[mode + "_ms"] = result["median_ms"]
        for group in rows["in"]:
            a, b = rows["in"][group], rows["out"][group]
            print(f"{name:11} {group:24} {a['pages']:5}  {a['f1']:6.3f} {b['f1']:6.3f}  "
                  f"{_fmt(a['author'], 9)} {_fmt(b['author'], 6)}  "
                  f"{_fmt(a['time'])} {_fmt(b['time'], 6)}")  # fmt: skip
        note = "" if learned else " (rules only: leave-out = in-sample)"
        print(f"{name}: median {rows['in_ms']:.1f} ms/page{note}")
        if learned:
            counts, lost = failure_kinds(out / f"{name}-out.pages.csv")
            print(f"{name} left out, pages by kind (share of F1 lost): " + ", ".join(
                f"{kind} {counts[kind]} ({lost[kind]:.3f})" for kind in KINDS if counts[kind]
            ))  # fmt: skip


KINDS = ("right", "fields wrong", "records missed", "too many records", "wrong group",
         "nothing taken")  # fmt: skip


def failure_kinds(path: Path) -> tuple[dict, dict]:
    """Pages by what went wrong, from the scorer's per-page CSV, and each kind's share of the
    macro F1 lost: nothing taken; wrong group (P and R under 0.5); too many records (F1 under
    0.85, P under R: a group too wide, or more groups taken); records missed (F1 under 0.85
    otherwise: a group split, nested or too narrow); fields wrong (records right, author or
    time under 0.85); right."""
    with open(path, encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    counts = dict.fromkeys(KINDS, 0)
    lost = dict.fromkeys(KINDS, 0.0)
    for row in table:
        f1, p, r = (float(row[k] or 0) for k in ("f1", "p", "r"))
        shares = [int(row[f"{f}_ok"]) / int(row[f"{f}_n"]) for f in ("author", "time")
                  if row.get(f"{f}_n") and int(row[f"{f}_n"])]  # fmt: skip
        if not int(row["n_pred"] or 0):
            kind = "nothing taken"
        elif f1 < 0.85 and p < 0.5 and r < 0.5:
            kind = "wrong group"
        elif f1 < 0.85:
            kind = "too many records" if p < r else "records missed"
        else:
            kind = "fields wrong" if any(s < 0.85 for s in shares) else "right"
        counts[kind] += 1
        lost[kind] += (1 - f1) / len(table)
    return counts, lost


def macro_rows(path: Path) -> dict:
    """Macro over pages, per source, all, and Chinese pages, from the scorer's per-page CSV."""
    with open(path, encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    groups = {"all": table, "lang=zh": [r for r in table if r["lang"] == "zh"]}
    for row in table:
        groups.setdefault(f"source={row['source']}", []).append(row)
    found = {}
    for group, rows in sorted(groups.items()):
        found[group] = {
            "pages": len(rows),
            "f1": statistics.mean(float(r["f1"] or 0) for r in rows),
        }
        for field in ("author", "time"):
            shares = [int(r[f"{field}_ok"]) / int(r[f"{field}_n"]) for r in rows
                      if r.get(f"{field}_n") and int(r[f"{field}_n"])]  # fmt: skip
            found[group][field] = statistics.mean(shares) if shares else None
    return found


def _author(record) -> str | None:
    """Name, then profile link (the harvest gold gives one or the other)."""
    return " ".join(p for p in (record.author, record.author_url) if p) or None


def _time(record) -> str | None:
    """As written, then normalised (the scorer accepts either form, README)."""
    parts = [
        record.time,
        record.time_attr,
        record.published_at.isoformat() if record.published_at else None,
    ]
    return " ".join(p for p in parts if p) or None


def _groups(scores: dict) -> dict:
    return {"all" if key == "all" else key: row for key, row in scores.items()}


def _fmt(value, width: int = 7) -> str:
    return f"{value:{width}.3f}" if isinstance(value, float) else f"{'–':>{width}}"


if __name__ == "__main__":
    main()
