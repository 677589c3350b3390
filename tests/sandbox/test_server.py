"""The sandbox server over real HTTP on loopback: hosts, gates, search engines, the CLI."""

from __future__ import annotations

import http.client
import json
import subprocess
import sys
import time
from urllib.parse import quote, urlencode

import pytest

from tests.conftest import ROOT
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.web import BING, MEMBERS, SEARXNG, STRICT, TAX_BUREAU, build_web

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36"


@pytest.fixture(scope="module")
def server():
    with SandboxServer(build_web(1, "small"), strict_interval=0.5) as running:
        yield running


def get(server, host, path, method="GET", body=None, **headers):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    headers = {"Host": f"{host}:{server.port}", "User-Agent": BROWSER, **headers}
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response, data


def test_hosts_are_told_apart_and_links_carry_the_port(server):
    response, body = get(server, TAX_BUREAU, "/")
    assert response.status == 200 and "国家税务总局（沙盒）".encode() in body
    repost_host, repost_path = next(
        (h, p)
        for h, p, t in server.web.pages_with_truth()
        if t.duplicate_of and h == "www.dongfang-finance.test"
    )
    _, repost = get(server, repost_host, repost_path)
    original_host, original_path = server.web.resources[
        (repost_host, repost_path)
    ].truth.duplicate_of
    assert f'href="http://{original_host}:{server.port}{original_path}"'.encode() in repost
    assert b"__PORT__" not in repost
    response, _ = get(server, "unknown.test", "/")
    assert response.status == 404


def test_strict_site_bans_bots_and_rate_limits(server):
    _, body = get(server, STRICT, "/a/1.html", **{"User-Agent": "topiccrawler/0.1.0"})
    assert "安全验证".encode() in body
    time.sleep(0.6)
    first, _ = get(server, STRICT, "/a/1.html")
    second, _ = get(server, STRICT, "/a/2.html")
    assert first.status == 200 and second.status == 429
    assert second.getheader("Retry-After") == "2"


def test_members_pages_need_a_login(server):
    response, _ = get(server, MEMBERS, "/vip/1.html")
    assert response.status == 302 and response.getheader("Location") == "/login"
    form = urlencode({"username": "demo", "password": "wrong"})
    response, body = get(
        server,
        MEMBERS,
        "/login",
        "POST",
        form,
        **{"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status == 200 and "密码错误".encode() in body
    form = urlencode({"username": "demo", "password": "sandbox-password"})
    response, _ = get(
        server,
        MEMBERS,
        "/login",
        "POST",
        form,
        **{"Content-Type": "application/x-www-form-urlencoded"},
    )
    cookie = response.getheader("Set-Cookie").split(";")[0]
    response, body = get(server, MEMBERS, "/vip/1.html", Cookie=cookie)
    assert response.status == 200 and b"<h1" in body


def test_searxng_api_with_site_restriction_and_pages(server):
    query = quote("增值税")
    _, body = get(server, SEARXNG, f"/search?q={query}&format=json&pageno=1")
    answer = json.loads(body)
    assert answer["number_of_results"] > 10 and len(answer["results"]) == 10
    assert all(f":{server.port}/" in r["url"] for r in answer["results"])
    _, body = get(server, SEARXNG, f"/search?q={query}&format=json&pageno=2")
    assert {r["url"] for r in json.loads(body)["results"]}.isdisjoint(
        r["url"] for r in answer["results"]
    )
    _, body = get(server, SEARXNG, f"/search?q={quote('增值税 site:huaxia-news.test')}&format=json")
    assert all("huaxia-news.test" in r["url"] for r in json.loads(body)["results"])
    response, _ = get(server, SEARXNG, f"/search?q={query}")
    assert response.status == 403  # SearXNG refuses formats it was not configured for


def test_bing_like_page_parses_with_the_bing_engine(server):
    from topiccrawler.seeding.bing import BingEngine

    _, body = get(server, BING, f"/search?q={quote('纳税申报')}&first=1")
    hits = BingEngine("b").parse(body.decode(), f"http://{BING}:{server.port}/search", 1)
    assert len(hits) == 10 and hits[0].rank == 1 and b"sb_pagN" in body


def test_search_captcha_after_n_queries():
    with SandboxServer(build_web(1, "small"), search_captcha_after=2) as running:
        bodies = [get(running, SEARXNG, "/search?q=%E7%A8%8E&format=json")[1] for _ in range(3)]
    assert bodies[0].startswith(b"{") and bodies[1].startswith(b"{")
    assert "安全验证".encode() in bodies[2]


def test_cli_serve_prints_ready_line(tmp_path):
    seeds = tmp_path / "seeds.toml"
    process = subprocess.Popen(
        [sys.executable, "-m", "topiccrawler.cli", "sandbox", "serve", "--port", "0", "--seeds-out", str(seeds)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        line = process.stdout.readline()
        assert line.startswith("SANDBOX READY http://127.0.0.1:")
        assert "www.taxbureau.test" in process.stdout.readline()
        assert "[engines.sandbox-searxng]" in seeds.read_text(encoding="utf-8")
    finally:
        process.terminate()
        process.wait(timeout=10)
