"""The `topiccrawler` command: topic files, the database, and what a crawl stored.

Crawls themselves run through Scrapy (`scrapy crawl topic -a topic=tax`); this tool covers the
rest. It reads the same settings as a crawl (the project's settings module, `-s NAME=VALUE`).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from contextlib import redirect_stderr, redirect_stdout
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

# Scrapy, SQLAlchemy and the topic library are imported by the commands that use them:
# `topiccrawler extract` starts without them (a second less per run).
if TYPE_CHECKING:
    from scrapy.settings import Settings

    from topiccrawler.storage.db import Database

from topiccrawler.guard.text import EscapingWriter, drop_html_controls

DEMO_PORT = 8765  # the sandbox's port in the demo: stable, so --keep recognises the pages
TOPIC_NAME = re.compile(r"[\w][\w-]*")


def project_settings(overrides: Sequence[str] = ()) -> Settings:
    """The crawl's settings, with `NAME=VALUE` overrides applied like `scrapy -s`."""
    from scrapy.utils.project import get_project_settings

    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "topiccrawler.settings")
    settings = get_project_settings()
    for override in overrides:
        name, _, value = override.partition("=")
        settings.set(name, value, priority="cmdline")
    return settings


def cmd_topics(args: argparse.Namespace, settings: Settings) -> int:
    """List the topics with where each comes from and validate their files (exit 1 if any is
    broken), or write a new topic's files to edit (`topics new NAME`)."""
    if args.action == "new":
        return _new_topic(args, settings)
    from topiccrawler.topics import (
        TERM_CLASSES,
        TopicFileError,
        available_topics,
        load_topic,
        topic_folders,
    )

    seen: set[str] = set()
    broken = 0
    for folder in topic_folders(settings):
        for name in available_topics(folder.keywords):
            if name in seen:
                continue  # a topic of the same name earlier in the search order wins
            seen.add(name)
            try:
                topic = load_topic(name, folder.keywords, folder.seeds)
            except TopicFileError as exc:
                broken += 1
                print(f"{name:20} ERROR  {exc}")
                continue
            library, seeds = topic.keywords, topic.seeds
            classes = " ".join(f"{c}={len(library.by_class(c))}" for c in TERM_CLASSES)
            threshold = "auto" if library.threshold is None else library.threshold
            print(
                f"{name:20} ok     {library.title} | {classes} | words={len(library.all_words)}"
                f" | authority sites={len(seeds.authority)}"
                f" engines={','.join(e.name for e in seeds.engines) or '-'}"
                f" | η={threshold} | {folder.origin}: {folder.keywords.parent}"
            )
    if not seen:
        where = ", ".join(str(f.keywords) for f in topic_folders(settings))
        print(f"no topics: no .toml keyword files in {where}", file=sys.stderr)
        return 1
    return 1 if broken else 0


