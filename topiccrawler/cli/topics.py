"""`topiccrawler topics`: list the topics with where each comes from and check their files
(exit 1 when one is broken); `topics new NAME` writes a new topic's files to edit."""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from topiccrawler.errors import EXIT_FAILED, EXIT_OK, UserError

if TYPE_CHECKING:
    from scrapy.settings import Settings

TOPIC_NAME = re.compile(r"[\w][\w-]*")


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "topics", help="list topics and validate their files; `topics new NAME` starts one"
    )
    parser.add_argument(
        "action", nargs="?", choices=("list", "new"), default="list",
        help="list (default): every topic and whether its files load; new: write a topic's files",
    )  # fmt: skip
    parser.add_argument("name", nargs="?", help="new: the topic's name (names its two files)")
    parser.add_argument(
        "--dir", help="new: write keywords/ and seeds/ under this folder (default: the project's)"
    )
    parser.add_argument(
        "--language", choices=("zh", "en", "mixed"), default="zh",
        help="new: the language of the example terms and of the search front end (default zh)",
    )  # fmt: skip


def run(args: argparse.Namespace, settings: Settings) -> int:
    if args.action == "new":
        return new_topic(args, settings)
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
        return EXIT_FAILED
    if broken:
        print(f"{broken} topic file(s) broken: fix the line named above", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def new_topic(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.topics import TopicFileError, load_topic, topic_dirs
    from topiccrawler.topics.starter import StarterExists, write_starter

    name = args.name or ""
    if not TOPIC_NAME.fullmatch(name):
        raise UserError(
            f"topic name {name!r}: use letters, digits, '-' and '_' (it names the files)"
        )
    if args.dir:
        root = Path(args.dir).expanduser()
        keywords_dir, seeds_dir = root / "keywords", root / "seeds"
    else:
        keywords_dir, seeds_dir = topic_dirs(settings)
    try:
        written = write_starter(name, keywords_dir, seeds_dir, args.language)
    except StarterExists as exc:
        raise UserError(f"topic '{name}': {exc}; choose another name or --dir") from exc
    except OSError as exc:
        raise UserError(
            f"cannot write the topic's files under {keywords_dir.parent}: "
            f"{exc.strerror or exc}; choose a folder you can write with --dir"
        ) from exc
    try:
        load_topic(name, keywords_dir, seeds_dir)
    except TopicFileError as exc:  # the templates must load; say so rather than leave a trap
        print(f"the new files do not validate: {exc}", file=sys.stderr)
        return EXIT_FAILED
    for path in written:
        print(f"wrote {path}")
    print(
        f"edit the terms in {written[0]} and the sites in {written[1]}, check them with"
        f" `topiccrawler topics`, then crawl: scrapy crawl topic -a topic={name}"
    )
    return EXIT_OK
