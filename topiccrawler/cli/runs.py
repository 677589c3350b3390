"""`topiccrawler runs TOPIC`: a topic's recent crawl runs, each beside the one before it."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from topiccrawler.cli.options import positive_int
from topiccrawler.cli.store import read_session, require_stored_topic
from topiccrawler.errors import EXIT_FAILED, EXIT_OK

if TYPE_CHECKING:
    from scrapy.settings import Settings


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser("runs", help="a topic's crawl runs, each beside the one before")
    parser.add_argument("topic", help="the topic whose runs are shown")
    parser.add_argument(
        "--limit", type=positive_int, default=20, help="runs shown, latest first (default 20)"
    )


def outcome_of(run) -> str:
    """How a run ended, as `runs` shows it: the summary's outcome ("ok", "interrupted",
    "no_progress" …), else the finish reason; "running or killed" while it has no end."""
    from topiccrawler.storage.runs import SUMMARY_KEY

    if run.finished_at is None:
        return "running or killed"
    summary = (run.stats or {}).get(SUMMARY_KEY) or {}
    return summary.get("outcome") or run.finish_reason or "?"


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.extensions.crawl_run import found_by_text
    from topiccrawler.storage.runs import CHANGES_KEY, SUMMARY_KEY, recent_runs

    with read_session(settings) as session:
        require_stored_topic(session, settings, args.topic)
        runs = recent_runs(session, args.topic, args.limit)
    if not runs:
        print(f"no crawl run recorded for topic '{args.topic}'")
        return EXIT_FAILED
    print(f"{'run':>5}  {'started (UTC)':16}  {'took':>6}  {'outcome':18} {'fetched':>7} "
          f"{'stored':>7} {'new pages':>9} {'comments':>8} {'posts':>6}")  # fmt: skip
    for crawl in runs:
        stats = crawl.stats or {}
        summary, changes = stats.get(SUMMARY_KEY) or {}, stats.get(CHANGES_KEY) or {}
        took = (
            "–"
            if crawl.finished_at is None
            else f"{(crawl.finished_at - crawl.started_at).total_seconds() / 60:.1f}m"
        )
        print(
            f"{crawl.id:>5}  {crawl.started_at:%Y-%m-%d %H:%M}  {took:>6}  {outcome_of(crawl):18} "
            f"{summary.get('pages_fetched', 0):>7} {summary.get('pages_stored', 0):>7} "
            f"{changes.get('new_pages', 0):>9} "
            f"{changes.get('new_comments', 0):>8} {changes.get('new_posts', 0):>6}"
        )
        if changes.get("new_pages_by"):
            print(f"{'':7}new pages found by: {found_by_text(changes)}")
        for key, label in (("sites_silent", "silent since the run before"),
                           ("sites_started_blocking", "started blocking"),
                           ("sites_stopped_blocking", "stopped blocking")):  # fmt: skip
            if changes.get(key):
                print(f"{'':7}{label}: {', '.join(changes[key])}")
    return EXIT_OK
