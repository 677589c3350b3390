"""One crawl of a topic into one database at a time on a machine: an exclusive lock on a file
per topic and database (`TOPIC_LOCK_DIR/<topic>-<database hash>.lock`, flock), held for the
crawl's life (a demo into its own database does not wait for the nightly crawl). The operating system
releases it when the process ends however it ends (kill -9 included), so a stale lock never
blocks the next cron run. The file says which process holds it, for the refusal message."""

from __future__ import annotations

import fcntl
import hashlib
import os
import re
import socket
from datetime import UTC, datetime
from pathlib import Path

from topiccrawler.storage.db import resolve_database_url
from topiccrawler.topics.registry import project_root


class TopicLocked(RuntimeError):
    """Another process holds the topic's lock."""


class TopicLock:
    def __init__(self, path: Path):
        self.path = path
        self.handle = None

    @classmethod
    def for_settings(cls, settings, topic: str) -> TopicLock:
        folder = Path(settings.get("TOPIC_LOCK_DIR") or project_root() / "data" / "locks")
        if not folder.is_absolute():
            folder = project_root() / folder
        safe = re.sub(r"[^\w.-]", "_", topic)
        database = resolve_database_url(settings.get("DATABASE_URL"))
        return cls(folder / f"{safe}-{hashlib.sha1(database.encode()).hexdigest()[:10]}.lock")

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 (held until release)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise TopicLocked(
                f"another crawl of this topic is running ({holder}; lock {self.path})"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(
            f"pid {os.getpid()} on {socket.gethostname()} since "
            f"{datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC"
        )
        handle.flush()
        self.handle = handle

    def release(self) -> None:
        if self.handle is not None:
            fcntl.flock(self.handle, fcntl.LOCK_UN)
            self.handle.close()
            self.handle = None

    def __enter__(self) -> TopicLock:
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()
