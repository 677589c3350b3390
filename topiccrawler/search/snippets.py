"""Snippets: the stretch of a hit's text where the query's words are, with those words marked.

The index holds stems and segmented words, not the text, so the snippet is cut from the stored
text itself: a Chinese word is found where it stands in the text, a Latin word wherever a word
of the text has the same stem ("taxes" marks "tax" and "Taxed"). Marks are character offsets
into the snippet's text, never markup: whoever shows the snippet escapes the text and draws
the marks (the web view with <mark>, the terminal in bold), so crawled text stays text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from topiccrawler.search.query import Query
from topiccrawler.search.text import latin_stem

WIDTH = 160  # characters of text a snippet shows
_LATIN_WORD = re.compile(r"[^\W\d_]+|\d+", re.ASCII | re.IGNORECASE)
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Snippet:
    """A stretch of text and the (start, end) offsets of the words to mark in it."""

    text: str
    marks: tuple[tuple[int, int], ...] = ()

    def parts(self) -> list[tuple[str, bool]]:
        """The text cut at the marks: (piece, marked) in order, for a template to render."""
        pieces: list[tuple[str, bool]] = []
        at = 0
        for start, end in self.marks:
            if start > at:
                pieces.append((self.text[at:start], False))
            pieces.append((self.text[start:end], True))
            at = end
        if at < len(self.text):
            pieces.append((self.text[at:], False))
        return pieces

    def marked(self, before: str = "«", after: str = "»") -> str:
        """The text with each mark between `before` and `after` (a terminal's bold, or «»)."""
        return "".join(f"{before}{piece}{after}" if hit else piece for piece, hit in self.parts())


def make_snippet(text: str | None, query: Query, width: int = WIDTH) -> Snippet:
    """The `width` characters of `text` that hold the most of the query's terms (the first
    such stretch), with every occurrence in it marked; the text's start when none is found."""
    text = _SPACE.sub(" ", text or "").strip()
    spans = _occurrences(text, query)
    if not spans:
        return Snippet(_cut(text, 0, width))
    best_start, best_terms = 0, -1
    for start, _end, _term in spans:
        window_start = max(0, start - width // 4)
        terms = {t for s, e, t in spans if s >= window_start and e <= window_start + width}
        if len(terms) > best_terms:
            best_start, best_terms = window_start, len(terms)
    # Start at a word's edge where one is near: not in the middle of a Latin word.
    while (
        0 < best_start < len(text) and text[best_start - 1].isalnum() and text[best_start].isascii()
    ):
        best_start -= 1
    end = min(len(text), best_start + width)
    prefix = "… " if best_start > 0 else ""
    suffix = " …" if end < len(text) else ""
    body = text[best_start:end]
    marks = tuple(
        (s - best_start + len(prefix), e - best_start + len(prefix))
        for s, e, _t in spans
        if s >= best_start and e <= end
    )
    return Snippet(prefix + body + suffix, marks)


def _occurrences(text: str, query: Query) -> list[tuple[int, int, int]]:
    """(start, end, term number) of every place in `text` where a word of a required term
    stands, in order, overlaps removed."""
    stems: dict[str, int] = {}
    found: list[tuple[int, int, int]] = []
    lowered = text.lower()
    for number, term in enumerate(query.required):
        for word in term.words:
            if _HAN.search(word):
                start = lowered.find(word)
                while start >= 0:
                    found.append((start, start + len(word), number))
                    start = lowered.find(word, start + len(word))
            else:
                stems.setdefault(word, number)
    if stems:
        for match in _LATIN_WORD.finditer(text):
            stem = latin_stem(match.group())
            if stem in stems:
                found.append((match.start(), match.end(), stems[stem]))
    found.sort(key=lambda span: (span[0], -span[1]))  # the longest word where two start
    kept: list[tuple[int, int, int]] = []
    for span in found:
        if not kept or span[0] >= kept[-1][1]:
            kept.append(span)
    return kept


def _cut(text: str, start: int, width: int) -> str:
    return text[start : start + width] + (" …" if len(text) > start + width else "")
