#!/usr/bin/env bash
# Set up (if needed) and run the test suite. Extra arguments go to pytest (`-n 0`: one process).
# Tests that need PostgreSQL skip when it is not running, and fail instead when CI=true.
# Two pytest-xdist workers, a test file each at a time (a file's servers and crawls stay
# together): the suite's sandbox crawls wait on sockets and subprocesses much of the time, so
# two files at once take about 0.6x the time of one after the other on 2 cores
# (TEST_WORKERS=N for another count). The 25 slowest tests are listed at the end: the suite is
# meant to stay under 15 minutes with set-up on 2 cores, and that list says where time goes.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -n "${TEST_WORKERS:-2}" --dist loadfile --durations=25 "$@"
