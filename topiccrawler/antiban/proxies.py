"""A pool of proxies with health (SPEC §2): each request gets the next healthy proxy in turn; a
proxy that fails (refused, timed out, broken tunnel) or gets blocked is benched, for a back-off
that doubles each time it is benched again, then tried once more. A success clears its back-off.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

from topiccrawler.redact import add_secret

SCHEMES = ("http", "https", "socks5", "socks5h", "socks4")


class ProxyFileError(ValueError):
    """A proxy list entry that cannot be used; `str()` names the file and line."""


def masked(url: str) -> str:
    """The proxy as it may be shown: scheme, host and port, never its credentials."""
    parts = urlsplit(url)
    return (
        f"{parts.scheme}://{parts.hostname}:{parts.port}"
        if parts.port
        else f"{parts.scheme}://{parts.hostname}"
    )


def check_proxy(url: str, where: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise ProxyFileError(f"{where}: '{masked(url)}' is not a proxy URL (scheme://host:port)")
    if parts.scheme.startswith("socks"):
        raise ProxyFileError(
            f"{where}: '{masked(url)}': Scrapy's downloader speaks to http(s) proxies only; "
            "put a SOCKS proxy behind an http bridge (e.g. privoxy, gost)"
        )
    add_secret(unquote(parts.password or "") or None)  # masked in the log from now on
    return url.strip()


def load_proxy_file(path: Path) -> list[str]:
    """One proxy URL per line; blank lines and # comments skipped."""
    proxies = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if line:
            proxies.append(check_proxy(line, f"{path}:{number}"))
    return proxies


@dataclass
class Proxy:
    url: str
    name: str  # masked
    ok: int = 0
    failed: int = 0
    benched: int = 0
    benched_until: float = 0.0
    backoff: float = 0.0


class ProxyPool:
    def __init__(self, urls: list[str], backoff: float = 60.0, max_backoff: float = 3600.0):
        self.proxies = [Proxy(url, masked(url)) for url in dict.fromkeys(urls)]
        self.base_backoff = backoff
        self.max_backoff = max_backoff
        self.turn = 0

    def __len__(self) -> int:
        return len(self.proxies)

    def choose(self, now: float, avoid: str | None = None) -> Proxy:
        """The next healthy proxy in turn (not `avoid` if another is healthy); when all are
        benched, the one back soonest."""
        healthy = [p for p in self.proxies if p.benched_until <= now]
        if len(healthy) > 1 and avoid is not None:
            healthy = [p for p in healthy if p.url != avoid] or healthy
        if not healthy:
            return min(self.proxies, key=lambda p: p.benched_until)
        self.turn = (self.turn + 1) % len(healthy)
        return healthy[self.turn]

    def success(self, proxy: Proxy) -> None:
        proxy.ok += 1
        proxy.backoff = 0.0

    def failure(self, proxy: Proxy, now: float) -> float:
        """Bench the proxy; returns for how long."""
        proxy.failed += 1
        proxy.benched += 1
        proxy.backoff = min(
            self.max_backoff, proxy.backoff * 2 if proxy.backoff else self.base_backoff
        )
        proxy.benched_until = now + proxy.backoff
        return proxy.backoff

    def by_url(self, url: str | None) -> Proxy | None:
        return next((p for p in self.proxies if p.url == url), None)
