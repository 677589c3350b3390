"""The proxy pool (with a crawl through loopback proxies, one of them dead), cookie files, and
what a seed file may say about logins."""

from __future__ import annotations

import pytest
from scrapy.utils.defer import deferred_f_from_coro_f
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from tests.crawl import crawl
from tests.servers import LoopbackProxy, closed_port
from topiccrawler.antiban.proxies import ProxyFileError, ProxyPool, load_proxy_file, masked
from topiccrawler.middlewares.sessions import CookieFileError, load_cookies
from topiccrawler.storage.models import Page
from topiccrawler.topics.files import TopicFileError, load_seed_file


def test_pool_turns_benches_with_growing_backoff_and_forgives():
    pool = ProxyPool(["http://a:1", "http://b:2", "http://c:3"], backoff=10, max_backoff=35)
    chosen = [pool.choose(0).url for _ in range(6)]
    assert set(chosen) == {"http://a:1", "http://b:2", "http://c:3"}
    a = pool.by_url("http://a:1")
    assert pool.failure(a, 0) == 10 and pool.failure(a, 0) == 20 and pool.failure(a, 0) == 35
    assert "http://a:1" not in {pool.choose(30).url for _ in range(6)}  # benched until 35
    assert pool.choose(36, avoid="http://b:2").url != "http://b:2"
    pool.success(a)
    assert a.backoff == 0 and a.ok == 1 and a.benched == 3
    for proxy in pool.proxies:
        pool.failure(proxy, 100)
    assert pool.choose(101) is min(pool.proxies, key=lambda p: p.benched_until)  # all benched


def test_proxy_files_and_masking(tmp_path):
    assert masked("http://user:secret@10.0.0.1:3128") == "http://10.0.0.1:3128"
    path = tmp_path / "proxies.txt"
    path.write_text(
        "# pool\nhttp://10.0.0.1:3128\n\nhttp://u:p@10.0.0.2:8080  # second\n", encoding="utf-8"
    )
    assert load_proxy_file(path) == ["http://10.0.0.1:3128", "http://u:p@10.0.0.2:8080"]
    path.write_text("http://10.0.0.1:3128\nftp://u:secret@10.0.0.3:21\n", encoding="utf-8")
    with pytest.raises(
        ProxyFileError, match=r"proxies.txt:2: 'ftp://10.0.0.3:21' is not a proxy URL"
    ) as error:
        load_proxy_file(path)
    assert "secret" not in str(error.value)
    path.write_text("socks5://10.0.0.4:1080\n", encoding="utf-8")
    with pytest.raises(ProxyFileError, match="http bridge"):
        load_proxy_file(path)


@deferred_f_from_coro_f
async def test_a_crawl_finishes_through_the_live_proxies(site, seeds_file, sqlite_url):
    dead = f"http://127.0.0.1:{closed_port()}"
    with LoopbackProxy() as first, LoopbackProxy() as second:
        with_password = first.url.replace("http://", "http://crawler:s3cret-pw@")
        crawler = await crawl(
            {"DATABASE_URL": sqlite_url, "PROXIES": [with_password, second.url, dead],
             "PROXY_BACKOFF": 30, "RETRY_TIMES": 1},
            topic="tax", seeds=str(seeds_file()),
        )  # fmt: skip
    stats = crawler.stats.get_stats()
    assert first.served and second.served
    assert first.authorizations and not second.authorizations  # credentials to their proxy only
    assert stats[f"topiccrawler/proxy/{dead}/benched"] >= 1
    assert f"topiccrawler/proxy/{dead}/ok" not in stats
    assert (
        stats[f"topiccrawler/proxy/{first.url}/ok"] + stats[f"topiccrawler/proxy/{second.url}/ok"]
        >= 4
    )
    engine = create_engine(sqlite_url)
    with Session(engine) as session:
        urls = {p.url.rsplit("/", 1)[1] for p in session.scalars(select(Page))}
    engine.dispose()
    assert {"vat-reform.html", "evasion-case.html"} <= urls
    assert "s3cret-pw" not in repr(stats)


def test_cookie_files(tmp_path):
    netscape = tmp_path / "cookies.txt"
    netscape.write_text(
        "# Netscape HTTP Cookie File\n.example.test\tTRUE\t/\tFALSE\t2147483647\tsid\tabc\n",
        encoding="utf-8",
    )
    assert load_cookies(netscape) == [
        {"name": "sid", "value": "abc", "domain": ".example.test", "path": "/"}
    ]
    exported = tmp_path / "cookies.json"
    exported.write_text(
        '[{"name": "sid", "value": "abc", "domain": "example.test"}]', encoding="utf-8"
    )
    assert load_cookies(exported)[0]["domain"] == "example.test"
    exported.write_text('[{"name": "sid",\n "value": }]', encoding="utf-8")
    with pytest.raises(CookieFileError, match=r"cookies.json:2: not valid JSON"):
        load_cookies(exported)
    netscape.write_text("garbage\n", encoding="utf-8")
    with pytest.raises(CookieFileError, match="cookies.txt: not a Netscape cookies.txt"):
        load_cookies(netscape)


SEEDS = """[[authority]]
start_urls = ["http://a.test/"]
download_delay = 2.5
concurrency = 1

[[login]]
login_url = "http://a.test/login"
username_env = "A_USER"
password_env = "A_PASSWORD"
"""


def test_seed_file_logins_and_site_politeness(tmp_path):
    path = tmp_path / "seeds.toml"
    path.write_text(SEEDS, encoding="utf-8")
    seeds = load_seed_file(path)
    assert seeds.authority[0].download_delay == 2.5 and seeds.authority[0].concurrency == 1
    (login,) = seeds.logins
    assert (
        login.site == "a.test"
        and login.username_env == "A_USER"
        and login.password_field == "password"
    )
    path.write_text(SEEDS + 'password = "hunter2"\n', encoding="utf-8")
    with pytest.raises(
        TopicFileError, match=r"seeds.toml:\d+: .*credentials do not belong in a seed file"
    ):
        load_seed_file(path)
    path.write_text(SEEDS.replace('password_env = "A_PASSWORD"\n', ""), encoding="utf-8")
    with pytest.raises(
        TopicFileError, match="needs username_env and password_env, or credentials_file"
    ):
        load_seed_file(path)


@deferred_f_from_coro_f
async def test_a_sites_own_delay_and_concurrency_from_the_seed_file(site, tmp_path, sqlite_url):
    seeds = tmp_path / "seeds.toml"
    seeds.write_text(
        f'[[authority]]\nname = "fixture"\nstart_urls = ["{site.url}/index.html"]\n'
        "download_delay = 0.01\nconcurrency = 1\n",
        encoding="utf-8",
    )
    crawler = await crawl({"DATABASE_URL": sqlite_url}, topic="tax", seeds=str(seeds))
    assert crawler.engine.downloader.per_slot_settings["authority:fixture"] == {
        "delay": 0.01,
        "concurrency": 1,
    }
    assert crawler.stats.get_value("topiccrawler/storage/pages", 0) >= 3
