"""Feeds and sitemaps in real crawls (`scrapy crawl topic` in a subprocess, as users run it).

The sandbox's news portal announces an RSS and an Atom feed; the tax authority's robots.txt
names a sitemap index with a gzipped URL set and a news sitemap. Articles listed only there must
be stored; a day later (the server's clock advances) the second run must fetch every newly
published article and otherwise at most robots.txt, the feeds, the sitemaps and the start pages.
"""

from __future__ import annotations

import os
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.conftest import ROOT
from topiccrawler.cli import main
from topiccrawler.sandbox.demo import crawl_command, sandbox_crawl_settings
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.truth import is_genuine, truth_key
from topiccrawler.sandbox.web import PORTAL_A, TAX_BUREAU, build_web
from topiccrawler.storage.models import CrawlRun, DiscoverySource, Page


def seed_file(server: SandboxServer, **site_options: str) -> str:
    extra = "".join(f"{key} = {value}\n" for key, value in site_options.items())
    return f"""
[[authority]]
name = "{server.web.site_names[TAX_BUREAU]}"
start_urls = ["{server.url(TAX_BUREAU)}"]
depth_limit = 4
max_pages = 500
{extra}
[[authority]]
name = "{server.web.site_names[PORTAL_A]}"
start_urls = ["{server.url(PORTAL_A)}"]
depth_limit = 2
max_pages = 200
{extra}"""


@dataclass
class Run:
    url: str
    log: str
    fetched: list[tuple[str, str, str, int]]  # (method, host, path, status) the server answered

    def session(self) -> Session:
        return Session(create_engine(self.url))


def crawl(server: SandboxServer, folder: Path, seeds: str, **settings) -> Run:
    (folder / "seeds.toml").write_text(seeds, encoding="utf-8")
    url = f"sqlite:///{folder / 'crawl.db'}"
    options = {
        **sandbox_crawl_settings(server),
        "DATABASE_URL": url,
        "DOWNLOAD_DELAY": 0,
        "AUTOTHROTTLE_ENABLED": False,
        "DOWNLOAD_TIMEOUT": 10,
        "RETRY_TIMES": 0,
        **settings,
    }
    before = len(server.fetches)
    result = subprocess.run(
        crawl_command(folder / "seeds.toml", options),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=os.environ,
    )
    assert result.returncode in (0, 3), result.stderr[-3000:]  # 3: ran, nothing new
    return Run(url, result.stderr, list(server.fetches[before:]))


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """A crawl, the sandbox a day older, the same crawl again (one database)."""
    folder = tmp_path_factory.mktemp("discovery")
    with SandboxServer(build_web(1, "small")) as server:
        seeds = seed_file(server)
        first = crawl(server, folder, seeds)
        with first.session() as session:
            stored_first = {truth_key(p.url): (p.found_by, p.body, p.title) for p in
                            session.scalars(select(Page))}  # fmt: skip
        published = {k for k, r in server.web.changes[1].items() if r.truth and r.truth.found_only}
        server.advance(1)
        second = crawl(server, folder, seeds)
    yield server, first, stored_first, second, published


def test_every_feed_only_and_sitemap_only_relevant_article_is_stored(two_runs):
    server, first, stored, _, _ = two_runs
    only = {
        key: truth
        for key, truth in (
            (truth_key(server.url(h, p)), t) for h, p, t in server.web.pages_with_truth()
        )  # fmt: skip
        if truth.found_only and truth.relevant and key in _day_zero(server)
    }
    assert {t.found_only for t in only.values()} == {"feed", "sitemap"} and len(only) >= 8
    for key, truth in only.items():
        assert key in stored, key
        found_by, body, title = stored[key]
        assert found_by == truth.found_only, key
        assert is_genuine(truth, body, title), key
    with first.session() as session:
        run = session.scalars(select(CrawlRun).order_by(CrawlRun.id)).first()
        sources = {s.url.rsplit("/", 1)[1]: s for s in session.scalars(select(DiscoverySource))}
    by = run.stats["topiccrawler/changes"]["new_pages_by"]
    assert by["feed"] >= 5 and by["sitemap"] >= 5 and by["link"] > 20 and by["start"] == 2
    assert set(sources) == {"rss.xml", "atom.xml", "sitemap_index.xml", "pages.xml.gz", "news.xml"}
    assert all(s.etag and s.status == 200 for s in sources.values())  # for conditional GET
    assert sources["pages.xml.gz"].depth == 1 and sources["pages.xml.gz"].lastmod is not None


