"""Passwords masked in log lines, tracebacks and stats."""

from __future__ import annotations

import logging
from types import SimpleNamespace

from scrapy.settings import Settings

from topiccrawler.extensions.crawl_run import _json_safe
from topiccrawler.redact import SECRETS, SecretRedaction, add_secret, redact


def test_settings_urls_and_registered_secrets_are_masked(caplog):
    caplog.set_level(logging.INFO)
    settings = Settings({
        "TELNETCONSOLE_PASSWORD": "telnet-pw-1",
        "PROXIES": ["http://user:proxy-pw-2@proxy.example:8080"],
        "DATABASE_URL": "postgresql://crawler:db%40pw-3@db.example/crawl",
    })  # fmt: skip
    SecretRedaction(SimpleNamespace(settings=settings))
    assert SECRETS in caplog.handler.filters  # every handler of the root logger
    logger = logging.getLogger("scrapy.crawler")
    logger.info("Overridden settings:\n%(settings)s", {"settings": settings.copy_to_dict()})
    add_secret("login-pw-4")
    try:
        raise ValueError("login with login-pw-4 failed at http://u:x-pw-5@h.example/")
    except ValueError:
        logger.exception("Failed")
    text = caplog.text
    for secret in ("telnet-pw-1", "proxy-pw-2", "db%40pw-3", "db@pw-3", "login-pw-4", "x-pw-5"):
        assert secret not in text
    assert (
        "http://user:***@proxy.example:8080" in text and "'TELNETCONSOLE_PASSWORD': '***'" in text
    )


def test_crawl_run_stats_are_masked():
    add_secret("stats-pw-6")
    stats = _json_safe({"proxy/http://a:stats-pw-6@h:1/failed": 1, "note": "stats-pw-6"})
    assert stats == {"proxy/http://a:***@h:1/failed": 1, "note": "***"}
    assert redact(["x stats-pw-6"]) == ["x ***"]
