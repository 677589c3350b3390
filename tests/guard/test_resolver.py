"""The guarded resolver: checked addresses are pinned, so a name that changes its answer
(DNS rebinding) never reaches an internal address. Nothing here connects anywhere."""

from __future__ import annotations

import ipaddress

import pytest
from scrapy.resolver import CachingThreadedResolver
from scrapy.utils.defer import deferred_f_from_coro_f, maybe_deferred_to_future
from twisted.internet import defer, reactor
from twisted.internet.interfaces import IResolverSimple
from zope.interface import implementer

from topiccrawler.guard.resolver import ConnectionRefusedByGuard, GuardedResolver

PUBLIC, INTERNAL = "93.184.216.34", "127.0.0.2"


@implementer(IResolverSimple)
class RebindingResolver:
    """Answers a public address the first time a name is asked, an internal one after that
    (what an attacker's DNS server with a zero TTL does)."""

    def __init__(self):
        self.asked: list[str] = []

    def getHostByName(self, name, timeout=()):  # noqa: N802
        self.asked.append(name)
        return defer.succeed(PUBLIC if self.asked.count(name) == 1 else INTERNAL)


def result(d: defer.Deferred):
    """The outcome of an already-fired Deferred: its value, or the exception it failed with."""
    out = []
    d.addBoth(out.append)
    assert out, "the Deferred has not fired"
    return out[0].value if hasattr(out[0], "value") and hasattr(out[0], "check") else out[0]


def test_connection_goes_to_the_address_that_was_checked():
    inner = RebindingResolver()
    guarded = GuardedResolver(inner, reactor)
    checked = result(guarded.lookup("rebind.example"))  # what the middleware checks
    assert checked == [ipaddress.ip_address(PUBLIC)]
    for _ in range(3):  # every connection later: the pinned address, not a new answer
        assert result(guarded.getHostByName("rebind.example")) == PUBLIC
    assert inner.asked == ["rebind.example"]


def test_a_new_answer_is_checked_again_at_connection_time():
    inner = RebindingResolver()
    guarded = GuardedResolver(inner, reactor, cache_size=1)
    result(guarded.lookup("rebind.example"))
    result(guarded.lookup("other.example"))  # the pin of rebind.example is evicted
    refused = result(guarded.getHostByName("rebind.example"))
    assert isinstance(refused, ConnectionRefusedByGuard)
    assert refused.refusal.kind == "loopback" and INTERNAL in str(refused)


def test_cleared_addresses_and_trusted_names_connect():
    inner = RebindingResolver()
    guarded = GuardedResolver(inner, reactor, cache_size=1)
    result(guarded.lookup("intranet.example"))
    result(guarded.lookup("other.example"))
    guarded.clear("intranet.example", ipaddress.ip_address(INTERNAL))  # ALLOWED_ADDRESSES
    assert result(guarded.getHostByName("intranet.example")) == INTERNAL
    guarded.trusted_names.add("proxy.example")  # a configured proxy
    result(guarded.lookup("proxy.example"))
    guarded.pins.clear()
    assert result(guarded.getHostByName("proxy.example")) == INTERNAL


@pytest.mark.parametrize("name", ["2130706434", "0x7f000002", "127.2", "169.254.169.254"])
def test_numeric_names_are_addresses_not_queries(name):
    inner = RebindingResolver()
    guarded = GuardedResolver(inner, reactor)
    assert isinstance(result(guarded.getHostByName(name)), ConnectionRefusedByGuard)
    assert inner.asked == []


def test_metadata_is_refused_even_when_cleared():
    guarded = GuardedResolver(RebindingResolver(), reactor)
    guarded.clear("169.254.169.254", ipaddress.ip_address("169.254.169.254"))
    guarded.trusted_names.add("169.254.169.254")
    assert isinstance(result(guarded.getHostByName("169.254.169.254")), ConnectionRefusedByGuard)


@deferred_f_from_coro_f
async def test_every_address_of_a_name_from_the_system_resolver():
    """`localhost` (from /etc/hosts, no DNS server): all its addresses are learnt and checked."""
    guarded = GuardedResolver(CachingThreadedResolver(reactor, 0, 5.0), reactor, timeout=5)
    addresses = await maybe_deferred_to_future(guarded.lookup("localhost"))
    assert ipaddress.ip_address("127.0.0.1") in addresses
    assert all(a.is_loopback for a in addresses)
    with pytest.raises(ConnectionRefusedByGuard):
        await maybe_deferred_to_future(guarded.getHostByName("localhost"))


def test_install_wraps_the_installed_resolver_once():
    before = reactor.resolver  # an earlier crawl in this process may have installed the guard
    base = before.inner if isinstance(before, GuardedResolver) else before
    reactor.installResolver(base)
    try:
        guarded = GuardedResolver.install(reactor)
        assert guarded.inner is base and reactor.resolver is guarded
        assert GuardedResolver.install(reactor) is guarded
    finally:
        reactor.installResolver(before)
