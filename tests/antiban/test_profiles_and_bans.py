"""Browser profiles and ban detection, on responses we build."""

from __future__ import annotations

import logging
from collections import deque
from types import SimpleNamespace

import pytest
from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.http import HtmlResponse, Response
from scrapy.utils.test import get_crawler

from tests.crawl import PROJECT_SETTINGS
from topiccrawler.antiban.bans import PageSizes, ban_reason
from topiccrawler.antiban.profiles import BUILTIN_PROFILES, ProfileFileError, load_profiles
from topiccrawler.meta import BAN_RETRIES, ENTRANCE, ROTATE_PROFILE, ROTATE_PROXY, SEARCH_PAGE
from topiccrawler.middlewares.bans import BanMiddleware
from topiccrawler.middlewares.profiles import BrowserProfileMiddleware

CAPTCHA = (
    "<html><body><h2>安全验证</h2><p>请完成下方验证后继续访问</p><img src='/c.jpg'></body></html>"
)


def html(url: str, body: str, status: int = 200, **headers) -> HtmlResponse:
    return HtmlResponse(url, status=status, body=body.encode(), encoding="utf-8", headers=headers)


def test_profiles_are_coherent():
    for profile in BUILTIN_PROFILES:
        agent = profile.user_agent
        assert agent.startswith("Mozilla/5.0") and "bot" not in agent.lower()
        chromium = "Chrome/" in agent and "Safari/537.36" in agent
        assert ("Sec-Ch-Ua" in profile.headers) == chromium, profile.name
        if "Firefox/" in agent:
            assert "Sec-Ch-Ua" not in profile.headers and "image/avif" in profile.headers["Accept"]


def test_a_site_keeps_its_profile_until_a_ban():
    middleware = BrowserProfileMiddleware(BUILTIN_PROFILES, seed=3)
    first = Request("http://a.test/1")
    middleware.process_request(first)
    again = Request("http://a.test/2")
    middleware.process_request(again)
    assert first.headers["User-Agent"] == again.headers["User-Agent"]
    rotated = Request("http://a.test/3", meta={ROTATE_PROFILE: True})
    middleware.process_request(rotated)
    assert rotated.headers["User-Agent"] != first.headers["User-Agent"]
    own = Request("http://a.test/api", headers={"Accept": "application/json"})
    middleware.process_request(own)
    assert own.headers["Accept"] == b"application/json"  # a request's own headers stay


def test_profiles_file(tmp_path):
    path = tmp_path / "profiles.toml"
    path.write_text(
        '[[profile]]\nname = "x"\nuser_agent = "Mozilla/5.0 X"\n[profile.headers]\nAccept = "*/*"\n',
        encoding="utf-8",
    )
    (profile,) = load_profiles(path)
    assert profile.user_agent == "Mozilla/5.0 X" and profile.headers == {"Accept": "*/*"}
    path.write_text("[[profile]]\nuser_agent = 3\n", encoding="utf-8")
    with pytest.raises(ProfileFileError, match="profiles.toml: profile 1: 'user_agent'"):
        load_profiles(path)
    path.write_text("[[profile]\n", encoding="utf-8")
    with pytest.raises(ProfileFileError, match=r"profiles.toml: .*line 1"):
        load_profiles(path)


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (Response("http://a.test/", status=429), "HTTP 429"),
        (Response("http://a.test/", status=403), "HTTP 403"),
        (
            Response("http://a.test/", status=302, headers={"Location": "/captcha?from=/x"}),
            "redirect to a verification page",
        ),
        (html("http://a.test/", CAPTCHA), "captcha page (安全验证)"),
        (
            html("http://a.test/", "<p>Please verify you are human</p>"),
            "captcha page (verify you are human)",
        ),
        (Response("http://a.test/", status=302, headers={"Location": "/news/1.html"}), None),
        (html("http://a.test/", "<p>" + "验证码是网站常用的安全手段。" * 300 + "</p>"), None),
        (html("http://a.test/", "<p>正常的页面</p>"), None),
    ],
)
def test_ban_reasons(response, reason):
    assert ban_reason(response) == reason


def test_short_pages_against_the_sites_usual():
    sizes = PageSizes(minimum_pages=3, share=0.1)
    assert not sizes.suspicious("a.test", 10)  # nothing known yet
    for size in (5000, 6000, 7000):
        sizes.add("a.test", size)
    assert sizes.suspicious("a.test", 400) and not sizes.suspicious("a.test", 900)


