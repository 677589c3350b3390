"""Body extraction benchmark: our extractors and the peers side by side on ../shared/bench/body.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/body.py [--sets zh-dev en-dev] [--only NAME ...] [--out DIR]
    .venv/bin/python benchmarks/body.py --sets l3s dragnet cleaneval [--cache DIR] ...

A set not in ../shared/bench/body is read from `--cache` (default
~/.cache/topiccrawler/bodies-heldout), where `benchmarks/gather_bodies.py` rebuilds the public
English sets L3S-GN1 (`l3s`), Dragnet (`dragnet`) and CleanEval (`cleaneval`) in the same layout.

Pages are read as bytes and decoded by the crawler's own `decode_html`; each extractor gets the
same text. Timing is the extractor call only (our parse included), one process, per page.
"topiccrawler (default)" is what a crawl stores: `extract_page`'s body (comments and replies
found by the records extractor cut out); its time is the whole `extract_page` call (metadata,
records and body), reported apart for pages with and without records. Last, the whole
`topiccrawler extract` command (a new process: start-up, decoding, every field, JSON out) is
timed over all pages of the sets, beside readability-lxml's in-process total, in `--rounds`
pairs run back to back (the process, then readability over the same pages): each pair's ratio
is printed, in wall time and in CPU time (the child's user + system time against the
benchmark's own process time), since a machine shared with other work makes wall time noisy.
`--with-records` times both over the records bench's pages too (../shared/bench/records/data).
Scores come from the benchmark's own scorer (`score.py`, read in place): bag-of-tokens P/R/F1
per page, macro-averaged. `--out DIR` also writes DIR/<extractor>/<set>/<stem>.txt for it.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from lxml import html as lxml_html

from topiccrawler.extract.body import extract_body
from topiccrawler.extract.body_decay import extract_body_decay
from topiccrawler.extract.body_density import extract_body_density
from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.page import extract_page
from topiccrawler.extract.parse import parse_html, visible_text

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "body"
# The public sets benchmarks/gather_bodies.py rebuilds (never inside the repository).
CACHE = Path.home() / ".cache" / "topiccrawler" / "bodies-heldout"


def folder(set_name: str, cache: Path = CACHE) -> Path:
    """Where a set's pages are: the shared bench's folder, else the cache's."""
    shared = BENCH / set_name
    return shared if shared.is_dir() else cache / set_name


def ours() -> dict[str, Callable[[str], str]]:
    return {
        "topiccrawler (default)": crawl_body,
        "topiccrawler body extractor alone": lambda page: extract_body(parse_html(page)),
        "decay paper (T=0.34, DL=0.65)": lambda page: extract_body_decay(parse_html(page)),
        "density paper (20 lines, 200 B)": extract_body_density,
        "whole page text (ours)": lambda page: visible_text(parse_html(page)),
    }


# Pages the last `crawl_body` call found comments, posts or threads on (for the time split).
HAD_RECORDS: list[bool] = []


def crawl_body(page: str) -> str:
    content = extract_page(page)
    records = content.records
    HAD_RECORDS.append(bool(records.comments or records.posts or records.threads))
    return content.body


def peers() -> dict[str, Callable[[str], str]]:
    """The tools users would otherwise pick; each is skipped with a note if not installed."""
    found: dict[str, Callable[[str], str]] = {}
    try:
        from readability import Document

        found["readability-lxml"] = lambda page: lxml_html.fromstring(
            Document(page).summary()
        ).text_content()
    except ImportError:
        print("note: readability-lxml not installed", file=sys.stderr)
    try:
        import trafilatura

        found["trafilatura"] = lambda page: trafilatura.extract(page) or ""
        found["trafilatura favor_precision"] = lambda page: (
            trafilatura.extract(page, favor_precision=True) or ""
        )
    except ImportError:
        print("note: trafilatura not installed", file=sys.stderr)
    try:
        import justext

        stoplist = justext.get_stoplist("English")
        found["justext"] = lambda page: "\n".join(
            p.text for p in justext.justext(page, stoplist) if not p.is_boilerplate
        )
    except ImportError:
        print("note: justext not installed", file=sys.stderr)
    try:
        from gne import GeneralNewsExtractor

        extractor = GeneralNewsExtractor()
        found["GNE"] = lambda page: extractor.extract(page)["content"]
    except ImportError:
        print("note: gne not installed", file=sys.stderr)
    try:
        import html_text

        found["whole page text (html-text)"] = html_text.extract_text
    except ImportError:
        print("note: html-text not installed", file=sys.stderr)
    return found


