"""`topiccrawler stats`: pages, kept pages, duplicates, comments, posts and threads per topic
and site (the query: storage/stats.py)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from topiccrawler.cli.store import command_store, require_stored_topic
from topiccrawler.errors import EXIT_FAILED, EXIT_OK

if TYPE_CHECKING:
    from scrapy.settings import Settings

HEADER = ("topic", "site", "pages", "kept", "dupes", "comments", "posts", "threads")
WIDTHS = (16, 28, 7, 7, 7, 9, 7, 8)


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("stats", help="what the database holds, per topic and site")
    parser.add_argument("--topic", help="only this topic")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.storage.stats import site_counts

    with command_store(settings) as database, database.session() as session:
        if args.topic:
            require_stored_topic(session, settings, args.topic)
        rows = site_counts(session, args.topic)
    print(f"database: {database.display_url()}")
    if not rows:
        print("no pages stored yet" + (f" for topic '{args.topic}'" if args.topic else ""))
        return EXIT_FAILED
    print("".join(h.ljust(w) for h, w in zip(HEADER, WIDTHS, strict=True)))
    totals = [0] * 6
    for row in rows:
        print("".join(str(v).ljust(w) for v, w in zip(row, WIDTHS, strict=True)))
        totals = [t + v for t, v in zip(totals, row[2:], strict=True)]
    print("".join(str(v).ljust(w) for v, w in zip(("total", "", *totals), WIDTHS, strict=True)))
    return EXIT_OK
