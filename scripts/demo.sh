#!/usr/bin/env bash
# Set up (if needed) and run the main job: a real crawl of the offline sandbox web for the tax
# topic into data/demo.db (or the configured database), with a summary at the end. Extra arguments go to
# `topiccrawler demo` (e.g. --size medium).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/topiccrawler demo "$@"
