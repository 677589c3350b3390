"""Per-engine health: back off an engine that blocks us, give up on one that cannot be reached,
and say once, at ERROR, what the user can do about it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from scrapy.exceptions import (
    CannotResolveHostError,
    DownloadConnectionRefusedError,
    DownloadTimeoutError,
)
from twisted.internet.error import (
    ConnectionRefusedError,
    DNSLookupError,
    TCPTimedOutError,
    TimeoutError,
)

# Failures that mean nobody answers (after Scrapy's retries, for pages): no host, no listener,
# no answer in time. A page that fails so counts towards a dead link; an engine, unreachable.
UNREACHABLE = (
    CannotResolveHostError,
    DNSLookupError,
    DownloadConnectionRefusedError,
    ConnectionRefusedError,
    DownloadTimeoutError,
    TimeoutError,
    TCPTimedOutError,
)


@dataclass
class EngineHealth:
    """Tracks one engine. `backoff` doubles with every block in a row, up to `max_backoff`.

    An engine that refuses connections, does not resolve or does not answer in time is
    `unreachable` for the rest of the crawl: its remaining queries are not sent (they stay
    unanswered, so the next crawl asks them). Queries that come up while a blocked engine backs
    off are `held` and sent again when the back-off ends.
    """

    backoff: float = 300.0
    max_backoff: float = 3600.0
    empty_streak_limit: int = 20  # empty answers in a row, after results, that mean "blocked"
    blocked_until: float = 0.0
    blocks_in_a_row: int = 0
    had_results: bool = False
    zero_streak: int = 0
    last_reason: str | None = None
    unreachable: str | None = None  # why the engine cannot be reached, once it is known
    reported: bool = False  # the one ERROR line about this engine was logged
    held: list = field(default_factory=list)  # query requests waiting for the back-off to end

    def available(self, now: float) -> bool:
        return self.unreachable is None and now >= self.blocked_until

    def record_block(self, reason: str, now: float) -> float:
        """Note a block; returns how many seconds the engine is now left alone."""
        self.blocks_in_a_row += 1
        wait = min(self.backoff * 2 ** (self.blocks_in_a_row - 1), self.max_backoff)
        self.blocked_until = now + wait
        self.last_reason = reason
        self.zero_streak = 0
        return wait

    def record_unreachable(self, reason: str) -> bool:
        """Note that the engine cannot be reached; True the first time (report it then)."""
        first = self.unreachable is None
        self.unreachable = self.unreachable or reason
        return first

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


def unreachable_fix(name: str, kind: str, url: str, seed_file: Path | None) -> str:
    """What to do about an engine that cannot be reached, naming its server and the seed file."""
    where = f" in {seed_file}" if seed_file else ""
    remove = f"remove '{name}' from [search].engines{where}"
    parts = urlsplit(url)
    server = f"{parts.scheme}://{parts.netloc}"
    if kind == "searxng":
        return f"start SearXNG at {server} (with the JSON format enabled) or {remove}"
    if parts.hostname in ("127.0.0.1", "localhost", "::1"):
        return f"start the search server at {server} or {remove}"
    return f"check the network connection to {server} (or PROXIES) or {remove}"


def blocked_fix(name: str, seed_file: Path | None) -> str:
    """What to do about an engine that answers with captchas or rate limits."""
    where = f" in {seed_file}" if seed_file else ""
    return (
        "its queries wait for the back-off and the crawl goes on from the other entrance; for "
        "long crawls run a SearXNG of your own, set PROXIES, or lower SEARCH_MAX_QUERIES "
        f"(or remove '{name}' from [search].engines{where})"
    )
