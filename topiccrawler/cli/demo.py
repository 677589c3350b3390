"""`topiccrawler demo`: crawl the sandbox web for the tax topic and print a summary scored
against its ground truth. The database is --db, else the configured one (DATABASE_URL,
$TOPICCRAWLER_DATABASE_URL), else SQLite data/demo.db; only the demo's own SQLite file is ever
cleared."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from topiccrawler.cli.options import port_number
from topiccrawler.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK

if TYPE_CHECKING:
    from scrapy.settings import Settings

DEMO_PORT = 8765  # the sandbox's port in the demo: stable, so --keep recognises the pages


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("demo", help="crawl the sandbox web and summarise")
    parser.add_argument(
        "--size", choices=("small", "medium", "large"), default="small",
        help="the sandbox web's size (default small: about a minute)",
    )  # fmt: skip
    parser.add_argument("--seed", type=int, default=1, help="same seed, same web (default 1)")
    parser.add_argument(
        "--db",
        help="SQLite file or database URL (default: the configured database, else data/demo.db)",
    )
    parser.add_argument("--keep", action="store_true", help="keep the database of the last demo")
    parser.add_argument(
        "--port", type=port_number, default=DEMO_PORT,
        help=f"the sandbox's port, part of every URL: keep it to compare runs (default {DEMO_PORT})",
    )  # fmt: skip
    parser.add_argument(
        "--log-level", default="WARNING",
        choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"),
        help="crawl log level (default WARNING)",
    )  # fmt: skip


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.sandbox.demo import DemoDatabase, format_summary, run_demo
    from topiccrawler.storage.access import open_database

    database = DemoDatabase.choose(args.db, settings.get("DATABASE_URL"), keep=args.keep)
    open_database(database.url, create=True).dispose()  # a bad --db is said before the crawl
    print(
        f"Crawling the sandbox web ({args.size}, seed {args.seed}) for the tax topic into"
        f" {database.describe()} ...",
        flush=True,
    )
    result = run_demo(
        args.size,
        args.seed,
        database,
        settings=settings,
        log_level=args.log_level,
        port=args.port,
    )
    print(format_summary(result, args.size))
    if result.interrupted:
        return EXIT_INTERRUPTED
    return EXIT_OK if result.score.pages else EXIT_FAILED
