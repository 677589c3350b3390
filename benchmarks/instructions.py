"""Steady workloads for `valgrind --tool=callgrind`, whose instruction counts compare two
extractors (or two checkouts) on a machine whose CPU speed varies from run to run.

    valgrind --tool=callgrind .venv/bin/python benchmarks/instructions.py readability
    valgrind --tool=callgrind .venv/bin/python benchmarks/instructions.py load
    valgrind --tool=callgrind .venv/bin/python -m topiccrawler.cli extract \\
        ../shared/bench/body/zh-dev/*.html ../shared/bench/body/en-dev/*.html

`readability`: readability-lxml in process over the body bench's pages, decoded and called as
`benchmarks/body.py` does; `load`: the same without the extraction (imports, decoding, one warm-up
call), to subtract. readability's count is `readability` − `load`; the command's is its whole
process (start-up included), as issue 36's cost target states it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import body  # noqa: E402  (the body benchmark's loader and peers)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("workload", choices=("readability", "load"))
    parser.add_argument("--sets", nargs="+", default=["zh-dev", "en-dev"])
    args = parser.parse_args()
    pages = [page for name in args.sets for _, page, _ in body.load(name)]
    extract = body.peers()["readability-lxml"]
    extract(pages[0])  # warm-up: lazy imports and caches count in `load` too
    if args.workload == "readability":
        for page in pages:
            extract(page)
    print(f"{args.workload}: {len(pages)} pages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
