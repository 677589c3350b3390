"""Serve the sandbox web on 127.0.0.1: one server for every host, chosen by the Host header.

Server behaviours a crawler must cope with ("gates" on resources):
- strict: a browser-less User-Agent gets a captcha page; requests to the host closer together
  than `strict_interval` seconds get 429 with Retry-After; with `strict_ban_after` N, the N-th
  too-fast request gets the client banned: 403 to everything for `strict_ban_seconds` (a day by
  default), as sites that ban aggressive clients do (0: banned from the first request, for good);
- login: the page needs the session cookie that a POST to /login with the sandbox's
  credentials sets; without it, a redirect to /login;
- slow: the answer comes after `slow_seconds` (a timeout for any sane crawler); a resource's
  own `delay` makes every answer of a slow site late by that much;
- the search hosts may be told to start answering with a captcha after N queries.

Every HTML page, feed and sitemap has an ETag (its body's hash) and a Last-Modified, and
answers 304 to a request that names its current ETag. The server has a clock: `advance(days)`
serves the pages the web changes by then (a forum thread that got replies, feeds and sitemaps
that list new articles) in place of the old ones.
"""

from __future__ import annotations

import gzip
import hashlib
import logging
import secrets
import threading
import time
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from topiccrawler.sandbox.render import captcha_page, login_page
from topiccrawler.sandbox.resources import PORT_MARK, SandboxWeb
from topiccrawler.sandbox.search import SearchIndex, bing_html, searxng_json
from topiccrawler.sandbox.web import (
    BING,
    MEMBER_PASSWORD,
    MEMBER_USER,
    MEMBERS,
    SEARXNG,
)

logger = logging.getLogger(__name__)

SESSION_COOKIE = "member_session"
SANDBOX_EPOCH = datetime(2026, 3, 1, tzinfo=UTC)  # Last-Modified of every page on day 0
BOT_MARKERS = ("bot", "spider", "crawl", "scrapy", "python", "curl", "wget", "topiccrawler")
# Pages, feeds and sitemaps carry validators (ETag, Last-Modified) and answer 304 to them.
VALIDATED_TYPES = (
    "text/html",
    "application/rss+xml",
    "application/atom+xml",
    "application/xml",
    "application/x-gzip",
)
NOT_FOUND = b"<html><head><meta charset='utf-8'><title>404</title></head><body><h1>404 Not Found</h1></body></html>"


