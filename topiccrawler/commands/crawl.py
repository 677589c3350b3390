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
import re
import sys
import traceback
from pathlib import Path
from typing import NoReturn

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from topiccrawler.distributed.state import redis_url
from topiccrawler.errors import (
    EXIT_BLOCKED,
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_LOCKED,
    EXIT_NOTHING_NEW,
    EXIT_OK,
    UserError,
    check_writable,
)
from topiccrawler.extensions.interrupt import (
    INTERRUPTS_KEY,
    exit_at_once_on_signal,
    exit_on_signal,
    hold_signals_until_running,
)
from topiccrawler.extensions.progress import OUTCOME_KEY
from topiccrawler.locks import TopicLock, TopicLocked
from topiccrawler.spiders.topic import TopicSpider
from topiccrawler.storage.access import opened_store
from topiccrawler.storage.db import resolve_database_url
from topiccrawler.storage.runs import CHANGES_KEY
from topiccrawler.topics import TopicFileError, UnknownTopicError, load_topic_from_settings


class Command(ScrapyCrawlCommand):
    def process_options(self, args: list[str], opts: argparse.Namespace) -> None:
        """Options, the topic's files, the database and the output paths checked before the
        crawler process starts: a mistake is one line on stderr and exit status 2, without
        Scrapy's banner or usage."""
        exit_on_signal(EXIT_INTERRUPTED)
        try:
            super().process_options(args, opts)
            if args[:1] == [TopicSpider.name] and len(args) == 1:
                self.topic = self._checked_topic(opts.spargs)
                self._check_store()
                self._check_outputs(opts.output or opts.overwrite_output or [])
        except UsageError as exc:
            self._refuse(UserError(str(exc) or "bad usage: see scrapy crawl --help"))
        except UserError as exc:
            self._refuse(exc)

    def _refuse(self, error: UserError) -> NoReturn:
        if self.settings is not None and self.settings.get("LOG_LEVEL") == "DEBUG":
            traceback.print_exc()
        print(f"scrapy crawl: {error}", file=sys.stderr)
        sys.exit(error.status)

    def _checked_topic(self, spargs: dict):
        try:
            return load_topic_from_settings(
                self.settings, spargs.get("topic"), spargs.get("keywords"), spargs.get("seeds")
            )
        except (UnknownTopicError, TopicFileError) as exc:
            raise UserError(str(exc)) from exc

    def _check_store(self) -> None:
        """The database opens (made and upgraded as the crawl would); closed again at once."""
        if not self.settings.getbool("STORAGE_ENABLED"):
            return
        url = resolve_database_url(self.settings.get("DATABASE_URL"))
        with opened_store(url, upgrade=self.settings.getbool("DATABASE_AUTO_UPGRADE")):
            pass

    def _check_outputs(self, outputs: list[str]) -> None:
        """What the crawl will write: `-o FILE` / `-O FILE` (local files), JOBDIR, LOG_FILE."""
        for output in outputs:
            uri = output.rsplit(":", 1)[0] if re.search(r":[a-z]+$", output) else output
            if "://" in uri and not uri.startswith("file://"):
                continue  # s3://, ftp:// …: the feed storage says what is wrong
            check_writable(Path(uri.removeprefix("file://")).expanduser().absolute(), "-o")
        if self.settings.get("JOBDIR"):
            check_writable(Path(self.settings["JOBDIR"]).absolute(), "JOBDIR", folder=True)
        if self.settings.get("LOG_FILE"):
            check_writable(Path(self.settings["LOG_FILE"]).absolute(), "LOG_FILE")

    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args or args[0] != TopicSpider.name or len(args) > 1:
            super().run(args, opts)
            return
        if redis_url(self.settings):  # a worker of a shared crawl: its workers run side by side
            self.exitcode = self._crawl(args[0], opts.spargs)
            return
        try:
            lock = TopicLock.for_settings(self.settings, self.topic.name)
            lock.acquire()
        except TopicLocked as exc:
            print(f"topiccrawler: {exc}; not starting", file=sys.stderr)
            self.exitcode = EXIT_LOCKED
            return
        except OSError as exc:
            self._refuse(UserError(f"cannot take the topic's lock file: {exc}"))
        try:
            self.exitcode = self._crawl(args[0], opts.spargs)
        finally:
            lock.release()

    def _crawl(self, name: str, spargs: dict) -> int:
        assert self.crawler_process
        hold_signals_until_running()
        crawler = self._create_crawler(name)
        self.crawler_process.crawl(crawler, **spargs)
        self.crawler_process.start()
        exit_at_once_on_signal(EXIT_INTERRUPTED)
        if crawler.stats is not None and (
            crawler.stats.get_value(INTERRUPTS_KEY)
            or crawler.stats.get_value(OUTCOME_KEY) == "interrupted"
        ):
            return EXIT_INTERRUPTED
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
