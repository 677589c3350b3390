"""The `topiccrawler` command: topic files, the database, and what a crawl stored.

Crawls themselves run through Scrapy (`scrapy crawl topic -a topic=tax`); this tool covers the
rest. It reads the same settings as a crawl (the project's settings module, `-s NAME=VALUE`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from scrapy.settings import Settings
from scrapy.utils.project import get_project_settings
from sqlalchemy import Integer, func, select
from sqlalchemy.exc import SQLAlchemyError

from topiccrawler.storage.db import Database, current_revision, head_revision, resolve_database_url
from topiccrawler.storage.models import Comment, ForumPost, ForumThread, Page
from topiccrawler.topics import (
    TERM_CLASSES,
    TopicFileError,
    available_topics,
    load_topic,
    topic_dirs,
)


def project_settings(overrides: Sequence[str] = ()) -> Settings:
    """The crawl's settings, with `NAME=VALUE` overrides applied like `scrapy -s`."""
    os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "topiccrawler.settings")
    settings = get_project_settings()
    for override in overrides:
        name, _, value = override.partition("=")
        settings.set(name, value, priority="cmdline")
    return settings


def cmd_topics(args: argparse.Namespace, settings: Settings) -> int:
    """List the topics and validate their files; exit 1 if any file is broken."""
    keywords_dir, seeds_dir = topic_dirs(settings)
    names = available_topics(keywords_dir)
    if not names:
        print(f"no topics: {keywords_dir} holds no .toml keyword files", file=sys.stderr)
        return 1
    broken = 0
    for name in names:
        try:
            topic = load_topic(name, keywords_dir, seeds_dir)
        except TopicFileError as exc:
            broken += 1
            print(f"{name:20} ERROR  {exc}")
            continue
        library, seeds = topic.keywords, topic.seeds
        classes = " ".join(f"{c}={len(library.by_class(c))}" for c in TERM_CLASSES)
        print(
            f"{name:20} ok     {library.title} | {classes} | words={len(library.all_words)}"
            f" | authority sites={len(seeds.authority)} engines={len(seeds.engines)}"
            f" | η={library.threshold}"
        )
    return 1 if broken else 0


def _database(settings: Settings) -> Database:
    return Database(resolve_database_url(settings.get("DATABASE_URL")))


def cmd_db(args: argparse.Namespace, settings: Settings) -> int:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="topiccrawler", description=__doc__.split("\n")[0])
    parser.add_argument(
        "-s", "--set", dest="settings", action="append", default=[], metavar="NAME=VALUE",
        help="override a setting, as `scrapy -s` does (e.g. -s DATABASE_URL=postgresql://…)",
    )  # fmt: skip
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    topics = commands.add_parser("topics", help="list topics and validate their files")
    topics.set_defaults(handler=cmd_topics)

    db = commands.add_parser("db", help="create or upgrade the database schema")
    db.add_argument("action", choices=("upgrade", "current"), help="upgrade to head, or show")
    db.set_defaults(handler=cmd_db)

    stats = commands.add_parser("stats", help="what the database holds, per topic and site")
    stats.add_argument("--topic", help="only this topic")
    stats.set_defaults(handler=cmd_stats)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = project_settings(args.settings)
    return args.handler(args, settings)


if __name__ == "__main__":
    sys.exit(main())
