"""End to end: a configured site and engine on 127.0.0.1 that point, in every host form, at an
unconfigured server on 127.0.0.2 (an intranet host, a metadata endpoint): it gets no request."""

from __future__ import annotations

import json
import logging
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from scrapy.utils.defer import deferred_f_from_coro_f
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.crawl import crawl, make_crawler
from tests.servers import LoopbackServer
from topiccrawler.guard.addresses import AllowList
from topiccrawler.middlewares.address_guard import AddressGuardMiddleware
from topiccrawler.storage.models import Page

INTERNAL_HOST = "127.0.0.2"


class RecordingServer(LoopbackServer):
    """Answers every path with a page; records every request it receives."""

    def __init__(self, address: str, pages: dict[str, tuple[int, dict, str]] | None = None):
        self.requests: list[str] = []
        self.pages = pages or {}
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                server.requests.append(self.path)
                default = (
                    200,
                    {},
                    "<html><head><title>内部机密</title></head><body>secret</body></html>",
                )
                status, headers, body = server.pages.get(self.path.split("?")[0], default)
                if callable(body):
                    body = body(self.path)
                headers = {"Content-Type": "text/html; charset=utf-8", **headers}
                server.reply(self, status, headers, body.encode("utf-8"))

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer((address, 0), Handler)
        self.server.daemon_threads = True
        import threading

        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self.server.server_address[1]


def internal_forms(port: int) -> list[str]:
    """127.0.0.2 as strangers write it: dotted, IPv4-mapped IPv6, decimal, hex, octal, short."""
    hosts = ["127.0.0.2", "[::ffff:127.0.0.2]", "2130706434", "0x7f000002", "017700000002",
             "127.2", "0x7f.0.0.2", "127.0.2"]  # fmt: skip
    return [f"http://{host}:{port}/secret/{n}" for n, host in enumerate(hosts)]


def page(title: str, body: str) -> str:
    return (
        f'<html><head><meta charset="utf-8"><title>{title}</title></head>'
        f"<body><article><p>{body}</p></article></body></html>"
    )


@pytest.fixture
def internal():
    try:
        with RecordingServer(INTERNAL_HOST) as server:
            yield server
    except OSError as exc:  # pragma: no cover (every Linux routes 127/8 to loopback)
        pytest.skip(f"cannot listen on {INTERNAL_HOST}: {exc}")


def hostile_site(internal_port: int) -> RecordingServer:
    forms = internal_forms(internal_port)
    links = "".join(f'<a href="{url}">增值税内部通知 {n}</a>' for n, url in enumerate(forms))
    index = page(
        "税务公告",
        "增值税纳税申报提醒。"
        '<a href="/article.html">增值税改革</a> <a href="/redirect">增值税政策</a> '
        f'<a href="/refresh">增值税优惠</a> {links}',
    )
    refresh = (
        '<html><head><meta http-equiv="refresh" content="0; url='
        f'http://0x7f000002:{internal_port}/secret/refresh"><title>跳转</title></head>'
        "<body>增值税</body></html>"
    )
    return RecordingServer(
        "127.0.0.1",
        {
            "/": (200, {}, index),
            "/article.html": (200, {}, page("增值税改革新政解读", "增值税纳税人减免税政策。" * 5)),
            "/redirect": (
                302,
                {"Location": f"http://2130706434:{internal_port}/secret/redirect"},
                "",
            ),
            "/refresh": (200, {}, refresh),
            "/robots.txt": (200, {"Content-Type": "text/plain"}, "User-agent: *\nAllow: /\n"),
        },
    )


def searxng(internal_port: int) -> RecordingServer:
    def answer(path: str) -> str:
        query = parse_qs(urlsplit(path).query).get("q", [""])[0]
        hits = [
            {"url": url, "title": f"{query} 内部", "content": f"{query} 增值税"}
            for url in internal_forms(internal_port)
        ]
        return json.dumps({"query": query, "results": hits}, ensure_ascii=False)

    return RecordingServer("127.0.0.1", {"/search": (200, {}, answer)})


def _stored_urls(database_url: str) -> set[str]:
    engine = create_engine(database_url)
    with Session(engine) as session:
        urls = set(session.scalars(select(Page.url)))
    engine.dispose()
    return urls


@deferred_f_from_coro_f
async def test_internal_server_receives_nothing(internal, tmp_path, sqlite_url, caplog):
    with hostile_site(internal.port) as site, searxng(internal.port) as engine:
        domains = ", ".join(
            f'"{urlsplit(u).hostname}"' for u in internal_forms(internal.port)
        )  # the user allowed these names: the crawl follows links there, the guard still says no
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(
            "[[authority]]\n"
            'name = "site"\n'
            f'start_urls = ["{site.url}/"]\n'
            f'allowed_domains = ["127.0.0.1", {domains}]\n'
            "depth_limit = 2\n"
            "[search]\n"
            'engines = ["local"]\n'
            "[engines.local]\n"
            'type = "searxng"\n'
            f'url = "{engine.url}/search"\n',
            encoding="utf-8",
        )
        with caplog.at_level(logging.WARNING, logger="topiccrawler.middlewares.address_guard"):
            crawler = await crawl(
                {"DATABASE_URL": sqlite_url, "SEARCH_MAX_QUERIES": 2, "RELEVANCE_ENABLED": False},
                topic="tax",
                seeds=str(seeds),
            )

    assert internal.requests == []
    assert engine.requests and all(p.startswith("/search") for p in engine.requests)
    stored = _stored_urls(sqlite_url)
    assert f"{site.url}/" in stored and f"{site.url}/article.html" in stored
    assert not [url for url in stored if "secret" in url or "127.0.0.2" in url]

    stats = crawler.stats.get_stats()
    # 8 links (the same URLs as the hits: fetched once at most), the redirect, the meta refresh
    assert stats["topiccrawler/guard/refused"] >= 8 + 2
    assert stats["topiccrawler/guard/refused"] == stats["topiccrawler/guard/refused/loopback"]
    assert not stats.get("topiccrawler/fetch/failed")  # refusals are no dead links
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    refused = [m for m in warnings if m.startswith("Refused ")]
    # once per host: every IPv4 spelling is 127.0.0.2; the IPv4-mapped form is an IPv6 host
    assert len(refused) == 2
    assert any("ALLOWED_ADDRESSES" in m and "loopback" in m for m in refused)
    assert any(m.startswith("Address guard: refused") for m in warnings)


