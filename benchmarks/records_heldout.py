"""Records on pages gathered after the rules were written (issue 60): the labelled pages of
benchmarks/records_heldout/labels.toml, rebuilt from their public repositories by
benchmarks/gather_records.py into a cache outside the repository.

    .venv/bin/python benchmarks/gather_records.py
    .venv/bin/python benchmarks/records_heldout.py [--cache DIR] [--show] [--labels FILE]
                                                   [--pages KEY ...]
    PYTHONPATH=/path/to/other/checkout .venv/bin/python benchmarks/records_heldout.py

Each page goes through `extract_page` (what `topiccrawler extract` runs); its records are taken
as benchmarks/records.py takes them from the bench: the comments for a page whose truth is
comments where any were found, else the posts, else the comments. A record found is paired
with the first label, in order, whose text start it holds (white space left out, the label's
first 30 characters), or whose start holds the record's first 12 characters (a record that
leaves out the label's opening words, a reply's ">>No." or a quote's header, is the label's
record with a text edge wrong, as the bench's scorer, which pairs by shared words, takes it;
before 2026-11-28 such a record went unpaired); per page P, R and F1 of the pairs, the share of paired records whose
author is the label's (case folded, either containing the other) and whose time holds the
label's time or is held by it, and the share whose text is the label's from end to end: it
starts with the label's start and ends with its `end` (no header or meta lines before it, no
signature after it). Figures are macro over pages, also by software and language. A page with
`comments` labels (replies under a post) has the comments found scored against them apart.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from pathlib import Path

from gather_records import CACHE, LABELS, pages

from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.page import extract_page

START = 30  # characters of a label's text a record found must hold
OPENING = 12  # or characters of a record found that its label's text must hold


def squeeze(text: str | None) -> str:
    """The text without white space: where a page puts a space or a line between inline pieces
    ("巨大失误 ❌ 基本操作✅") is the page's layout, not its words."""
    return "".join((text or "").split())


def found_records(page: dict, html: str) -> tuple[list, list]:
    """The records scored against the page's labels, and the comments found (scored against
    its `comments` labels, the replies under a post, where it has them)."""
    records = extract_page(html, url=page["url"]).records
    if page["kind"] == "comments" and records.comments:
        return list(records.comments), list(records.comments)
    return list(records.posts or records.comments), list(records.comments)


def agree(ours: str | None, truth: str) -> bool:
    ours, truth = squeeze(ours).casefold(), squeeze(truth).casefold()
    return bool(ours) and (ours in truth or truth in ours)


def score(labels: list[dict], found: list) -> dict:
    texts = [squeeze(r.text) for r in found]
    used: set[int] = set()
    pairs = []
    for label in labels:
        start = squeeze(label["text"])[:START]
        whole = squeeze(label["text"])
        match = next(
            (
                i
                for i, t in enumerate(texts)
                if (start in t or (len(t) >= OPENING and t[:OPENING] in whole)) and i not in used
            ),
            None,
        )
        if match is not None:
            used.add(match)
            pairs.append((label, found[match]))
    p = len(pairs) / len(found) if found else 0.0
    r = len(pairs) / len(labels)
    # A label without an author or a time (the page shows none) is not scored for it, as the
    # bench's scorer does.
    named = [(label, record) for label, record in pairs if label.get("author")]
    timed = [(label, record) for label, record in pairs if label.get("time")]
    ended = [(label, squeeze(record.text)) for label, record in pairs if "end" in label]
    whole = sum(
        text.startswith(squeeze(label["text"])[:START]) and text.endswith(squeeze(label["end"]))
        for label, text in ended
    )
    return {
        "found": len(found), "truth": len(labels), "paired": len(pairs),
        "p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0,
        "author": sum(agree(rec.author, lab["author"]) for lab, rec in named) / len(named)
        if named else None,
        "time": sum(agree(rec.time, lab["time"]) for lab, rec in timed) / len(timed)
        if timed else None,
        "text": whole / len(ended) if ended else None,
    }  # fmt: skip


def show(name: str, result: dict, found: list) -> None:
    author, time, text = (
        "–" if result[k] is None else f"{result[k]:.3f}" for k in ("author", "time", "text")
    )
    print(f"{name:24} {result['found']:>5} {result['truth']:>5} {result['p']:6.3f} "
          f"{result['r']:6.3f} {result['f1']:6.3f} {author:>7} {time:>6} "
          f"{text:>6}")  # fmt: skip
    for record in found:
        print(f"    {record.author!r:24} {record.time!r:28} {squeeze(record.text)[:50]!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=CACHE)
    parser.add_argument("--show", action="store_true", help="print every record found")
    parser.add_argument(
        "--labels", type=Path, default=LABELS, help="another labels file (a new gathering's)"
    )
    parser.add_argument("--pages", nargs="+", metavar="KEY", help="only these pages (by key)")
    args = parser.parse_args()
    groups: dict[str, list[dict]] = defaultdict(list)
    print(f"{'page':24} {'found':>5} {'truth':>5} {'P':>6} {'R':>6} {'F1':>6} {'author':>7} "
          f"{'time':>6} {'text':>6}")  # fmt: skip
    for page in pages(args.labels):
        if args.pages and page["key"] not in args.pages:
            continue
        html = decode_html((args.cache / f"{page['key']}.html").read_bytes())[1]
        found, comments = found_records(page, html)
        result = score(page["records"], found)
        show(page["key"], result, found if args.show else [])
        for group in ("all", f"software={page['software']}", f"lang={page['lang']}"):
            groups[group].append(result)
        if "comments" in page:
            under = score(page["comments"], comments)
            show(f"{page['key']} (comments)", under, comments if args.show else [])
            groups["comments under posts"].append(under)
    print()
    for group, results in groups.items():
        named = [r["author"] for r in results if r["author"] is not None]
        timed = [r["time"] for r in results if r["time"] is not None]
        texts = [r["text"] for r in results if r["text"] is not None]
        print(f"{group:44} pages {len(results):2}  F1 {sum(r['f1'] for r in results) / len(results):.3f}"
              f"  author {sum(named) / len(named) if named else 0:.3f}"
              f"  time {sum(timed) / len(timed) if timed else 0:.3f}"
              f"  text {sum(texts) / len(texts) if texts else 0:.3f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
