"""A socket guard for a test subprocess: every connection and name lookup is written to a log,
and any that leaves loopback is refused. `install(log)` before the code under test runs."""

from __future__ import annotations

import errno
import socket

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def install(log_path: str) -> None:
    log = open(log_path, "a", encoding="utf-8", buffering=1)  # noqa: SIM115 (lives with the process)

    def note(kind: str, host, port=None) -> bool:
        log.write(f"{kind} {host} {port if port is not None else ''}\n")
        return str(host) in LOOPBACK

    def guard_connect(original):
        def connect(self, address):
            if self.family in (socket.AF_INET, socket.AF_INET6):
                if not note("connect", address[0], address[1]):
                    raise OSError(errno.ECONNREFUSED, f"socket guard: {address[0]} is not loopback")
            return original(self, address)

        return connect

    def guard_lookup(original):
        def lookup(host, *args, **kwargs):
            name = host.decode() if isinstance(host, bytes) else host
            if not note("resolve", name):
                raise socket.gaierror(socket.EAI_NONAME, f"socket guard: no lookup of {name}")
            return original(host, *args, **kwargs)

        return lookup

    socket.socket.connect = guard_connect(socket.socket.connect)
    socket.socket.connect_ex = guard_connect(socket.socket.connect_ex)
    socket.getaddrinfo = guard_lookup(socket.getaddrinfo)
    socket.gethostbyname = guard_lookup(socket.gethostbyname)
    socket.gethostbyname_ex = guard_lookup(socket.gethostbyname_ex)
