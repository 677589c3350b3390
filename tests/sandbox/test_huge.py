"""The huge sandbox web: pages rendered on request are the same for a seed in any order, what
is served is what the truth describes, and the server keeps no page."""

from __future__ import annotations

import http.client
import random

import pytest

from topiccrawler.sandbox.huge import HugeWeb
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.web import build_web

BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36"


@pytest.fixture(scope="module")
def web() -> HugeWeb:
    return build_web(1, "huge")


def sample_pages(web: HugeWeb, count: int, seed: int = 3) -> list[tuple[str, str]]:
    """Pages of every kind of site: a few paths from each of a spread of hosts (not the slow and
    strict portals, whose gates the server tests cover)."""
    rng = random.Random(seed)
    portals = [h for h in web.news if h not in web.slow | web.strict]
    hosts = [*portals[:8], *web.forums[:4], *web.reposters[:2]]
    pages = []
    for host in hosts:
        paths = list(web.paths(host))
        pages += [(host, path) for path in rng.sample(paths, min(len(paths), count))]
    return pages


def test_the_web_is_large_and_of_every_kind(web):
    assert web.page_count() >= 150_000
    kinds = {web.render(*key).truth.kind for key in sample_pages(web, 20) if key[1] != "/rss.xml"}
    kinds.add(web.render(web.forums[0], "/forum-1-1.html").truth.kind)
    assert {"list", "article", "thread", "thread-list"} <= kinds
    assert any(len(p.truth.posts) == 10 for p in _threads(web))  # long threads run over pages
    assert web.slow and web.strict


def test_pages_are_deterministic_per_seed_in_any_order(web):
    pages = sample_pages(web, 6)
    first = {key: web.render(*key).body for key in pages}
    again = HugeWeb(1)
    for key in reversed(pages):  # another web object, the other way round
        assert again.render(*key).body == first[key], key
    other = HugeWeb(2)
    differing = sum(getattr(other.render(*key), "body", None) != first[key] for key in pages)
    assert differing > len(pages) // 2


def test_what_is_served_is_what_the_truth_says(web):
    with SandboxServer(web, record_fetches=False) as server:
        for host, path in sample_pages(web, 3):
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            connection.request("GET", path, headers={"Host": host, "User-Agent": BROWSER})
            response = connection.getresponse()
            served = response.read()
            resource = web.render(host, path)
            assert response.status == 200, (host, path)
            assert served == resource.body.replace(b"__PORT__", str(server.port).encode())
            truth = resource.truth
            if truth is None:
                continue
            page = served.decode("utf-8")
            if truth.title:
                assert truth.title.replace("&", "&amp;") in page
            for record in truth.comments + truth.posts:
                assert record.author in page and record.time in page
            url = f"http://{host}:{server.port}{path}"
            assert web.is_relevant(url) == truth.relevant, url
        assert server.fetches == []  # a long crawl leaves nothing behind in the server


def test_unknown_pages_are_dead_links(web):
    assert web.render(web.news[0], f"/a/{10**6}.html") is None
    assert web.render(web.forums[0], "/thread-9999-1-1.html") is None
    assert web.render("gone1.huge.test", "/a/1.html") is None


def _threads(web):
    host = web.forums[0]
    for path in web.paths(host):
        if path.startswith("/thread-") and not path.endswith("-1-1.html"):
            yield web.render(host, path)
            return
