"""A Scrapy DNS resolver that sends the sandbox's `.test` hosts to 127.0.0.1.

`.test` is reserved for testing (RFC 6761), so no real site is ever shadowed. Names under
`.test` that the sandbox does not serve fail at once as unknown hosts (a dead link), without
asking any real DNS server; other names resolve as usual.
"""

from __future__ import annotations

from scrapy.resolver import CachingThreadedResolver
from twisted.internet import defer
from twisted.internet.error import DNSLookupError

SANDBOX_TLD = ".test"


class SandboxResolver(CachingThreadedResolver):
    """DNS_RESOLVER for crawls of the sandbox web; the hosts come from SANDBOX_HOSTS."""

    hosts: frozenset[str] = frozenset()

    @classmethod
    def from_crawler(cls, crawler, reactor):
        resolver = super().from_crawler(crawler, reactor)
        resolver.hosts = frozenset(h.lower() for h in crawler.settings.getlist("SANDBOX_HOSTS"))
        return resolver

    def getHostByName(self, name: str, timeout=None):  # noqa: N802 (Twisted's interface)
        lowered = name.lower()
        if lowered.endswith(SANDBOX_TLD):
            if lowered in self.hosts:
                return defer.succeed("127.0.0.1")
            return defer.fail(DNSLookupError(f"{name}: not a sandbox host"))
        return super().getHostByName(name, timeout)
