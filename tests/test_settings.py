"""Every setting in topiccrawler/settings.py does something: it is Scrapy's or an add-on's, or a
component of the project reads it (a setting that is defined and documented but never read, as
DEDUP_SAME_SITE once was, fails here), and each has its comment."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from scrapy.settings import default_settings

PACKAGE = Path(__file__).resolve().parents[1] / "topiccrawler"
SETTINGS = PACKAGE / "settings.py"
# Read by a library the project uses, not by Scrapy's defaults module.
ADD_ON_PREFIXES = ("PLAYWRIGHT_", "TWISTED_")


def defined() -> dict[str, int]:
    """Setting name → line in settings.py."""
    tree = ast.parse(SETTINGS.read_text(encoding="utf-8"))
    names = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id.isupper():
                    names[target.id] = node.lineno
    return names


def read_by_the_project() -> set[str]:
    """Names quoted anywhere in the package but settings.py: settings.get("NAME") and kin."""
    quoted = set()
    for path in PACKAGE.rglob("*.py"):
        if path != SETTINGS:
            quoted |= set(re.findall(r"""["']([A-Z][A-Z0-9_]+)["']""", path.read_text("utf-8")))
    return quoted


def test_every_setting_is_read_by_something():
    scrapys = {name for name in dir(default_settings) if name.isupper()}
    ours = read_by_the_project()
    unread = [
        f"settings.py:{line}: {name}"
        for name, line in defined().items()
        if name not in scrapys and name not in ours and not name.startswith(ADD_ON_PREFIXES)
    ]
    assert unread == [], "settings nobody reads:\n" + "\n".join(unread)


def test_every_project_setting_says_what_it_does():
    lines = SETTINGS.read_text(encoding="utf-8").splitlines()
    scrapys = {name for name in dir(default_settings) if name.isupper()}
    silent = []
    for name, line in defined().items():
        if name in scrapys:
            continue
        here, before = lines[line - 1], lines[line - 2] if line > 1 else ""
        if "#" not in here and not before.lstrip().startswith("#"):
            silent.append(f"settings.py:{line}: {name}")
    assert silent == [], "settings without a comment:\n" + "\n".join(silent)
