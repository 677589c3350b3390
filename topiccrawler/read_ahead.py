"""Work of later stages done where a page was read: in an extraction worker, on another core.

The crawl's process is what limits its rate (docs/benchmarks.md, Throughput); the stages after
extraction do per-page work that needs nothing but the page and the crawl's fixed settings (the
relevance score and the page classifier's features, the scripted-page check, the briefing, the
spider's links). A
worker does it beside the extraction and sends it back in `PageItem.read_ahead`, by stage name;
each stage takes its part, and uses it only when it was computed from the very text the stage
reads now (a key of that text, the same in every process), else does the work itself.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any

# The stages' names in PageItem.read_ahead.
SCORE = "score"  # relevance/judge.py PageScore: middlewares/relevance.py
SCRIPT_NEED = "script_need"  # render/detect.py ScriptNeed or None: middlewares/scripted.py
BRIEFING = "briefing"  # briefing Briefing: pipelines/briefing.py
LINKS = "links"  # extract/links.py PageLink list: spiders/topic.py


def text_key(*parts: str | None) -> int:
    """A key of the texts (CRC-32 over them in order): the same in every process, unlike
    hash(), which a spawned worker seeds afresh."""
    key = 0
    for part in parts:
        encoded = b"\x00" if part is None else part.encode("utf-8", "surrogatepass") + b"\x01"
        key = zlib.crc32(encoded, key)
    return key


@dataclass
class Ahead:
    """One stage's result, and the key of the text it was computed from."""

    key: int
    value: Any


def put(store: dict[str, Ahead], stage: str, value: Any, *texts: str | None) -> None:
    store[stage] = Ahead(text_key(*texts), value)


def take(store: dict[str, Ahead], stage: str, *texts: str | None) -> Ahead | None:
    """The stage's result, removed from `store`, if it was computed from `texts`; else None."""
    ahead = store.pop(stage, None)
    if ahead is None or ahead.key != text_key(*texts):
        return None
    return ahead
