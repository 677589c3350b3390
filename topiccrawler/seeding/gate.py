"""Downloader middleware: the search engines' health (SPEC §1, the meta-search entrance). It
keeps queries away from engines that cannot take them, backs off an engine that blocks the
crawl, and says once, at ERROR, what the user can do about it.

Every query is queued at the start of a crawl (the frontier ranks the hits), so when an engine
is down or blocked the requests for it are already waiting. Without this gate each of them would
be sent anyway: a refused or hanging engine would cost (retries × timeout) per query, and a
blocked one would be asked again during its back-off.

- Unreachable (refused, no such host, no answer within SEARCH_ENGINE_TIMEOUT; queries are not
  retried): the engine's remaining queries are dropped (`topiccrawler/search/<engine>/not_asked`)
  and stay unanswered, so the next crawl asks them.
- In doubt (no answer yet this crawl, or the last query failed or was blocked): one query, the
  probe, is sent alone; the engine's other queries wait here (at most SEARCH_PROBE_WAIT seconds)
  until it answers. Past the gate a query sits in the engine's download slot, paced by its
  delay, and is sent whatever the gate learns meanwhile: without the probe a refused engine
  cost every query the downloader had taken one delay each, and a hanging one a timeout each.
- Blocked (a captcha or rate limit, recognised here as the answer arrives; SEARCH_EMPTY_STREAK
  empty answers in a row after results; any other failure): the engine is left alone for
  SEARCH_BACKOFF seconds, doubling per block in a row up to SEARCH_BACKOFF_MAX. Queries that come
  up meanwhile are held (`…/held`) and sent again when the back-off ends; a crawl with nothing
  else left ends rather than wait (`…/not_asked_blocked`).

The engines are the spider's (`spider.engines`, name → SearchEngine). The spider tells this
component what it learns from an answer or an error through `answered` and `failed`, and asks
`available` before it queries an engine again (it finds the component through Scrapy's
`crawler.get_downloader_middleware`).
"""

from __future__ import annotations

import logging
import time
from typing import Any

from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import DownloadTimeoutError, IgnoreRequest
from scrapy.http import Response, TextResponse
from scrapy.spidermiddlewares.httperror import HttpError
from scrapy.utils.defer import maybe_deferred_to_future
from twisted.internet.defer import Deferred
from twisted.internet.error import TCPTimedOutError, TimeoutError

from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.meta import ENGINE, ENGINE_BLOCKED, ENGINE_CHECKED, ENGINE_PROBE, SEARCH_PAGE
from topiccrawler.seeding.base import EngineBlocked, SearchEngine
from topiccrawler.seeding.health import UNREACHABLE, EngineHealth, blocked_fix, unreachable_fix
from topiccrawler.signals import request_held

logger = logging.getLogger(__name__)


