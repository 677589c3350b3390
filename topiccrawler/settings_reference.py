"""The settings reference of the documentation, read from `topiccrawler/settings.py` itself: every
setting with its default (as written) and its meaning (its comment), by section. The docs build
puts it into docs/reference/settings.md, so the page cannot fall behind the settings."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

SETTINGS_FILE = Path(__file__).with_name("settings.py")
_SECTION = re.compile(r"^#\s*---\s*(.+?)\s*-*\s*$")
SCRAPY_OWN = "Scrapy's own setting, as Scrapy documents it"
DEFAULT_CHARS = 70  # longer defaults are cut, with a pointer to settings.py


@dataclass
class Setting:
    name: str
    default: str
    meaning: str
    section: str
    line: int


def read_settings(path: Path = SETTINGS_FILE) -> list[Setting]:
    """Each module-level UPPER_CASE assignment: its comments on its own lines (else the comment
    lines just above it) are its meaning; the last `# --- Title ---` line above, its section."""
    source = path.read_text(encoding="utf-8")
    comments: dict[int, list[str]] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments.setdefault(token.start[0], []).append(token.string.lstrip("#").strip())
    lines = source.splitlines()
    sections = {
        number: match.group(1)
        for number, text in enumerate(lines, 1)
        if (match := _SECTION.match(text))
    }
    found = []
    for node in ast.parse(source).body:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if not isinstance(target, ast.Name) or not target.id.isupper():
            continue
        # A table's comments are its entries' (a middleware's slot); a value's, the setting's.
        entries = isinstance(node.value, ast.Dict | ast.List) and node.end_lineno > node.lineno
        last = node.lineno if entries else node.end_lineno
        own = [c for n in range(node.lineno, last + 1) for c in comments.get(n, [])]
        above = []
        number = node.lineno - 1
        while number in comments and lines[number - 1].lstrip().startswith("#"):
            if number in sections:
                break
            above.insert(0, " ".join(comments[number]))
            number -= 1
        section = next(
            (sections[n] for n in sorted(sections, reverse=True) if n < node.lineno), "Project"
        )
        default = " ".join(ast.unparse(node.value).split())
        found.append(Setting(target.id, default, " ".join(own or above), section, node.lineno))
    return found


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(settings: list[Setting] | None = None) -> str:
    """The reference as Markdown: one table per section, in the file's order."""
    settings = read_settings() if settings is None else settings
    out: list[str] = []
    section = None
    for setting in settings:
        if setting.section != section:
            section = setting.section
            out += ["", f"### {section}", "", "| setting | default | meaning |", "|---|---|---|"]
        default = setting.default
        if len(default) > DEFAULT_CHARS:
            default = default[: DEFAULT_CHARS - 1] + "…"
            where = f" (default in full: `settings.py` line {setting.line})"
        else:
            where = ""
        meaning = setting.meaning or SCRAPY_OWN
        out.append(f"| `{setting.name}` | `{_cell(default)}` | {_cell(meaning)}{where} |")
    return "\n".join(out).lstrip("\n") + "\n"
