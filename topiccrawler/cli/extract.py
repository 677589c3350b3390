"""`topiccrawler extract PATH…`: title, body, metadata, comments and posts of HTML files, one
JSON object per line or readable text. Starts without Scrapy, SQLAlchemy or the topic library
(a second less per run): everything it needs is imported in `run`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from topiccrawler.errors import EXIT_FAILED, EXIT_OK


def add_parser(subparsers) -> None:
    add_arguments(
        subparsers.add_parser("extract", help="extract title, body and metadata from HTML files")
    )


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, folders, or - for stdin")
    parser.add_argument(
        "--format", choices=("jsonl", "text"), default="jsonl",
        help="jsonl (default): one JSON object per page; text: readable",
    )  # fmt: skip
    return parser


def run(args: argparse.Namespace, settings=None) -> int:
    """Folders give their *.html/*.htm; `-` standard input. A file that cannot be read or
    parsed gives an object with an `error` field (and what could be read); the batch goes on,
    and the exit status is 1."""
    import gc
    import json

    from topiccrawler.extract.encoding import decode_html, looks_binary
    from topiccrawler.extract.page import extract_page
    from topiccrawler.guard.text import drop_html_controls

    # What start-up made (modules, compiled patterns) lives to the end: out of the collector's
    # scans, which a batch of parsed pages would otherwise repeat over it.
    gc.freeze()
    failures = 0
    for source, data in _inputs(args.paths):
        if isinstance(data, Exception):
            record = {"source": source, "error": f"cannot read: {data}"}
        elif looks_binary(data):
            record = {"source": source, "error": "binary content, not an HTML page"}
        else:
            try:
                _, text = decode_html(data)
                page = extract_page(drop_html_controls(text), relevance=False)  # not printed
                record = {
                    "source": source,
                    "title": page.title,
                    "body": page.body,
                    "published": page.published,
                    "published_at": page.published_at.isoformat() if page.published_at else None,
                    "author": page.author,
                    "publisher": page.source,
                    "comments": [_record(c) for c in page.records.comments],
                    "posts": [_record(p) for p in page.records.posts],
                    "threads": [_record(t) for t in page.records.threads],
                }
                if page.error:  # what could be read is given, with the reason
                    record["error"] = page.error
            except Exception as exc:  # one bad file must not end the batch
                record = {"source": source, "error": f"{exc.__class__.__name__}: {exc}"}
        failures += "error" in record
        if args.format == "jsonl":
            print(json.dumps(record, ensure_ascii=False), flush=False)
        elif "error" in record:
            print(f"== {source}\nERROR {record['error']}\n")
        else:
            print(f"== {source}\n# {record['title'] or ''}\n{record['body']}\n")
            for kind in ("comments", "posts"):
                for n, item in enumerate(record[kind], 1):
                    byline = " · ".join(x for x in (item["author"], item["time"]) if x)
                    print(f"-- {kind[:-1]} {n}: {byline}\n{item['text']}\n")
            for item in record["threads"]:
                print(f"-- thread: {item['title']} <{item['url']}> {item['author'] or ''}")
    sys.stdout.flush()
    return EXIT_FAILED if failures else EXIT_OK


def _record(record) -> dict:
    """A comment, post or thread as JSON: its fields, times as written and as ISO 8601."""
    fields = dict(record.__dict__)
    if fields.get("published_at"):
        fields["published_at"] = fields["published_at"].isoformat()
    return fields


def _inputs(paths: list[str]):
    """(name, bytes or the exception that prevented reading) for every input."""
    for name in paths:
        if name == "-":
            yield "-", sys.stdin.buffer.read()
            continue
        path = Path(name)
        files = (
            sorted(p for p in path.rglob("*") if p.suffix.lower() in (".html", ".htm"))
            if path.is_dir()
            else [path]
        )
        for file in files:
            try:
                yield str(file), file.read_bytes()
            except OSError as exc:
                yield str(file), exc