@deferred_f_from_coro_f
async def test_allowed_addresses_reach_an_intranet_server(internal, tmp_path, sqlite_url):
    with hostile_site(internal.port) as site:
        seeds = tmp_path / "seeds.toml"
        domains = ", ".join(f'"{urlsplit(u).hostname}"' for u in internal_forms(internal.port))
        seeds.write_text(
            "[[authority]]\n"
            'name = "intranet"\n'
            f'start_urls = ["{site.url}/"]\n'
            f'allowed_domains = ["127.0.0.1", {domains}]\n'
            "depth_limit = 1\n",
            encoding="utf-8",
        )
        crawler = await crawl(
            {
                "DATABASE_URL": sqlite_url,
                "RELEVANCE_ENABLED": False,
                "ALLOWED_ADDRESSES": [f"{INTERNAL_HOST}:{internal.port}"],
            },
            topic="tax",
            seeds=str(seeds),
        )
    # every spelling of the allowed address and port is reachable: an intranet crawl
    assert {p for p in internal.requests if p.startswith("/secret/")} >= {
        urlsplit(u).path for u in internal_forms(internal.port)
    }
    assert not crawler.stats.get_value("topiccrawler/guard/refused")


@deferred_f_from_coro_f
async def test_metadata_endpoints_are_refused_whatever_is_allowed():
    crawler = make_crawler({"ALLOWED_ADDRESSES": ["169.254.0.0/16", "0.0.0.0/0"]})
    guard = AddressGuardMiddleware(crawler, AllowList.parse(["169.254.0.0/16", "0.0.0.0/0"]))
    guard.trust(["http://169.254.169.254/latest/"])
    for url in (
        "http://169.254.169.254/latest/meta-data/",
        "http://[::ffff:169.254.169.254]/",
        "http://0xa9fea9fe/",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://[fd00:ec2::254]/",
        "http://100.100.100.200/latest/meta-data/",
    ):
        host, why = await guard.check(url)
        assert why is not None and why.always and why.kind == "cloud_metadata", url


@deferred_f_from_coro_f
async def test_a_configured_proxy_on_an_internal_name_is_the_users_choice(
    site, seeds_file, sqlite_url
):
    from tests.servers import LoopbackProxy

    with LoopbackProxy() as proxy:
        crawler = await crawl(
            {"DATABASE_URL": sqlite_url, "PROXIES": [proxy.url.replace("127.0.0.1", "localhost")],
             "REVISIT_ENABLED": False},
            topic="tax", seeds=str(seeds_file(depth_limit=1)),
        )  # fmt: skip
    assert proxy.served > 0  # localhost resolves to loopback: trusted as a configured proxy
    assert crawler.stats.get_value("topiccrawler/storage/pages")
    assert not crawler.stats.get_value("topiccrawler/guard/refused")


@deferred_f_from_coro_f
async def test_a_refusal_at_connection_time_is_no_dead_link(
    site, seeds_file, sqlite_url, monkeypatch
):
    """A name this middleware never checked that resolves to loopback when connecting (here a
    proxy, with the hook that trusts configured proxies switched off): refused, counted, and
    not recorded as a dead link."""
    from twisted.internet import reactor

    from tests.servers import LoopbackProxy
    from topiccrawler.guard.resolver import GuardedResolver
    from topiccrawler.storage.models import DeadLink

    monkeypatch.setattr(
        AddressGuardMiddleware, "request_reached_downloader", lambda *args, **kwargs: None
    )
    guarded = GuardedResolver.install(reactor)
    monkeypatch.setattr(guarded, "trusted_names", set())
    with LoopbackProxy() as proxy:
        crawler = await crawl(
            {"DATABASE_URL": sqlite_url, "PROXIES": [proxy.url.replace("127.0.0.1", "localhost")],
             "REVISIT_ENABLED": False, "PROXY_RETRY_TIMES": 0},
            topic="tax", seeds=str(seeds_file(depth_limit=1)),
        )  # fmt: skip
    assert proxy.served == 0
    stats = crawler.stats.get_stats()
    assert stats["topiccrawler/guard/refused/loopback"] >= 1
    assert not stats.get("topiccrawler/fetch/failed")
    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        assert session.scalars(select(DeadLink)).first() is None
    engine.dispose()
