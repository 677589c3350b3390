"""Records from the JSON pages load them from: the shapes sites use, read by meaning."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from topiccrawler.render.records_json import records_from_json


def test_a_plain_list():
    data = [{"text": "支持！", "author": "张三", "time": "2026-03-01 08:00"}]
    (record,) = records_from_json(json.dumps(data))
    assert (record.text, record.author, record.time) == ("支持！", "张三", "2026-03-01 08:00")
    assert record.published_at is not None and record.published_at.year == 2026


def test_nested_lists_users_as_objects_epoch_times_and_replies():
    data = {
        "code": 0,
        "data": {
            "comments": [
                {
                    "content": "<p>Good <b>point</b></p>",
                    "user": {"nickname": "amy"},
                    "created_at": 1772352000,
                    "replies": [
                        {"content": "agreed", "user": {"name": "bob"}, "ctime": 1772352000000}
                    ],
                }
            ]
        },
    }
    first, reply = records_from_json(json.dumps(data).encode())
    assert (first.text, first.author, first.reply_to) == ("Good point", "amy", None)
    assert first.published_at == datetime(2026, 3, 1, 8, tzinfo=UTC)
    assert (reply.text, reply.author, reply.reply_to) == ("agreed", "bob", "amy")
    assert reply.published_at == first.published_at  # milliseconds read as such


def test_no_records_in_other_json_or_in_text():
    assert records_from_json(b'{"status": "ok", "count": 3}') == []
    assert records_from_json(b"<html>not json</html>") == []
    assert records_from_json(b'[{"id": 1}, {"id": 2}]') == []  # no text
    assert records_from_json(b"\xff\xfe") == []


def test_control_characters_are_dropped():
    (record,) = records_from_json(json.dumps([{"text": "hi\x1b[2J", "author": "x\x07"}]))
    assert record.text == "hi[2J" and record.author == "x"
