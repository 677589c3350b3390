"""`scrapy crawl` that checks the topic files before any crawler starts, and whose exit status
says whether the crawl did its job.

A missing topic or a broken topic file ends the command with one clear line and exit status 2,
instead of a traceback from inside the crawler. A crawl that fetched no page, or ended because
it could make no progress, exits with status 1 (the outcome is in the crawl summary).
"""

from __future__ import annotations

import argparse

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from topiccrawler.extensions.progress import OUTCOME_KEY
from topiccrawler.spiders.topic import TopicSpider
from topiccrawler.topics import TopicFileError, UnknownTopicError, load_topic_from_settings


class Command(ScrapyCrawlCommand):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if not args or args[0] != TopicSpider.name or len(args) > 1:
            super().run(args, opts)
            return
        spargs = opts.spargs
        try:
            load_topic_from_settings(
                self.settings, spargs.get("topic"), spargs.get("keywords"), spargs.get("seeds")
            )
        except (UnknownTopicError, TopicFileError) as exc:
            raise UsageError(str(exc), print_help=False) from exc
        assert self.crawler_process
        crawler = self._create_crawler(args[0])
        self.crawler_process.crawl(crawler, **spargs)
        self.crawler_process.start()
        outcome = crawler.stats.get_value(OUTCOME_KEY) if crawler.stats else None
        if self.crawler_process.bootstrap_failed or (outcome is not None and outcome != "ok"):
            self.exitcode = 1
