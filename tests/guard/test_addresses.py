"""The classifier on literal addresses: no connection, no DNS query."""

from __future__ import annotations

import ipaddress

import pytest

from topiccrawler.guard.addresses import (
    AllowList,
    InvalidHost,
    Origin,
    host_refusal,
    parse_host,
    refusal,
)


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.2", "2130706434", "0x7f000002", "0X7F000002", "017700000002", "127.2",
        "127.0.2", "0x7f.0.0.2", "0177.0.0.02", "127.0.0.2.", "１２７.０.０.２", "127。0。0。2",
        "127%2e0%2e0%2e2",
    ],
)  # fmt: skip
def test_ipv4_forms_are_one_address(host):
    parsed = parse_host(host)
    assert parsed.address == ipaddress.ip_address("127.0.0.2") and parsed.key == "127.0.0.2"
    assert refusal(parsed.address).kind == "loopback"


@pytest.mark.parametrize(
    "host, form",
    [
        ("[::ffff:127.0.0.2]", "IPv4-mapped"),
        ("[::ffff:7f00:2]", "IPv4-mapped"),
        ("[::127.0.0.2]", "IPv4-compatible"),
        ("[::ffff:0:127.0.0.2]", "IPv4-translated"),
        ("[2002:7f00:2::]", "6to4"),
        ("[64:ff9b::127.0.0.2]", "NAT64"),
        ("[64:ff9b:1::7f00:2]", "NAT64"),
    ],
)
def test_ipv6_forms_are_judged_by_the_ipv4_address_they_carry(host, form):
    why = refusal(parse_host(host).address)
    assert why.kind == "loopback" and f"127.0.0.2, written as {form}" in why.reason


def test_mapped_public_addresses_are_public():
    assert refusal(parse_host("[::ffff:8.8.8.8]").address) is None
    assert refusal(parse_host("[2002:808:808::1]").address) is None
    assert refusal(parse_host("[2001:4860:4860::8888]").address) is None
    assert refusal(parse_host("93.184.216.34").address) is None


@pytest.mark.parametrize(
    "host, kind",
    [
        ("10.0.0.1", "private"), ("172.31.255.1", "private"), ("192.168.0.1", "private"),
        ("169.254.1.1", "link_local"), ("[fe80::1%25eth0]", "link_local"),
        ("100.64.0.1", "shared"), ("100.127.255.254", "shared"),
        ("[fc00::1]", "unique_local"), ("[fd12:3456::1]", "unique_local"),
        ("0.0.0.0", "unspecified"), ("0", "unspecified"), ("[::]", "unspecified"),
        ("[::1]", "loopback"), ("224.0.0.251", "multicast"), ("[ff02::1]", "multicast"),
        ("255.255.255.255", "broadcast"), ("240.0.0.1", "reserved"), ("192.0.2.7", "reserved"),
        ("198.18.0.1", "reserved"), ("[fec0::1]", "site_local"),
    ],
)  # fmt: skip
def test_internal_addresses_are_refused_by_default(host, kind):
    why = refusal(parse_host(host).address)
    assert why is not None and why.kind == kind and not why.always


@pytest.mark.parametrize(
    "host",
    [
        "169.254.169.254", "0xa9fea9fe", "2852039166", "0251.0376.0251.0376", "169.254.170.2",
        "[fd00:ec2::254]", "100.100.100.200", "[::ffff:169.254.169.254]", "168.63.129.16",
    ],
)  # fmt: skip
def test_metadata_endpoints_are_refused_always(host):
    why = refusal(parse_host(host).address)
    assert why.kind == "cloud_metadata" and why.always


@pytest.mark.parametrize("name", ["metadata.google.internal", "METADATA.google.internal."])
def test_metadata_names_are_refused_without_resolving(name):
    host = parse_host(name)
    assert host.address is None and host_refusal(host).always


@pytest.mark.parametrize(
    "host", ["1.2.3.4.5", "256.1.1.1", "0x7f.0x1g.0.1", "foo.123", "4294967296"]
)
def test_numeric_hosts_that_are_no_address_are_invalid(host):
    with pytest.raises(InvalidHost):
        parse_host(host)


def test_names_stay_names():
    assert parse_host("News.Example.COM.") == parse_host("news.example.com")
    assert parse_host("news.example.com").address is None
    assert parse_host("1password.com").address is None  # a number first is no address


def test_allow_list_entries():
    allowed = AllowList.parse(
        ["10.1.0.0/16", "192.168.5.5", "127.0.0.1:8765", "[::1]:8080", "wiki.corp", "git.corp:443"]
    )
    assert allowed.allows(parse_host("10.1.200.3"), 80)
    assert allowed.allows(parse_host("[::ffff:10.1.0.9]"), 80)  # the same IPv4 address
    assert not allowed.allows(parse_host("10.2.0.1"), 80)
    assert allowed.allows(parse_host("192.168.5.5"), 9999)
    assert allowed.allows(parse_host("2130706433"), 8765)  # 127.0.0.1, written as a number
    assert not allowed.allows(parse_host("127.0.0.1"), 8766)
    assert allowed.allows(parse_host("[::1]"), 8080)
    assert allowed.allows(parse_host("wiki.corp"), 80, ipaddress.ip_address("10.9.9.9"))
    assert allowed.allows(parse_host("git.corp"), 443, ipaddress.ip_address("10.9.9.9"))
    assert not allowed.allows(parse_host("git.corp"), 22, ipaddress.ip_address("10.9.9.9"))
    with pytest.raises(ValueError, match="ALLOWED_ADDRESSES"):
        AllowList.parse(["not a host/x"])


def test_origins_compare_normalised_hosts_and_default_ports():
    assert Origin.of("HTTP", "127.0.0.1", None) == Origin.of("http", "2130706433", 80)
    assert Origin.of("https", "a.cn", None) != Origin.of("http", "a.cn", 443)
