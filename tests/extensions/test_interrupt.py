"""The interrupt extension in-process: the browser's noise after Ctrl-C is kept out of the log,
and only then; a crawl run in-process (no crawler process of Scrapy's) keeps its own Ctrl-C; a
signal after the crawl has ended exits with the interrupt's status."""

from __future__ import annotations

import logging
import signal
import subprocess
import sys
import time

import pytest
from scrapy.utils.test import get_crawler

from tests.conftest import ROOT
from topiccrawler.errors import EXIT_INTERRUPTED
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


EXITING = """
import sys, time
from topiccrawler.extensions.interrupt import exit_at_once_on_signal
exit_at_once_on_signal(130)
print("ended", flush=True)
if sys.argv[1] == "slow-exit":
    import atexit
    atexit.register(time.sleep, 3)  # the exit waits (a worker being joined, say)
else:
    time.sleep(3)
"""


@pytest.mark.parametrize("moment", ["before-exit", "slow-exit"])
def test_a_signal_after_the_crawl_ended_exits_with_the_interrupt_status(moment):
    """A second Ctrl-C that arrives when the first has already ended the crawl: exit status
    130 at once, never a process killed by the signal (-2 to a caller, no status of ours)."""
    process = subprocess.Popen(
        [sys.executable, "-c", EXITING, moment], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert process.stdout.readline().strip() == "ended"
    if moment == "slow-exit":
        time.sleep(0.5)  # past the script's end: in the exit hooks
    process.send_signal(signal.SIGINT)
    assert process.wait(timeout=30) == EXIT_INTERRUPTED
