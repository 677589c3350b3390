"""Downloader middleware: each site sees one coherent browser profile (User-Agent and the headers
that browser sends); a request retried after a ban (meta `topiccrawler_rotate_profile`) gets another one.
robots.txt is still read for the crawler's own name (ROBOTSTXT_USER_AGENT)."""

from __future__ import annotations

import logging
import random
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.antiban.profiles import BUILTIN_PROFILES, BrowserProfile, load_profiles
from topiccrawler.meta import ROTATE_PROFILE
from topiccrawler.topics.registry import resolve_dir

logger = logging.getLogger(__name__)


class BrowserProfileMiddleware:
    def __init__(self, profiles: tuple[BrowserProfile, ...], seed: int | None = None):
        self.profiles = profiles
        self.by_host: dict[str, BrowserProfile] = {}
        self.random = random.Random(seed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BrowserProfileMiddleware:
        settings = crawler.settings
        if not settings.getbool("PROFILES_ENABLED"):
            raise NotConfigured("PROFILES_ENABLED is False")
        path = settings.get("PROFILES_FILE")
        profiles = load_profiles(resolve_dir(path)) if path else BUILTIN_PROFILES
        logger.info("Browser profiles: %d (%s)", len(profiles), path or "built in")
        return cls(profiles)

    def profile_for(self, host: str, rotate: bool = False) -> BrowserProfile:
        current = self.by_host.get(host)
        if current is None or rotate:
            others = [p for p in self.profiles if p is not current] or list(self.profiles)
            current = self.by_host[host] = self.random.choice(others)
        return current

    def process_request(self, request: Request, spider=None) -> None:
        host = urlsplit(request.url).hostname or ""
        rotate = request.meta.pop(ROTATE_PROFILE, False)
        profile = self.profile_for(host, rotate)
        request.headers[b"User-Agent"] = profile.user_agent
        for name, value in profile.headers.items():
            request.headers.setdefault(name, value)
