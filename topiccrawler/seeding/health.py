"""Per-engine health: back off an engine that blocks us, keep crawling from the other entrance."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class EngineHealth:
    """Tracks one engine. `backoff` doubles with every block in a row, up to `max_backoff`."""

    backoff: float = 300.0
    max_backoff: float = 3600.0
    empty_streak_limit: int = 20  # empty answers in a row, after results, that mean "blocked"
    blocked_until: float = 0.0
    blocks_in_a_row: int = 0
    had_results: bool = False
    zero_streak: int = 0
    last_reason: str | None = None

    def available(self, now: float) -> bool:
        return now >= self.blocked_until

    def record_block(self, reason: str, now: float) -> float:
        """Note a block; returns how many seconds the engine is now left alone."""
        self.blocks_in_a_row += 1
        wait = min(self.backoff * 2 ** (self.blocks_in_a_row - 1), self.max_backoff)
        self.blocked_until = now + wait
        self.last_reason = reason
        self.zero_streak = 0
        return wait

    def record_answer(self, hits: int, now: float, broad: bool = True) -> str | None:
        """Note a result page; returns a block reason when empty answers look like a block.

        Only broad queries (no `site:`) count towards the streak: a narrow query may rightly
        find nothing.
        """
        if hits:
            self.had_results = True
            self.zero_streak = 0
            self.blocks_in_a_row = 0
            return None
        if not broad:
            return None
        self.zero_streak += 1
        if self.had_results and self.zero_streak >= self.empty_streak_limit:
            return f"{self.zero_streak} empty answers in a row after earlier results"
        return None
