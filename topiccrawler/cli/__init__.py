"""The `topiccrawler` command: topic files, the database, and what a crawl stored.

Crawls themselves run through Scrapy (`scrapy crawl topic -a topic=tax`); this tool covers the
rest. It reads the same settings as a crawl (the project's settings module, `-s NAME=VALUE`).

Each subcommand is a module of this package with `add_parser(subparsers)` and
`run(args, settings) -> int`, listed in SUBCOMMANDS. A mistake the user can fix is a
`UserError`: one line on stderr, exit status 2 (the table: topiccrawler/errors.py); the
traceback only with --debug.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from typing import TYPE_CHECKING

from topiccrawler import __version__
from topiccrawler.cli import (
    db,
    demo,
    extract,
    rejudge,
    report,
    runs,
    sandbox,
    schedule,
    search,
    serve,
    stats,
    stories,
    terms,
    topics,
)
from topiccrawler.errors import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_USAGE, UserError

# Scrapy, SQLAlchemy and the topic library are imported by the commands that use them:
# `topiccrawler extract` starts without them (a second less per run).
if TYPE_CHECKING:
    from scrapy.settings import Settings

SUBCOMMANDS = [topics, db, stats, search, stories, runs, report, serve, schedule, extract, sandbox,
               demo, terms, rejudge]  # fmt: skip


class Parser(argparse.ArgumentParser):
    """argparse with its errors on one line (the option and what is wrong with its value),
    exit status 2, and no usage block before it."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def project_settings(overrides: Sequence[str] = ()) -> Settings:
    """The crawl's settings, with `NAME=VALUE` overrides applied like `scrapy -s`."""
    from scrapy.utils.project import get_project_settings

    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "topiccrawler.settings")
    settings = get_project_settings()
    for override in overrides:
        name, equals, value = override.partition("=")
        if not equals or not name:
            raise UserError(f"-s {override!r}: write a setting as NAME=VALUE")
        settings.set(name, value, priority="cmdline")
    return settings


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="topiccrawler", description=__doc__.split("\n")[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "-s", "--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
        help="override a setting, as `scrapy -s` does (e.g. -s DATABASE_URL=postgresql://…)",
    )  # fmt: skip
    parser.add_argument(
        "--debug", action="store_true", help="show the traceback of an error, not just its line"
    )
    subparsers = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", help="what to do (each has its --help)"
    )
    for module in SUBCOMMANDS:
        before = set(subparsers.choices)
        module.add_parser(subparsers)
        for name in set(subparsers.choices) - before:
            subparsers.choices[name].set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["extract"]:  # needs no settings: started without the crawler's imports
        parser = extract.add_arguments(Parser(prog="topiccrawler extract"))
        return extract.run(parser.parse_args(argv[1:]))
    args = build_parser().parse_args(argv)
    prog = f"topiccrawler {args.command}"
    # Crawled text (titles, authors, sites) is printed as data: control characters escaped.
    from topiccrawler.guard.text import EscapingWriter

    with redirect_stdout(EscapingWriter(sys.stdout)), redirect_stderr(EscapingWriter(sys.stderr)):
        try:
            return args.run(args, project_settings(args.settings))
        except UserError as exc:
            if args.debug:
                traceback.print_exc()
            print(f"{prog}: {exc}", file=sys.stderr)
            return exc.status
        except KeyboardInterrupt:
            print(f"{prog}: interrupted", file=sys.stderr)
            return EXIT_INTERRUPTED
        except BrokenPipeError:  # `| head`: the reader left, nothing to say
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.__stdout__.fileno())  # no flush error
            return EXIT_FAILED
        except Exception as exc:  # a bug of ours, not the user's: one line, the rest on --debug
            if args.debug:
                traceback.print_exc()
            print(
                f"{prog}: unexpected {exc.__class__.__name__}: {exc} (a bug: rerun with --debug"
                " for the traceback and report it)",
                file=sys.stderr,
            )
            return EXIT_FAILED
