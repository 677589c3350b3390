#!/usr/bin/env bash
# Create .venv and install topiccrawler with its dev extras. Idempotent: a second run with an
# unchanged pyproject.toml does nothing. PYTHON picks the interpreter (3.11 or newer).
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "topiccrawler needs Python 3.11 or newer; found: $("$PYTHON" --version 2>&1)" >&2
    echo "set PYTHON=/path/to/python3.11 and run again" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    echo "Creating .venv with $("$PYTHON" --version)"
    "$PYTHON" -m venv .venv
fi
stamp=".venv/.installed-$(cat pyproject.toml | sha1sum | cut -c1-12)"
if [ ! -f "$stamp" ]; then
    echo "Installing topiccrawler and its dependencies into .venv"
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e '.[dev]'
    rm -f .venv/.installed-*
    touch "$stamp"
fi
