"""What a long crawl is doing, and what it did: a progress line every PROGRESS_INTERVAL seconds
(Scrapy's LogStats idiom, with the numbers of a focused crawl), a summary when it ends, and an
end to a crawl that cannot make progress.

- progress: pages fetched (and per minute), search result pages, judged, kept, harvest rate,
  stored, queue length, sites blocked, engines down. One name per count, the same in the
  progress line, the summary, `runs` and the report: "pages fetched" are the responses of
  every request but a search engine's (those are "search result pages"), "stored" the pages
  written to the database, "kept" those judged relevant;
- summary, logged and kept in the stats as `topiccrawler/summary` (so `crawl_runs.stats` holds
  it): what was stored per site, what failed and why, each engine's state, and the outcome;
- `topiccrawler/outcome`: "ok", or why the crawl did not do its job ("blocked_everywhere",
  "nothing_fetched", "no_progress"); `scrapy crawl topic` turns it into its exit status
  (commands/crawl.py);
- no page fetched for PROGRESS_STALL_TIMEOUT seconds: the crawl ends (finish reason
  `no_progress`) with one ERROR line, instead of idling.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, defaultdict
from urllib.parse import urlsplit

from scrapy import Spider, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured
from scrapy.http import Response
from scrapy.utils.asyncio import create_looping_call
from scrapy.utils.defer import deferred_from_coro

from topiccrawler.items import PageItem
from topiccrawler.meta import SEARCH_PAGE
from topiccrawler.seeding.gate import SearchEngineHealthMiddleware
from topiccrawler.signals import page_judged, verdicts_settled

logger = logging.getLogger(__name__)

OUTCOME_KEY = "topiccrawler/outcome"
SUMMARY_KEY = "topiccrawler/summary"
SITES_SHOWN = 15  # sites listed one by one in the logged summary; the rest are summed
INTERRUPTED_REASON = "shutdown"  # Scrapy's finish reason after Ctrl-C or SIGTERM
OK_REASONS = ("finished", "page_limit", "harvest_rate_low", "closespider_pagecount",
              "closespider_itemcount", "closespider_timeout")  # fmt: skip


class CrawlProgress:
    def __init__(self, crawler: Crawler):
        settings = crawler.settings
        self.crawler = crawler
        self.stats = crawler.stats
        self.interval = settings.getfloat("PROGRESS_INTERVAL")
        self.stall_timeout = settings.getfloat("PROGRESS_STALL_TIMEOUT")
        self.started = time.monotonic()
        self.last_fetch = self.started
        self.fetched_before = 0
        self.search_pages = 0  # search engines' result pages: not "pages fetched"
        self.judged = 0
        self.kept = 0
        self.sites: dict[str, Counter] = defaultdict(
            Counter
        )  # host → fetched/stored/kept/latency_ms
        self.tasks: list = []
        self.stopping = False
        self.threshold: dict | None = None  # η as the verdicts settled (verdicts_settled)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> CrawlProgress:
        monitor = cls(crawler)
        if not monitor.interval and not monitor.stall_timeout:
            raise NotConfigured("PROGRESS_INTERVAL and PROGRESS_STALL_TIMEOUT are 0")
        connect = crawler.signals.connect
        connect(monitor.spider_opened, signal=signals.spider_opened)
        connect(monitor.spider_closed, signal=signals.spider_closed)
        connect(monitor.response_received, signal=signals.response_received)
        connect(monitor.item_scraped, signal=signals.item_scraped)
        connect(monitor.page_judged, signal=page_judged)
        connect(monitor.verdicts_settled, signal=verdicts_settled)
        return monitor

    # --- signals --------------------------------------------------------------------------------

    def spider_opened(self, spider: Spider) -> None:
        self.started = self.last_fetch = time.monotonic()
        if self.interval:
            self._loop(self.log_progress, self.interval)
        if self.stall_timeout:
            self._loop(self.check_stall, min(self.stall_timeout / 4, 60.0))

    def _loop(self, function, interval: float) -> None:
        task = create_looping_call(function)
        task.start(interval, now=False)
        self.tasks.append(task)

    def response_received(self, response: Response, request, spider=None) -> None:
        self.last_fetch = time.monotonic()
        if SEARCH_PAGE in request.meta:
            self.search_pages += 1
        else:
            site = self.sites[urlsplit(response.url).hostname or ""]
            site["fetched"] += 1
            # Time to the response's headers, summed: the report lists slow sites from it.
            site["latency_ms"] += round(1000 * request.meta.get("download_latency", 0.0))

    def page_judged(self, item: PageItem, relevant: bool, **kwargs) -> None:
        self.judged += 1
        self.kept += bool(relevant)

    def verdicts_settled(self, changed: dict[str, bool], state: dict, **kwargs) -> None:
        """Verdicts given while η was settling, made final: the counts follow."""
        self.threshold = state
        for url, relevant in changed.items():
            step = 1 if relevant else -1
            self.kept += step
            self.sites[urlsplit(url).hostname or ""]["kept"] += step

    def item_scraped(self, item, response=None, spider=None) -> None:
        if isinstance(item, PageItem):
            site = self.sites[urlsplit(item.url).hostname or ""]
            site["stored"] += 1
            site["kept"] += item.is_relevant is not False

    # --- while crawling -------------------------------------------------------------------------

    def pages_fetched(self) -> int:
        return sum(site["fetched"] for site in self.sites.values())

    def log_progress(self) -> None:
        fetched = self.pages_fetched()
        rate = (fetched - self.fetched_before) * 60.0 / self.interval
        self.fetched_before = fetched
        harvest = f"{self.kept / self.judged:.2f}" if self.judged else "-"
        down = self._engines_down()
        logger.info(
            "Progress: %d pages fetched (%d/min) and %d search result pages, %d judged, %d kept "
            "(harvest rate %s%s), %d stored; queue %d; %d sites blocked; %d failed%s",
            fetched, rate, self.search_pages, self.judged, self.kept, harvest,
            describe_threshold(self._threshold()),
            self.stats.get_value("topiccrawler/storage/pages", 0), self._queue_length(),
            len(self._blocked_sites()), self.stats.get_value("topiccrawler/fetch/failed", 0),
            f"; engines down: {', '.join(down)}" if down else "",
        )  # fmt: skip

    def _threshold(self) -> dict | None:
        return self.threshold or self.stats.get_value("topiccrawler/relevance/threshold")

    def check_stall(self) -> None:
        idle = time.monotonic() - self.last_fetch
        if self.stopping or idle < self.stall_timeout:
            return
        self.stopping = True
        logger.error(
            "No page fetched for %.0f s (PROGRESS_STALL_TIMEOUT): ending the crawl; "
            "%d requests were still waiting",
            idle, self._queue_length(),
        )  # fmt: skip
        deferred_from_coro(self.crawler.engine.close_spider_async(reason="no_progress"))

    def _queue_length(self) -> int:
        engine = self.crawler.engine
        if engine is None:
            return 0
        try:
            queued = len(engine.scheduler) if engine.scheduler is not None else 0
        except TypeError:  # (a scheduler without a length)
            queued = 0
        return queued + len(engine.downloader.active)

    def _blocked_sites(self) -> list[str]:
        prefix = "topiccrawler/bans/site/"
        return sorted(k[len(prefix) :] for k in self.stats.get_stats() if k.startswith(prefix))

    def _engines_down(self) -> list[str]:
        prefix, suffix = "topiccrawler/search/", "/unreachable"
        return sorted(
            k[len(prefix) : -len(suffix)]
            for k in self.stats.get_stats()
            if k.startswith(prefix) and k.endswith(suffix)
        )

    # --- at the end -----------------------------------------------------------------------------

    def spider_closed(self, spider: Spider, reason: str) -> None:
        for task in self.tasks:
            if task.running:
                task.stop()
        summary = self.summary(reason)
        self.stats.set_value(OUTCOME_KEY, summary["outcome"])
        self.stats.set_value(SUMMARY_KEY, summary)
        for line in format_summary(summary):
            logger.info("%s", line)
        if summary["outcome"] == "interrupted":
            logger.warning("The crawl was interrupted: %s", summary["outcome_reason"])
        elif summary["outcome"] != "ok":
            logger.error("The crawl did not do its job: %s", summary["outcome_reason"])

    def summary(self, reason: str) -> dict:
        stats = self.stats.get_stats()
        pages = self.pages_fetched()
        stored = sum(s["stored"] for s in self.sites.values())
        failures = Counter()
        for key, value in stats.items():
            if key.startswith("downloader/exception_type_count/"):
                kind = key.rsplit("/", 1)[1].rsplit(".", 1)[-1]
                if kind != "IgnoreRequest":  # skipped on purpose: counted where it is decided
                    failures[kind] += value
            elif key.startswith("downloader/response_status_count/"):
                status = key.rsplit("/", 1)[1]
                if status[:1] in ("4", "5"):
                    failures[f"HTTP {status}"] += value
            elif key.startswith("topiccrawler/skipped/"):
                failures[f"skipped: {key.rsplit('/', 1)[1]}"] += value
        for key, label in (
            ("robotstxt/forbidden", "forbidden by robots.txt"),
            ("topiccrawler/bans/given_up", "banned, given up"),
            ("topiccrawler/storage/failed", "could not be stored"),
        ):
            if stats.get(key):
                failures[label] += stats[key]
        engines = {}
        spider = self.crawler.spider
        try:
            health = self.crawler.get_downloader_middleware(SearchEngineHealthMiddleware)
        except RuntimeError:  # the crawl ended before its engine was built
            health = None
        for name in getattr(spider, "engines", {}):
            base = f"topiccrawler/search/{name}/"
            state = "ok"
            if stats.get(base + "unreachable"):
                state = f"unreachable: {stats[base + 'unreachable']}"
            elif stats.get(base + "blocked"):
                state = f"blocked: {health.last_reason(name) if health else None}"
            engines[name] = {
                "state": state,
                "answers": stats.get(base + "answers", 0),
                "not_asked": stats.get(base + "not_asked", 0)
                + stats.get(base + "not_asked_blocked", 0),
            }
        outcome, why = "ok", ""
        if reason == INTERRUPTED_REASON:
            outcome = "interrupted"
            why = (
                f"stopped by Ctrl-C or SIGTERM after {pages} pages fetched; {stats.get('topiccrawler/storage/pages', stored)}"
                " stored, kept for the next crawl of the topic, which goes on from them"
            )
        elif reason == "no_progress":
            outcome = "no_progress"
            why = f"no page was fetched for {self.stall_timeout:.0f} s"
        elif (
            not pages
            and engines
            and all(e["state"].startswith("blocked") for e in engines.values())
        ):
            outcome = "blocked_everywhere"
            why = "every search engine blocked the crawl and no page was fetched"
        elif (
            pages
            and not stored
            and set(self._blocked_sites()) >= {h for h, c in self.sites.items() if c["fetched"]}
        ):
            outcome = "blocked_everywhere"
            why = "every site fetched blocked the crawl; nothing was stored"
        elif not pages:
            outcome = "nothing_fetched"
            down = [n for n, e in engines.items() if e["state"] != "ok"]
            why = "no page could be fetched" + (
                f" (engines not usable: {', '.join(down)}; see the ERROR lines above)"
                if down
                else ""
            )
        elif reason not in OK_REASONS and not reason.startswith("closespider"):
            outcome, why = reason, f"the crawl ended with '{reason}'"
        return {
            "outcome": outcome,
            "outcome_reason": why,
            "finish_reason": reason,
            "seconds": round(time.monotonic() - self.started, 1),
            "pages_fetched": pages,
            "search_pages_fetched": self.search_pages,
            "pages_judged": self.judged,
            "pages_kept": self.kept,
            # Written to the database, as the progress line says (the pages scraped when
            # nothing is stored).
            "pages_stored": stats.get("topiccrawler/storage/pages", stored),
            "harvest_rate": round(self.kept / self.judged, 4) if self.judged else None,
            "threshold": self._threshold(),
            "search": {
                "queries_answered": sum(e["answers"] for e in engines.values()),
                "results": stats.get("topiccrawler/storage/search_results", 0),
                "engines": engines,
            },
            "sites": {host: dict(c) for host, c in sorted(self.sites.items())},
            "blocked_sites": self._blocked_sites(),
            "failures": dict(failures.most_common()),
            "failed_fetches": stats.get("topiccrawler/fetch/failed", 0),
        }


def describe_threshold(state: dict | None) -> str:
    """η as the progress line and the summary say it: ", η 0.0138 (auto)"."""
    if not state or state.get("threshold") is None:
        return ", η settling" if state and state.get("mode") == "auto" else ""
    how = ""
    if state.get("mode") == "auto":
        how = " (auto)" if state.get("stable") else " (auto, settling)"
    return f", η {state['threshold']:.4f}{how}"


def format_summary(summary: dict) -> list[str]:
    """The summary as the lines logged at the end of a crawl."""
    rate = summary["harvest_rate"]
    how = "interrupted" if summary["outcome"] == "interrupted" else summary["finish_reason"]
    lines = [
        f"Crawl summary ({how}, {summary['seconds']:.0f} s): "
        f"{summary['pages_fetched']} pages fetched"
        + (
            f" and {summary['search_pages_fetched']} search result pages"
            if summary.get("search_pages_fetched")
            else ""
        )
        + f", {summary['pages_judged']} judged, "
        f"{summary['pages_kept']} kept"
        + (f" (harvest rate {rate:.2f})" if rate is not None else "")
        + describe_threshold(summary.get("threshold"))
        + f", {summary['pages_stored']} stored",
    ]
    search = summary["search"]
    for name, engine in search["engines"].items():
        not_asked = f", {engine['not_asked']} queries not asked" if engine["not_asked"] else ""
        lines.append(f"  engine {name}: {engine['state']}, {engine['answers']} answers{not_asked}")
    sites = sorted(summary["sites"].items(), key=lambda kv: -kv[1].get("fetched", 0))
    for host, counts in sites[:SITES_SHOWN]:
        lines.append(
            f"  site {host}: {counts.get('fetched', 0)} fetched, {counts.get('stored', 0)} stored,"
            f" {counts.get('kept', 0)} kept"
        )
    if len(sites) > SITES_SHOWN:
        rest = sites[SITES_SHOWN:]
        lines.append(
            f"  {len(rest)} more sites: {sum(c.get('fetched', 0) for _, c in rest)} fetched, "
            f"{sum(c.get('stored', 0) for _, c in rest)} stored"
        )
    if summary["blocked_sites"]:
        lines.append(f"  blocked by: {', '.join(summary['blocked_sites'])}")
    if summary["failures"]:
        reasons = ", ".join(f"{k} × {v}" for k, v in summary["failures"].items())
        lines.append(f"  failed: {summary['failed_fetches']} fetches; by cause: {reasons}")
    if summary["outcome"] != "ok":
        lines.append(f"  outcome: {summary['outcome']} — {summary['outcome_reason']}")
    return lines
