from __future__ import annotations

import os

import pytest

from tests.conftest import need_service

REDIS_URL = os.environ.get("TOPICCRAWLER_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def redis_server():
    """The loopback Redis (skipped without it on a laptop, a failure in CI)."""
    import redis

    server = redis.Redis.from_url(REDIS_URL)
    try:
        server.ping()
    except redis.RedisError as exc:
        need_service("Redis", f"{REDIS_URL}: {exc}")
    yield server
    server.close()
