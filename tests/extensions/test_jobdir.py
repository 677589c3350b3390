"""A JOBDIR a killed crawl left is set aside; one a crawl closed cleanly is resumed."""

from __future__ import annotations

import logging
import socket
import subprocess
from types import SimpleNamespace

from scrapy.signalmanager import SignalManager

from topiccrawler.extensions.jobdir import MARKER, KilledJobdirGuard


def guard(jobdir) -> KilledJobdirGuard:
    crawler = SimpleNamespace(signals=SignalManager())
    return KilledJobdirGuard(crawler, jobdir)


def dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_state_of_a_killed_crawl_is_set_aside(tmp_path, caplog):
    (tmp_path / "requests.seen").write_text("abc\n")
    (tmp_path / "requests.queue").mkdir()
    (tmp_path / MARKER).write_text(f"{socket.gethostname()} {dead_pid()}\n")
    with caplog.at_level(logging.WARNING):
        guard(tmp_path)
    assert not (tmp_path / "requests.seen").exists() and not (tmp_path / "requests.queue").exists()
    (aside,) = tmp_path.glob("killed-*")
    assert (aside / "requests.seen").read_text() == "abc\n"
    assert "was left by a crawl that was killed" in caplog.text
    assert (tmp_path / MARKER).exists()  # this crawl's own marker


def test_state_of_a_clean_close_is_kept(tmp_path):
    first = guard(tmp_path)
    (tmp_path / "requests.seen").write_text("abc\n")
    first.spider_closed()
    assert not (tmp_path / MARKER).exists()
    guard(tmp_path)
    assert (tmp_path / "requests.seen").exists() and not list(tmp_path.glob("killed-*"))
