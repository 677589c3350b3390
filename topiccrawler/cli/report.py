"""`topiccrawler report TOPIC --out FILE`: the topic's briefing (`topiccrawler/report/`) as one
self-contained HTML file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from topiccrawler.cli.options import date
from topiccrawler.cli.store import read_session, require_stored_topic
from topiccrawler.errors import EXIT_FAILED, EXIT_OK, UserError, check_writable

if TYPE_CHECKING:
    from scrapy.settings import Settings


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "report", help="a topic's briefing as one HTML file: harvest, sites, stories, names, plots"
    )
    parser.add_argument("topic", help="the topic whose stored pages are reported")
    parser.add_argument("--out", required=True, help="the HTML file to write")
    parser.add_argument(
        "--since", type=date, metavar="DATE", help="only pages fetched since (YYYY-MM-DD)"
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.report import gather, render

    out = Path(args.out)
    check_writable(out, "--out", make_folders=False)
    with read_session(settings) as session:
        require_stored_topic(session, settings, args.topic)
        data = gather(session, args.topic, args.since)
        page = render(data)
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"--out {out}: cannot write it: {exc.strerror or exc}") from exc
    print(
        f"wrote {out} ({out.stat().st_size // 1024} KB): {data.pages} pages stored, "
        f"{data.kept} kept, {len(data.stories)} reposted stories, {data.comments} comments, "
        f"{data.posts} posts"
    )
    return EXIT_OK if data.pages else EXIT_FAILED
