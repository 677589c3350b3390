"""Downloader middleware: notice a ban and respond (SPEC §2).

A ban is a 403/429/503, a captcha or "verify you are human" page, a redirect to a
verification page, or pages far shorter than the site's usual twice in a row (one alone is an
empty listing or a stub as often as a ban; `antiban/bans.py`). Then:
the site is slowed down (its delay doubles, and stays there), the
request is retried later through another browser profile and proxy (BAN_RETRY_TIMES), and a
site that bans BAN_GIVE_UP times in a row, or answers nothing but bans for
BAN_GIVE_UP_AFTER seconds, is left alone for BAN_COOLDOWN seconds. The time bound is for a
site that bans for good: slowing down does not help there, and ten bans at a doubling delay
would keep the crawl waiting on it for minutes. Each
decision is logged once per site. A page that stays banned is dropped, not stored as content.

"Ban" is this middleware's word for a site refusing the crawl; a "block" elsewhere in the
project is a region of a page (extract/blocks.py, a link's block). Its settings were called
BLOCK_* before: a setting given under its old name (BLOCK_RETRY_TIMES …) is still read, with a
warning (OLD_SETTING_NAMES).
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from urllib.parse import urlsplit

from scrapy import Request
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Response
from scrapy.settings import BaseSettings, Settings

from topiccrawler.antiban.bans import PageSizes, ban_reason
from topiccrawler.discovery.meta import DISCOVERY
from topiccrawler.downloader import drop_waiting
from topiccrawler.meta import BAN_RETRIES, ROTATE_PROFILE, ROTATE_PROXY, SEARCH_PAGE

logger = logging.getLogger(__name__)

# The settings' names before "ban" replaced "block" (read when given, with a warning).
OLD_SETTING_NAMES = {
    "BAN_DETECTION_ENABLED": "BLOCK_DETECTION_ENABLED",
    "BAN_RETRY_TIMES": "BLOCK_RETRY_TIMES",
    "BAN_GIVE_UP": "BLOCK_GIVE_UP",
    "BAN_GIVE_UP_AFTER": "BLOCK_GIVE_UP_AFTER",
    "BAN_COOLDOWN": "BLOCK_COOLDOWN",
    "BAN_MIN_DELAY": "BLOCK_MIN_DELAY",
    "BAN_MAX_DELAY": "BLOCK_MAX_DELAY",
    "BAN_SHORT_PAGE_SHARE": "BLOCK_SHORT_PAGE_SHARE",
}


def ban_settings(settings: BaseSettings) -> Settings:
    """The crawl's settings with each BAN_* setting given under its old BLOCK_* name taken
    over (a warning says so once per name)."""
    given = {
        new: settings[old]
        for new, old in OLD_SETTING_NAMES.items()
        if settings.get(old) is not None
    }
    if not given:
        return settings
    for new in given:
        logger.warning("Setting %s is now called %s: please rename it", OLD_SETTING_NAMES[new], new)
    merged = Settings(settings.copy_to_dict())
    merged.setdict(given, priority="cmdline")
    return merged


class BanMiddleware:
    def __init__(self, crawler: Crawler, settings: BaseSettings | None = None):
        settings = settings if settings is not None else crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.retry_times = settings.getint("BAN_RETRY_TIMES")
        self.give_up = settings.getint("BAN_GIVE_UP")
        self.cooldown = settings.getfloat("BAN_COOLDOWN")
        self.min_delay = settings.getfloat("BAN_MIN_DELAY")
        self.max_delay = settings.getfloat("BAN_MAX_DELAY")
        self.sizes = PageSizes(share=settings.getfloat("BAN_SHORT_PAGE_SHARE"))
        self.give_up_after = settings.getfloat("BAN_GIVE_UP_AFTER", 60.0)
        self.in_a_row: dict[str, int] = defaultdict(int)
        self.short_in_a_row: dict[str, int] = defaultdict(int)  # far shorter pages, per site
        self.blocked_since: dict[str, float] = {}  # first ban of the current row, per site
        self.floor: dict[str, float] = {}  # a blocked site's delay never goes below this again
        self.cooling_until: dict[str, float] = {}
        self.logged: set[tuple[str, str]] = set()

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> BanMiddleware:
        settings = ban_settings(crawler.settings)
        if not settings.getbool("BAN_DETECTION_ENABLED"):
            raise NotConfigured("BAN_DETECTION_ENABLED is False")
        return cls(crawler, settings)

    def _once(self, host: str, what: str, message: str, *args) -> None:
        if (host, what) not in self.logged:
            self.logged.add((host, what))
            logger.warning(message, *args)

    def _slot(self, request: Request):
        downloader = self.crawler.engine.downloader
        return downloader.slots.get(downloader.get_slot_key(request))

    def process_request(self, request: Request, spider=None) -> None:
        host = urlsplit(request.url).hostname or ""
        until = self.cooling_until.get(host)
        if until is not None:
            if time.monotonic() < until:
                self.stats.inc_value("topiccrawler/bans/skipped_cooling_down")
                raise IgnoreRequest(f"{host} is cooling down after repeated bans")
            del self.cooling_until[host]
            self.in_a_row[host] = 0
            self.blocked_since.pop(host, None)
        elif self._blocking_too_long(host):  # known now, before the next probe's long delay
            self._leave_alone(request, host)
            self.stats.inc_value("topiccrawler/bans/skipped_cooling_down")
            raise IgnoreRequest(f"{host} is left alone after repeated bans")
        slot = self._slot(request)
        if slot is not None and host in self.floor and slot.delay < self.floor[host]:
            slot.delay = self.floor[host]  # AutoThrottle may have lowered it again

    def process_response(self, request: Request, response: Response, spider=None):
        if SEARCH_PAGE in request.meta:
            return response  # a search engine's answer: the spider backs off a blocked engine
        host = urlsplit(request.url).hostname or ""
        reason = ban_reason(response)
        if reason is None and response.status == 200 and DISCOVERY not in request.meta:
            # (a feed, sitemap or robots.txt is short by nature: no measure of the site's pages)
            if self.sizes.suspicious(host, len(response.body)) and response.body.count(b"<a ") < 3:
                # One such page is a page (an empty listing, a stub); a site that answers
                # short twice in a row, or again on a retry, is blocking.
                self.short_in_a_row[host] += 1
                if self.short_in_a_row[host] < 2 and not request.meta.get(BAN_RETRIES):
                    self.stats.inc_value("topiccrawler/bans/short_page_passed")
                    return response
                reason = "pages far shorter than the site's usual, and without links"
            else:
                self.short_in_a_row[host] = 0
                self.sizes.add(host, len(response.body))
        if reason is None:
            self.in_a_row[host] = 0
            self.blocked_since.pop(host, None)
            return response
        return self._blocked(request, response, host, reason)

    def _blocked(self, request: Request, response: Response, host: str, reason: str):
        self.stats.inc_value("topiccrawler/bans/responses")
        self.stats.inc_value(f"topiccrawler/bans/site/{host}")
        self.in_a_row[host] += 1
        since = self.blocked_since.setdefault(host, time.monotonic())
        blocked_for = time.monotonic() - since
        delay = self._slow_down(request, response, host, blocked_for)
        self._once(host, "slow", "Blocked by %s (%s): %.1f s between requests from now on, retrying "
                   "through another profile%s", host, reason, delay,
                   " and proxy" if request.meta.get("proxy") else "")  # fmt: skip
        if host not in self.cooling_until and (
            self.in_a_row[host] >= self.give_up or self._blocking_too_long(host)
        ):
            self._leave_alone(request, host)
        retries = request.meta.get(BAN_RETRIES, 0)
        if retries < self.retry_times and host not in self.cooling_until:
            self.stats.inc_value("topiccrawler/bans/retried")
            meta = {
                **request.meta,
                BAN_RETRIES: retries + 1,
                ROTATE_PROFILE: True,
                ROTATE_PROXY: True,
            }
            return request.replace(dont_filter=True, priority=request.priority - 1, meta=meta)
        self.stats.inc_value("topiccrawler/bans/given_up")
        raise IgnoreRequest(f"blocked by {host} ({reason}) after {retries} retries: not stored")

    def _blocking_too_long(self, host: str) -> bool:
        """Nothing but bans (two or more) for BAN_GIVE_UP_AFTER seconds: a ban for good."""
        since = self.blocked_since.get(host)
        return (
            since is not None
            and self.in_a_row[host] > 1
            and 0 < self.give_up_after <= time.monotonic() - since
        )

    def _leave_alone(self, request: Request, host: str) -> None:
        self.cooling_until[host] = time.monotonic() + self.cooldown
        self.stats.inc_value("topiccrawler/bans/cooldowns")
        dropped = self._drop_queued(request, host)
        logger.warning(
            "Leaving %s alone for %.0f s: %d bans in a row over %.0f s%s",
            host, self.cooldown, self.in_a_row[host],
            time.monotonic() - self.blocked_since.get(host, time.monotonic()),
            f" ({dropped} requests waiting for it dropped)" if dropped else "",
        )  # fmt: skip

    def _drop_queued(self, request: Request, host: str) -> int:
        """Requests already waiting in the site's download slot would still go out, one per
        (long) delay, keeping the crawl open for a site it has left: they are dropped."""
        slot = self._slot(request)
        reason = f"{host} is left alone after repeated bans"
        dropped = drop_waiting(slot, reason) if slot is not None else 0
        self.stats.inc_value("topiccrawler/bans/skipped_cooling_down", dropped)
        return dropped

    def _slow_down(
        self, request: Request, response: Response, host: str, blocked_for: float = 0.0
    ) -> float:
        """Double the site's delay (at least BAN_MIN_DELAY) and keep it there. A Retry-After
        is not taken as the delay between all requests: doubling reaches what the site accepts
        within a few bans, without crawling a site that asked once for a pause at that pace
        for ever."""
        slot = self._slot(request)
        current = slot.delay if slot is not None else 0.0
        delay = min(self.max_delay, max(current * 2, self.min_delay, self.floor.get(host, 0.0)))
        if self.give_up_after > 0:  # the next try comes by the time bound, not long after it
            delay = min(delay, max(self.min_delay, self.give_up_after - blocked_for))
        self.floor[host] = delay
        if slot is not None:
            slot.delay = delay
        return delay