class SandboxServer:
    """A threaded HTTP server for `web`; use as a context manager or start()/stop()."""

    def __init__(
        self,
        web: SandboxWeb,
        port: int = 0,
        slow_seconds: float = 20.0,
        strict_interval: float = 0.3,
        search_captcha_after: int | None = None,
        strict_ban_after: int | None = None,
        strict_ban_seconds: float = 86400.0,
        record_fetches: bool = True,
    ):
        self.web = web
        self.index = SearchIndex(web)
        self.slow_seconds = slow_seconds
        self.strict_interval = strict_interval
        self.search_captcha_after = search_captcha_after
        self.search_queries = 0
        self.sessions: set[str] = set()
        self.strict_last: dict[str, float] = {}  # host -> time of its last request
        self.strict_ban_after = strict_ban_after
        self.strict_ban_seconds = strict_ban_seconds
        self.strict_too_fast = 0  # requests closer together than strict_interval, so far
        self.banned_until: float | None = None
        self.bans = 0  # times the client was banned
        self.lock = threading.Lock()
        self.requests = 0
        # (method, host, path, status) served; a long crawl (the huge web) turns it off, so that
        # the server's memory stays flat, and reads `requests` and `statuses` instead.
        self.record_fetches = record_fetches
        self.fetches: list[tuple[str, str, str, int]] = []
        self.statuses: dict[int, int] = {}  # answers by status code
        self.day = 0  # the server's clock: `advance` moves it and applies the web's changes
        self.not_modified = 0  # 304 answers given to pages
        self.sources_not_modified = 0  # ... and to feeds and sitemaps
        self.server = _QuietServer(("127.0.0.1", port), _handler(self))
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, name="sandbox", daemon=True
        )

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    @property
    def hosts(self) -> list[str]:
        return sorted(self.web.site_names)

    def url(self, host: str, path: str = "/") -> str:
        return f"http://{host}:{self.port}{path}"

    def start(self) -> SandboxServer:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def advance(self, days: int = 1) -> None:
        """Move the server's clock: pages the web changes by then are served changed (a thread
        that got replies), with a new ETag and Last-Modified."""
        with self.lock:
            for day in range(self.day + 1, self.day + days + 1):
                self.web.resources.update(self.web.changes.get(day, {}))
            self.day += days

    def last_modified(self) -> str:
        return format_datetime(SANDBOX_EPOCH + timedelta(days=self.day), usegmt=True)

    # --- answering ------------------------------------------------------------------------------

    def answer(self, method: str, host: str, target: str, headers, form: dict | None = None):
        """(status, headers, body) for one request."""
        with self.lock:
            self.requests += 1
        parts = urlsplit(target)
        path = parts.path + (
            f"?{parts.query}" if parts.query and host not in (SEARXNG, BING) else ""
        )
        query = parse_qs(parts.query)
        if host in (SEARXNG, BING) and parts.path == "/search":
            return self.search(host, query)
        if host == MEMBERS and parts.path == "/login" and method == "POST":
            return self.login(form or {})
        resource = self.web.resources.get((host, path))
        if resource is None or method not in ("GET", "HEAD"):
            return 404, {"Content-Type": "text/html; charset=utf-8"}, NOT_FOUND
        if resource.gate == "strict":
            blocked = self.strict(host, headers)
            if blocked:
                return blocked
        if resource.gate == "login" and not self.logged_in(headers):
            return 302, {"Location": "/login"}, b""
        if resource.gate == "slow":
            time.sleep(self.slow_seconds)
        if resource.delay:
            time.sleep(resource.delay)
        reply = {"Content-Type": resource.content_type}
        if resource.status == 200 and resource.content_type in VALIDATED_TYPES:
            # Conditional GET: the body's hash is its ETag; a client that has it gets a 304.
            etag = f'"{hashlib.sha1(resource.body).hexdigest()[:16]}"'
            reply.update({"ETag": etag, "Last-Modified": self.last_modified()})
            if headers.get("If-None-Match") == etag:
                with self.lock:
                    if resource.content_type == "text/html":
                        self.not_modified += 1
                    else:
                        self.sources_not_modified += 1
                return 304, {"ETag": etag}, b""
        return resource.status, reply, resource.body

    def strict(self, host: str, headers):
        agent = (headers.get("User-Agent") or "").lower()
        if not agent.startswith("mozilla/") or any(m in agent for m in BOT_MARKERS):
            return 200, {"Content-Type": "text/html; charset=utf-8"}, captcha_page().encode()
        with self.lock:
            now = time.monotonic()
            too_fast = now - self.strict_last.get(host, 0.0) < self.strict_interval
            self.strict_last[host] = now
            self.strict_too_fast += too_fast
            limit = self.strict_ban_after
            if self.banned_until is None and limit is not None and self.strict_too_fast >= limit:
                self.banned_until = now + self.strict_ban_seconds
                self.bans += 1
            banned = self.banned_until is not None and now < self.banned_until
        if banned:
            return 403, {"Content-Type": "text/plain"}, b"Forbidden: this client is banned"
        if too_fast:
            return 429, {"Content-Type": "text/plain", "Retry-After": "2"}, b"Too Many Requests"
        return None

    def logged_in(self, headers) -> bool:
        cookies = headers.get_all("Cookie") or []
        for header in cookies:
            for part in header.split(";"):
                name, _, value = part.strip().partition("=")
                if name == SESSION_COOKIE and value in self.sessions:
                    return True
        return False

    def login(self, form: dict):
        if form.get("username") == MEMBER_USER and form.get("password") == MEMBER_PASSWORD:
            token = secrets.token_hex(16)
            with self.lock:
                self.sessions.add(token)
            return (
                302,
                {"Location": "/", "Set-Cookie": f"{SESSION_COOKIE}={token}; Path=/; HttpOnly"},
                b"",
            )
        page = login_page(self.web.site_names[MEMBERS]).replace(
            "<form", "<p class='error'>用户名或密码错误</p><form"
        )
        return 200, {"Content-Type": "text/html; charset=utf-8"}, page.encode()

    def search(self, host: str, query: dict):
        with self.lock:
            self.search_queries += 1
            captcha = (
                self.search_captcha_after is not None
                and self.search_queries > self.search_captcha_after
            )
        if captcha:
            return 200, {"Content-Type": "text/html; charset=utf-8"}, captcha_page().encode()
        q = (query.get("q") or [""])[0]
        if host == SEARXNG:
            if (query.get("format") or [""])[0] != "json":
                return 403, {"Content-Type": "text/plain"}, b"format not allowed"
            page = int((query.get("pageno") or ["1"])[0] or 1)
            return 200, {"Content-Type": "application/json"}, searxng_json(self.index, q, page)
        first = int((query.get("first") or ["1"])[0] or 1)
        return 200, {"Content-Type": "text/html; charset=utf-8"}, bing_html(self.index, q, first)


class _QuietServer(ThreadingHTTPServer):
    """A client that hangs up (a crawler's timeout) is normal here, not an error to print."""

    def handle_error(self, request, client_address) -> None:
        import sys

        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _with_port(body: bytes, port: int) -> bytes:
    """The body with the server's port in place of the mark (inside a gzipped file too)."""
    mark, value = PORT_MARK.encode(), str(port).encode()
    if body.startswith(b"\x1f\x8b"):
        text = gzip.decompress(body)
        return gzip.compress(text.replace(mark, value), mtime=0) if mark in text else body
    return body.replace(mark, value)


def _handler(sandbox: SandboxServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _respond(self, method: str, form: dict | None = None) -> None:
            host = (self.headers.get("Host") or "").split(":", 1)[0].lower()
            try:
                status, headers, body = sandbox.answer(method, host, self.path, self.headers, form)
            except Exception:  # a sandbox bug must not look like a network failure
                logger.exception("sandbox failed on %s%s", host, self.path)
                status, headers, body = 500, {"Content-Type": "text/plain"}, b"sandbox error"
            body = _with_port(body, sandbox.port)
            with sandbox.lock:
                sandbox.statuses[status] = sandbox.statuses.get(status, 0) + 1
                if sandbox.record_fetches:
                    sandbox.fetches.append((method, host, self.path, status))
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if method != "HEAD":
                self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802
            self._respond("GET")

        def do_HEAD(self) -> None:  # noqa: N802
            self._respond("HEAD")

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode("utf-8", errors="replace") if length else ""
            form = {k: v[0] for k, v in parse_qs(raw).items()}
            self._respond("POST", form)

        def log_message(self, *args) -> None:
            pass

    return Handler
