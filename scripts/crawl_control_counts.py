"""Counts what issue 57 measures in the package's crawl-control code: getattr/hasattr probes of
other objects by name (the name a string, the receiver not self), reaches into private names of
other objects and modules (lxml's `etree._Element` type, `super()._x` and a namedtuple's
`_replace` are public API and not counted), SimpleNamespace fakes, per-crawler
WeakKeyDictionary globals and the longest modules. `-v` lists each.

    .venv/bin/python scripts/crawl_control_counts.py [-v]
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "topiccrawler"
PUBLIC_UNDERSCORED = {"_Element", "_ListErrorLog", "_replace", "_asdict", "_fields", "_exit"}


def is_self(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def is_super(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "super"


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORED


def counts() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {
        "getattr/hasattr probes": [],
        "private reaches": [],
        "SimpleNamespace": [],
        "WeakKeyDictionary globals": [],
    }
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE.parent)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            at = f"{where}:{getattr(node, 'lineno', 0)}"
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "hasattr")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                if private(node.args[1].value):
                    found["private reaches"].append(f"{at} {ast.unparse(node)[:80]}")
                if not is_self(node.args[0]):
                    found["getattr/hasattr probes"].append(f"{at} {ast.unparse(node)[:80]}")
            elif (
                isinstance(node, ast.Attribute)
                and private(node.attr)
                and not is_self(node.value)
                and not is_super(node.value)
            ):
                found["private reaches"].append(f"{at} {ast.unparse(node)[:80]}")
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if private(alias.name):
                        found["private reaches"].append(
                            f"{at} from {node.module} import {alias.name}"
                        )
            if isinstance(node, ast.Name) and node.id == "SimpleNamespace":
                found["SimpleNamespace"].append(at)
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "WeakKeyDictionary":
                found["WeakKeyDictionary globals"].append(at)
    return found


def main() -> None:
    verbose = "-v" in sys.argv
    for label, rows in counts().items():
        print(f"{label}: {len(rows)}")
        if verbose:
            for row in rows:
                print(f"    {row}")
    sizes = sorted(
        ((len(p.read_text(encoding="utf-8").splitlines()), p.relative_to(PACKAGE.parent))
         for p in PACKAGE.rglob("*.py")),
        reverse=True,
    )  # fmt: skip
    print("modules over 800 lines:", ", ".join(f"{p} {n}" for n, p in sizes if n > 800) or "none")


if __name__ == "__main__":
    main()
