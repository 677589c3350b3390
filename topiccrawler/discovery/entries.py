"""What a feed item or a sitemap `<url>` says about a page before it is fetched."""

from __future__ import annotations

import calendar
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Entry:
    """A page a feed or sitemap announces: its URL, the text it is announced with (an item's
    title and summary, a news sitemap's title), and its date (published or updated, lastmod,
    news publication date), UTC, when given."""

    url: str
    title: str = ""
    summary: str = ""
    date: datetime | None = None

    @property
    def text(self) -> str:
        """What the frontier scores like an anchor's text."""
        return f"{self.title}\n{self.summary}".strip()


def usable_url(url: str) -> bool:
    """An http(s) URL with a host and a valid port (hostile lists hold anything).

    >>> usable_url("http://a.test:80/x"), usable_url("http://a.test:port/x"), usable_url("/x")
    (True, False, False)
    """
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError for a port that is not a number
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def parse_w3c_date(text: str | None) -> datetime | None:
    """A sitemap date (W3C Datetime: `2026-01-05`, `2026-01-05T08:00+08:00`, `…Z`), UTC; None
    for anything else.

    >>> parse_w3c_date("2026-01-05T08:00:00+08:00")
    datetime.datetime(2026, 1, 5, 0, 0, tzinfo=datetime.timezone.utc)
    >>> parse_w3c_date("yesterday") is None
    True
    """
    text = (text or "").strip()
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def from_struct_time(value: time.struct_time | None) -> datetime | None:
    """feedparser's `*_parsed` dates (UTC struct_time) as aware datetimes."""
    if value is None:
        return None
    try:
        return datetime.fromtimestamp(calendar.timegm(value), UTC)
    except (OverflowError, ValueError, OSError):
        return None
