"""`topiccrawler rejudge TOPIC`: score the stored pages again with today's library, η and page
classifier, and update their verdicts (what it does: terms/rejudge.py)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from topiccrawler.cli.options import threshold
from topiccrawler.cli.store import command_store, load_topic
from topiccrawler.errors import EXIT_OK

if TYPE_CHECKING:
    from scrapy.settings import Settings


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "rejudge", help="score stored pages again with today's library, η and classifier"
    )
    parser.add_argument("topic", help="the topic whose stored pages are judged again")
    parser.add_argument(
        "--threshold", type=threshold,
        help="η: a number from 0 to 1, or 'auto' (default: the topic file's, auto when it has none)",
    )  # fmt: skip
    parser.add_argument("--dry-run", action="store_true", help="count, change nothing")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.relevance.library import ConceptLibrary
    from topiccrawler.relevance.page_classifier import self_training_setting
    from topiccrawler.storage.terms import accepted_expansions
    from topiccrawler.terms.rejudge import rejudge
    from topiccrawler.topics.files import threshold_override

    topic = load_topic(settings, args.topic)
    eta = threshold_override(args.threshold, topic.keywords.threshold)
    # A dry run changes nothing, so it needs a database that is there already.
    with command_store(settings, create=not args.dry_run) as database:
        with database.session() as session:
            library = ConceptLibrary.extended(
                topic.keywords, accepted_expansions(session, topic.name)
            )
            result = rejudge(
                session,
                topic.name,
                library,
                eta,
                keep_text=settings.getbool("RELEVANCE_STORE_DROPPED_TEXT"),
                certainty=settings.getfloat("RELEVANCE_LIBRARY_CERTAINTY"),
                use_classifier=settings.getbool("RELEVANCE_CLASSIFIER"),
                self_training=self_training_setting(settings),
            )
            if args.dry_run:
                session.rollback()
            else:
                session.commit()
    shown = "-" if result.threshold is None else f"{result.threshold:.4f}"
    print(
        f"{result.pages} pages of '{topic.name}' judged again ({result.rescored} scored again "
        f"from their text), η = {shown} ({result.mode}): kept {result.kept_before} → "
        f"{result.kept_after}, {result.changed} verdicts changed"
        + (" (dry run: nothing written)" if args.dry_run else "")
    )
    if result.to_refetch and not args.dry_run:
        print(
            f"{result.to_refetch} pages are relevant now but were stored without their text; "
            f"fetch them again with: scrapy crawl topic -a topic={topic.name} -a refetch=yes"
        )
    return EXIT_OK
