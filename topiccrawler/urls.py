"""URL identity: one canonical form and one hash per page, shared by every component."""

from __future__ import annotations

import hashlib
from urllib.parse import urlsplit

from w3lib.url import canonicalize_url


def canonical_url(url: str) -> str:
    """w3lib's canonical form: sorted query, no fragment, normalised percent-escapes.

    >>> canonical_url("http://Example.com/a?b=2&a=1#top")
    'http://example.com/a?a=1&b=2'
    """
    return canonicalize_url(url)


def url_hash(url: str) -> str:
    """Hex SHA-1 of the canonical URL: the key that deduplicates pages before and after fetching."""
    return hashlib.sha1(canonical_url(url).encode("utf-8")).hexdigest()


def site_of(url: str) -> str:
    """The host a URL belongs to, lower-cased and without a leading `www.`."""
    host = (urlsplit(url).hostname or "").lower()
    return host.removeprefix("www.")


def host_in_domains(url: str, domains: tuple[str, ...] | list[str]) -> bool:
    """True when the URL's host is one of `domains` or a subdomain of one; ports are ignored
    (Scrapy's allow_domains compares the netloc, port included).

    >>> host_in_domains("http://news.example.com:8080/a", ["example.com"])
    True
    >>> host_in_domains("http://badexample.com/", ["example.com"])
    False
    """
    host = (urlsplit(url).hostname or "").lower()
    return any(host == d or host.endswith("." + d) for d in (d.lower() for d in domains))
