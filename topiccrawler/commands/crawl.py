"""`scrapy crawl` that checks the topic files before any crawler starts, never runs two crawls
of one topic at once, and whose exit status says what happened, for cron and timers to alert on.

Exit statuses (topiccrawler/errors.py, one table for every command): 0 the crawl did its job
and stored something new; 1 it did not (no page fetched, no progress); 2 configuration error (a
missing topic, a broken topic file: one clear line, no traceback); 3 it ran well but found
nothing new; 4 blocked everywhere (every engine, or every site it fetched); 5 another crawl of
the topic is running (it is left alone).
"""

from __future__ import annotations

import argparse
import sys

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from topiccrawler.distributed.state import redis_url
from topiccrawler.errors import (
    EXIT_BLOCKED,
    EXIT_FAILED,
    EXIT_LOCKED,
    EXIT_NOTHING_NEW,
    EXIT_OK,
)
from topiccrawler.extensions.progress import OUTCOME_KEY
from topiccrawler.locks import TopicLock, TopicLocked
from topiccrawler.spiders.topic import TopicSpider
from topiccrawler.storage.runs import CHANGES_KEY
from topiccrawler.topics import TopicFileError, UnknownTopicError, load_topic_from_settings


class Command(ScrapyCrawlCommand):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args or args[0] != TopicSpider.name or len(args) > 1:
            super().run(args, opts)
            return
        spargs = opts.spargs
        try:
            topic = load_topic_from_settings(
                self.settings, spargs.get("topic"), spargs.get("keywords"), spargs.get("seeds")
            )
        except (UnknownTopicError, TopicFileError) as exc:
            raise UsageError(str(exc), print_help=False) from exc
        if redis_url(self.settings):  # a worker of a shared crawl: its workers run side by side
            self.exitcode = self._crawl(args[0], spargs)
            return
        lock = TopicLock.for_settings(self.settings, topic.name)
        try:
            lock.acquire()
        except TopicLocked as exc:
            print(f"topiccrawler: {exc}; not starting", file=sys.stderr)
            self.exitcode = EXIT_LOCKED
            return
        try:
            self.exitcode = self._crawl(args[0], spargs)
        finally:
            lock.release()

    def _crawl(self, name: str, spargs: dict) -> int:
        assert self.crawler_process
        crawler = self._create_crawler(name)
        self.crawler_process.crawl(crawler, **spargs)
        self.crawler_process.start()
        if self.crawler_process.bootstrap_failed or crawler.stats is None:
            return EXIT_FAILED
        outcome = crawler.stats.get_value(OUTCOME_KEY)
        if outcome == "blocked_everywhere":
            return EXIT_BLOCKED
        if outcome is not None and outcome != "ok":
            return EXIT_FAILED
        changes = crawler.stats.get_value(CHANGES_KEY)
        if changes is not None and not any(
            changes[k] for k in ("new_pages", "new_comments", "new_posts")
        ):
            return EXIT_NOTHING_NEW
        return EXIT_OK
