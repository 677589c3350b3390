"""Harvest-rate benchmark: the topic spider on the sandbox web, three ways, side by side.

    .venv/bin/python benchmarks/harvest.py [--size large] [--pages 2000]

- breadth-first: a plain crawler: first in, first out, every link followed (no relevance
  gating, no priorities);
- best-first: links ordered by parent relevance, anchor text, URL words and link block, links of
  irrelevant pages followed only through RELEVANCE_TUNNEL_DEPTH irrelevant pages;
- best-first + learning: and each site's and section's yield of relevant pages, learnt while
  crawling, with an exploration bonus.

Entrances (--entrances): `sites` (the default) starts from the home page of every content site of
the sandbox, with no search engines, so what is measured is the order links are followed in;
`seeds` uses the demo's seed file (three authority sites and both search engines), where search
hits, fetched first in every mode, dominate the first thousands of pages.

Each crawl stops after --pages judged pages (CRAWL_MAX_PAGES). The harvest rate at N is the
share of pages the sandbox's ground truth calls relevant among the first N pages fetched (in
fetch order); recall is relevant pages fetched over those the web holds. Pages/s is judged pages
over the crawl's wall time. Everything runs on loopback; nothing touches the real web.
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
from topiccrawler.sandbox.truth import truth_for
from topiccrawler.sandbox.web import build_web
from topiccrawler.storage.models import Page

ROOT = Path(__file__).resolve().parents[1]
CHECKPOINTS = (100, 500, 1000, 2000)
MODES = {
    "breadth-first": {
        "FRONTIER_ENABLED": False,
        "RELEVANCE_TUNNEL_DEPTH": 1_000_000,
        "DEPTH_PRIORITY": 1,
        "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.DownloaderAwarePriorityQueue",
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
    },
    "best-first": {"FRONTIER_ENABLED": True, "FRONTIER_LEARNING": False},
    "best-first + learning": {"FRONTIER_ENABLED": True, "FRONTIER_LEARNING": True},
}


def every_site_seed_file(server: SandboxServer) -> str:
    """Every content site of the sandbox as an authority site, from its home page."""
    hosts = sorted({host for host, _, _ in server.web.pages_with_truth()})
    return "".join(
        f'[[authority]]\nname = "{host}"\nstart_urls = ["{server.url(host)}"]\n'
        f"depth_limit = 8\nmax_pages = 5000\n\n"
        for host in hosts
    )


def crawl(
    server: SandboxServer, folder: Path, pages: int, mode: dict, entrances: str
) -> tuple[str, float]:
    seeds = folder / "seeds.toml"
    text = every_site_seed_file(server) if entrances == "sites" else sandbox_seed_file(server)
    seeds.write_text(text, encoding="utf-8")
    url = f"sqlite:///{folder / 'crawl.db'}"
    settings = {
        **sandbox_crawl_settings(server),
        "DATABASE_URL": url,
        "CRAWL_MAX_PAGES": pages,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "CONCURRENT_REQUESTS": 16,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
        "RETRY_TIMES": 0,
        "DOWNLOAD_TIMEOUT": 2,
        "LOG_LEVEL": "WARNING",
        **mode,
    }
    command = crawl_command(seeds, settings)
    started = time.monotonic()
    result = subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, **sandbox_login_env()}
    )
    elapsed = time.monotonic() - started
    if result.returncode:
        raise SystemExit(f"crawl failed:\n{result.stderr[-3000:]}")
    return url, elapsed


def measure(url: str, web, elapsed: float) -> dict:
    engine = create_engine(url)
    with Session(engine) as session:
        rows = session.execute(select(Page.url).order_by(Page.fetched_at, Page.id)).all()
    engine.dispose()
    flags = [bool((t := truth_for(web, u)) and t.relevant) for (u,) in rows]
    relevant_in_web = sum(t.relevant for _, _, t in web.pages_with_truth())
    return {
        "harvest": {n: sum(flags[:n]) / n for n in CHECKPOINTS if len(flags) >= n},
        "recall": sum(flags) / relevant_in_web,
        "pages": len(flags),
        "pages_per_s": len(flags) / elapsed,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=("small", "medium", "large"), default="large")
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--entrances", choices=("sites", "seeds"), default="sites")
    args = parser.parse_args()
    web = build_web(args.seed, args.size)
    results = {}
    with SandboxServer(web, slow_seconds=3) as server, tempfile.TemporaryDirectory() as tmp:
        for name, mode in MODES.items():
            folder = Path(tmp) / name.replace(" ", "")
            folder.mkdir()
            url, elapsed = crawl(server, folder, args.pages, mode, args.entrances)
            results[name] = measure(url, web, elapsed)
            print(f"done: {name} in {elapsed:.0f} s", file=sys.stderr)
    head = (
        f"{'crawl':24}| "
        + " | ".join(f"harvest@{n:<5}" for n in CHECKPOINTS)
        + " | recall | pages | pages/s"
    )
    print(
        f"sandbox web: {args.size}, seed {args.seed}, {len(list(web.pages_with_truth()))} pages; "
        f"entrances: {args.entrances}"
    )
    print(head)
    print("-" * len(head))
    for name, r in results.items():
        cells = " | ".join(
            f"{r['harvest'][n]:<13.3f}" if n in r["harvest"] else f"{'-':13}" for n in CHECKPOINTS
        )
        print(f"{name:24}| {cells} | {r['recall']:.3f}  | {r['pages']:5} | {r['pages_per_s']:.1f}")
    base = results["breadth-first"]
    print("\nrelative to breadth-first:")
    for name, r in results.items():
        ratios = ", ".join(
            f"harvest@{n} {r['harvest'][n] / base['harvest'][n]:.2f}x"
            for n in CHECKPOINTS
            if n in r["harvest"] and n in base["harvest"] and base["harvest"][n]
        )
        print(
            f"  {name:24} {ratios}; recall {r['recall'] / base['recall']:.2f}x; "
            f"pages/s {r['pages_per_s'] / base['pages_per_s']:.2f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
