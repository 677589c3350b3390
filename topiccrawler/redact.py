"""Secrets out of logs and stats: passwords in URLs (proxies, databases, Redis), settings named
like secrets, and credentials components register (login passwords) are written as `***`.

Scrapy logs every overridden setting at start ("Overridden settings"), so a `-s` value is
logged as given; the filter sits on the log handlers, so no logger's line, traceback included,
can carry a known secret out."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any
from urllib.parse import unquote

from scrapy.crawler import Crawler
from scrapy.settings import BaseSettings

MASK = "***"
# scheme://user:password@host → scheme://user:***@host
URL_PASSWORD = re.compile(r"(?P<head>\b[a-z][a-z0-9+.-]*://[^:/@\s'\"]*:)(?P<password>[^@/\s'\"]+)@",
                          re.IGNORECASE)  # fmt: skip
SECRET_NAME = re.compile(r"PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL|_AUTH\b|API_KEY", re.IGNORECASE)
MIN_SECRET = 6  # shorter values would mask ordinary words (".test" in a host name)


class SecretFilter(logging.Filter):
    """Masks the known secrets and any URL's password in every record it sees."""

    def __init__(self):
        super().__init__()
        self.secrets: set[str] = set()

    def add(self, secret: str | None) -> None:
        if secret and len(secret) >= MIN_SECRET:
            self.secrets.add(secret)
            self.secrets.add(unquote(secret))

    def redact(self, text: str) -> str:
        text = URL_PASSWORD.sub(lambda m: m["head"] + MASK + "@", text)
        for secret in sorted(self.secrets, key=len, reverse=True):
            if secret in text:
                text = text.replace(secret, MASK)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        return True


SECRETS = SecretFilter()


def redact(value: Any) -> Any:
    """`value` (a string, or lists and dicts of them, keys too) with the secrets masked."""
    if isinstance(value, str):
        return SECRETS.redact(value)
    if isinstance(value, dict):
        return {redact(k): redact(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact(v) for v in value]
    return value


def add_secret(secret: str | None) -> None:
    """A secret read at run time (a login password): masked from now on."""
    SECRETS.add(secret)


def secrets_in_settings(settings: BaseSettings) -> Iterable[str]:
    """Values of settings named like secrets, and the passwords of URLs in any setting."""
    for name, value in settings.items():
        if isinstance(value, str) and SECRET_NAME.search(name):
            yield value
        for text in _strings(value):
            for match in URL_PASSWORD.finditer(text):
                yield match["password"]


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, BaseSettings | dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, list | tuple | set):
        for item in value:
            yield from _strings(item)


class SecretRedaction:
    """Extension: puts the filter on the log handlers before Scrapy logs the settings."""

    def __init__(self, crawler: Crawler):
        for secret in secrets_in_settings(crawler.settings):
            SECRETS.add(secret)
        for handler in logging.getLogger().handlers:
            if SECRETS not in handler.filters:
                handler.addFilter(SECRETS)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SecretRedaction:
        return cls(crawler)
