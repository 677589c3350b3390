"""Mistakes a user can fix, and the exit statuses of every command (`topiccrawler …` and
`scrapy crawl topic`): one table, documented in docs/crawling/index.md.

Imports nothing, so every layer (storage, the commands, the CLI) can raise and read it.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_NOTHING_NEW = 3
EXIT_BLOCKED = 4
EXIT_LOCKED = 5
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C

EXIT_STATUSES = {
    EXIT_OK: "done",
    EXIT_FAILED: "done, but nothing was found; or the crawl failed (no page fetched, no progress)",
    EXIT_USAGE: "usage or configuration: a bad option, topic, file, path or database (one line"
    " on stderr names it and the fix)",
    EXIT_NOTHING_NEW: "the crawl ran well but found nothing new",
    EXIT_BLOCKED: "blocked everywhere (every search engine, or every site fetched)",
    EXIT_LOCKED: "another crawl of this topic is running; this one did not start",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C, SIGTERM): what was fetched is stored",
}


class UserError(Exception):
    """Something the user got wrong and can fix: `str()` is the one line shown, naming the
    culprit and the fix; `status` the exit status."""

    status = EXIT_USAGE

    def __init__(self, message: str, status: int | None = None):
        super().__init__(message)
        if status is not None:
            self.status = status
