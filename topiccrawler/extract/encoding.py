"""Bytes to text the way browsers do it, plus detection for pages whose declared charset lies.

The crawler and `topiccrawler extract` both decode through `decode_html`, so a page gives the
same text whichever way it arrives.
"""

from __future__ import annotations

import codecs
import re

from w3lib.encoding import html_body_declared_encoding, html_to_unicode, resolve_encoding

# How much of the page the detector reads; enough for a stable guess, cheap on huge pages.
DETECT_SAMPLE_BYTES = 64 * 1024
# Share of U+FFFD replacement characters above which a declared charset is considered a lie.
MAX_REPLACEMENT_RATIO = 0.005


# Chinese charsets win over others that also fit the bytes: short GBK text is often just as
# plausible as Korean cp949 to a detector, and this crawler's pages are Chinese or English.
PREFERRED_ENCODINGS = ("utf_8", "gb18030", "gb2312", "gbk", "big5", "big5hkscs", "hz")


def _detect(data: bytes) -> str | None:
    # Imported here: most pages declare their charset, and the detector's import costs more
    # than a batch of such pages' decoding (`topiccrawler extract` starts without it).
    from charset_normalizer import from_bytes

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
    repaired = repair_mojibake(text)
    if repaired is not None:
        return repaired
    return encoding, text


# Single-byte charsets through which pages get misread and saved again (mojibake): Western and
# Cyrillic code pages, the ones that map nearly every byte to a character.
MOJIBAKE_CODECS = ("cp1252", "latin_1", "cp1251", "ptcp154", "koi8_r")
# Charsets a misread page is taken to have been written in.
# with the lead bytes of each one's common characters (GB2312 level 1, Big5 常用字); None: no test.
MOJIBAKE_SOURCES: dict[str, range | None] = {
    "utf_8": None,
    "gb2312": range(0xB0, 0xD8),
    "big5": range(0xA4, 0xC7),
}
MOJIBAKE_COMMON = 0.7  # share of common characters a repaired Chinese text must reach
MOJIBAKE_MIN_CHARS = 50  # non-ASCII characters in the sample before a page is suspected
_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_ASCII_RUNS = re.compile(r"[\x00-\x7f]+")
_NON_ASCII_LETTER = re.compile(r"[^\x00-\x7f\W]|[\x80-\u02ff\u0400-\u052f]")


def repair_mojibake(text: str) -> tuple[str, str] | None:
    """(encoding, text) of a page that was decoded with the wrong single-byte charset and saved
    again (Chinese or UTF-8 text turned into runs of Latin or Cyrillic letters), else None.

    Suspected only when the page holds many non-ASCII letters and almost no Chinese. Its text is
    encoded back through each single-byte charset and read as UTF-8 (whose structure is strict:
    a real French or Russian page leaves replacement characters) or as GB18030 / Big5, taken only
    when the Chinese it gives is mostly common characters (a real Russian page read as GB18030
    gives rare ones: its lowercase letters are lead bytes of the rare-character half).
    """
    sample = text[:DETECT_SAMPLE_BYTES]
    # Cheap bounds first (every letter counted is non-ASCII): most pages are ruled out here.
    non_ascii = len(sample) - len(sample.encode("ascii", "ignore"))
    if non_ascii < MOJIBAKE_MIN_CHARS:
        return None
    # The letters counted are all non-ASCII: they are looked for among the sample's non-ASCII
    # characters alone (a pattern tried at every position of 64 kB of English costs a ms).
    others = _ASCII_RUNS.sub("", sample)
    cjk = 0
    for _ in _CJK.finditer(others):  # counted only until the page is plainly Chinese
        cjk += 1
        if cjk > 0.05 * non_ascii:
            return None
    foreign = len(_NON_ASCII_LETTER.findall(others))
    if foreign < MOJIBAKE_MIN_CHARS or cjk > 0.05 * foreign:
        return None
    for codec in MOJIBAKE_CODECS:
        try:
            raw = sample.encode(codec)
        except UnicodeEncodeError:
            continue
        for source, common in MOJIBAKE_SOURCES.items():
            repaired = raw.decode(source, errors="replace")
            if repaired.count("\ufffd") > MAX_REPLACEMENT_RATIO * foreign:
                continue
            if common is not None and _common_share(repaired, source, common) < MOJIBAKE_COMMON:
                continue
            return source, text.encode(codec, errors="replace").decode(source, errors="replace")
    return None


def _common_share(text: str, source: str, lead_bytes: range) -> float:
    """Share of the Chinese characters of `text` that are among the charset's common ones."""
    hanzi = _HANZI.findall(text)
    if len(hanzi) < MOJIBAKE_MIN_CHARS:
        return 0.0
    common = 0
    for char in hanzi:
        try:
            common += char.encode(source)[0] in lead_bytes
        except UnicodeEncodeError:
            pass
    return common / len(hanzi)


_HANZI = re.compile(r"[\u4e00-\u9fff]")


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
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if controls > len(head) * 0.1:
        return True
    return b"\x00" in head and not _MARKUP.search(head)


# Control bytes counted against a page (tab, newline, form feed, carriage return, escape are not).
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
# Tags only an HTML page opens with: a page with them is not binary for a few NUL bytes.
_MARKUP = re.compile(rb"<(?:!doctype|html|head|body|meta|title)\b", re.I)