def _day_zero(server: SandboxServer) -> set[tuple[str, str]]:
    later = set(server.web.changes[1])
    return {(h, p) for h, p, _ in server.web.pages_with_truth() if (h, p) not in later}


def test_a_day_later_only_new_articles_and_the_sources_are_fetched(two_runs):
    server, first, _, second, published = two_runs
    fetched = [(host, path) for _, host, path, _ in second.fetched]
    new = {(host, path) for host, path in fetched if (host, path) in published}
    assert new == published  # every article published since, in a feed or a sitemap
    sources = {"/robots.txt", "/", "/rss.xml", "/atom.xml", "/sitemap_index.xml",
               "/sitemaps/pages.xml.gz", "/sitemaps/news.xml"}  # fmt: skip
    others = [(host, path) for host, path in fetched if (host, path) not in published]
    assert {path for _, path in others} <= sources, others
    counts = Counter(others)  # each once; robots.txt twice (Scrapy's, read for Sitemap: lines)
    assert all(n <= (2 if path == "/robots.txt" else 1) for (_, path), n in counts.items())
    with second.session() as session:
        runs = session.scalars(select(CrawlRun).order_by(CrawlRun.id)).all()
        new_pages = {truth_key(p.url): p.found_by for p in session.scalars(
            select(Page).where(Page.crawl_run_id == runs[1].id, Page.first_seen_at >= runs[1].started_at)
        )}  # fmt: skip
    assert set(new_pages) == published
    assert {new_pages[key] for key in published} == {"feed", "sitemap"}
    changes = runs[1].stats["topiccrawler/changes"]
    assert changes["new_pages"] == len(published)
    assert changes["new_pages_by"] == {
        "feed": sum(1 for k in published if "/finance/" in k[1]),
        "sitemap": sum(1 for k in published if "/xxgk/" in k[1]),
    }
    assert "4 new pages (feed 2, sitemap 2)" in second.log


def test_runs_command_says_how_new_pages_were_found(two_runs, capsys):
    _, _, _, second, _ = two_runs
    assert main(["-s", f"DATABASE_URL={second.url}", "runs", "tax"]) == 0
    lines = capsys.readouterr().out.splitlines()
    found = [line.strip() for line in lines if "new pages found by" in line]
    assert found[0] == "new pages found by: feed 2, sitemap 2"  # the newest run first
    assert found[1].startswith("new pages found by: start 2, link ")
    first = dict(part.rsplit(" ", 1) for part in found[1].split(": ", 1)[1].split(", "))
    assert (
        int(first["feed"]) >= 5 and int(first["sitemap"]) >= 5
    )  # (+ linked ones seen there first)


def test_an_unchanged_site_costs_conditional_requests_only(two_runs, tmp_path):
    """A third run with nothing new: the feeds and the index answer 304 and no entry is asked."""
    server, first, _, second, _ = two_runs
    with SandboxServer(server.web) as again:  # the same web (day 1), a new port, a new database
        seeds = seed_file(again)
        crawl(again, tmp_path, seeds)
        third = crawl(again, tmp_path, seeds)
    statuses = {path: status for _, _, path, status in third.fetched}
    assert statuses["/rss.xml"] == statuses["/atom.xml"] == 304
    assert statuses["/sitemap_index.xml"] == 304
    assert "/sitemaps/pages.xml.gz" not in statuses  # its index did not change: not asked
    assert {path for path in statuses} <= {"/robots.txt", "/", "/rss.xml", "/atom.xml",
                                           "/sitemap_index.xml"}  # fmt: skip
