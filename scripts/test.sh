#!/usr/bin/env bash
# Set up (if needed) and run the test suite. Extra arguments go to pytest.
# Tests that need PostgreSQL skip when it is not running, and fail instead when CI=true.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
