"""Which addresses a crawl may reach: hosts in every written form, classified by `ipaddress`.

A URL written by a stranger can name an internal service in many ways: `127.0.0.2`,
`2130706434`, `0x7f000002`, `017700000002`, `127.2`, `[::ffff:127.0.0.2]`, `[2002:7f00:2::]`
(6to4), `[64:ff9b::7f00:2]` (NAT64). System resolvers accept the numeric IPv4 forms as addresses
(inet_aton), so the host is normalised first (the WHATWG URL standard's IPv4 parser), and an
IPv6 address that carries an IPv4 address is judged by both. Pure functions: nothing here
connects or resolves.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import unquote

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Cloud instance-metadata services (credentials live there): refused whatever is allowed.
# AWS/GCP/Azure/OpenStack/DigitalOcean/Oracle 169.254.169.254, AWS ECS 169.254.170.2, AWS IPv6
# fd00:ec2::254, Alibaba 100.100.100.200, Oracle Cloud Classic 192.0.0.192, Azure WireServer
# 168.63.129.16 (a public-range address, hence listed by address).
METADATA_ADDRESSES = frozenset(
    ipaddress.ip_address(a)
    for a in (
        "169.254.169.254", "169.254.170.2", "169.254.169.123", "fd00:ec2::254", "fd00:ec2::123",
        "100.100.100.200", "192.0.0.192", "168.63.129.16",
    )
)  # fmt: skip
METADATA_NAMES = frozenset(
    (
        "metadata.google.internal", "metadata.goog", "metadata", "instance-data",
        "instance-data.ec2.internal", "metadata.tencentyun.com", "metadata.azure.internal",
    )
)  # fmt: skip

SHARED_ADDRESS_SPACE = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT (RFC 6598)
UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")  # RFC 4193
RFC1918 = tuple(ipaddress.ip_network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))
BROADCAST = ipaddress.ip_address("255.255.255.255")
# IPv6 forms that carry an IPv4 address in their last 32 bits.
IPV4_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated (RFC 4291)
IPV4_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")  # SIIT (RFC 2765)
NAT64 = (ipaddress.ip_network("64:ff9b::/96"), ipaddress.ip_network("64:ff9b:1::/48"))

_FULL_STOPS = re.compile("[\u3002\uff0e\uff61]")  # ideographic and fullwidth full stops
_NUMBER = re.compile(r"^(?:0[xX][0-9a-fA-F]*|[0-9]+)$")


class InvalidHost(ValueError):
    """A host that looks numeric but is no address (`1.2.3.4.5`, `0x7g`, `256.1.1.1`)."""


@dataclass(frozen=True)
class Refusal:
    """Why an address is refused; `always`: even where allowed (metadata endpoints)."""

    kind: str  # short name for stats: loopback, private, cloud_metadata …
    reason: str
    always: bool = False


@dataclass(frozen=True)
class Host:
    """A URL's host normalised: `key` compares hosts; `address` when the host is an address."""

    key: str
    address: IPAddress | None = None


def parse_host(host: str) -> Host:
    """Normalise a URL host: percent-decoded, NFKC, lower case, no trailing dot, no brackets;
    an address in any IPv4 or IPv6 form becomes that address (raises InvalidHost).

    >>> parse_host("0x7f000002").address, parse_host("127.2").address
    (IPv4Address('127.0.0.2'), IPv4Address('127.0.0.2'))
    >>> parse_host("[::FFFF:127.0.0.2]").key
    '::ffff:7f00:2'
    """
    text = unicodedata.normalize("NFKC", unquote(host or ""))
    text = _FULL_STOPS.sub(".", text).strip().lower()
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    if ":" in text:
        try:
            address = ipaddress.IPv6Address(text.split("%", 1)[0])  # zone id does not matter
        except ValueError as exc:
            raise InvalidHost(f"{host!r} is not an IPv6 address") from exc
        return Host(address.compressed, address)
    text = text.rstrip(".")
    ipv4 = _parse_ipv4(text)
    if ipv4 is not None:
        return Host(str(ipv4), ipv4)
    return Host(text)


def _parse_ipv4(text: str) -> ipaddress.IPv4Address | None:
    """The WHATWG URL standard's IPv4 parser: 1 to 4 parts, each decimal, 0x-hex or 0-octal,
    the last filling the remaining bytes. None when the host does not end in a number."""
    parts = text.split(".")
    if not parts or not _NUMBER.match(parts[-1]):
        return None
    if len(parts) > 4:
        raise InvalidHost(f"{text!r}: more than four parts in an IPv4 address")
    numbers = []
    for part in parts:
        if part[:2] in ("0x", "0X"):
            digits, base = part[2:] or "0", 16
        elif len(part) > 1 and part[0] == "0":
            digits, base = part[1:], 8
        else:
            digits, base = part, 10
        try:
            numbers.append(int(digits, base))
        except ValueError as exc:
            raise InvalidHost(f"{text!r}: {part!r} is not a number") from exc
    if any(n > 255 for n in numbers[:-1]) or numbers[-1] >= 256 ** (5 - len(numbers)):
        raise InvalidHost(f"{text!r}: a part is out of range")
    value = numbers[-1]
    for i, number in enumerate(numbers[:-1]):
        value += number << (8 * (3 - i))
    return ipaddress.IPv4Address(value)


