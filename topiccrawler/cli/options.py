"""Option types shared by subcommands: a bad value is refused by argparse, naming the option
(`argument --limit: not a whole number above 0: 'x'`), with exit status 2."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime


def positive_int(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"not a whole number above 0: {value!r}")
    return number


def port_number(value: str) -> int:
    try:
        number = int(value)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"not a port number (0 to 65535): {value!r}")
    return number


def seconds(value: str) -> float:
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not number >= 0:
        raise argparse.ArgumentTypeError(f"not a number of seconds (0 or more): {value!r}")
    return number


def date(value: str) -> datetime:
    try:
        return datetime.fromisoformat(value).replace(tzinfo=UTC)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {value!r}") from exc


def threshold(value: str) -> str:
    """η: a number between 0 and 1, or 'auto' (kept as written: the topic file's rules read it)."""
    if value == "auto":
        return value
    try:
        number = float(value)
    except ValueError:
        number = -1.0
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError(f"not a number from 0 to 1, nor 'auto': {value!r}")
    return value
