"""Records on pages the team wrote in the manner of forum, Q&A and comment software.

    .venv/bin/python benchmarks/written_records.py [--batches 1 2 ... 16] [--show]
    PYTHONPATH=/path/to/other/checkout .venv/bin/python benchmarks/written_records.py

The pages (tests/fixtures/records/written/*.html, their truth, kind, provenance and known gap in
its manifest.toml) are ours, written from memory of each software's
markup: comments and posts with their authors and times, the chrome around them (sidebars of
users and hot threads, vote tallies, reply buttons, user cards), and two article pages with no
records. They were written in batches, each scored before the rules it led to were written
(the figures in docs/benchmarks.md say which were in-sample when). They are in-sample now,
and some imitate software ../shared/bench/records holds: no evidence of generalisation, only
that the rules keep reading them. For every record of a page's
truth, the record found holding the start of its text; its author must be the truth's, its time
must hold the truth's time (or be held by it). Records found beyond the truth are counted apart
("other": a thread's opening post laid out as a post is one, a related-articles row on an
article page another); on the article pages every record found is wrong.
"""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

from topiccrawler.extract.page import extract_page

WRITTEN = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "records" / "written"


def pages() -> list[dict]:
    """The manifest's pages, each with its HTML read in (`html`) and its truth as (author,
    time or None, text) triples (`truth`)."""
    with open(WRITTEN / "manifest.toml", "rb") as manifest:
        found = tomllib.load(manifest)["page"]
    for page in found:
        page["html"] = (WRITTEN / page["file"]).read_text(encoding="utf-8")
        page["truth"] = [(r["author"], r.get("time"), r["text"]) for r in page["records"]]
    return found


def cases() -> list[tuple[int, str, str, str, list]]:
    """(batch, name, page, URL, truth as (author, time, text)) for every written page."""
    return [(p["batch"], p["name"], p["html"], p["url"], p["truth"]) for p in pages()]


def score(page: str, url: str, truth: list) -> dict:
    records = extract_page(page, url=url).records
    found = [*records.posts, *records.comments, *records.threads]
    texts = [" ".join((getattr(r, "text", None) or getattr(r, "title", "")).split()) for r in found]
    hit = right_author = right_time = timed = 0
    used = set()
    for author, time, text in truth:
        start = " ".join(text.split())[:12]
        match = next((i for i, t in enumerate(texts) if start in t and i not in used), None)
        if match is None:
            continue
        used.add(match)
        hit += 1
        right_author += found[match].author == author
        if time is not None:
            timed += 1
            shown = found[match].time or ""
            right_time += bool(shown) and (time in shown or shown in time)
    times = sum(t is not None for _, t, _ in truth)
    return {
        "records": len(truth), "found": hit, "authors": right_author, "times": times,
        "right_times": right_time, "other": len(found) - len(used), "found_records": found,
    }  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, nargs="+", default=list(range(1, 17)))
    parser.add_argument("--show", action="store_true", help="print every record found")
    args = parser.parse_args()
    print(f"{'batch':5} {'page':20} {'records':>8} {'authors':>8} {'times':>7} {'other':>6}")
    totals: dict[int, dict] = {}
    for batch, name, page, url, truth in cases():
        if batch not in args.batches:
            continue
        result = score(page, url, truth)
        print(f"{batch:5} {name:20} {result['found']:>4}/{result['records']:<3} "
              f"{result['authors']:>4}/{result['records']:<3} "
              f"{result['right_times']:>3}/{result['times']:<3} {result['other']:>6}")  # fmt: skip
        if args.show:
            for record in result["found_records"]:
                text = getattr(record, "text", None) or getattr(record, "title", "")
                print(
                    f"        {record.author!r:20} {getattr(record, 'time', None)!r:30} {text[:40]!r}"
                )
        total = totals.setdefault(
            batch,
            dict.fromkeys(("records", "found", "authors", "times", "right_times", "other"), 0),
        )
        for key in total:
            total[key] += result[key]
    every = {key: sum(t[key] for t in totals.values()) for key in next(iter(totals.values()))}
    rows = [(f"batch {batch}", t) for batch, t in sorted(totals.items())]
    for label, t in [*rows, ("all", every)]:
        print(f"{label}: records {t['found']}/{t['records']}, authors {t['authors']}/"
              f"{t['records']}, times {t['right_times']}/{t['times']}, other records {t['other']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
