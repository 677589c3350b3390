"""URL identity: one canonical form and one hash per page, shared by every component.

Two addresses that differ only in a tracking parameter (`?from=related`, `spm=…`, `utm_*`) are
one page: the parameter says where a click came from, not what is shown. They are removed before
the spider requests a URL (`strip_tracking`, with the URL_TRACKING_PARAMETERS setting), so
everything after it (fingerprints, known URLs, storage) sees one address per page.
"""

from __future__ import annotations

import fnmatch
import hashlib
import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from urllib.parse import parse_qsl, urlencode, urlsplit

from w3lib.url import canonicalize_url

# Query parameters that only record where a visitor came from (shell patterns, case-folded).
# Chinese portals: from/spm/scm (Alibaba, Sina, NetEase); ad networks: utm_*, gclid, fbclid, …
TRACKING_PARAMETERS: tuple[str, ...] = (
    "utm_*", "from", "spm", "scm", "gclid", "dclid", "fbclid", "msclkid", "yclid", "igshid",
    "mc_cid", "mc_eid", "_hsenc", "_hsmi", "wt.mc_id", "share_source", "share_medium",
)  # fmt: skip


def strip_tracking(url: str, parameters: Iterable[str] = TRACKING_PARAMETERS) -> str:
    """The URL without its tracking parameters (order of the others kept, fragment dropped).

    >>> strip_tracking("http://a.cn/p.shtml?id=3&from=related&utm_source=x#c")
    'http://a.cn/p.shtml?id=3'
    """
    parts = urlsplit(url)
    if not parts.query:
        return parts._replace(fragment="").geturl() if parts.fragment else url
    tracking = _matcher(tuple(parameters))
    query = [
        (key, value)
        for key, value in parse_qsl(parts.query, keep_blank_values=True)
        if not tracking(key.lower())
    ]
    return parts._replace(query=urlencode(query, doseq=True), fragment="").geturl()


@lru_cache(maxsize=8)
def _matcher(patterns: tuple[str, ...]) -> Callable[[str], object]:
    """One compiled regex for a list of shell patterns (case-folded)."""
    if not patterns:
        return lambda key: None
    return re.compile("|".join(fnmatch.translate(p.lower()) for p in patterns)).match


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
