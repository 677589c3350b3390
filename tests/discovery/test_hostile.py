"""Hostile feeds and sitemaps are normal input: a sitemap index that lists itself, indexes
nested 10 deep, a 50 MB gzip bomb, a million URLs, entries, feeds, sitemaps and redirects to
127.0.0.2. The crawl must stay bounded in time and memory, and send nothing to 127.0.0.2 (a
listener there counts every connection)."""

from __future__ import annotations

import gzip
import os
import resource
import subprocess
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.conftest import ROOT
from tests.servers import LoopbackServer
from topiccrawler.sandbox.demo import crawl_command
from topiccrawler.storage.models import CrawlRun

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
NESTING = 10
MILLION = 1_000_000
MANY = 200_000
MAX_PAGES = 30
PAGE = (
    "<html><head><meta charset='utf-8'><title>{0}</title></head>"
    "<body><p>{0}：增值税纳税申报提醒。</p></body></html>"
)


def urlset(*urls: str) -> bytes:
    return f"<urlset {NS}>{''.join(f'<url><loc>{u}</loc></url>' for u in urls)}</urlset>".encode()


def index(*urls: str) -> bytes:
    listed = "".join(f"<sitemap><loc>{u}</loc></sitemap>" for u in urls)
    return f"<sitemapindex {NS}>{listed}</sitemapindex>".encode()


