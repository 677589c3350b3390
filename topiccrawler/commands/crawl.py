"""`scrapy crawl` that checks the topic files before any crawler starts.

A missing topic or a broken topic file then ends the command with one clear line and exit
status 2, instead of a traceback from inside the crawler.
"""

from __future__ import annotations

import argparse

from scrapy.commands.crawl import Command as ScrapyCrawlCommand
from scrapy.exceptions import UsageError

from topiccrawler.spiders.topic import TopicSpider
from topiccrawler.topics import TopicFileError, UnknownTopicError, load_topic_from_settings


class Command(ScrapyCrawlCommand):
    def run(self, args: list[str], opts: argparse.Namespace) -> None:
        if args and args[0] == TopicSpider.name:
            spargs = opts.spargs
            try:
                load_topic_from_settings(
                    self.settings, spargs.get("topic"), spargs.get("keywords"), spargs.get("seeds")
                )
            except (UnknownTopicError, TopicFileError) as exc:
                raise UsageError(str(exc), print_help=False) from exc
        super().run(args, opts)
