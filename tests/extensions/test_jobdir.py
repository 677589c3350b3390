"""A JOBDIR a killed crawl left is set aside; one a crawl closed cleanly is resumed."""

from __future__ import annotations

import logging
import socket
import subprocess
from types import SimpleNamespace

from scrapy.extension import ExtensionManager
from scrapy.signalmanager import SignalManager
from scrapy.utils.project import get_project_settings
from scrapy.utils.test import get_crawler

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


def test_no_jobdir_turns_the_guard_off_without_a_warning(caplog):
    """Off by design (no JOBDIR, the default) is not worth a warning on every crawl; nor is any
    other extension of the project's defaults."""
    crawler = get_crawler(settings_dict=get_project_settings().copy_to_dict())
    with caplog.at_level(logging.INFO):
        manager = ExtensionManager.from_crawler(crawler)
    assert not any(isinstance(ext, KilledJobdirGuard) for ext in manager.middlewares)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    assert "Enabled extensions" in caplog.text  # the manager did log, at INFO


def test_a_jobdir_turns_the_guard_on(tmp_path):
    settings = {**get_project_settings().copy_to_dict(), "JOBDIR": str(tmp_path / "job")}
    manager = ExtensionManager.from_crawler(get_crawler(settings_dict=settings))
    assert any(isinstance(ext, KilledJobdirGuard) for ext in manager.middlewares)
    assert (tmp_path / "job" / MARKER).exists()
