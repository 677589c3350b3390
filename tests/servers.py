"""Loopback HTTP servers for tests: saved fixture pages plus a few generated routes."""

from __future__ import annotations

import mimetypes
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

FIXTURES = Path(__file__).parent / "fixtures"


class LoopbackServer:
    """A ThreadingHTTPServer on 127.0.0.1 (port chosen by the OS), served from a background
    thread while used as a context manager."""

    def serve(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    @staticmethod
    def reply(handler: BaseHTTPRequestHandler, status: int, headers: dict, body: bytes) -> None:
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()


class FixtureSite(LoopbackServer):
    """Serves `fixtures/site` on 127.0.0.1 (port chosen by the OS) from a background thread.

    Generated routes: `/deep/N.html` links to N+1 (for depth limits) and `/slow/N.html` answers
    after `slow_delay` seconds and links to N+1 (for interrupting a crawl mid-way);
    `/download` serves a PDF under a URL without an extension.
    Every request path is counted in `hits`.
    """

    def __init__(self, root: Path = FIXTURES / "site", slow_delay: float = 0.2):
        self.root = root
        self.slow_delay = slow_delay
        self.hits: Counter[str] = Counter()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                path = self.path.split("?", 1)[0]
                site.hits[path] += 1
                status, content_type, body = site.respond(path)
                site.reply(self, status, {"Content-Type": content_type}, body)

            def log_message(self, *args) -> None:
                pass

        self.serve(Handler)

    def respond(self, path: str) -> tuple[int, str, bytes]:
        for prefix, delay in (("/deep/", 0.0), ("/slow/", self.slow_delay)):
            if path.startswith(prefix) and path.endswith(".html"):
                number = int(path[len(prefix) : -len(".html")] or 0)
                time.sleep(delay)
                page = (
                    f'<html><head><meta charset="utf-8"><title>公告 {number}</title></head>'
                    f"<body><p>第 {number} 号公告：纳税申报提醒。</p>"
                    f'<a href="{prefix}{number + 1}.html">下一篇</a></body></html>'
                )
                return 200, "text/html; charset=utf-8", page.encode("utf-8")
        if path == "/download":  # a document behind a URL without a file extension
            return 200, "application/pdf", (self.root / "files/annual-report.pdf").read_bytes()
        file = (self.root / path.lstrip("/")).resolve()
        if path.endswith("/"):
            file = file / "index.html"
        if not file.is_relative_to(self.root.resolve()) or not file.is_file():
            return 404, "text/html", b"<html><body><h1>404 Not Found</h1></body></html>"
        content_type = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        return 200, content_type, file.read_bytes()


class HostileSite(LoopbackServer):
    """Pages that old and broken servers send, linked from `/index.html`: NUL bytes and control
    characters, an XML declaration left open, 10,000 levels of nesting, and a page with no
    element at all. `PAGES` maps each path to its bytes."""

    PAGES = {
        "/nul.html": "<html><head><title>增值税\x00公告</title></head>"
        "<body><p>纳税\x01申报\x00提醒：本月十五日前完成\x0b申报。</p></body></html>",
        "/xml.html": '<?xml version="1.0" encoding="ilashack, <html><head><title>个税公告</title>'
        "</head><body><p>个人所得税汇算清缴开始。</p></body></html>",
        "/deep.html": "<html><head><title>深层公告</title></head><body>"
        + "<div>" * 10_000
        + "<p>深层嵌套的公告正文。</p>"
        + "</div>" * 10_000
        + "</body></html>",
        "/empty.html": "<!-- this page was moved -->",
    }

    def __init__(self):
        site = self
        links = "".join(f'<a href="{path}">{path}</a> ' for path in self.PAGES)
        self.bodies = {
            path: html.encode("utf-8")
            for path, html in {
                **self.PAGES,
                "/index.html": f"<html><head><title>公告</title></head><body>{links}</body></html>",
            }.items()
        }

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
                body = site.bodies.get(self.path)
                status = 200 if body is not None else 404
                site.reply(self, status, {"Content-Type": "text/html; charset=utf-8"}, body or b"")

            def log_message(self, *args) -> None:
                pass

        self.serve(Handler)


class LoopbackProxy(LoopbackServer):
    """A forward HTTP proxy on 127.0.0.1 for plain-http URLs: it fetches what it is asked for
    and relays the answer. Counts the requests it served and the Proxy-Authorization it saw."""

    def __init__(self):
        self.served = 0
        self.authorizations: list[str] = []
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                import urllib.error
                import urllib.request

                proxy.served += 1
                if self.headers.get("Proxy-Authorization"):
                    proxy.authorizations.append(self.headers["Proxy-Authorization"])
                forwarded = {
                    k: v
                    for k, v in self.headers.items()
                    if k.lower() not in ("proxy-authorization", "proxy-connection", "host")
                }
                request = urllib.request.Request(self.path, headers=forwarded)
                opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
                try:
                    with opener.open(request, timeout=10) as answer:
                        status, headers, body = answer.status, answer.headers, answer.read()
                except urllib.error.HTTPError as error:
                    status, headers, body = error.code, error.headers, error.read()
                relayed = {
                    n: headers[n]
                    for n in ("Content-Type", "Location", "Retry-After")
                    if headers.get(n)
                }
                proxy.reply(self, status, relayed, body)

            def log_message(self, *args) -> None:
                pass

        self.serve(Handler)


def closed_port() -> int:
    """A loopback port nothing listens on: a proxy there refuses every connection."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
