"""Comments or posts from the JSON a page loads them from. Field names differ by site, so they
are read by meaning: the list is the first array of objects (top level, or under data, comments,
items, list, results, replies, posts …); text, author and time by their usual names; an author
may be an object with a name; replies nested under a comment are comments too."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from topiccrawler.extract.dates import parse_time
from topiccrawler.guard.text import drop_controls
from topiccrawler.items import CommentRecord

LIST_KEYS = ("data", "comments", "items", "list", "results", "replies", "posts", "records", "rows")
TEXT_KEYS = ("text", "content", "body", "message", "comment", "html", "msg")
AUTHOR_KEYS = ("author", "user", "nickname", "nick", "username", "user_name", "name", "poster")
TIME_KEYS = ("time", "created_at", "createdAt", "created", "date", "ctime", "published",
             "publish_time", "timestamp", "pubdate", "datetime")  # fmt: skip
REPLY_KEYS = ("replies", "children", "sub_comments", "subComments")
MAX_RECORDS = 5000


def records_from_json(body: bytes | str, now: datetime | None = None) -> list[CommentRecord]:
    """The records in a JSON document, in its order (replies after their parent, with
    reply_to); [] for JSON without a list of records, or for text that is not JSON."""
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError):
        return []
    found: list[CommentRecord] = []
    _collect(_record_list(data), found, None, now)
    return found[:MAX_RECORDS]


def _record_list(data: Any, depth: int = 0) -> list:
    if isinstance(data, list) and any(isinstance(x, dict) for x in data):
        return data
    if isinstance(data, dict) and depth < 4:
        for key in LIST_KEYS:
            if key in data:
                found = _record_list(data[key], depth + 1)
                if found:
                    return found
    return []


def _collect(items: list, found: list, parent: str | None, now: datetime | None) -> None:
    for item in items:
        if not isinstance(item, dict) or len(found) >= MAX_RECORDS:
            continue
        text = _first(item, TEXT_KEYS)
        if not isinstance(text, str) or not text.strip():
            continue
        author = _first(item, AUTHOR_KEYS)
        if isinstance(author, dict):
            author = _first(author, ("name", "nickname", "nick", "username", "display_name"))
        when = _first(item, TIME_KEYS)
        shown, published = _time(when, now)
        record = CommentRecord(
            text=drop_controls(_plain(text)),
            author=drop_controls(str(author)) if isinstance(author, str | int) else None,
            time=shown,
            published_at=published,
            reply_to=parent,
        )
        found.append(record)
        for key in REPLY_KEYS:
            if isinstance(item.get(key), list):
                _collect(item[key], found, record.author, now)


def _first(item: dict, keys: tuple[str, ...]) -> Any:
    return next((item[k] for k in keys if item.get(k) not in (None, "")), None)


def _plain(text: str) -> str:
    """Comment JSON often carries HTML: its text."""
    if "<" not in text:
        return text.strip()
    from lxml import html

    try:
        return " ".join(html.fromstring(text).text_content().split())
    except Exception:  # noqa: BLE001 (not markup after all)
        return text.strip()


def _time(value: Any, now: datetime | None) -> tuple[str | None, datetime | None]:
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = value / 1000 if value > 1e11 else value  # milliseconds
        try:
            return str(value), datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return str(value), None
    if isinstance(value, str):
        return value, parse_time(value, now=now)
    return None, None
