"""`topiccrawler schedule`: cron lines and systemd units that run a topic's crawl, installed
idempotently; the per-topic lock that keeps two crawls of a topic apart."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from topiccrawler.cli import main
from topiccrawler.locks import TopicLock, TopicLocked
from topiccrawler.schedule import MARK, Every, crontab_line, systemd_units


@pytest.mark.parametrize(
    ("text", "seconds", "timing"),
    [("30m", 1800, "-59/30 * * * *"), ("6h", 21600, "-23/6 * * *"), ("1d", 86400, " */1 * *")],
)
def test_every_and_the_cron_timing(text, seconds, timing):
    every = Every.parse(text)
    assert every.seconds == seconds
    line = crontab_line("tax", every, Path("/srv/crawler"), Path("/var/log/tax.log"))
    assert timing in line
    assert "cd /srv/crawler && " in line and "-m scrapy crawl topic -a topic=tax" in line
    assert line.endswith(f">> /var/log/tax.log 2>&1 {MARK}tax")


@pytest.mark.parametrize("text", ["7h", "0m", "soon", "90m", "-1h"])
def test_intervals_cron_cannot_repeat_are_refused(text):
    with pytest.raises(ValueError):
        Every.parse(text)


def test_topics_start_at_different_minutes():
    every = Every.parse("1h")
    minutes = {crontab_line(t, every, Path("/p"), None).split()[0] for t in ("tax", "stock", "a")}
    assert len(minutes) > 1


def test_systemd_units():
    units = systemd_units("tax", Every.parse("6h"), Path("/srv/crawler"), None)
    assert set(units) == {"topiccrawler-tax.service", "topiccrawler-tax.timer"}
    assert "WorkingDirectory=/srv/crawler" in units["topiccrawler-tax.service"]
    assert "OnUnitActiveSec=6h" in units["topiccrawler-tax.timer"]


@pytest.fixture
def fake_crontab(tmp_path, monkeypatch):
    """A `crontab` on PATH that keeps the table in a file, as the real one does."""
    table = tmp_path / "table"
    script = tmp_path / "bin" / "crontab"
    script.parent.mkdir()
    script.write_text(
        f'#!/bin/sh\nif [ "$1" = -l ]; then cat {table} 2>/dev/null || '
        f"{{ echo 'no crontab for user' >&2; exit 1; }}; else cat > {table}; fi\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{script.parent}{os.pathsep}{os.environ['PATH']}")
    return table


def test_install_adds_once_and_keeps_other_lines(fake_crontab, capsys):
    fake_crontab.write_text("0 1 * * * backup.sh\n")
    assert main(["schedule", "tax", "--every", "6h", "--install"]) == 0
    assert main(["schedule", "tax", "--every", "2h", "--install"]) == 0
    lines = fake_crontab.read_text().splitlines()
    assert lines[0] == "0 1 * * * backup.sh"
    assert len(lines) == 2 and "-23/2 * * *" in lines[1] and lines[1].endswith(f"{MARK}tax")
    out = capsys.readouterr().out
    assert "added in your crontab" in out and "replaced in your crontab" in out
    assert "5 another crawl of this topic is running" in out


def test_unknown_topic_is_a_configuration_error(capsys):
    assert main(["schedule", "no-such-topic", "--every", "6h"]) == 2
    assert "no-such-topic" in capsys.readouterr().err


def test_the_lock_is_exclusive_and_released(tmp_path):
    first, second = TopicLock(tmp_path / "tax.lock"), TopicLock(tmp_path / "tax.lock")
    with first:
        with pytest.raises(TopicLocked, match="another crawl of this topic is running .pid"):
            second.acquire()
    with second:  # released with the first
        pass


def test_a_second_crawl_of_a_running_topic_exits_at_once(tmp_path):
    """Exit status 5 and one line, before any crawler starts; the lock is per topic and
    database."""
    from scrapy.settings import Settings

    database = f"sqlite:///{tmp_path}/x.db"
    settings = Settings({"TOPIC_LOCK_DIR": str(tmp_path), "DATABASE_URL": database})
    other = Settings({"TOPIC_LOCK_DIR": str(tmp_path), "DATABASE_URL": f"{database}-other"})
    with TopicLock.for_settings(other, "tax"), TopicLock.for_settings(settings, "tax"):
        done = subprocess.run(
            [sys.executable, "-m", "scrapy", "crawl", "topic", "-a", "topic=tax",
             "-s", f"TOPIC_LOCK_DIR={tmp_path}", "-s", f"DATABASE_URL={database}"],
            cwd=ROOT, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
    assert done.returncode == 5
    assert "another crawl of this topic is running" in done.stderr
    assert "Spider opened" not in done.stderr
