"""The package's layers: no import cycle between its packages (imports inside functions count
too: they are how a cycle hides)."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "topiccrawler"


def part_of(module: str) -> str:
    """topiccrawler.frontier.queue → frontier; topiccrawler.items → items."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def imports_between_parts() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(("topiccrawler", *path.relative_to(PACKAGE).with_suffix("").parts))
        source = part_of(module.removesuffix(".__init__"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("topiccrawler"):
                targets = (
                    [f"topiccrawler.{alias.name}" for alias in node.names]
                    if node.module == "topiccrawler"
                    else [node.module]
                )
                graph[source].update(part_of(t) for t in targets if part_of(t) != source)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one part (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in list(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycle_between_packages():
    assert cycles(imports_between_parts()) == []


def test_the_check_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
