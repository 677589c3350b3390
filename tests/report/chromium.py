"""Debian's Chromium, headless, for tests that look at what a page shows."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.conftest import IN_CI, need_service
from topiccrawler.render.handler import browser_path


def chromium() -> str:
    """The browser's path, found as the crawl finds it (TOPICCRAWLER_CHROMIUM=none hides it);
    fails in CI (Chromium is part of the CI machine), skips elsewhere."""
    found = browser_path()
    if not found:
        need_service("Chromium", "apt-get install -y chromium (Debian's package)")
    return found


def chromium_if_any() -> str | None:
    """The browser's path, or None on a machine without one; in CI its absence fails the test
    (for tests that check less, not nothing, without a browser)."""
    found = browser_path()
    if not found and IN_CI:
        pytest.fail("Chromium is required in CI: apt-get install -y chromium (Debian's package)")
    return found


def run(html: Path, *flags: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
         "--no-first-run", "--disable-extensions", *flags, html.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip


def screenshot(html: Path, png: Path, width: int = 1200, height: int = 3000) -> Path:
    run(html, f"--screenshot={png}", f"--window-size={width},{height}")
    return png


def rendered_dom(html: Path) -> tuple[str, str]:
    """The page's DOM after its scripts ran, and the browser's console log (where a script
    the Content-Security-Policy refused is reported)."""
    done = run(html, "--dump-dom", "--enable-logging=stderr", "--v=0")
    return done.stdout, done.stderr
