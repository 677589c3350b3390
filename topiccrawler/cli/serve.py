"""`topiccrawler serve`: the web view of what the crawls stored, on this machine.

Read-only over the configured database (SQLite or PostgreSQL): search, a page with its
comments, posts and reposts, stories, and the crawl runs with a running one's figures as they
change. It listens on loopback by default; any other address needs --token, since the view
shows everything the crawls stored.
"""

from __future__ import annotations

import argparse
import ipaddress
import secrets
import socket
import sys
from typing import TYPE_CHECKING

from topiccrawler.cli.options import port_number
from topiccrawler.cli.store import command_store
from topiccrawler.errors import EXIT_OK, UserError

if TYPE_CHECKING:
    from scrapy.settings import Settings


def add_parser(subparsers) -> None:
    parser = subparsers.add_parser(
        "serve", help="a local web view: search, pages with comments and posts, stories, crawls"
    )
    parser.add_argument(
        "--host", default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; another address needs --token)",
    )  # fmt: skip
    parser.add_argument(
        "--port", type=port_number, default=8800, help="port to listen on (default 8800)"
    )
    parser.add_argument(
        "--token",
        help="a secret every request must carry (open /?token=SECRET once); 'new' makes one",
    )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def run(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from topiccrawler.web.app import create_app

    token = secrets.token_urlsafe(24) if args.token == "new" else args.token
    if not is_loopback(args.host) and not token:
        raise UserError(
            f"--host {args.host}: the view shows everything the crawls stored, so beyond this "
            "machine it needs --token SECRET (or --token new)"
        )
    with command_store(settings) as database:
        app = create_app(
            database, token=token,
            relevance_weight=settings.getfloat("SEARCH_RELEVANCE_WEIGHT"),
            rank_window=settings.getint("SEARCH_RANK_WINDOW") or None,
        )  # fmt: skip
        shown_host = f"[{args.host.strip('[]')}]" if ":" in args.host else args.host
        address = f"http://{shown_host}:{args.port}/"
        print(f"topiccrawler serve: {database.display_url()} on {address}", file=sys.stderr)
        if token:
            print(f"open {address}?token={token} once (then a cookie keeps it)", file=sys.stderr)
        config = uvicorn.Config(
            app, host=args.host, port=args.port, log_level="warning", access_log=False,
            server_header=False,
        )  # fmt: skip
        # The socket is bound here, so that a port in use is one line of ours, not uvicorn's.
        try:
            family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
            listening = socket.create_server((args.host.strip("[]"), args.port), family=family)
        except OSError as exc:
            raise UserError(
                f"--host {args.host} --port {args.port}: could not listen there "
                f"({exc.strerror or exc}); choose another --port or --host"
            ) from exc
        with listening:
            uvicorn.Server(config).run(sockets=[listening])
    return EXIT_OK
