"""`topiccrawler search QUERY`: what the crawls stored that says the query's words.

Pages (title and body), comments and forum posts, best first: BM25 raised by the page's
relevance, kept pages only unless --all. A line a hit, or with --json one JSON object a line.
Exit 0 with hits, 1 with none, 2 for a query or option that cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from topiccrawler.cli.options import date, positive_int
from topiccrawler.cli.store import command_store
from topiccrawler.errors import EXIT_FAILED, EXIT_OK, UserError

if TYPE_CHECKING:
    from scrapy.settings import Settings

KIND_NAMES = ("page", "comment", "post")


def kinds(value: str) -> tuple[str, ...]:
    """--kind page,comment: one or more of page, comment, post."""
    chosen = tuple(dict.fromkeys(k.strip() for k in value.split(",") if k.strip()))
    wrong = [k for k in chosen if k not in KIND_NAMES]
    if wrong or not chosen:
        raise argparse.ArgumentTypeError(
            f"not a kind (page, comment, post, or several joined by commas): {value!r}"
        )
    return chosen


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "search",
        help="full-text search of stored pages, comments and forum posts",
        description='Words must all match; "a phrase" matches its words in order; -word '
        "leaves out what has it. Chinese is matched by word (所得税 finds 个人所得税), English by "
        "stem (taxes finds tax).",
    )
    parser.add_argument("query", help='the words to find, e.g. 增值税 发票 or "input tax" -refund')
    parser.add_argument("--topic", help="only what this topic's crawls stored")
    parser.add_argument("--site", help="only this site (a host, or a domain and its subdomains)")
    parser.add_argument("--since", type=date, help="published on or after this day (YYYY-MM-DD)")
    parser.add_argument("--until", type=date, help="published on or before this day (YYYY-MM-DD)")
    parser.add_argument(
        "--kind", type=kinds, default=KIND_NAMES,
        help="page, comment or post, or several joined by commas (default: all three)",
    )  # fmt: skip
    parser.add_argument(
        "--all", action="store_true",
        help="pages judged irrelevant too (their titles: their text is not stored)",
    )  # fmt: skip
    parser.add_argument(
        "--limit", type=positive_int, default=20, help="hits shown, best first (default 20)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object a line")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from datetime import timedelta

    from topiccrawler.search.query import QueryError, parse_query
    from topiccrawler.storage.search import SearchFilters, search

    try:
        query = parse_query(args.query)
    except QueryError as exc:
        raise UserError(f"search {args.query!r}: {exc}") from exc
    filters = SearchFilters(
        topic=args.topic, site=args.site, since=args.since,
        until=args.until + timedelta(days=1) if args.until else None,
        kinds=args.kind, kept_only=not args.all,
    )  # fmt: skip
    with command_store(settings) as database, database.engine.connect() as connection:
        results = search(
            connection, query, filters, limit=args.limit,
            relevance_weight=settings.getfloat("SEARCH_RELEVANCE_WEIGHT"),
            rank_window=settings.getint("SEARCH_RANK_WINDOW") or None,
        )  # fmt: skip
    out = sys.stdout
    if args.json:
        for hit in results.hits:
            out.write(json.dumps(hit.as_dict(), ensure_ascii=False) + "\n")
        return EXIT_OK if results.hits else EXIT_FAILED
    if not results.hits:
        print(f"no hits for {args.query!r}" + ("" if args.all else " among kept pages (--all: every page)"),
              file=sys.stderr)  # fmt: skip
        return EXIT_FAILED
    # Crawled text is printed through main's EscapingWriter: no terminal escape gets through.
    for hit in results.hits:
        when = f"{hit.published_at:%Y-%m-%d}" if hit.published_at else "----------"
        title = hit.title or hit.url
        kind = "" if hit.kind == "page" else f"[{hit.kind}] "
        out.write(f"{hit.score:8.3f}  {when}  {hit.site:26}  {kind}{title}\n")
        out.write(f"          {hit.url}\n")
        if hit.snippet.text:
            out.write(f"          {hit.snippet.marked()}\n")
    shown = len(results.hits)
    print(f"{shown} of {results.total_text} hits" + (" (--limit for more)" if shown < results.total else ""),
          file=sys.stderr)  # fmt: skip
    return EXIT_OK
