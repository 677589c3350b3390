"""Crawl-run rows: a run whose process died without closing it (kill -9, power loss) is closed
as killed by the next run of the topic on the same host; others are left alone."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from datetime import UTC, datetime

from topiccrawler.cli import main
from topiccrawler.extensions.crawl_run import close_killed_runs
from topiccrawler.storage import Database
from topiccrawler.storage.models import CrawlRun


def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def test_runs_of_dead_processes_are_closed_as_killed(sqlite_url, capsys):
    db = Database(sqlite_url)
    db.upgrade()
    here, started = socket.gethostname(), datetime(2026, 3, 1, tzinfo=UTC)
    now = datetime(2026, 3, 2, tzinfo=UTC)
    with db.session() as session, session.begin():
        session.add_all([
            CrawlRun(topic="tax", spider="topic", started_at=started, host=here, pid=dead_pid()),
            CrawlRun(topic="tax", spider="topic", started_at=started, host=here, pid=os.getppid()),
            CrawlRun(topic="tax", spider="topic", started_at=started, host="elsewhere", pid=1),
            CrawlRun(topic="stock", spider="topic", started_at=started, host=here, pid=dead_pid()),
        ])  # fmt: skip
    with db.session() as session, session.begin():
        killed = close_killed_runs(session, "tax", here, now)
        assert [run.id for run in killed] == [1]
    with db.session() as session:
        rows = {run.id: (run.finish_reason, run.finished_at) for run in session.query(CrawlRun)}
    db.dispose()
    assert rows[1][0] == "killed" and rows[1][1] is not None
    assert rows[2] == rows[3] == rows[4] == (None, None)  # alive, other host, other topic
    assert main(["-s", f"DATABASE_URL={sqlite_url}", "runs", "tax"]) == 0
    assert "killed" in capsys.readouterr().out
