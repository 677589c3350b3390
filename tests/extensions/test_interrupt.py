"""The interrupt extension in-process: the browser's noise after Ctrl-C is kept out of the log,
and only then; a crawl run in-process (no crawler process of Scrapy's) keeps its own Ctrl-C."""

from __future__ import annotations

import logging
import signal

from scrapy.utils.test import get_crawler

from topiccrawler.extensions.interrupt import ClosedBrowserNoise, CrawlInterrupts


def record(message: str, exc: BaseException | None = None) -> logging.LogRecord:
    return logging.LogRecord("scrapy_playwright", logging.ERROR, __file__, 1, message, (),
                             (type(exc), exc, None) if exc else None)  # fmt: skip


class TargetClosedError(Exception):
    """Playwright's, as it reaches the log: by its name and message."""


def test_closed_browser_noise_is_dropped_only_after_an_interrupt():
    extension = CrawlInterrupts(get_crawler())
    noise = ClosedBrowserNoise(extension)
    closed = record("Error downloading <GET http://a.test/>", TargetClosedError(
        "Target page, context or browser has been closed"))  # fmt: skip
    other = record("Error downloading <GET http://a.test/>", TimeoutError("took too long"))
    assert noise.filter(closed) and noise.filter(other)  # a browser closing mid-crawl is news
    extension.interrupts = 1
    assert not noise.filter(closed)
    assert not noise.filter(record("Task exception was never retrieved: TargetClosedError"))
    assert noise.filter(other)


def test_an_in_process_crawl_keeps_its_own_ctrl_c():
    before = signal.getsignal(signal.SIGINT)
    extension = CrawlInterrupts(get_crawler())
    extension.engine_started()
    assert signal.getsignal(signal.SIGINT) is before
    extension.engine_stopped()