class Slot:
    """A download slot's delay and its queue of requests waiting to be sent, as Scrapy's."""

    def __init__(self):
        self.delay = 0.2
        self.queue: deque = deque()


def ban_middleware(**settings) -> tuple[BanMiddleware, Slot]:
    crawler = get_crawler(
        settings_dict={**PROJECT_SETTINGS, "BAN_RETRY_TIMES": 2, "BAN_GIVE_UP": 3, **settings}
    )
    slot = Slot()
    crawler.engine = SimpleNamespace(
        downloader=SimpleNamespace(slots={"a.test": slot}, get_slot_key=lambda r: "a.test")
    )
    crawler.stats.open_spider()
    return BanMiddleware.from_crawler(crawler), slot


def test_a_ban_slows_the_site_and_retries_through_another_profile(caplog):
    middleware, slot = ban_middleware()
    request = Request("http://a.test/1", meta={ENTRANCE: "link"})
    retry = middleware.process_response(request, html(request.url, "", status=429))
    assert isinstance(retry, Request) and retry.dont_filter and retry.meta[BAN_RETRIES] == 1
    assert retry.meta[ROTATE_PROFILE] and retry.meta[ROTATE_PROXY]
    assert slot.delay == 1.0  # doubled, at least BAN_MIN_DELAY
    slot.delay = 0.1  # AutoThrottle lowers it …
    middleware.process_request(Request("http://a.test/2"))
    assert slot.delay == 1.0  # … and the floor puts it back
    again = middleware.process_response(retry, html(request.url, "", status=429))
    assert again.meta[BAN_RETRIES] == 2 and slot.delay == 2.0
    assert caplog.text.count("Blocked by a.test (HTTP 429)") == 1  # said once
    ok = middleware.process_response(again, html(request.url, "<p>正文</p>"))
    assert isinstance(ok, Response) and middleware.in_a_row["a.test"] == 0


def test_one_short_page_is_a_page_and_two_in_a_row_a_ban():
    middleware, slot = ban_middleware()
    usual = "<p>" + "正文" * 500 + "</p>"
    for n in range(10):
        middleware.process_response(
            Request(f"http://a.test/{n}"), html(f"http://a.test/{n}", usual)
        )
    stub = Request("http://a.test/empty")
    assert isinstance(middleware.process_response(stub, html(stub.url, "无")), Response)
    assert slot.delay == 0.2  # a stub page: the site is not slowed down
    middleware.process_response(Request("http://a.test/11"), html("http://a.test/11", usual))
    short = [Request(f"http://a.test/s{n}") for n in range(2)]
    assert isinstance(middleware.process_response(short[0], html(short[0].url, "稍后")), Response)
    retry = middleware.process_response(short[1], html(short[1].url, "稍后"))
    assert isinstance(retry, Request) and slot.delay > 0.2  # short twice in a row: a ban


def test_a_site_that_keeps_blocking_is_left_alone(caplog):
    middleware, _ = ban_middleware()
    request = Request("http://a.test/1", meta={BAN_RETRIES: 2})
    for _ in range(2):
        with pytest.raises(IgnoreRequest, match="not stored"):
            middleware.process_response(request, html(request.url, CAPTCHA))
    with pytest.raises(IgnoreRequest):
        middleware.process_response(request, html(request.url, CAPTCHA))
    assert "Leaving a.test alone for 600 s: 3 bans in a row" in caplog.text
    with pytest.raises(IgnoreRequest, match="cooling down"):
        middleware.process_request(Request("http://a.test/9"))
    middleware.cooling_until["a.test"] = 0  # the cool-down is over
    assert middleware.process_request(Request("http://a.test/9")) is None


def test_search_engine_answers_are_left_to_the_spider():
    middleware, slot = ban_middleware()
    request = Request("http://a.test/search?q=x", meta={SEARCH_PAGE: 1})
    response = html(request.url, CAPTCHA)
    assert middleware.process_response(request, response) is response and slot.delay == 0.2


def test_a_ban_setting_given_under_its_old_block_name_is_still_read(caplog):
    with caplog.at_level(logging.WARNING):
        middleware, _ = ban_middleware(BLOCK_COOLDOWN=5.0)
    assert middleware.cooldown == 5.0
    assert "Setting BLOCK_COOLDOWN is now called BAN_COOLDOWN" in caplog.text
