"""Connect only to addresses that were checked: a resolver wrapping the crawl's own.

The address guard middleware decides per request, before anything is sent; this resolver makes
the decision stick. It learns every address of a name once (all of them, through getaddrinfo,
when the crawl uses the system resolver; the one answer of a custom resolver such as the
sandbox's), pins them, and at connection time hands out the pinned address only if it is public
or the middleware cleared it. A name that resolves to a public address when checked and to an
internal one later (DNS rebinding) therefore never reaches the internal one.

It wraps whatever TWISTED_DNS_RESOLVER installed, so it composes with any resolver; the
middleware installs it on the reactor before the crawl's first request.
"""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

from scrapy.exceptions import IgnoreRequest
from scrapy.resolver import CachingThreadedResolver
from scrapy.utils.datatypes import LocalCache
from twisted.internet import defer, threads
from twisted.internet._resolver import ComplexResolverSimplifier
from twisted.internet.base import BlockingResolver, ThreadedResolver
from twisted.internet.error import DNSLookupError
from twisted.internet.interfaces import IResolverSimple
from zope.interface import implementer

from topiccrawler.guard.addresses import InvalidHost, IPAddress, Refusal, parse_host, refusal

# Resolvers that only ask the system: the guard asks getaddrinfo itself, for every address.
SYSTEM_RESOLVERS = (CachingThreadedResolver, ThreadedResolver, BlockingResolver,
                    ComplexResolverSimplifier)  # fmt: skip


class AddressRefused(IgnoreRequest):
    """A request to an address the crawl must not reach; never a failure of the page."""

    def __init__(self, message: str, why: Refusal):
        super().__init__(message)
        self.refusal = why


class ConnectionRefusedByGuard(DNSLookupError):
    """A name resolved, at connection time, to an internal address nobody cleared. A lookup
    error to Twisted (which passes no other kind through its endpoints); the middleware turns
    it into AddressRefused by the name (`GuardedResolver.refused`)."""

    def __init__(self, name: str, address: IPAddress, why: Refusal):
        super().__init__(f"{name} resolves to {address}: {why.reason}; not connecting")
        self.refusal = why


@implementer(IResolverSimple)
class GuardedResolver:
    """IResolverSimple over the installed resolver: pins each name's checked addresses."""

    def __init__(self, inner: Any, reactor: Any, timeout: float = 60.0, cache_size: int = 10000):
        self.inner = inner
        self.reactor = reactor
        self.timeout = timeout
        self.pins: LocalCache[str, list[IPAddress]] = LocalCache(cache_size)
        self.cleared: set[tuple[str, IPAddress]] = set()  # (host key, address) allowed anyway
        self.trusted_names: set[str] = set()  # configured proxies: the user's own choice
        self.refused: LocalCache[str, Refusal] = LocalCache(1000)  # host key → why, at connection

    @classmethod
    def install(cls, reactor: Any, timeout: float = 60.0) -> GuardedResolver:
        """The reactor's guarded resolver, wrapping the installed one on first use."""
        current = reactor.resolver
        if isinstance(current, cls):
            return current
        guarded = cls(current, reactor, timeout)
        reactor.installResolver(guarded)
        return guarded

    def lookup(self, name: str) -> defer.Deferred[list[IPAddress]]:
        """Every address of a host (an address written in any form is itself), pinned."""
        try:
            host = parse_host(name)
        except InvalidHost as exc:
            return defer.fail(DNSLookupError(str(exc)))
        if host.address is not None:
            return defer.succeed([host.address])
        pinned = self.pins.get(host.key)
        if pinned is not None:
            return defer.succeed(pinned)
        d = self._resolve(host.key)

        def pin(addresses: list[IPAddress]) -> list[IPAddress]:
            self.pins[host.key] = addresses
            return addresses

        return d.addCallback(pin)

    def _resolve(self, name: str) -> defer.Deferred[list[IPAddress]]:
        if type(self.inner) in SYSTEM_RESOLVERS:
            d = threads.deferToThreadPool(
                self.reactor, self.reactor.getThreadPool(), socket.getaddrinfo,
                name, None, 0, socket.SOCK_STREAM,
            )  # fmt: skip
            d.addTimeout(self.timeout, self.reactor)
            d.addCallback(_addresses)
        else:
            d = self.inner.getHostByName(name)
            d.addCallback(lambda address: [ipaddress.ip_address(address)])

        def failed(failure):
            if failure.check(DNSLookupError):
                return failure
            raise DNSLookupError(f"{name}: {failure.getErrorMessage()}")

        return d.addErrback(failed)

    def clear(self, name: str, address: IPAddress) -> None:
        """The middleware allowed this internal address for this host."""
        self.cleared.add((parse_host(name).key, address))

    def permitted(self, key: str, address: IPAddress) -> Refusal | None:
        """None when a connection to `address` for host `key` may be made, else why not."""
        why = refusal(address)
        if why is None or why.always:
            return why
        if key in self.trusted_names or (key, address) in self.cleared:
            return None
        return why

    def getHostByName(self, name: str, timeout: Any = ()) -> defer.Deferred[str]:  # noqa: N802
        def connectable(addresses: list[IPAddress]) -> str:
            address = _first(addresses)
            key = parse_host(name).key
            why = self.permitted(key, address)
            if why is not None:
                self.refused[key] = Refusal(why.kind, f"resolves to {address}: {why.reason}")
                raise ConnectionRefusedByGuard(name, address, why)
            return str(address)

        return self.lookup(name).addCallback(connectable)


def _addresses(infos: list) -> list[IPAddress]:
    found: dict[IPAddress, None] = {}
    for _family, _type, _proto, _name, sockaddr in infos:
        found.setdefault(ipaddress.ip_address(str(sockaddr[0]).split("%", 1)[0]))
    if not found:
        raise DNSLookupError("no address")
    return list(found)


def _first(addresses: list[IPAddress]) -> IPAddress:
    """The address to connect to: the first IPv4 one, as Scrapy's resolvers choose, else IPv6."""
    return next((a for a in addresses if a.version == 4), addresses[0])
