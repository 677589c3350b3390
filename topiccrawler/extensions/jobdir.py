"""A JOBDIR left by a killed crawl is not resumed as if it were whole.

Scrapy writes the queue's state (requests.queue) when a crawl closes, but records every request
it has seen (requests.seen) as it goes. After kill -9 the two disagree: the requests queued since
the last clean close are marked seen yet are in no queue, so a resume would never fetch them.
A marker in JOBDIR says a crawl is running; found at start with its process gone, the stale state
is set aside (`<JOBDIR>/killed-<time>/`) and the crawl starts from its seeds again: stored pages
are recognised (known_urls), and those the killed run fetched are read again for their links.
"""

from __future__ import annotations

import logging
import os
import socket
from datetime import UTC, datetime
from pathlib import Path

from scrapy import signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

logger = logging.getLogger(__name__)

MARKER = "topiccrawler.running"
STATE = ("requests.seen", "requests.queue", "spider.state")


class KilledJobdirGuard:
    def __init__(self, crawler: Crawler, jobdir: Path):
        self.marker = jobdir / MARKER
        if self.marker.exists():
            set_aside(jobdir, self.marker)
        jobdir.mkdir(parents=True, exist_ok=True)
        self.marker.write_text(f"{socket.gethostname()} {os.getpid()}\n", encoding="utf-8")
        crawler.signals.connect(self.spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> KilledJobdirGuard:
        jobdir = crawler.settings.get("JOBDIR")
        if not jobdir:
            raise NotConfigured  # off by design without JOBDIR: with no message Scrapy logs nothing
        return cls(crawler, Path(jobdir))

    def spider_closed(self) -> None:
        """A clean close (the queue's state is written before this signal): resumable."""
        self.marker.unlink(missing_ok=True)


def set_aside(jobdir: Path, marker: Path) -> None:
    host, _, pid = marker.read_text(encoding="utf-8").strip().partition(" ")
    if host == socket.gethostname() and pid.isdigit() and _alive(int(pid)):
        return  # a live crawl on this JOBDIR: Scrapy and the topic lock keep them apart
    aside = jobdir / f"killed-{datetime.now(UTC):%Y%m%dT%H%M%S}"
    aside.mkdir()
    for name in STATE:
        if (jobdir / name).exists():
            (jobdir / name).rename(aside / name)
    marker.unlink(missing_ok=True)
    logger.warning(
        "JOBDIR %s was left by a crawl that was killed (pid %s): its queue was never saved, so "
        "the crawl starts again from its seeds; stored pages are recognised (old state: %s)",
        jobdir, pid or "?", aside.name,
    )  # fmt: skip


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return False  # our own pid again (a container restarted): not a live other crawl
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
