"""`topiccrawler db`: create or upgrade the database schema, show its revision, or index every
stored page anew for search."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from topiccrawler.cli.store import command_store
from topiccrawler.errors import EXIT_OK

if TYPE_CHECKING:
    from scrapy.settings import Settings


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("db", help="create or upgrade the database schema")
    parser.add_argument(
        "action", choices=("upgrade", "current", "reindex"),
        help="upgrade: create the database or bring it to the head schema; current: show its"
        " revision (creates nothing); reindex: index every stored page, comment and post anew"
        " for search (after a crawl with SEARCH_INDEX=False)",
    )  # fmt: skip


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.storage.db import current_revision, head_revision

    if args.action == "current":
        from topiccrawler.cli.store import database_url
        from topiccrawler.storage.access import open_database

        # Any revision is shown, the head or not: the database must exist, nothing is made.
        database = open_database(database_url(settings), create=False, require_head=False)
        try:
            revision = current_revision(database.engine)
        finally:
            database.dispose()
        print(f"{database.display_url()}: schema revision {revision} (head {head_revision()})")
        return EXIT_OK
    if args.action == "reindex":
        from topiccrawler.storage.search_index import index_gaps, rebuild

        with command_store(settings) as database, database.engine.begin() as connection:
            pages = rebuild(connection)
            gaps = sum(index_gaps(connection).values())
        print(f"{database.display_url()}: {pages} pages indexed anew for search"
              + (f"; {gaps} rows still disagree" if gaps else ""))  # fmt: skip
        return EXIT_OK
    with command_store(settings, create=True) as database:
        print(
            f"{database.display_url()}: schema revision {current_revision(database.engine)}"
            f" (head {head_revision()})"
        )
    return EXIT_OK
