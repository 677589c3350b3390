"""Secrets never leave the crawl: after a sandbox crawl with a login password (from the login
environment), a proxy with user and password (a -s setting) and an imported cookie, none of them
is in the log file, any text column of any table, the feed, or the crawl run's stats."""

from __future__ import annotations

import http.client
import json
import os
import subprocess
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

from sqlalchemy import create_engine, inspect, select
from sqlalchemy.orm import Session

from tests.conftest import ROOT
from tests.servers import LoopbackServer
from topiccrawler.sandbox.demo import (
    crawl_command,
    sandbox_crawl_settings,
    sandbox_login_env,
    sandbox_seed_file,
)
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.web import MEMBER_PASSWORD, MEMBERS, build_web
from topiccrawler.storage.models import Base, CrawlRun

PROXY_USER, PROXY_PASSWORD = "crawler", "proxy-pass-7Qz"
COOKIE_VALUE = "cookie-secret-4Kd"
TELNET_PASSWORD = "telnet-secret-9Xw"  # a Scrapy setting: "Overridden settings" would log it


class SandboxProxy(LoopbackServer):
    """A forward proxy that wants a user and password and reaches the sandbox's .test hosts on
    loopback (their names resolve only inside the crawler)."""

    def __init__(self):
        self.served = 0
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            def _relay(self) -> None:
                import base64

                expected = base64.b64encode(f"{PROXY_USER}:{PROXY_PASSWORD}".encode()).decode()
                if self.headers.get("Proxy-Authorization") != f"Basic {expected}":
                    proxy.reply(self, 407, {"Proxy-Authenticate": "Basic"}, b"")
                    return
                proxy.served += 1
                target = urlsplit(self.path)
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else None
                headers = {
                    k: v
                    for k, v in self.headers.items()
                    if k.lower() not in ("proxy-authorization", "proxy-connection", "connection")
                }
                upstream = http.client.HTTPConnection("127.0.0.1", target.port or 80, timeout=10)
                path = target.path + (f"?{target.query}" if target.query else "")
                upstream.request(self.command, path or "/", body=body, headers=headers)
                answer = upstream.getresponse()
                relayed = {
                    name: value
                    for name, value in answer.getheaders()
                    if name.lower() not in ("transfer-encoding", "connection", "content-length")
                }
                proxy.reply(self, answer.status, relayed, answer.read())
                upstream.close()

            do_GET = do_POST = do_HEAD = _relay  # noqa: N815

            def log_message(self, *args) -> None:
                pass

        self.serve(Handler)


def text_columns(url: str) -> list[str]:
    """Every text-like value of every table, JSON columns as their JSON text."""
    engine = create_engine(url)
    values = []
    with Session(engine) as session:
        for table in Base.metadata.sorted_tables:
            if table.name not in inspect(engine).get_table_names():
                continue
            for row in session.execute(select(table)):
                for value in row:
                    if isinstance(value, str):
                        values.append(value)
                    elif isinstance(value, dict | list):
                        values.append(json.dumps(value, ensure_ascii=False, default=str))
    engine.dispose()
    return values


def test_secrets_stay_out_of_logs_database_feeds_and_stats(tmp_path):
    cookies = tmp_path / "cookies.json"
    with SandboxServer(build_web(1, "small"), slow_seconds=4) as server, SandboxProxy() as proxy:
        member_host = MEMBERS
        cookies.write_text(
            json.dumps([{"name": "remember", "value": COOKIE_VALUE, "domain": member_host,
                         "path": "/"}]),
            encoding="utf-8",
        )  # fmt: skip
        seeds = tmp_path / "seeds.toml"
        seeds.write_text(sandbox_seed_file(server), encoding="utf-8")
        url = f"sqlite:///{tmp_path / 'secrets.db'}"
        proxy_port = proxy.server.server_address[1]
        log = tmp_path / "crawl.log"
        feed = tmp_path / "items.jsonl"
        settings = {
            **sandbox_crawl_settings(server),
            "DATABASE_URL": url,
            "DOWNLOAD_DELAY": 0,
            "AUTOTHROTTLE_ENABLED": False,
            "RETRY_TIMES": 0,
            "PROXIES": f"http://{PROXY_USER}:{PROXY_PASSWORD}@127.0.0.1:{proxy_port}",
            "COOKIES_FILE": str(cookies),
            "TELNETCONSOLE_PASSWORD": TELNET_PASSWORD,
            "LOG_FILE": str(log),
            "LOG_LEVEL": "DEBUG",
        }
        command = crawl_command(seeds, settings) + ["-O", str(feed)]
        result = subprocess.run(
            command, cwd=ROOT, capture_output=True, text=True, timeout=300,
            env={**os.environ, **sandbox_login_env()},
        )  # fmt: skip
    text = log.read_text(encoding="utf-8")
    assert result.returncode in (0, 3), text[-3000:]
    assert proxy.served > 20, "the crawl went through the proxy"
    assert "Logged in to" in text and "Imported 1 cookies" in text

    stored = text_columns(url)
    with Session(create_engine(url)) as session:
        stats = json.dumps(session.scalars(select(CrawlRun.stats)).all(), default=str)
    feed_text = feed.read_text(encoding="utf-8")
    for secret in (MEMBER_PASSWORD, PROXY_PASSWORD, COOKIE_VALUE, TELNET_PASSWORD):
        assert secret not in text, f"{secret} in the log"
        assert not [v for v in stored if secret in v], f"{secret} in the database"
        assert secret not in stats, f"{secret} in the crawl run's stats"
        assert secret not in feed_text, f"{secret} in the feed"
        assert secret not in result.stderr + result.stdout
    assert f"Proxy pool: http://127.0.0.1:{proxy_port}" in text  # named without credentials
    assert "'TELNETCONSOLE_PASSWORD': '***'" in text  # the setting is still listed, masked
