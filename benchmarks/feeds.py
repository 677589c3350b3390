"""What a scheduled run costs with feeds and sitemaps on and off, on the sandbox web.

    nice .venv/bin/python benchmarks/feeds.py

Three authority sites of the small sandbox web (the tax authority: robots.txt → sitemap index →
gzipped URL set and news sitemap; the news portal: RSS and Atom feeds announced on its home
page; the Discuz forum: neither). Each configuration crawls an empty database (day 0), then the
sandbox's clock advances a day (one article more in each feed and each sitemap, one forum thread
with two replies) and the same crawl runs again, as cron would run it; then once more with
nothing new. A day later the hub pages (home, section lists) are due for a revisit by the
default REVISIT_HUBS_AFTER (an hour): the second run is run with REVISIT_HUBS_AFTER=0 to say so.

  off        DISCOVERY_ENABLED=False: new articles only through the hubs, walked again
  on         feeds and sitemaps read (conditional GET), hubs walked again too
  on, weekly feeds and sitemaps daily, hubs weekly (REVISIT_HUBS_AFTER=604800): the setting a
             scheduled crawl of sites with feeds wants

Printed per configuration and run: requests the sandbox server answered (robots.txt, feeds and
sitemaps, pages; 304s among them), new pages stored, the day's new articles found, wall time.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, select  # noqa: E402
from sqlalchemy.orm import Session  # noqa: E402

from topiccrawler.sandbox.demo import crawl_command, sandbox_crawl_settings  # noqa: E402
from topiccrawler.sandbox.server import SandboxServer  # noqa: E402
from topiccrawler.sandbox.web import FORUM_TABLE, PORTAL_A, TAX_BUREAU, build_web  # noqa: E402
from topiccrawler.storage.models import CrawlRun  # noqa: E402

SOURCES = ("/rss.xml", "/atom.xml", "/sitemap_index.xml", "/sitemaps/")
CONFIGURATIONS = {
    "off": ({"DISCOVERY_ENABLED": False}, {"REVISIT_HUBS_AFTER": 0}),
    "on": ({}, {"REVISIT_HUBS_AFTER": 0}),
    "on, weekly": ({}, {"REVISIT_HUBS_AFTER": 604800}),
}


def seeds(server: SandboxServer) -> str:
    sites = ((TAX_BUREAU, 4, 500), (PORTAL_A, 2, 200), (FORUM_TABLE, 2, 150))
    return "".join(
        f'[[authority]]\nname = "{server.web.site_names[host]}"\n'
        f'start_urls = ["{server.url(host)}"]\ndepth_limit = {depth}\nmax_pages = {pages}\n\n'
        for host, depth, pages in sites
    )


@dataclass
class RunCost:
    robots: int
    sources: int
    pages: int
    not_modified: int
    new_pages: int
    new_articles: str
    seconds: float

    def row(self, name: str, run: str) -> str:
        return (
            f"| {name:11} | {run:17} | {self.robots:>6} | {self.sources:>15} | {self.pages:>5} "
            f"| {self.not_modified:>4} | {self.new_pages:>9} | {self.new_articles:>12} "
            f"| {self.seconds:>5.1f} |"
        )


def crawl(server: SandboxServer, folder: Path, settings: dict, published: set) -> RunCost:
    url = f"sqlite:///{folder / 'crawl.db'}"
    options = {
        **sandbox_crawl_settings(server),
        "DATABASE_URL": url,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 10,
        "LOG_LEVEL": "WARNING",
        **settings,
    }
    before = len(server.fetches)
    started = time.monotonic()
    result = subprocess.run(
        crawl_command(folder / "seeds.toml", options), cwd=ROOT, capture_output=True, text=True,
        timeout=600, env=os.environ,
    )  # fmt: skip
    seconds = time.monotonic() - started
    if result.returncode not in (0, 3):
        raise SystemExit(result.stderr[-3000:])
    fetched = server.fetches[before:]
    with Session(create_engine(url)) as session:
        run = session.scalars(select(CrawlRun).order_by(CrawlRun.id.desc())).first()
        new_pages = run.stats["topiccrawler/changes"]["new_pages"]
    robots = sum(1 for _, _, path, _ in fetched if path == "/robots.txt")
    sources = sum(1 for _, _, path, _ in fetched if path.startswith(SOURCES))
    found = {(host, path) for _, host, path, status in fetched if (host, path) in published}
    return RunCost(
        robots=robots,
        sources=sources,
        pages=len(fetched) - robots - sources,
        not_modified=sum(1 for *_, status in fetched if status == 304),
        new_pages=new_pages,
        new_articles=f"{len(found)}/{len(published)}" if published else "–",
        seconds=seconds,
    )


def main() -> None:
    print("| configuration | run | robots | feeds, sitemaps | pages | 304s | new pages "
          "| new articles | s |")  # fmt: skip
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, (always, day_later) in CONFIGURATIONS.items():
        web = build_web(1, "small")
        published = {k for k, r in web.changes[1].items() if r.truth and r.truth.found_only}
        with SandboxServer(web) as server, tempfile.TemporaryDirectory() as folder:
            (Path(folder) / "seeds.toml").write_text(seeds(server), encoding="utf-8")
            first = crawl(server, Path(folder), always, set())
            print(first.row(name, "day 0 (empty db)"))
            server.advance(1)
            second = crawl(server, Path(folder), {**always, **day_later}, published)
            print(second.row(name, "day 1"))
            third = crawl(server, Path(folder), {**always, **day_later}, set())
            print(third.row(name, "day 1 again"))


if __name__ == "__main__":
    main()
