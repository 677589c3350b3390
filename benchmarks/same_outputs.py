"""Every output of `extract_page` on the bench pages, one JSON line a page, with a fixed clock:
two checkouts' files compared with `cmp` say whether a change kept every output the same.

    PYTHONPATH=/path/to/other/checkout .venv/bin/python benchmarks/same_outputs.py OUT.jsonl
    .venv/bin/python benchmarks/same_outputs.py OUT2.jsonl && cmp OUT.jsonl OUT2.jsonl

Pages are read as `topiccrawler extract` reads them (`decode_html`, `drop_html_controls`);
the clock is fixed so that relative times ("3 hours ago") give the same `published_at` in
both runs. Written: title, body, times, author, source, error, the records' kind and every
field of each comment, post and thread, and the records' elements (tag and source line).
`--sets` picks the bench's folders (default: the body sets and the records bench). Also a
steady load for `valgrind --tool=callgrind`, whose instruction counts compare two checkouts
on a busy machine.
"""

from __future__ import annotations

import argparse
import json
from datetime import UTC, datetime
from pathlib import Path

from topiccrawler.extract.encoding import decode_html
from topiccrawler.extract.page import extract_page
from topiccrawler.guard.text import drop_html_controls

BENCH = Path(__file__).resolve().parents[2] / "shared" / "bench"
SETS = ("body/zh-dev", "body/en-dev", "records/data/*")
NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)


def record_of(path: Path) -> dict:
    text = drop_html_controls(decode_html(path.read_bytes())[1])
    page = extract_page(text, fetched_at=NOW, relevance=False)
    found = page.records

    def fields(items) -> list[dict]:
        return [{k: str(v) for k, v in item.__dict__.items()} for item in items]

    return {
        "page": str(path.relative_to(BENCH)),
        "title": page.title, "body": page.body, "published": page.published,
        "published_at": str(page.published_at), "author": page.author, "source": page.source,
        "error": page.error, "kind": found.kind, "comments": fields(found.comments),
        "posts": fields(found.posts), "threads": fields(found.threads),
        "elements": [(e.tag, e.sourceline) for e in found.elements],
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--sets", nargs="+", default=list(SETS), help="globs under the bench")
    args = parser.parse_args()
    files = sorted(p for pattern in args.sets for p in BENCH.glob(f"{pattern}/*.html"))
    with args.out.open("w", encoding="utf-8") as out:
        for path in files:
            out.write(json.dumps(record_of(path), ensure_ascii=False) + "\n")
    print(f"{len(files)} pages written to {args.out}")


if __name__ == "__main__":
    main()
