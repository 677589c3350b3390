"""The short reliability run CI makes: sandbox crawls killed with SIGKILL at random moments and
resumed (benchmarks/reliability.py --quick): nothing stored is lost, duplicated or missing from
the search index, the killed runs are recorded as killed, and the resumed crawl stores what a
clean crawl stores."""

from __future__ import annotations

import subprocess
import sys

from sqlalchemy import create_engine, text

from tests.conftest import IN_CI, POSTGRES_URL, ROOT


def postgres_running() -> bool:
    try:
        engine = create_engine(POSTGRES_URL)
        with engine.connect() as connection:
            connection.execute(text("select 1"))
        engine.dispose()
    except Exception:  # noqa: BLE001 (any failure means "not running")
        return False
    return True


def test_quick_reliability_run_survives_every_kill():
    command = [sys.executable, "benchmarks/reliability.py", "--quick"]
    if not IN_CI and not postgres_running():
        command.append("--no-postgres")  # CI has PostgreSQL; a laptop may not
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=400)
    print(result.stdout)
    assert result.returncode == 0, result.stdout + result.stderr[-3000:]
    survived = [line for line in result.stdout.splitlines() if line.startswith("kills survived")]
    assert survived and ", lost 0, duplicated 0, unindexed 0" in survived[0]
    assert "FAILED" not in result.stdout
