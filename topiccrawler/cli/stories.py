"""`topiccrawler stories TOPIC`: stories that were reposted, each with its first publisher and
every reposting site with its time."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from topiccrawler.cli.options import positive_int
from topiccrawler.cli.store import read_session, require_stored_topic
from topiccrawler.errors import EXIT_FAILED, EXIT_OK

if TYPE_CHECKING:
    from scrapy.settings import Settings


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "stories", help="where reposted stories spread: first publisher, reposts"
    )
    parser.add_argument("topic", help="the topic whose stored pages are read")
    parser.add_argument(
        "--limit", type=positive_int, default=50,
        help="stories shown, most reposted first (default 50)",
    )  # fmt: skip


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.storage.stories import reposted_stories

    with read_session(settings) as session:
        require_stored_topic(session, settings, args.topic)
        stories = reposted_stories(session, args.topic, limit=args.limit)
    if not stories:
        print(f"no reposted stories stored for topic '{args.topic}'")
        return EXIT_FAILED
    for story in stories:
        first = story.pages[0]
        print(
            f"{story.title}  ({len(story.pages)} pages on {len(story.sites)} sites,"
            f" {story.attention} comments and posts)"
        )
        if story.keywords:
            print(f"  keywords: {', '.join(story.keywords)}")
        if story.entities:
            print(f"  names:    {', '.join(f'{name} ({kind})' for name, kind in story.entities)}")
        for page in story.pages:
            role = "first " if page is first else "repost"
            when = page.published_at or page.fetched_at
            print(f"  {role}  {when:%Y-%m-%d %H:%M}  {page.site:28} {page.url}")
    return EXIT_OK
