"""`topiccrawler schedule TOPIC --every 6h`: a crontab line or systemd units that crawl the topic
every so often (printed, or installed)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from topiccrawler.cli.store import load_topic
from topiccrawler.errors import EXIT_OK, EXIT_STATUSES, UserError

if TYPE_CHECKING:
    from scrapy.settings import Settings


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "schedule", help="a crontab line or systemd timer that crawls a topic every so often"
    )
    parser.add_argument("topic", help="the topic to crawl")
    parser.add_argument("--every", required=True, help="how often: 30m, 6h, 1d …")
    parser.add_argument("--systemd", action="store_true", help="systemd units instead of cron")
    parser.add_argument("--install", action="store_true",
                        help="put it in your crontab (or write the units) instead of printing")  # fmt: skip
    parser.add_argument("--log", help="the crawl's log file (default data/crawl-TOPIC.log)")
    parser.add_argument("--unit-dir", help="with --systemd --install: where to write the units")


def run(args: argparse.Namespace, settings: Settings) -> int:
    from topiccrawler.schedule import Every, crontab_line, install_crontab, systemd_units
    from topiccrawler.topics.registry import project_root

    try:
        every = Every.parse(args.every)
    except ValueError as exc:
        raise UserError(f"--every {args.every!r}: {exc}") from exc
    load_topic(settings, args.topic)
    project = project_root()
    log = Path(args.log).resolve() if args.log else project / "data" / f"crawl-{args.topic}.log"
    try:
        log.parent.mkdir(parents=True, exist_ok=True)  # cron cannot append to a file in no folder
    except OSError as exc:
        raise UserError(
            f"--log {log}: cannot make its folder: {exc.strerror or exc}; choose another --log"
        ) from exc
    if args.systemd:
        units = systemd_units(args.topic, every, project, log)
        folder = Path(args.unit_dir).expanduser() if args.unit_dir else None
        for name, text in units.items():
            if args.install:
                folder = folder or Path.home() / ".config" / "systemd" / "user"
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                    (folder / name).write_text(text, encoding="utf-8")
                except OSError as exc:
                    raise UserError(
                        f"cannot write {folder / name}: {exc.strerror or exc}; choose --unit-dir"
                    ) from exc
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
            except OSError as exc:
                raise UserError(
                    f"cannot install in your crontab: {exc}; is cron installed? Or print the"
                    " line (without --install) and install it yourself, or use --systemd"
                ) from exc
            print(f"{done} in your crontab:\n{line}")
        else:
            print(line)
    print("exit statuses to alert on: " + "; ".join(f"{c} {m}" for c, m in EXIT_STATUSES.items()))
    return EXIT_OK