def embedded_ipv4(address: IPAddress) -> list[tuple[str, ipaddress.IPv4Address]]:
    """IPv4 addresses an IPv6 address carries, with the form's name (mapped, 6to4, NAT64 …)."""
    if address.version == 4:
        return []
    found = []
    last32 = ipaddress.IPv4Address(int(address) & 0xFFFFFFFF)
    if address.ipv4_mapped is not None:
        found.append(("IPv4-mapped", address.ipv4_mapped))
    elif address in IPV4_TRANSLATED:
        found.append(("IPv4-translated", last32))
    elif address in IPV4_COMPATIBLE and int(address) > 1:
        found.append(("IPv4-compatible", last32))
    if address.sixtofour is not None:
        found.append(("6to4", address.sixtofour))
    if address.teredo is not None:
        server, client = address.teredo
        found += [("Teredo server", server), ("Teredo client", client)]
    if any(address in net for net in NAT64):
        found.append(("NAT64", last32))
    return found


def _own_refusal(address: IPAddress) -> Refusal | None:
    if address in METADATA_ADDRESSES:
        return Refusal("cloud_metadata", "a cloud metadata endpoint", always=True)
    checks = (
        (address.is_unspecified, "unspecified", "the unspecified address"),
        (address.is_loopback, "loopback", "loopback"),
        (address.is_link_local, "link_local", "link-local"),
        (address in SHARED_ADDRESS_SPACE, "shared", "shared address space (carrier-grade NAT)"),
        (address in UNIQUE_LOCAL, "unique_local", "unique-local (fc00::/7)"),
        (address.version == 6 and address.is_site_local, "site_local", "site-local (fec0::/10)"),
        (address.is_multicast, "multicast", "multicast"),
        (address == BROADCAST, "broadcast", "broadcast"),
        (any(address in net for net in RFC1918), "private", "private (RFC 1918)"),
        (address.is_reserved, "reserved", "reserved"),
        (not address.is_global, "reserved", "not globally routable (special-purpose)"),
    )
    for refused, kind, reason in checks:
        if refused:
            return Refusal(kind, reason)
    return None


def refusal(address: IPAddress) -> Refusal | None:
    """Why a crawl must not connect to this address by default; None for a public address.
    An IPv6 address that carries an IPv4 address (mapped, 6to4, NAT64 …) is judged by the
    IPv4 address it reaches."""
    embedded = embedded_ipv4(address)
    if not embedded:
        return _own_refusal(address)
    found = [(form, v4, r) for form, v4 in embedded if (r := _own_refusal(v4)) is not None]
    found.sort(key=lambda f: not f[2].always)  # a metadata endpoint first
    if not found:
        return None
    form, v4, r = found[0]
    return Refusal(r.kind, f"{r.reason} ({v4}, written as {form})", always=r.always)


def host_refusal(host: Host) -> Refusal | None:
    """Refusal of a host by its name alone: metadata service names."""
    if host.key in METADATA_NAMES:
        return Refusal("cloud_metadata", "a cloud metadata endpoint", always=True)
    return None


def default_port(scheme: str) -> int:
    return 443 if scheme == "https" else 80


@dataclass
class AllowList:
    """ALLOWED_ADDRESSES: networks or addresses (any port), `address:port`, `name`, `name:port`.

    >>> allowed = AllowList.parse(["10.1.0.0/16", "127.0.0.1:8765", "wiki.corp"])
    >>> allowed.allows(parse_host("10.1.2.3"), 443), allowed.allows(parse_host("127.0.0.1"), 80)
    (True, False)
    """

    networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = field(default_factory=list)
    endpoints: set[tuple[str, int | None]] = field(default_factory=set)  # (host key, port)

    @classmethod
    def parse(cls, entries: list[str]) -> AllowList:
        allowed = cls()
        for entry in entries:
            text = entry.strip()
            if not text:
                continue
            try:
                allowed.networks.append(ipaddress.ip_network(text, strict=False))
                continue
            except ValueError:
                pass
            host, port = _split_host_port(text)
            try:
                parsed = parse_host(host)
            except InvalidHost as exc:
                raise ValueError(f"ALLOWED_ADDRESSES: {entry!r}: {exc}") from exc
            if not parsed.key or not re.fullmatch(r"[\w.\-:]+", parsed.key):
                raise ValueError(
                    f"ALLOWED_ADDRESSES: {entry!r} is not a network, an address, a host name "
                    "or host:port"
                )
            allowed.endpoints.add((parsed.key, port))
        return allowed

    def allows(self, host: Host, port: int, address: IPAddress | None = None) -> bool:
        """Whether a request to this host and port, connecting to `address` (the host's own
        address when it is one), is allowed although the address is internal."""
        address = address or host.address
        # an IPv4-mapped address (::ffff:10.0.0.1) is the IPv4 address it maps
        mapped = address.ipv4_mapped if address is not None and address.version == 6 else None
        candidates = [a for a in (address, mapped) if a]
        if any(a.version == net.version and a in net for a in candidates for net in self.networks):
            return True
        keys = {host.key} | {str(a) for a in candidates}
        return any((key, p) in self.endpoints for key in keys for p in (port, None))


def _split_host_port(text: str) -> tuple[str, int | None]:
    """`[::1]:80`, `host:8080`, `host` → (host, port or None)."""
    match = re.fullmatch(r"\[([^\]]+)\](?::(\d+))?", text)
    if match:
        return match.group(1), int(match.group(2)) if match.group(2) else None
    host, sep, port = text.rpartition(":")
    if sep and port.isdigit() and ":" not in host:
        return host, int(port)
    return text, None


@dataclass(frozen=True)
class Origin:
    """Scheme, normalised host and port: what a seed file's URL trusts."""

    scheme: str
    host: str
    port: int

    @classmethod
    def of(cls, scheme: str, host: str, port: int | None) -> Origin:
        scheme = scheme.lower()
        return cls(scheme, parse_host(host).key, port or default_port(scheme))
