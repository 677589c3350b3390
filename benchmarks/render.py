"""Rendering benchmark: the sandbox crawled with RENDER_MODE auto and never, side by side.

    .venv/bin/python benchmarks/render.py [--size small|medium|large] [--seed 1]

Prints, for each mode: crawl time, pages fetched, pages rendered in Chromium and their share,
pages completed from the JSON they name, the extra time per rendered page (the browser's own
time for it, launch included), and comments and posts stored right per the ground truth; then
what rendering recovered. Pages that show no sign of script-built records are never rendered.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from topiccrawler.sandbox.demo import (
    crawl_command,
    sandbox_crawl_settings,
    sandbox_login_env,
    sandbox_seed_file,
)
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.truth import score_crawl
from topiccrawler.sandbox.web import build_web
from topiccrawler.storage.models import CrawlRun

ROOT = Path(__file__).resolve().parents[1]


def crawl(server: SandboxServer, folder: Path, mode: str) -> dict:
    seeds = folder / "seeds.toml"
    seeds.write_text(sandbox_seed_file(server), encoding="utf-8")
    url = f"sqlite:///{folder / f'{mode}.db'}"
    settings = {**sandbox_crawl_settings(server), "DATABASE_URL": url, "RENDER_MODE": mode,
                "LOG_LEVEL": "WARNING"}  # fmt: skip
    started = time.perf_counter()
    subprocess.run(crawl_command(seeds, settings), cwd=ROOT, check=True, capture_output=True,
                   env={**os.environ, **sandbox_login_env()})  # fmt: skip
    seconds = time.perf_counter() - started
    engine = create_engine(url)
    with Session(engine) as session:
        score = score_crawl(session, server.web, "tax")
        stats = session.scalars(select(CrawlRun)).one().stats or {}
    engine.dispose()
    fetched = stats.get("topiccrawler/summary", {}).get("pages_fetched", 0)
    return {
        "seconds": seconds,
        "fetched": fetched,
        "rendered": stats.get("topiccrawler/render/pages", 0),
        "json": stats.get("topiccrawler/render/json_pages", 0),
        "render_ms": stats.get("topiccrawler/render/ms", 0),
        "comments": score.comments_right,
        "posts": score.posts_right,
        "comments_true": score.comments_kept_true,
        "posts_true": score.posts_kept_true,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=("small", "medium", "large"), default="small")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    results = {}
    with (
        tempfile.TemporaryDirectory() as work,
        SandboxServer(build_web(args.seed, args.size), slow_seconds=4) as server,
    ):
        for mode in ("never", "auto"):
            results[mode] = crawl(server, Path(work), mode)
    print(f"sandbox {args.size}, seed {args.seed}")
    print(
        f"{'mode':6} | crawl s | fetched | rendered (share) | JSON | ms/rendered | comments right | posts right"
    )
    for mode, r in results.items():
        share = r["rendered"] / r["fetched"] if r["fetched"] else 0
        per = r["render_ms"] / r["rendered"] if r["rendered"] else 0
        print(
            f"{mode:6} | {r['seconds']:7.1f} | {r['fetched']:7} | {r['rendered']:3} ({share:6.2%})"
            f"    | {r['json']:4} | {per:11.0f} | {r['comments']:4} / {r['comments_true']:<4}"
            f"    | {r['posts']:4} / {r['posts_true']}"
        )
    auto, never = results["auto"], results["never"]
    print(
        f"recovered by rendering and JSON: {auto['comments'] - never['comments']} comments, "
        f"{auto['posts'] - never['posts']} posts; crawl time {auto['seconds'] / never['seconds']:.2f}x"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
