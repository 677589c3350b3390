"""Mistakes a user can fix, and the exit statuses of every command (`topiccrawler …` and
`scrapy crawl topic`): one table, documented in docs/crawling/index.md.

Imports nothing of the project, so every layer (storage, the commands, the CLI) can raise and
read it.
"""

from __future__ import annotations

import os
from pathlib import Path

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


def check_writable(
    path: Path, option: str, folder: bool = False, make_folders: bool = True
) -> None:
    """Refuse, before any work, a path the command will write and could not: `option` names
    it in the line (`--out r.html`, `JOBDIR=…`). A folder (`folder`) is made if missing; a
    file's missing folders are made only with `make_folders`."""
    shown = f"{option} {path}" if option.startswith("-") else f"{option}={path}"
    if path.exists():
        if path.is_dir() != folder:
            what = "a folder; name a file" if path.is_dir() else "a file, not a folder"
            raise UserError(f"{shown}: {path} is {what}")
        if not os.access(path, os.W_OK | (os.X_OK if folder else 0)):
            raise UserError(f"{shown}: no permission to write there; change it or choose another")
        return
    parent = path.parent
    if not make_folders and not folder and not parent.is_dir():
        if not parent.exists():
            raise UserError(f"{shown}: the folder {parent} does not exist; create it first")
    existing = next(p for p in path.parents if p.exists())
    if not existing.is_dir():
        raise UserError(f"{shown}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UserError(f"{shown}: no permission to write in {existing}; choose another place")
