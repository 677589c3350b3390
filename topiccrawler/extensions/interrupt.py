"""Ctrl-C and SIGTERM as a crawl should take them. Scrapy's own handlers do the stopping (the
first signal closes the spider gracefully, the second stops the reactor at once); this
extension chains itself in front of them, so that what was fetched is written at once, and the
items still coming in are written one by one, and a second signal loses nothing stored: the
storage pipeline flushes, the run row is closed as interrupted (`crawl_interrupted`).

The page-rendering browser's noise at that moment (Playwright's "Target page, context or
browser has been closed" from requests cut off) is kept out of the log: the interrupt explains
it."""

from __future__ import annotations

import atexit
import logging
import os
import signal
import sys
from contextlib import suppress
from functools import partial

from scrapy import signals
from scrapy.crawler import Crawler, CrawlerProcessBase

from topiccrawler.signals import crawl_interrupted, storage_flush_requested

logger = logging.getLogger(__name__)

INTERRUPTS_KEY = "topiccrawler/interrupts"  # stats: how many signals the crawl received
SIGNALS = (signal.SIGINT, signal.SIGTERM)
CLOSED_BROWSER = ("Target page, context or browser has been closed", "TargetClosedError",
                  "Browser has been closed", "Connection closed")  # fmt: skip


def exit_on_signal(status: int) -> None:
    """Before a crawler process exists (options, topic files, the database checked): Ctrl-C
    or SIGTERM ends the command at once with `status`, one line, nothing to store yet."""

    def leave(signum: int, frame) -> None:
        os.write(2, b"interrupted before the crawl started\n")
        raise SystemExit(status)

    for signum in SIGNALS:
        signal.signal(signum, leave)


def exit_at_once_on_signal(status: int) -> None:
    """Once the crawl has ended (everything stored, the run row closed) and the command is on
    its way out: Ctrl-C or SIGTERM ends the process at once with `status`. Else a second
    Ctrl-C given just after a first one that already ended the crawl finds Python exiting,
    its handlers gone, and kills the process by the signal itself."""

    def leave(signum: int, frame) -> None:
        for stream in (sys.stdout, sys.stderr):
            with suppress(Exception):
                stream.flush()
        os._exit(status)

    for signum in SIGNALS:
        signal.signal(signum, leave)
    # Python puts the default handlers back as it finalizes; from the last exit hook on, a
    # signal is ignored rather than left to kill the process (nothing is left to stop).
    atexit.register(_ignore_signals)


def _ignore_signals() -> None:
    for signum in SIGNALS:
        signal.signal(signum, signal.SIG_IGN)


# Signals held between the crawler process's creation and its handlers: a process has one set
# of signal handlers, so this is the process's, not a crawler's.
_held: list[int] = []


def _hold(signum: int, frame) -> None:
    _held.append(signum)


def hold_signals_until_running() -> None:
    """From the crawler process's creation to the reactor's start: Ctrl-C or SIGTERM is held
    (Python would raise KeyboardInterrupt wherever start-up is, with a traceback, and Scrapy's
    handlers are not in yet); the extension gives it again once they are in."""
    _held.clear()
    for signum in SIGNALS:
        signal.signal(signum, _hold)


class ClosedBrowserNoise(logging.Filter):
    """Drops, once the crawl is interrupted, the records of requests cut off by the browser
    closing (scrapy-playwright's, Scrapy's own and asyncio's "exception never retrieved")."""

    def __init__(self, extension: CrawlInterrupts):
        super().__init__()
        self.extension = extension

    def filter(self, record: logging.LogRecord) -> bool:
        if not self.extension.interrupts:
            return True
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" {record.exc_info[1].__class__.__name__} {record.exc_info[1]}"
        return not any(marker in text for marker in CLOSED_BROWSER)


class CrawlInterrupts:
    def __init__(self, crawler: Crawler):
        self.crawler = crawler
        self.interrupts = 0
        self.noise = ClosedBrowserNoise(self)
        crawler.signals.connect(self.engine_started, signal=signals.engine_started)
        crawler.signals.connect(self.engine_started, signal=signals.spider_opened)
        crawler.signals.connect(self.item_scraped, signal=signals.item_scraped)
        crawler.signals.connect(self.engine_stopped, signal=signals.engine_stopped)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlInterrupts:
        return cls(crawler)

    def engine_started(self, **kwargs) -> None:
        self._chain()
        self._give_held_again()
        for handler in logging.getLogger().handlers:
            if self.noise not in handler.filters:
                handler.addFilter(self.noise)

    def engine_stopped(self) -> None:
        for handler in logging.getLogger().handlers:
            handler.removeFilter(self.noise)

    def _chain(self) -> None:
        """Put `_received` in front of the crawler process's handlers (only theirs: a crawl
        run in-process by a test or a notebook keeps its own Ctrl-C)."""
        for signum in SIGNALS:
            previous = signal.getsignal(signum)
            if isinstance(getattr(previous, "__self__", None), CrawlerProcessBase):  # not ours
                try:
                    signal.signal(signum, partial(self._received, previous))
                except ValueError:  # not the main thread: signals are not ours to take
                    return

    def _give_held_again(self) -> None:
        """A signal held at start-up, given again once Scrapy's handlers are in (they are
        installed when the reactor has started: until then, wait)."""
        if not _held:
            return
        if signal.getsignal(_held[0]) is _hold:
            from twisted.internet import reactor

            reactor.callLater(0.05, self._give_held_again)
            return
        signum = _held[0]
        _held.clear()
        os.kill(os.getpid(), signum)

    def _received(self, previous, signum: int, frame) -> None:
        """In the signal handler: count, leave the work to the reactor, then Scrapy's handler
        (which installs its next one: chained again, for the second signal)."""
        from twisted.internet import reactor

        self.interrupts += 1
        reactor.callFromThread(self._interrupted, self.interrupts)
        previous(signum, frame)
        if self.interrupts == 1:
            self._chain()

    def _interrupted(self, count: int) -> None:
        self.crawler.stats.set_value(INTERRUPTS_KEY, count)
        if count > 1:
            logger.warning("Stopping at once: what was fetched is written, the rest is left")
        self.crawler.signals.send_catch_log(storage_flush_requested)
        self.crawler.signals.send_catch_log(crawl_interrupted, count=count)

    def item_scraped(self, item, response=None, spider=None) -> None:
        """After the first signal each item is written as it comes: a second signal can come
        at any moment."""
        if self.interrupts:
            self.crawler.signals.send_catch_log(storage_flush_requested)