class Listener:
    """An HTTP server on 127.0.0.2 that counts every connection made to it."""

    def __init__(self) -> None:
        self.connections = 0
        listener = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args) -> None:
                pass

        class Server(ThreadingHTTPServer):
            def verify_request(self, request, client_address) -> bool:
                listener.connections += 1
                return True

        self.server = Server(("127.0.0.2", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Listener:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


class HostileSite(LoopbackServer):
    def __init__(self, evil: str):
        self.hits: Counter[str] = Counter()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                site.hits[self.path] += 1
                status, headers, body = site.answer(self.path)
                site.reply(self, status, headers, body)

            def log_message(self, *args) -> None:
                pass

        self.serve(Handler)
        base = self.url
        self.evil = evil
        self.files = {
            "/": (
                "text/html; charset=utf-8",
                (
                    "<html><head><meta charset='utf-8'><title>首页</title>"
                    f"<link rel='alternate' type='application/rss+xml' href='{evil}/feed.xml'>"
                    "<link rel='alternate' type='application/rss+xml' href='/feed.xml'>"
                    "</head><body><a href='/p/linked.html'>税务公告</a></body></html>"
                ).encode(),
            ),
            "/robots.txt": (
                "text/plain",
                "\n".join(
                    ["User-agent: *"]
                    + [
                        f"Sitemap: {base}{path}"
                        for path in (
                            "/self.xml",
                            "/nest/1.xml",
                            "/bomb.xml.gz",
                            "/million.xml.gz",
                            "/many.xml.gz",
                            "/evil-entries.xml",
                            "/redirect.xml",
                        )
                    ]  # fmt: skip
                    + [f"Sitemap: {evil}/sitemap.xml"]
                ).encode(),
            ),
            "/self.xml": ("application/xml", index(f"{base}/self.xml", f"{base}/ok.xml")),
            "/ok.xml": ("application/xml", urlset(f"{base}/p/ok.html")),
            "/evil-entries.xml": (
                "application/xml",
                urlset(
                    f"{evil}/a.html",  # in entry_domains: only the address guard stops it
                    f"http://2130706434:{evil.rsplit(':', 1)[1]}/b.html",  # 127.0.0.2, decimal
                    f"http://[::ffff:127.0.0.2]:{evil.rsplit(':', 1)[1]}/c.html",
                    f"{base}/p/fine.html",
                ),
            ),
            "/feed.xml": (
                "application/rss+xml",
                (
                    "<rss version='2.0'><channel><title>t</title>"
                    f"<item><title>增值税</title><link>{evil}/f.html</link></item>"
                    f"<item><title>增值税申报</title><link>{base}/p/feed.html</link></item>"
                    "</channel></rss>"
                ).encode(),
            ),
            "/bomb.xml.gz": (
                "application/x-gzip",
                gzip.compress(
                    f"<urlset {NS}>".encode() + b" " * (50 * 1024 * 1024) + b"</urlset>", 9
                ),
            ),
            # ~55 MB unpacked: past the sitemap protocol's (and DISCOVERY_SITEMAP_MAX_BYTES's) 50 MB
            "/million.xml.gz": (
                "application/x-gzip",
                gzip.compress(urlset(*(f"{base}/p/{n}.html" for n in range(MILLION))), 1),
            ),
            # ~11 MB: within the bytes, past the 50,000 entries read of one sitemap
            "/many.xml.gz": (
                "application/x-gzip",
                gzip.compress(urlset(*(f"{base}/p/m{n}.html" for n in range(MANY))), 1),
            ),
        }
        for depth in range(1, NESTING + 1):
            self.files[f"/nest/{depth}.xml"] = (
                "application/xml",
                index(f"{base}/nest/{depth + 1}.xml")
                if depth < NESTING
                else urlset(f"{base}/p/deep.html"),
            )

    def answer(self, path: str) -> tuple[int, dict, bytes]:
        if path == "/redirect.xml":
            return 302, {"Location": f"{self.evil}/redirected.xml"}, b""
        if path in self.files:
            content_type, body = self.files[path]
            return 200, {"Content-Type": content_type}, body
        if path.startswith("/p/"):
            return 200, {"Content-Type": "text/html; charset=utf-8"}, PAGE.format(path).encode()
        return 404, {"Content-Type": "text/plain"}, b"not found"


@pytest.fixture(scope="module")
def hostile_crawl(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    with Listener() as listener, HostileSite(f"http://127.0.0.2:{listener.port}") as site:
        port = site.server.server_address[1]
        seeds = folder / "seeds.toml"
        seeds.write_text(
            f"""[[authority]]
name = "hostile"
start_urls = ["{site.url}/"]
depth_limit = 1
max_pages = {MAX_PAGES}
entry_domains = ["127.0.0.2"]
""",
            encoding="utf-8",
        )
        url = f"sqlite:///{folder / 'crawl.db'}"
        settings = {
            "DATABASE_URL": url,
            "ALLOWED_ADDRESSES": [f"127.0.0.1:{port}"],
            "DOWNLOAD_DELAY": 0,
            "AUTOTHROTTLE_ENABLED": False,
            "DOWNLOAD_TIMEOUT": 20,
            "RETRY_TIMES": 0,
        }
        started = time.monotonic()
        process = subprocess.Popen(
            crawl_command(seeds, settings),
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ,
        )
        try:
            _, log = process.communicate(timeout=300)
        except subprocess.TimeoutExpired:
            process.kill()
            raise
        elapsed = time.monotonic() - started
        # the crawl's peak memory (MB): the largest child this test process waited for
        peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        with Session(create_engine(url)) as session:
            stats = session.scalars(select(CrawlRun)).one().stats
        yield listener, site, stats, log, elapsed, peak_mb, process.returncode


def test_nothing_reaches_127_0_0_2(hostile_crawl):
    listener, site, stats, log, _, _, returncode = hostile_crawl
    assert returncode in (0, 3), log[-3000:]
    assert listener.connections == 0
    # refused by the address guard (127.0.0.2 is in the seed file's entry_domains): the sitemap
    # robots.txt names there, the redirect there, the feed the home page announces there (and
    # the entries there in a sitemap and a feed, when the site's page budget still has room)
    assert stats["topiccrawler/guard/refused"] >= 3
    assert stats["topiccrawler/discovery/entries_offsite"] >= 2  # its other forms: off the site


def test_hostile_sitemaps_are_read_within_bounds(hostile_crawl):
    _, site, stats, log, elapsed, peak_mb, _ = hostile_crawl
    assert elapsed < 120, elapsed
    assert peak_mb < 1500, peak_mb  # the million URLs unpacked are ~45 MB; no copy per entry
    assert site.hits["/self.xml"] == 1 and site.hits["/ok.xml"] == 1  # the loop: once
    # DISCOVERY_SITEMAP_DEPTH = 2: the index robots.txt names and two more levels
    assert [site.hits[f"/nest/{n}.xml"] for n in range(1, 6)] == [1, 1, 1, 0, 0]
    assert stats["topiccrawler/discovery/sitemaps_too_deep"] == 1
    assert stats["topiccrawler/discovery/too_large"] == 2  # the bomb and the million
    assert "bomb.xml.gz not read" in log and "million.xml.gz not read" in log
    assert stats["topiccrawler/discovery/truncated"] == 1  # 200,000 entries > 50,000
    assert "many.xml.gz lists more than 50000 entries" in log
    pages = sum(n for path, n in site.hits.items() if path.startswith("/p/"))
    assert pages <= MAX_PAGES + 1  # the site's page budget (+ the start page's own link)
    assert stats["topiccrawler/discovery/entries_over_budget"] > 49_000
