"""`topiccrawler terms list|expand|bootstrap|review TOPIC`: grow a topic's library, always
through a person's review (what each action does: terms/actions.py)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from topiccrawler.cli.options import positive_int
from topiccrawler.cli.store import command_store, load_topic
from topiccrawler.errors import UserError

if TYPE_CHECKING:
    from scrapy.settings import Settings


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("terms", help="grow a topic's library: propose, review")
    parser.add_argument(
        "action", choices=("list", "expand", "bootstrap", "review"),
        help="list the library; expand or bootstrap: propose candidates; review: decide on them",
    )  # fmt: skip
    parser.add_argument("topic", help="the topic whose library is grown")
    parser.add_argument(
        "--top-l", type=positive_int, help="expand: result pages read per term (default 10)"
    )
    parser.add_argument(
        "--top-n", type=positive_int, help="expand: candidates kept per term (default 10)"
    )
    parser.add_argument("--no-thesaurus", action="store_true", help="expand: skip Cilin synonyms")
    parser.add_argument("--site", help="bootstrap: the authority site's start URL")
    parser.add_argument(
        "--max-pages", type=positive_int, default=200,
        help="bootstrap: pages to crawl (default 200)",
    )  # fmt: skip
    parser.add_argument(
        "--export", metavar="FILE", type=Path, help="review: write the queue to FILE"
    )
    parser.add_argument(
        "--apply", metavar="FILE", type=Path, help="review: merge decisions from FILE"
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.relevance.expansion import TOP_L, TOP_N
    from topiccrawler.terms.actions import ACTIONS
    from topiccrawler.terms.review import ReviewFileError

    args.top_l, args.top_n = args.top_l or TOP_L, args.top_n or TOP_N
    if args.action == "bootstrap" and not args.site:
        raise UserError("terms bootstrap needs --site URL (the authority site's start page)")
    if args.site and not args.site.startswith(("http://", "https://")):
        raise UserError(f"--site {args.site}: not a web address (https://www.example.org/)")
    if args.export and args.apply:
        raise UserError("terms review: --export or --apply, not both")
    if args.apply and not args.apply.is_file():
        raise UserError(f"--apply {args.apply}: no such file")
    topic = load_topic(settings, args.topic)
    with command_store(settings, create=True) as database:
        with database.session() as session:
            try:
                status = ACTIONS[args.action](args, settings, topic, session)
            except ReviewFileError as exc:
                raise UserError(str(exc)) from exc
            except OSError as exc:  # --export's file
                raise UserError(f"{exc.filename}: {exc.strerror or exc}") from exc
            session.commit()
    return status
