"""Crawled text is data: never terminal control, wherever it is stored or shown.

A page can put terminal escapes (`ESC[2J` clears the screen; OSC 52 writes the clipboard;
`ESC]8;;` makes links) or C1 controls (U+009B is a one-byte CSI) in its title or a comment's
author. They are dropped from what extraction stores (`drop_controls`, newline and tab kept);
what the commands print goes through `escape_controls`, for text stored before this rule and
for anything printed that did not pass extraction.
"""

from __future__ import annotations

import dataclasses
import io
import re
from typing import Any

# C0 controls but tab and newline, DEL, C1 controls; vertical tab and form feed are white
# space and become a space (as HTML reads form feed), the rest go.
CONTROLS = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f]")
WHITE_CONTROLS = re.compile("[\x0b\x0c]")
ANY_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # either of the two above
# The same in a page's UTF-8: the one-byte controls, and C1 controls (two bytes, C2 80-9F).
_CONTROL_BYTES = bytes((*range(0x00, 0x09), *range(0x0B, 0x20), 0x7F))
_C1_UTF8 = re.compile(b"\xc2[\x80-\x9f]")
# For the terminal also the bidirectional overrides and isolates, which reorder what is shown
# ("Trojan Source"): printed escaped, though stored as written (they are legitimate text).
TERMINAL_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
CONTROL_REFERENCE = re.compile(r"&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));?")
# Every reference CONTROL_REFERENCE reads as a control matches this (the values 0-31 and
# 127-159 written with any leading zeros; a run of digits longer than CONTROL_REFERENCE reads
# is a candidate whatever it holds); references of other characters do not.
CONTROL_CANDIDATE = re.compile(
    r"&#(?:[xX](?:0*(?:[0-8bcefBCEF]|1[0-9a-fA-F]|7[fF]|[89][0-9a-fA-F])(?![0-9a-fA-F])"
    r"|[0-9a-fA-F]{9})|0*(?:[0-8]|1[124-9]|2[0-9]|3[01]|12[7-9]|1[3-5][0-9])(?![0-9])|[0-9]{11})"
)
SKIPPED_FIELDS = frozenset({"html", "relevance_detail"})  # the raw page; derived scores


def drop_controls(text: str) -> str:
    """Text without control characters; CR and CR LF become a newline, tab and newline stay.

    >>> drop_controls("Title\\x1b[2J\\x9b31m\\r\\nnext")
    'Title[2J31m\\nnext'
    """
    if not text:
        return text
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return CONTROLS.sub("", WHITE_CONTROLS.sub(" ", text))


def _control_reference(match: re.Match) -> str:
    hexadecimal, decimal = match.groups()
    try:
        code = int(hexadecimal, 16) if hexadecimal else int(decimal)
    except ValueError:
        return match.group()
    if code in (9, 10, 13) or not (code < 0x20 or 0x7F <= code <= 0x9F):
        return match.group()
    return ""


def drop_html_controls(html: str) -> str:
    """A page's source without control characters, written or as character references
    (`&#27;`, `&#x9b;`): the parser would make them text (and lxml refuses such text)."""
    if not html:
        return html
    if "\r" in html:
        html = html.replace("\r", "\n")
    if has_controls(html):  # most pages have none
        html = WHITE_CONTROLS.sub(" ", CONTROLS.sub("", html))
    # Most pages have character references (&#39;, &#8217;) and none of a control: a scan for
    # the latter alone, in C, spares a Python call per reference on them.
    if CONTROL_CANDIDATE.search(html) is None:
        return html
    return CONTROL_REFERENCE.sub(_control_reference, html)


def has_controls(text: str) -> bool:
    """`ANY_CONTROL` occurs in the text; looked for in its UTF-8 bytes, in C (a regular
    expression over a whole page's str reads it several times slower)."""
    return _has_controls(text.encode("utf-8", "surrogatepass"))


def _has_controls(data: bytes) -> bool:
    if len(data.translate(None, _CONTROL_BYTES)) != len(data):
        return True
    return b"\xc2" in data and _C1_UTF8.search(data) is not None


def make_inert(value: Any, skip: frozenset[str] = SKIPPED_FIELDS) -> Any:
    """`drop_controls` over every string of an item: its fields, records, lists and dicts
    (in place for dataclasses, which are returned). `skip`: a dataclass's fields left as they
    are (the raw page and derived scores; fields already made inert)."""
    if isinstance(value, str):
        return drop_controls(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            if field.name not in skip:
                setattr(value, field.name, make_inert(getattr(value, field.name)))
        return value
    if isinstance(value, list):
        return [make_inert(v) for v in value]
    if isinstance(value, dict):
        return {k: make_inert(v) for k, v in value.items()}
    return value


def escape_controls(text: str) -> str:
    r"""Control and bidi-override characters as visible `\uXXXX` (valid inside JSON strings
    too); newline and tab kept.

    >>> escape_controls("a\x1b[2Jb\tc")
    'a\\u001b[2Jb\tc'
    """
    return TERMINAL_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class EscapingWriter(io.TextIOBase):
    """A text stream that writes through `escape_controls` (commands print through it)."""

    def __init__(self, stream: Any):
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(escape_controls(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8")
