"""`topiccrawler sandbox serve|truth`: the offline sandbox web, served until interrupted, or its
ground truth as JSON lines."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from topiccrawler.cli.options import port_number, positive_int, seconds
from topiccrawler.errors import EXIT_INTERRUPTED, EXIT_OK, UserError

if TYPE_CHECKING:
    from scrapy.settings import Settings


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "sandbox", help="the offline sandbox web: serve it, or its truth"
    )
    parser.add_argument(
        "action", choices=("serve", "truth"),
        help="serve: run the sandbox's web server until Ctrl-C; truth: print its ground truth",
    )  # fmt: skip
    parser.add_argument(
        "--port", type=port_number, default=8765, help="0 picks a free port (default 8765)"
    )
    parser.add_argument("--seed", type=int, default=1, help="same seed, same web (default 1)")
    parser.add_argument(
        "--size", choices=("small", "medium", "large", "huge"), default="small",
        help="how many sites and pages (default small; huge: about 200,000 pages rendered as"
        " they are asked for, for long crawls; its truth takes minutes to list)",
    )  # fmt: skip
    parser.add_argument(
        "--slow-seconds", type=seconds, default=20.0, help="delay of the slow page (default 20)"
    )
    parser.add_argument("--search-captcha-after", type=positive_int, metavar="N",
                        help="search engines answer with a captcha after N queries")  # fmt: skip
    parser.add_argument(
        "--seeds-out", metavar="FILE", help="write a tax seed file for this sandbox"
    )


def run(args: argparse.Namespace, settings: Settings) -> int:
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
        return EXIT_OK
    try:
        server = SandboxServer(
            web,
            port=args.port,
            slow_seconds=args.slow_seconds,
            search_captcha_after=args.search_captcha_after,
        )
    except OSError as exc:
        raise UserError(
            f"--port {args.port}: cannot listen there: {exc.strerror or exc}; "
            "choose another port (0 picks a free one)"
        ) from exc
    with server:
        if args.seeds_out:
            try:
                Path(args.seeds_out).write_text(sandbox_seed_file(server), encoding="utf-8")
            except OSError as exc:
                raise UserError(
                    f"--seeds-out {args.seeds_out}: cannot write it: {exc.strerror or exc}"
                ) from exc
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
            return EXIT_INTERRUPTED
