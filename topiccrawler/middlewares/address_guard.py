"""No request to internal addresses: every outgoing request is checked before it is sent.

Start URLs, search hits, links, redirects and meta refreshes (new requests through the whole
chain), robots.txt and engine requests all pass this middleware first (it sits before
RobotsTxtMiddleware, so a refused host's robots.txt is not fetched either). The host is
normalised (every IPv4 and IPv6 form), a name is resolved and every address it has is checked;
the guarded resolver then connects only to what was checked (see `topiccrawler/guard/`).

Trusted as the user's own choice: the exact scheme, host and port of the spider's start URLs
(the seed file's authority start URLs, feeds and sitemaps, login URLs and engine URLs) and
ALLOWED_ADDRESSES. Being trusted does not extend to where a trusted site redirects or links.
Cloud metadata endpoints are refused always. A refusal is logged once per host and counted; the crawl goes on.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from urllib.parse import urlsplit

from scrapy import Request, Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import CannotResolveHostError, NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.error import DNSLookupError

from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.guard.addresses import (
    AllowList,
    InvalidHost,
    Origin,
    Refusal,
    default_port,
    host_refusal,
    parse_host,
    refusal,
)
from topiccrawler.guard.resolver import AddressRefused, GuardedResolver
from topiccrawler.guard.text import escape_controls
from topiccrawler.signals import address_guard_wanted
from topiccrawler.topics.model import SeedList

logger = logging.getLogger(__name__)

STATS = "topiccrawler/guard/refused"
LOOKUP_ERRORS = (DNSLookupError, CannotResolveHostError)


class AddressGuardMiddleware:
    def __init__(self, crawler: Crawler, allowed: AllowList):
        self.crawler = crawler
        self.stats = crawler.stats
        self.allowed = allowed
        self.timeout = crawler.settings.getfloat("DNS_TIMEOUT")
        self.trusted: set[Origin] = set()
        self.resolver: GuardedResolver | None = None
        self.refused_hosts: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> AddressGuardMiddleware:
        settings = crawler.settings
        if not settings.getbool("ADDRESS_GUARD_ENABLED"):
            raise NotConfigured
        middleware = cls(crawler, AllowList.parse(settings.getlist("ALLOWED_ADDRESSES")))
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        crawler.signals.connect(
            middleware.request_reached_downloader, signal=signals.request_reached_downloader
        )
        crawler.signals.connect(middleware.wanted, signal=address_guard_wanted)
        return middleware

    def wanted(self) -> AddressGuardMiddleware:
        """`address_guard_wanted`: the guard, for the browser's download handler."""
        return self

    def spider_opened(self, spider: Spider) -> None:
        self.trust(trusted_urls(spider, crawl_topic(self.crawler).seeds))

    def trust(self, urls: Iterable[str]) -> None:
        """Trust the exact scheme, host and port of these URLs."""
        for url in urls:
            try:
                parts = urlsplit(url)
                if parts.scheme in ("http", "https") and parts.hostname:
                    self.trusted.add(Origin.of(parts.scheme, parts.hostname, parts.port))
            except (ValueError, InvalidHost):
                continue  # the spider reports its own malformed start URLs

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        host, why = await self.check(request.url)
        if why is not None:
            self.refuse(request, host, why)

    def process_exception(self, request: Request, exception: Exception, spider=None) -> None:
        """A connection the resolver refused (a name not checked here, or whose answer changed
        since): a refusal like any other, not a dead link. Runs after RetryMiddleware's."""
        if self.resolver is None or not isinstance(exception, LOOKUP_ERRORS):
            return
        proxy = request.meta.get("proxy") or ""
        for url in (request.url, proxy if "://" in proxy else f"http://{proxy}"):
            try:
                host = parse_host(urlsplit(url).hostname or "").key
            except (ValueError, InvalidHost):
                continue
            why = self.resolver.refused.get(host) if host else None
            if why is not None:
                self._count(host, why, request.url)
                raise AddressRefused(f"Address refused: {request.url}: {why.reason}", why)

    def request_reached_downloader(self, request: Request, spider: Spider | None = None) -> None:
        """A proxy set by configuration (PROXIES, HTTP_PROXY …) is the user's own choice."""
        proxy = request.meta.get("proxy")
        if proxy:
            host = urlsplit(proxy if "://" in proxy else f"http://{proxy}").hostname
            try:
                key = parse_host(host or "").key
            except InvalidHost:
                return  # the connection fails as a lookup error
            if key:
                self._resolver().trusted_names.add(key)

    async def check(self, url: str) -> tuple[str, Refusal | None]:
        """(host, None) when the URL may be fetched, else (host, why not)."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme == "data":
            return "", None
        raw_host = parts.hostname or ""
        if scheme not in ("http", "https"):
            return raw_host, Refusal("scheme", f"{scheme}: URLs are not crawled")
        try:
            host = parse_host(raw_host)
            port = parts.port or default_port(scheme)
        except (ValueError, InvalidHost) as exc:
            return raw_host, Refusal("malformed", f"malformed host or port ({exc})")
        if not host.key:
            return raw_host, Refusal("malformed", "no host")
        if (why := host_refusal(host)) is not None:
            return host.key, why
        if host.address is not None:
            addresses = [host.address]  # nothing to resolve (and nothing that could rebind)
        else:
            try:
                addresses = await maybe_deferred_to_future(self._resolver().lookup(raw_host))
            except DNSLookupError:
                return host.key, None  # it fails at connection time as any dead link does
        trusted = Origin(scheme, host.key, port) in self.trusted
        for address in addresses:
            why = refusal(address)
            if why is None:
                continue
            if not why.always and (trusted or self.allowed.allows(host, port, address)):
                # the resolver sees names and numeric forms (2130706434) at connection time
                self._resolver().clear(raw_host, address)
                continue
            if host.address is None:
                why = Refusal(why.kind, f"resolves to {address}: {why.reason}", why.always)
            return host.key, why
        return host.key, None

    def _resolver(self) -> GuardedResolver:
        if self.resolver is None:
            from twisted.internet import reactor

            self.resolver = GuardedResolver.install(reactor, self.timeout)
        return self.resolver

    def refuse(self, request: Request, host: str, why: Refusal) -> None:
        self._count(host, why, request.url)
        raise AddressRefused(f"Address refused: {request.url}: {why.reason}", why)

    def _count(self, host: str, why: Refusal, url: str) -> None:
        self.stats.inc_value(STATS)
        self.stats.inc_value(f"{STATS}/{why.kind}")
        self.kinds[why.kind] += 1
        self.refused_hosts[host] += 1
        if self.refused_hosts[host] == 1:
            hint = "" if why.always else "; to crawl it on purpose, add it to ALLOWED_ADDRESSES"
            # a host is percent-decoded (evil%1b[2J.example): logged as data, escapes shown
            url, host, reason = (escape_controls(text) for text in (url, host, why.reason))
            logger.warning(
                "Refused %s: %s is %s (further requests to it are refused silently%s)",
                url, host, reason, hint,
            )  # fmt: skip

    def spider_closed(self, spider: Spider) -> None:
        if self.refused_hosts:
            kinds = ", ".join(f"{kind} {n}" for kind, n in self.kinds.most_common())
            logger.warning(
                "Address guard: refused %d requests to %d hosts (%s)",
                sum(self.refused_hosts.values()), len(self.refused_hosts), kinds,
            )  # fmt: skip


def trusted_urls(spider: Spider, seeds: SeedList | None) -> list[str]:
    """The URLs a user configured: the spider's start URLs; for the topic spider, the seed
    file's authority start URLs, login URLs and search engine URLs."""
    urls = list(getattr(spider, "start_urls", None) or [])
    if seeds is not None:
        urls += [url for site in seeds.authority for url in site.start_urls]
        urls += [url for site in seeds.authority for url in (*site.feeds, *site.sitemaps)]
        urls += [login.login_url for login in seeds.logins]
    urls += [engine.url for engine in (getattr(spider, "engines", None) or {}).values()]
    return urls