def _new_topic(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.topics import TopicFileError, load_topic, topic_dirs
    from topiccrawler.topics.starter import StarterExists, write_starter

    name = args.name or ""
    if not TOPIC_NAME.fullmatch(name):
        print(
            f"topic name {name!r}: use letters, digits, '-' and '_' (it names the files)",
            file=sys.stderr,
        )
        return 2
    if args.dir:
        root = Path(args.dir).expanduser()
        keywords_dir, seeds_dir = root / "keywords", root / "seeds"
    else:
        keywords_dir, seeds_dir = topic_dirs(settings)
    try:
        written = write_starter(name, keywords_dir, seeds_dir, args.language)
    except StarterExists as exc:
        print(f"topic '{name}': {exc}", file=sys.stderr)
        return 1
    try:
        load_topic(name, keywords_dir, seeds_dir)
    except TopicFileError as exc:  # the templates must load; say so rather than leave a trap
        print(f"the new files do not validate: {exc}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    print(
        f"edit the terms in {written[0]} and the sites in {written[1]}, check them with"
        f" `topiccrawler topics`, then crawl: scrapy crawl topic -a topic={name}"
    )
    return 0


def _database(settings: Settings) -> Database:
    from topiccrawler.storage.db import Database, resolve_database_url

    return Database(resolve_database_url(settings.get("DATABASE_URL")))


def _read_store(settings: Settings, read):
    """`read(session)` against the configured database: (its result, 0), or (None, 1) after
    one line saying why the database could not be read."""
    from sqlalchemy.exc import SQLAlchemyError

    database = _database(settings)
    try:
        with database.session() as session:
            return read(session), 0
    except SQLAlchemyError as exc:
        print(f"cannot read {database.display_url()}: {exc.__class__.__name__}", file=sys.stderr)
        return None, 1
    finally:
        database.dispose()


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.storage.db import current_revision, head_revision

    database = _database(settings)
    try:
        if args.action == "upgrade":
            database.upgrade()
        print(
            f"{database.display_url()}: schema revision {current_revision(database.engine)}"
            f" (head {head_revision()})"
        )
    finally:
        database.dispose()
    return 0


def cmd_stats(args: argparse.Namespace, settings: Settings) -> int:
    """Pages, kept pages, comments, posts and threads per topic and site."""
    from sqlalchemy.exc import SQLAlchemyError

    database = _database(settings)
    try:
        rows = _stats_rows(database, args.topic)
    except SQLAlchemyError as exc:
        print(f"cannot read {database.display_url()}: {exc.__class__.__name__}", file=sys.stderr)
        print("run `topiccrawler db upgrade` or a crawl first", file=sys.stderr)
        return 1
    finally:
        database.dispose()
    print(f"database: {database.display_url()}")
    if not rows:
        print("no pages stored yet")
        return 0
    header = ("topic", "site", "pages", "kept", "dupes", "comments", "posts", "threads")
    widths = (16, 28, 7, 7, 7, 9, 7, 8)
    print("".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    totals = [0] * 6
    for row in rows:
        print("".join(str(v).ljust(w) for v, w in zip(row, widths, strict=True)))
        totals = [t + v for t, v in zip(totals, row[2:], strict=True)]
    print("".join(str(v).ljust(w) for v, w in zip(("total", "", *totals), widths, strict=True)))
    return 0


def _stats_rows(database: Database, topic: str | None) -> list[tuple]:
    from sqlalchemy import Integer, func, select

    from topiccrawler.storage.models import Comment, ForumPost, ForumThread, Page

    def per_page(model, column):
        return (
            select(model.page_id.label("page_id"), func.count().label(column))
            .group_by(model.page_id)
            .subquery()
        )

    comments, posts = per_page(Comment, "n"), per_page(ForumPost, "n")
    threads = (
        select(ForumThread.list_page_id.label("page_id"), func.count().label("n"))
        .group_by(ForumThread.list_page_id)
        .subquery()
    )
    query = (
        select(
            Page.topic,
            Page.site,
            func.count(Page.id),
            func.coalesce(func.sum(func.cast(Page.is_relevant, Integer)), 0),
            func.count(Page.duplicate_of_id),
            func.coalesce(func.sum(comments.c.n), 0),
            func.coalesce(func.sum(posts.c.n), 0),
            func.coalesce(func.sum(threads.c.n), 0),
        )
        .outerjoin(comments, comments.c.page_id == Page.id)
        .outerjoin(posts, posts.c.page_id == Page.id)
        .outerjoin(threads, threads.c.page_id == Page.id)
        .group_by(Page.topic, Page.site)
        .order_by(Page.topic, func.count(Page.id).desc(), Page.site)
    )
    if topic:
        query = query.where(Page.topic == topic)
    with database.session() as session:
        return [tuple(row) for row in session.execute(query)]


def cmd_extract(args: argparse.Namespace, settings: Settings | None) -> int:
    """Extract pages from HTML files (folders: their *.html/*.htm; `-`: standard input), one JSON
    object per line, or readable text. A file that cannot be read or parsed gives an object
    with an `error` field (and what could be read); the batch goes on."""
    import gc
    import json

    from topiccrawler.extract.encoding import decode_html, looks_binary
    from topiccrawler.extract.page import extract_page

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
    return 1 if failures else 0


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


def cmd_sandbox(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the sandbox web until interrupted, or print its ground truth as JSON lines."""
    import json
    import time

    from topiccrawler.sandbox.demo import sandbox_login_env, sandbox_seed_file
    from topiccrawler.sandbox.server import SandboxServer
    from topiccrawler.sandbox.web import build_web

    web = build_web(args.seed, args.size)
    if args.action == "truth":
        for host, path, truth in web.pages_with_truth():
            record = {"url": web.url(host, path, args.port), **truth.__dict__}
            record["comments"] = [c.as_dict() for c in truth.comments]
            record["posts"] = [p.as_dict() for p in truth.posts]
            record["threads"] = [{**t, "url": web.url(*t["url"], args.port)} for t in truth.threads]
            if truth.duplicate_of:
                record["duplicate_of"] = web.url(*truth.duplicate_of, args.port)
            print(json.dumps(record, ensure_ascii=False))
        return 0
    server = SandboxServer(
        web,
        port=args.port,
        slow_seconds=args.slow_seconds,
        search_captcha_after=args.search_captcha_after,
    )
    with server:
        if args.seeds_out:
            Path(args.seeds_out).write_text(sandbox_seed_file(server), encoding="utf-8")
        print(
            f"SANDBOX READY http://127.0.0.1:{server.port} ({len(web.resources)} resources, "
            f"{len(web.site_names)} hosts)",
            flush=True,
        )
        print("hosts: " + ",".join(server.hosts), flush=True)
        login = " ".join(f"{k}={v}" for k, v in sandbox_login_env().items())
        print(f"members login (the sandbox's test account): export {login}", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


def cmd_demo(args: argparse.Namespace, settings: Settings) -> int:
    """Crawl the sandbox web for the tax topic and print a summary. The database is --db, else
    the configured one (DATABASE_URL, $TOPICCRAWLER_DATABASE_URL), else SQLite data/demo.db;
    only the demo's own SQLite file is ever cleared."""
    from topiccrawler.sandbox.demo import DemoDatabase, format_summary, run_demo

    database = DemoDatabase.choose(args.db, settings.get("DATABASE_URL"), keep=args.keep)
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
    return 0 if result.score.pages else 1


def cmd_stories(args: argparse.Namespace, settings: Settings) -> int:
    """Stories that were reposted: first publisher, then every reposting site with its time."""
    from topiccrawler.storage.stories import reposted_stories

    stories, failed = _read_store(
        settings, lambda session: reposted_stories(session, args.topic, limit=args.limit)
    )
    if failed:
        return failed
    if not stories:
        print(f"no reposted stories stored for topic '{args.topic}'")
    for story in stories:
        first = story.pages[0]
        print(
            f"{story.title}  ({len(story.pages)} pages on {len(story.sites)} sites,"
            f" {story.attention} comments and posts)"
        )
        if story.keywords:
            print(f"  keywords: {', '.join(story.keywords)}")
        if story.entities:
            print(f"  names:    {', '.join(f'{name} ({kind})' for name, kind in story.entities)}")
        for page in story.pages:
            role = "first " if page is first else "repost"
            when = page.published_at or page.fetched_at
            print(f"  {role}  {when:%Y-%m-%d %H:%M}  {page.site:28} {page.url}")
    return 0


def _date_argument(value: str) -> datetime:
    try:
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {value!r}") from exc


def cmd_report(args: argparse.Namespace, settings: Settings) -> int:
    """Write the topic's briefing (`topiccrawler/report/`) to one self-contained HTML file."""
    from topiccrawler.report import gather, render

    found, failed = _read_store(
        settings, lambda session: (data := gather(session, args.topic, args.since), render(data))
    )
    if failed:
        return failed
    data, page = found
    out = Path(args.out)
    try:
        out.write_text(page, encoding="utf-8")
    except OSError as exc:
        print(f"cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(
        f"wrote {out} ({out.stat().st_size // 1024} KB): {data.pages} pages, {data.kept} kept, "
        f"{len(data.stories)} reposted stories, {data.comments} comments, {data.posts} posts"
    )
    return 0


def cmd_schedule(args: argparse.Namespace, settings: Settings) -> int:
    """Print (or install) a crontab line or systemd units that crawl the topic every so often."""
    from topiccrawler.commands.crawl import EXIT_CODES
    from topiccrawler.schedule import Every, crontab_line, install_crontab, systemd_units
    from topiccrawler.topics import TopicFileError, UnknownTopicError, load_topic_from_settings
    from topiccrawler.topics.registry import project_root

    try:
        every = Every.parse(args.every)
        load_topic_from_settings(settings, args.topic)
    except (ValueError, UnknownTopicError, TopicFileError) as exc:
        print(f"topiccrawler schedule: {exc}", file=sys.stderr)
        return 2
    project = project_root()
    log = Path(args.log).resolve() if args.log else project / "data" / f"crawl-{args.topic}.log"
    log.parent.mkdir(parents=True, exist_ok=True)  # cron cannot append to a file in no folder
    if args.systemd:
        units = systemd_units(args.topic, every, project, log)
        folder = Path(args.unit_dir).expanduser() if args.unit_dir else None
        for name, text in units.items():
            if args.install:
                folder = folder or Path.home() / ".config" / "systemd" / "user"
                folder.mkdir(parents=True, exist_ok=True)
                (folder / name).write_text(text, encoding="utf-8")
                print(f"wrote {folder / name}")
            else:
                print(f"# {name}\n{text}")
        timer = next(n for n in units if n.endswith(".timer"))
        print(
            f"enable with: systemctl --user daemon-reload && systemctl --user enable --now {timer}"
        )
    else:
        line = crontab_line(args.topic, every, project, log)
        if args.install:
            try:
                done = install_crontab(args.topic, line)
            except (OSError, FileNotFoundError) as exc:
                print(f"topiccrawler schedule: cannot install: {exc}", file=sys.stderr)
                return 1
            print(f"{done} in your crontab:\n{line}")
        else:
            print(line)
    print("exit statuses to alert on: " + "; ".join(f"{c} {m}" for c, m in EXIT_CODES.items()))
    return 0


def cmd_runs(args: argparse.Namespace, settings: Settings) -> int:
    """Recent crawl runs of a topic, each beside the one before it."""
    from topiccrawler.storage.runs import CHANGES_KEY, SUMMARY_KEY, recent_runs

    runs, failed = _read_store(settings, lambda s: recent_runs(s, args.topic, args.limit))
    if failed:
        return failed
    if not runs:
        print(f"no crawl run recorded for topic '{args.topic}'")
        return 0
    print(f"{'run':>5}  {'started (UTC)':16}  {'took':>6}  {'outcome':18} {'fetched':>7} "
          f"{'new pages':>9} {'comments':>8} {'posts':>6}")  # fmt: skip
    for run in runs:
        stats = run.stats or {}
        summary, changes = stats.get(SUMMARY_KEY) or {}, stats.get(CHANGES_KEY) or {}
        if run.finished_at is None:
            outcome, took = "running or killed", "–"
        else:
            outcome = summary.get("outcome") or run.finish_reason or "?"
            took = f"{(run.finished_at - run.started_at).total_seconds() / 60:.1f}m"
        print(
            f"{run.id:>5}  {run.started_at:%Y-%m-%d %H:%M}  {took:>6}  {outcome:18} "
            f"{summary.get('pages_fetched', 0):>7} {changes.get('new_pages', 0):>9} "
            f"{changes.get('new_comments', 0):>8} {changes.get('new_posts', 0):>6}"
        )
        for key, label in (("sites_silent", "silent since the run before"),
                           ("sites_started_blocking", "started blocking"),
                           ("sites_stopped_blocking", "stopped blocking")):  # fmt: skip
            if changes.get(key):
                print(f"{'':7}{label}: {', '.join(changes[key])}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="topiccrawler", description=__doc__.split("\n")[0])
    parser.add_argument(
        "-s", "--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
        help="override a setting, as `scrapy -s` does (e.g. -s DATABASE_URL=postgresql://…)",
    )  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    topics = commands.add_parser(
        "topics", help="list topics and validate their files; `topics new NAME` starts one"
    )
    topics.add_argument("action", nargs="?", choices=("list", "new"), default="list")
    topics.add_argument("name", nargs="?", help="new: the topic's name (names its two files)")
    topics.add_argument(
        "--dir", help="new: write keywords/ and seeds/ under this folder (default: the project's)"
    )
    topics.add_argument("--language", choices=("zh", "en", "mixed"), default="zh")
    topics.set_defaults(handler=cmd_topics)

    db = commands.add_parser("db", help="create or upgrade the database schema")
    db.add_argument("action", choices=("upgrade", "current"), help="upgrade to head, or show")
    db.set_defaults(handler=cmd_db)

    stats = commands.add_parser("stats", help="what the database holds, per topic and site")
    stats.add_argument("--topic", help="only this topic")
    stats.set_defaults(handler=cmd_stats)

    stories = commands.add_parser(
        "stories", help="where reposted stories spread: first publisher, reposts"
    )
    stories.add_argument("topic")
    stories.add_argument(
        "--limit", type=int, default=50, help="stories shown (most reposted first)"
    )
    stories.set_defaults(handler=cmd_stories)

    schedule = commands.add_parser(
        "schedule", help="a crontab line or systemd timer that crawls a topic every so often"
    )
    schedule.add_argument("topic")
    schedule.add_argument("--every", required=True, help="30m, 6h, 1d …")
    schedule.add_argument("--systemd", action="store_true", help="systemd units instead of cron")
    schedule.add_argument("--install", action="store_true",
                          help="put it in your crontab (or write the units) instead of printing")  # fmt: skip
    schedule.add_argument("--log", help="the crawl's log file (default data/crawl-TOPIC.log)")
    schedule.add_argument("--unit-dir", help="with --systemd --install: where to write the units")
    schedule.set_defaults(handler=cmd_schedule)

    runs = commands.add_parser("runs", help="a topic's crawl runs, each beside the one before")
    runs.add_argument("topic")
    runs.add_argument("--limit", type=int, default=20)
    runs.set_defaults(handler=cmd_runs)

    report = commands.add_parser(
        "report", help="a topic's briefing as one HTML file: harvest, sites, stories, names, plots"
    )
    report.add_argument("topic")
    report.add_argument("--out", required=True, help="the HTML file to write")
    report.add_argument(
        "--since", type=_date_argument, metavar="DATE", help="only pages fetched since (YYYY-MM-DD)"
    )
    report.set_defaults(handler=cmd_report)

    extract_arguments(
        commands.add_parser("extract", help="extract title, body and metadata from HTML files")
    )

    sandbox = commands.add_parser("sandbox", help="the offline sandbox web: serve it, or its truth")
    sandbox.add_argument("action", choices=("serve", "truth"))
    sandbox.add_argument(
        "--port", type=int, default=8765, help="0 picks a free port (default 8765)"
    )
    sandbox.add_argument("--seed", type=int, default=1, help="same seed, same web (default 1)")
    sandbox.add_argument("--size", choices=("small", "medium", "large"), default="small")
    sandbox.add_argument("--slow-seconds", type=float, default=20.0, help="delay of the slow page")
    sandbox.add_argument("--search-captcha-after", type=int, metavar="N",
                         help="search engines answer with a captcha after N queries")  # fmt: skip
    sandbox.add_argument(
        "--seeds-out", metavar="FILE", help="write a tax seed file for this sandbox"
    )
    sandbox.set_defaults(handler=cmd_sandbox)

    from topiccrawler import rejudge_command, terms_command  # their imports load jieba, sklearn

    terms_command.add_parser(commands)
    rejudge_command.add_parser(commands)

    demo = commands.add_parser("demo", help="crawl the sandbox web and summarise")
    demo.add_argument("--size", choices=("small", "medium", "large"), default="small")
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument(
        "--db",
        help="SQLite file or database URL (default: the configured database, else data/demo.db)",
    )
    demo.add_argument("--keep", action="store_true", help="keep the database of the last demo")
    demo.add_argument(
        "--port", type=int, default=DEMO_PORT,
        help=f"the sandbox's port, part of every URL: keep it to compare runs (default {DEMO_PORT})",
    )  # fmt: skip
    demo.add_argument("--log-level", default="WARNING", help="crawl log level (default WARNING)")
    demo.set_defaults(handler=cmd_demo)
    return parser


def extract_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files, folders, or - for stdin")
    parser.add_argument("--format", choices=("jsonl", "text"), default="jsonl")
    parser.set_defaults(handler=cmd_extract)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["extract"]:  # needs no settings: started without the crawler's imports
        parser = argparse.ArgumentParser(prog="topiccrawler extract")
        return cmd_extract(extract_arguments(parser).parse_args(argv[1:]), None)
    args = build_parser().parse_args(argv)
    settings = project_settings(args.settings)
    # Crawled text (titles, authors, sites) is printed as data: control characters escaped.
    with redirect_stdout(EscapingWriter(sys.stdout)), redirect_stderr(EscapingWriter(sys.stderr)):
        return args.handler(args, settings)


if __name__ == "__main__":
    sys.exit(main())
