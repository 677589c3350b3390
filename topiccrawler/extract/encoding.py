"""Bytes to text the way browsers do it, plus detection for pages whose declared charset lies.

The crawler and `topiccrawler extract` both decode through `decode_html`, so a page gives the
same text whichever way it arrives.
"""

from __future__ import annotations

import codecs
import re

from charset_normalizer import from_bytes
from w3lib.encoding import html_body_declared_encoding, html_to_unicode, resolve_encoding

# How much of the page the detector reads; enough for a stable guess, cheap on huge pages.
DETECT_SAMPLE_BYTES = 64 * 1024
# Share of U+FFFD replacement characters above which a declared charset is considered a lie.
MAX_REPLACEMENT_RATIO = 0.005


# Chinese charsets win over others that also fit the bytes: short GBK text is often just as
# plausible as Korean cp949 to a detector, and this crawler's pages are Chinese or English.
PREFERRED_ENCODINGS = ("utf_8", "gb18030", "gb2312", "gbk", "big5", "big5hkscs", "hz")


def _detect(data: bytes) -> str | None:
    matches = from_bytes(data[:DETECT_SAMPLE_BYTES])
    for match in matches:
        if match.encoding in PREFERRED_ENCODINGS:
            return resolve_encoding(match.encoding)
    best = matches.best()
    return resolve_encoding(best.encoding) if best else None


def decode_html(body: bytes, content_type: str | None = None) -> tuple[str, str]:
    """Return (encoding, text) for an HTML document.

    Order: byte-order mark, HTTP Content-Type charset, `<meta charset>`, then detection; GBK and
    GB2312 are read as GB18030 (w3lib's mapping, as browsers do). When the chosen charset leaves
    many replacement characters, detection gets a second say.
    """
    encoding, text = html_to_unicode(content_type, body, auto_detect_fun=_detect)
    if text.count("\ufffd") > MAX_REPLACEMENT_RATIO * max(len(text), 1):
        detected = _detect(body)
        if detected and detected != encoding:
            retry = body.decode(detected, errors="replace")
            if retry.count("\ufffd") < text.count("\ufffd"):
                return detected, retry
    return encoding, text


def declared_encoding(body: bytes) -> str | None:
    """The charset the page declares in its markup, if any (normalised name)."""
    name = html_body_declared_encoding(body)
    try:
        return codecs.lookup(name).name if name else None
    except LookupError:
        return None


def looks_binary(body: bytes, sample: int = 4096) -> bool:
    """True for content that is not text whatever its Content-Type says (images, archives, PDFs).

    Text never holds NUL bytes in the encodings we meet (UTF-16 pages announce themselves with a
    byte-order mark, which is checked first), unless it is markup with a few stray ones (old
    pages carry them; the parser drops them); other control characters are allowed sparingly.
    """
    head = body[:sample]
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return False
    controls = sum(1 for b in head if b < 32 and b not in (9, 10, 12, 13, 27))
    if controls > len(head) * 0.1:
        return True
    return b"\x00" in head and not _MARKUP.search(head)


# Tags only an HTML page opens with: a page with them is not binary for a few NUL bytes.
_MARKUP = re.compile(rb"<(?:!doctype|html|head|body|meta|title)\b", re.I)
