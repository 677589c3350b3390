"""`topiccrawler report TOPIC --out FILE`: the topic's briefing (`topiccrawler/report/`) as one
self-contained HTML file."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from topiccrawler.cli.options import date
from topiccrawler.cli.store import read_session, require_stored_topic
from topiccrawler.errors import EXIT_FAILED, EXIT_OK, UserError

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


def writable_file(path: Path) -> None:
    """Refuse, before any work, an output path that cannot be written."""
    if path.is_dir():
        raise UserError(f"--out {path} is a folder: name a file (e.g. {path / 'report.html'})")
    folder = path.parent
    if not folder.is_dir():
        raise UserError(f"--out {path}: the folder {folder} does not exist; create it first")
    import os

    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UserError(f"--out {path}: no permission to write there; choose another file")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.report import gather, render

    out = Path(args.out)
    writable_file(out)
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
