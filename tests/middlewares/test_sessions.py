"""The session middleware's logins, driven directly: a login step that cannot be fetched."""

from __future__ import annotations

from types import SimpleNamespace

from scrapy import Request
from scrapy.utils.test import get_crawler
from twisted.internet.error import ConnectionDone, TimeoutError

from topiccrawler.meta import ENTRANCE, LOGIN_STEP
from topiccrawler.middlewares.sessions import FAILED, MAX_LOGINS, PENDING, SessionMiddleware
from topiccrawler.topics.model import LoginConfig

LOGIN = LoginConfig("members.example", "http://members.example/login")


def middleware_with_login() -> tuple[SessionMiddleware, list[Request]]:
    crawler = get_crawler()
    released: list[Request] = []
    crawler.engine = SimpleNamespace(crawl=released.append)  # where held requests go again
    middleware = SessionMiddleware(crawler, cookies=[])
    middleware.logins[LOGIN.site] = LOGIN
    return middleware, released


def test_a_login_step_that_cannot_be_fetched_starts_the_login_again_then_gives_up():
    """A dropped connection or a timeout on the login form or its submission starts the login
    again, MAX_LOGINS tries in all, the site's requests held meanwhile; then they are fetched
    without a session (before, they stayed held for the rest of the crawl)."""
    middleware, released = middleware_with_login()
    page = Request("http://members.example/post/1.html", meta={ENTRANCE: "link"})
    form = middleware.process_request(page)
    assert form.meta[LOGIN_STEP] == "form" and middleware.state[LOGIN.site] == PENDING
    submit = Request(LOGIN.login_url, method="POST", meta={LOGIN_STEP: "submit"})
    again = middleware.process_exception(submit, ConnectionDone())
    assert again.url == LOGIN.login_url and again.meta[LOGIN_STEP] == "form"
    for _ in range(MAX_LOGINS - 2):
        assert middleware.process_exception(again, TimeoutError()) is not None
    assert middleware.state[LOGIN.site] == PENDING and not released  # still held
    assert middleware.process_exception(again, TimeoutError()) is None  # the last try
    assert middleware.state[LOGIN.site] == FAILED
    assert [r.url for r in released] == [page.url]
    stats = middleware.stats
    assert stats.get_value("topiccrawler/sessions/login_retries") == MAX_LOGINS - 1
    assert stats.get_value("topiccrawler/sessions/login_failed") == 1


def test_other_failures_are_left_to_scrapy():
    middleware, _ = middleware_with_login()
    page = Request("http://members.example/post/1.html", meta={ENTRANCE: "link"})
    assert middleware.process_exception(page, ConnectionDone()) is None  # not a login step
    other = Request("http://else.example/login", meta={LOGIN_STEP: "form"})
    assert middleware.process_exception(other, ConnectionDone()) is None  # no login there
