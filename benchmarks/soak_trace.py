"""Run a module (scrapy) under tracemalloc and write, every SECONDS, what grew since the first
snapshot: the lines that allocated the memory still held, largest growth first.

    python benchmarks/soak_trace.py OUT_DIR SECONDS -m scrapy crawl topic ...

benchmarks/soak.py --trace DIR runs its crawl through this. Tracing slows the crawl about
twofold and its own bookkeeping adds memory, so a traced crawl's RSS and speed are not the
soak's figures: it is for finding what grows, not for how much the crawl holds.
"""

from __future__ import annotations

import runpy
import sys
import threading
import time
import tracemalloc
from pathlib import Path

FRAMES = 6
TOP = 40


def watch(folder: Path, seconds: float) -> None:
    time.sleep(seconds)  # past start-up: models loaded, first pages in
    first = tracemalloc.take_snapshot()
    number = 0
    while True:
        time.sleep(seconds)
        number += 1
        snapshot = tracemalloc.take_snapshot()
        growth = snapshot.compare_to(first, "traceback")
        lines = [f"traced now {tracemalloc.get_traced_memory()[0] / 2**20:.1f} MB"]
        for stat in growth[:TOP]:
            lines.append(f"{stat.size_diff / 2**20:+8.2f} MB {stat.count_diff:+8d} blocks")
            lines += [f"      {frame.filename}:{frame.lineno}" for frame in stat.traceback]
        (folder / f"growth-{number:03d}.txt").write_text("\n".join(lines) + "\n")


def main() -> None:
    folder, seconds = Path(sys.argv[1]), float(sys.argv[2])
    folder.mkdir(parents=True, exist_ok=True)
    if sys.argv[3] != "-m":
        raise SystemExit("usage: soak_trace.py OUT_DIR SECONDS -m MODULE ARGS...")
    module = sys.argv[4]
    sys.argv = [module, *sys.argv[5:]]
    tracemalloc.start(FRAMES)
    threading.Thread(target=watch, args=(folder, seconds), daemon=True).start()
    runpy.run_module(module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