def load(set_name: str, cache: Path = CACHE) -> list[tuple[str, str, str]]:
    pages = []
    for path in sorted(folder(set_name, cache).glob("*.html")):
        _, text = decode_html(path.read_bytes())
        pages.append((path.stem, text, path.with_suffix(".txt").read_text(encoding="utf-8")))
    return pages


# The records bench's pages (forum threads, Q&A, articles with comments), for `--with-records`.
RECORDS = BENCH.parent / "records" / "data"


def record_files() -> list[Path]:
    """Every page of the records bench's dev sources."""
    return sorted(RECORDS.glob("*/*.html"))


def whole_process(
    set_names: list[str], extra: list[Path] = (), cache: Path = CACHE
) -> tuple[float, float, int]:
    """Wall and CPU time (user + system) of one `topiccrawler extract` process over every page
    of the sets (and the `extra` files), and how many pages it gave an error for."""
    files = [str(p) for name in set_names for p in sorted(folder(name, cache).glob("*.html"))]
    files += [str(p) for p in extra]
    command = Path(sys.executable).with_name("topiccrawler")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([str(command), "extract", *files], capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return elapsed, cpu, sum('"error"' in line for line in done.stdout.splitlines())


def in_process(extractor: Callable[[str], str], data: dict) -> tuple[float, float]:
    """Wall and CPU time of an extractor over every page of the sets, in this process."""
    wall = cpu = 0.0
    for pages in data.values():
        for _, page, _ in pages:
            started, started_cpu = time.perf_counter(), time.process_time()
            extractor(page)
            wall += time.perf_counter() - started
            cpu += time.process_time() - started_cpu
    return wall, cpu


def run(extractor: Callable[[str], str], pages, out: Path | None) -> dict:
    from score import prf  # the benchmark's scorer, read in place

    f1s, ps, rs, times = [], [], [], []
    crashes = empty = 0
    HAD_RECORDS.clear()
    for stem, page, gold in pages:
        started = time.perf_counter()
        try:
            prediction = extractor(page) or ""
        except Exception as exc:  # a crash is a result here, counted and shown
            crashes += 1
            prediction = ""
            print(f"  crash on {stem}: {exc.__class__.__name__}: {exc}", file=sys.stderr)
        times.append((time.perf_counter() - started) * 1000)
        if out:
            out.mkdir(parents=True, exist_ok=True)
            (out / f"{stem}.txt").write_text(prediction, encoding="utf-8")
        scored = prf(prediction, gold)
        if scored is None:
            continue
        p, r, f1, n_pred, _ = scored
        empty += n_pred == 0
        ps.append(p)
        rs.append(r)
        f1s.append(f1)
    split = {}
    if len(HAD_RECORDS) == len(times):  # the crawl's extractor: times with and without records
        for label, had in (("with records", True), ("without records", False)):
            chosen = [t for t, h in zip(times, HAD_RECORDS, strict=True) if h == had]
            split[label] = chosen
    return {
        "f1": statistics.mean(f1s), "p": statistics.mean(ps), "r": statistics.mean(rs),
        "median_ms": statistics.median(times), "mean_ms": statistics.mean(times),
        "total_s": sum(times) / 1000, "split": split,
        "crashes": crashes, "empty": empty, "pages": len(f1s),
    }  # fmt: skip


def _median_mean(times: list[float]) -> str:
    """`N pages  median (mean)` of per-page times in ms."""
    if not times:
        return f"{0:4} pages"
    return f"{len(times):4} pages  {statistics.median(times):6.1f} ({statistics.mean(times):.1f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sets", nargs="+", default=["zh-dev", "en-dev"])
    parser.add_argument("--only", nargs="+", help="extractor names containing these words")
    parser.add_argument("--out", type=Path, help="write predictions here")
    parser.add_argument(
        "--cache", type=Path, default=CACHE,
        help=f"sets not in the shared bench are read here (default {CACHE})",
    )  # fmt: skip
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument(
        "--no-process", action="store_true", help="skip timing the `topiccrawler extract` command"
    )
    parser.add_argument(
        "--with-records", action="store_true",
        help="time the command (and readability) over the records bench's pages too",
    )  # fmt: skip
    parser.add_argument(
        "--rounds", type=int, default=3,
        help="pairs of (`topiccrawler extract`, readability in-process) timed (default 3)",
    )  # fmt: skip
    args = parser.parse_args()
    if not BENCH.is_dir():
        print(f"benchmark data not found at {BENCH} (it lives in ../shared beside the checkout)")
        return 1
    sys.path.insert(0, str(BENCH))
    extractors = {**ours(), **({} if args.no_peers else peers())}
    if args.only:
        extractors = {
            k: v for k, v in extractors.items() if any(w.lower() in k.lower() for w in args.only)
        }
    missing = [name for name in args.sets if not folder(name, args.cache).is_dir()]
    if missing:
        print(f"no set {', '.join(missing)} (run benchmarks/gather_bodies.py for the public sets)")
        return 1
    data = {name: load(name, args.cache) for name in args.sets}
    results: dict[str, dict[str, dict]] = {}
    for name, extractor in extractors.items():
        gc.collect()
        rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        for set_name, pages in data.items():
            out = args.out / name.split(" (")[0].replace(" ", "_") / set_name if args.out else None
            results.setdefault(name, {})[set_name] = run(extractor, pages, out)
        results[name]["rss_growth_mb"] = (
            resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before
        ) / 1024
        print(f"done: {name}", file=sys.stderr)

    head = (
        f"{'extractor':34}"
        + "".join(f"| {s:^26} " for s in args.sets)
        + "| ms/page median (mean) | crashes | empty | maxRSS +MB"
    )
    print(head)
    print("-" * len(head))
    reference = results.get("readability-lxml")
    for name, by_set in results.items():
        cells = "".join(
            f"| F1 {r['f1']:.3f} P {r['p']:.3f} R {r['r']:.3f} "
            for s in args.sets
            for r in [by_set[s]]
        )
        times = " / ".join(
            f"{by_set[s]['median_ms']:.1f} ({by_set[s]['mean_ms']:.1f})" for s in args.sets
        )
        crashes = sum(by_set[s]["crashes"] for s in args.sets)
        empty = sum(by_set[s]["empty"] for s in args.sets)
        print(
            f"{name:34}{cells}| {times:21} | {crashes:7} | {empty:5} | {by_set['rss_growth_mb']:.0f}"
        )
    default = results.get("topiccrawler (default)")
    if default:
        print("\ntopiccrawler (default), the whole extract_page call, ms/page median (mean):")
        every: dict[str, list[float]] = {}
        for s in args.sets:
            for label, chosen in default[s]["split"].items():
                every.setdefault(label, []).extend(chosen)
                print(f"  {s:8} {label:16} {_median_mean(chosen)}")
        if len(args.sets) > 1:  # issue 36's measure: the article pages (no records) of all sets
            for label, chosen in every.items():
                print(f"  {'all sets':8} {label:16} {_median_mean(chosen)}")
    if not args.no_process:
        extra = record_files() if args.with_records else []
        timed = dict(data)
        if extra:  # the records bench's pages, decoded as the body sets' are (no truth needed)
            timed["records"] = [(p.stem, decode_html(p.read_bytes())[1], "") for p in extra]
        pages = sum(len(p) for p in timed.values())
        readability = peers().get("readability-lxml") if reference else None
        print(f"\nwhole process `topiccrawler extract` over {pages} pages", end="")
        print(f" ({len(extra)} of them the records bench's)" if extra else "", end="")
        print(", each beside readability-lxml in-process:" if readability else ":")
        ratios, cpu_ratios = [], []
        for n in range(1, max(1, args.rounds) + 1):
            elapsed, cpu, errors = whole_process(args.sets, extra, args.cache)
            line = f"  round {n}: {elapsed:.2f} s (CPU {cpu:.2f} s), {errors} pages with an error"
            if readability:
                gc.collect()
                wall, wall_cpu = in_process(readability, timed)
                ratios.append(elapsed / wall)
                cpu_ratios.append(cpu / wall_cpu)
                line += (
                    f"; readability {wall:.2f} s (CPU {wall_cpu:.2f} s): "
                    f"{ratios[-1]:.2f}x wall, {cpu_ratios[-1]:.2f}x CPU"
                )
            print(line)
        if ratios:
            print(
                f"  ratio to readability: wall {min(ratios):.2f}-{max(ratios):.2f}x "
                f"(median {statistics.median(ratios):.2f}), CPU {min(cpu_ratios):.2f}-"
                f"{max(cpu_ratios):.2f}x (median {statistics.median(cpu_ratios):.2f})"
            )
    if reference:
        print("\nratios to readability-lxml (F1 difference; median time ratio):")
        for name, by_set in results.items():
            parts = [
                f"{s}: {by_set[s]['f1'] - reference[s]['f1']:+.3f} F1, "
                f"{by_set[s]['median_ms'] / reference[s]['median_ms']:.2f}x time"
                for s in args.sets
            ]
            print(f"  {name:34} " + "; ".join(parts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