class SearchEngineHealthMiddleware:
    def __init__(self, crawler: Crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.backoff = settings.getfloat("SEARCH_BACKOFF")
        self.max_backoff = settings.getfloat("SEARCH_BACKOFF_MAX")
        self.empty_streak_limit = settings.getint("SEARCH_EMPTY_STREAK")
        self.engines: dict[str, SearchEngine] = {}
        self.health: dict[str, EngineHealth] = {}
        self.seed_file = None  # the topic's seed file, named in the fixes
        self.releases: dict[str, Any] = {}  # engine → the delayed call that sends held queries
        self.probe_wait = settings.getfloat("SEARCH_PROBE_WAIT")
        self.trusted: set[str] = set()  # engines whose last query was answered
        self.probing: set[str] = set()  # engines with a probe on its way
        self.waiting: dict[str, list[Deferred]] = {}  # engine → queries waiting for its probe

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SearchEngineHealthMiddleware:
        middleware = cls(crawler)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        crawler.signals.connect(middleware.spider_idle, signal=signals.spider_idle)
        crawler.signals.connect(middleware.spider_closed, signal=signals.spider_closed)
        return middleware

    def spider_opened(self, spider) -> None:
        self.engines = dict(getattr(spider, "engines", {}))
        seeds = crawl_topic(self.crawler).seeds
        self.seed_file = seeds.path if seeds is not None else None
        for name in self.engines:
            self.health[name] = EngineHealth(
                backoff=self.backoff,
                max_backoff=self.max_backoff,
                empty_streak_limit=self.empty_streak_limit,
            )

    # --- the public face -------------------------------------------------------------------------

    def available(self, name: str) -> bool:
        """The engine takes queries now (not unreachable, not backing off)."""
        health = self.health.get(name)
        return health is None or health.available(time.monotonic())

    def last_reason(self, name: str) -> str | None:
        """Why the engine was last backed off, if it was."""
        health = self.health.get(name)
        return health.last_reason if health is not None else None

    def answered(self, name: str, query: str, hits: int) -> str | None:
        """A result page of `hits` hits was read: returns why the engine counts as blocked
        (empty answers in a row after results), having backed it off, or None."""
        health = self.health.get(name)
        if health is None:
            return None
        now = time.monotonic()
        reason = health.record_answer(hits, now, broad="site:" not in query)
        if reason:
            self.back_off(name, reason)
        return reason

    def blocked(self, name: str, reason: str) -> None:
        """The spider found a block in an answer (one the gate had not checked)."""
        self.back_off(name, reason)

    def failed(self, name: str, failure) -> None:
        """A query that got no answer: the engine cannot be reached (refused, no such host, no
        answer within SEARCH_ENGINE_TIMEOUT), or it failed otherwise (backed off)."""
        if failure.check(IgnoreRequest) and not failure.check(HttpError):
            return  # held or dropped here
        self.stats.inc_value(f"topiccrawler/search/{name}/failed")
        health = self.health.get(name)
        if health is None or health.unreachable is not None:
            return
        if failure.check(*UNREACHABLE):
            self.unreachable(name, failure.value, failure.request)
        else:
            self.back_off(name, failure.getErrorMessage()[:200] or failure.type.__name__)

    # --- the gate ----------------------------------------------------------------------------------

    async def process_request(self, request: Request, spider=None) -> None:
        if SEARCH_PAGE not in request.meta:
            return None  # not a query
        name = request.meta.get(ENGINE)
        health = self.health.get(name)
        if health is None:
            return None
        while (
            name not in self.trusted
            and name in self.probing
            and not request.meta.get(ENGINE_PROBE)
            and health.available(time.monotonic())
        ):
            await maybe_deferred_to_future(self._wait_for_probe(name))
        if health.available(time.monotonic()):
            if name not in self.trusted and not request.meta.get(ENGINE_PROBE):
                self.probing.add(name)
                request.meta[ENGINE_PROBE] = True
            return None
        if health.unreachable is not None:
            self.stats.inc_value(f"topiccrawler/search/{name}/not_asked")
            raise IgnoreRequest(f"search engine '{name}' cannot be reached")
        self.hold(name, request)
        raise IgnoreRequest(f"search engine '{name}' is backing off")

    def process_response(self, request: Request, response: Response, spider=None) -> Response:
        """A captcha or rate limit backs the engine off now, before the downloader takes the
        next query (the spider would see it only after the response has been queued)."""
        if SEARCH_PAGE not in request.meta:
            return response
        name = request.meta.get(ENGINE)
        engine, health = self.engines.get(name), self.health.get(name)
        if engine is None or health is None:
            return response
        text = response.text if isinstance(response, TextResponse) else ""
        request.meta[ENGINE_CHECKED] = True
        try:
            engine.check_response(response.status, response.url, text)
        except EngineBlocked as blocked:
            request.meta[ENGINE_BLOCKED] = blocked.reason
            if health.available(time.monotonic()):  # not backing off yet: now
                self.back_off(name, blocked.reason)
            self._probed(name, request, trusted=False)
        else:
            self._probed(name, request, trusted=200 <= response.status < 300)
        return response

    def process_exception(self, request: Request, exception: BaseException, spider=None) -> None:
        if SEARCH_PAGE not in request.meta:
            return None
        name = request.meta.get(ENGINE)
        if name in self.health and isinstance(exception, UNREACHABLE):
            self.unreachable(name, exception, request)
        if name in self.health:
            self._probed(name, request, trusted=False)
        return None

    # --- the probe -----------------------------------------------------------------------------------

    def _probed(self, name: str, request: Request, trusted: bool) -> None:
        """A query came back: the engine is trusted when it answered, in doubt otherwise; a
        probe's end lets the queries waiting for it go on (to be held, dropped or sent, one of
        them the next probe while the engine is in doubt)."""
        if trusted:
            self.trusted.add(name)
        else:
            self.trusted.discard(name)
        if request.meta.pop(ENGINE_PROBE, False) or trusted:
            self.probing.discard(name)
            self._release_waiting(name)

    def _wait_for_probe(self, name: str) -> Deferred:
        """A Deferred fired when the engine's probe ends, or after SEARCH_PROBE_WAIT seconds
        (a probe lost on its way gives its turn to the next query)."""
        from twisted.internet import reactor  # (see hold)

        waiter: Deferred = Deferred()
        self.waiting.setdefault(name, []).append(waiter)

        def give_up() -> None:
            if not waiter.called:
                self.probing.discard(name)
                self._release_waiting(name)

        def released(result):
            if call.active():
                call.cancel()
            return result

        call = reactor.callLater(self.probe_wait, give_up)
        waiter.addBoth(released)
        return waiter

    def _release_waiting(self, name: str) -> None:
        waiters, self.waiting[name] = self.waiting.get(name, []), []
        for waiter in waiters:
            if not waiter.called:
                waiter.callback(None)

    # --- back-off and unreachable engines ------------------------------------------------------------

    def back_off(self, name: str, reason: str) -> None:
        health = self.health[name]
        self.stats.inc_value(f"topiccrawler/search/{name}/blocked")
        wait = health.record_block(reason, time.monotonic())
        if not health.reported:
            health.reported = True
            logger.error(
                "Search engine '%s' looks blocked (%s): leaving it alone for %.0f s; %s",
                name, reason, wait, blocked_fix(name, self.seed_file),
            )  # fmt: skip
        else:
            logger.warning(
                "Search engine '%s' blocked again (%s): leaving it alone for %.0f s",
                name, reason, wait,
            )  # fmt: skip

    def unreachable(self, name: str, error: BaseException, request: Request) -> None:
        """Said once, at ERROR, with the fix; the engine's other queries are not sent."""
        if isinstance(error, DownloadTimeoutError | TimeoutError | TCPTimedOutError):
            reason = f"no answer within {request.meta.get('download_timeout', '?')} s"
        else:
            reason = str(error)[:200] or error.__class__.__name__
        if self.health[name].record_unreachable(reason):
            engine = self.engines[name]
            self.stats.set_value(f"topiccrawler/search/{name}/unreachable", reason)
            logger.error(
                "Search engine '%s' cannot be reached at %s (%s): its queries are not sent. "
                "Fix: %s",
                name, engine.url, reason,
                unreachable_fix(name, engine.kind, engine.url, self.seed_file),
            )  # fmt: skip

    # --- held queries --------------------------------------------------------------------------------

    def hold(self, name: str, request: Request) -> None:
        """Keep a query of a backing-off engine; it is sent again when the back-off ends. Said
        with `request_held`: a shared crawl keeps the query's lease meanwhile, so that a worker
        killed during the back-off loses no query (another worker puts it back)."""
        health = self.health[name]
        health.held.append(request)
        self.stats.inc_value(f"topiccrawler/search/{name}/held")
        self.crawler.signals.send_catch_log(request_held, request=request)
        if name not in self.releases:
            # The installed reactor, looked up when needed: importing it with this module would
            # install Twisted's default one before Scrapy installs TWISTED_REACTOR.
            from twisted.internet import reactor

            wait = max(0.0, health.blocked_until - time.monotonic())
            self.releases[name] = reactor.callLater(wait, self._release_held, name)

    def _release_held(self, name: str) -> None:
        self.releases.pop(name, None)
        held, self.health[name].held = self.health[name].held, []
        for request in held:
            self.crawler.engine.crawl(request.replace(dont_filter=True))

    def spider_idle(self) -> None:
        """Nothing left but queries waiting for a blocked engine: the crawl ends rather than
        idle through the back-off; the queries stay unanswered, so the next crawl asks them."""
        for name, health in self.health.items():
            if health.held:
                logger.warning(
                    "The crawl ends with %d queries of engine '%s' not asked: it is backing off "
                    "(%s); the next crawl asks them",
                    len(health.held), name, health.last_reason,
                )  # fmt: skip
                self.stats.set_value(
                    f"topiccrawler/search/{name}/not_asked_blocked", len(health.held)
                )
                health.held = []
                call = self.releases.pop(name, None)
                if call is not None and call.active():
                    call.cancel()

    def spider_closed(self) -> None:
        for call in self.releases.values():
            if call.active():
                call.cancel()
        self.releases.clear()
        for name in list(self.waiting):
            self._release_waiting(name)


# The name this middleware had when it was only the gate (DOWNLOADER_MIDDLEWARES may name it).
EngineGateMiddleware = SearchEngineHealthMiddleware
