"""The query language of a search box: words (all must match), "a phrase", -excluded.

A query is read with the index's own word splitting (search/text.py), so what a user types
matches what was written the same way: 增值税发票 becomes the phrase 增值税 发票, "taxes"
the stem "tax". A word that splits into several is a phrase of them. The parsed query is
then said in the store's own syntax: FTS5's MATCH expression or a PostgreSQL tsquery.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from topiccrawler.search.text import index_words

# A quoted phrase (the closing quote may be missing: the phrase runs to the end), or a run of
# anything but white space; either may carry a leading minus.
_PART = re.compile(r'(-?)"([^"]*)"?|(-?)([^\s"]+)')
MAX_TERMS = 32  # a longer query is a paste, not a search: refused with a reason


class QueryError(ValueError):
    """A query that cannot be searched; the message says why, for the user."""


@dataclass(frozen=True)
class Term:
    """One word or phrase of a query: its index words in order, and how the user wrote it."""

    words: tuple[str, ...]
    surface: str
    excluded: bool = False

    @property
    def phrase(self) -> bool:
        return len(self.words) > 1


@dataclass(frozen=True)
class Query:
    """A parsed query: the terms that must match and those that must not."""

    text: str
    required: tuple[Term, ...]
    excluded: tuple[Term, ...] = field(default=())

    def fts5(self) -> str:
        """The MATCH expression for an FTS5 table whose tokenizer splits on spaces."""
        expression = " AND ".join(_fts5_term(t) for t in self.required)
        for term in self.excluded:
            expression = f"({expression}) NOT {_fts5_term(term)}"
        return expression

    def tsquery(self) -> str:
        """A tsquery literal (cast with ::tsquery, no parser in between: the words are the
        index's own lexemes)."""
        parts = [_tsquery_term(t) for t in self.required]
        parts += [f"!{_tsquery_term(t)}" for t in self.excluded]
        return " & ".join(parts)

    def surfaces(self) -> list[str]:
        """What the user typed for each required term: what snippets mark."""
        return [t.surface for t in self.required]


def parse_query(text: str) -> Query:
    """Read a query; QueryError says what is wrong with one that cannot be searched."""
    required: list[Term] = []
    excluded: list[Term] = []
    skipped: list[str] = []
    for match in _PART.finditer(text or ""):
        minus = match.group(1) or match.group(3)
        surface = match.group(2) if match.group(2) is not None else match.group(4)
        if surface.startswith("-") and not minus:  # "--word": a minus typed twice
            surface = surface.lstrip("-")
            minus = "-"
        words = tuple(index_words(surface))
        if not words:
            if surface.strip():
                skipped.append(surface.strip())
            continue
        term = Term(words, surface.strip(), excluded=bool(minus))
        (excluded if term.excluded else required).append(term)
    if len(required) + len(excluded) > MAX_TERMS:
        raise QueryError(f"the query has more than {MAX_TERMS} words and phrases; use fewer")
    if not required:
        if excluded:
            raise QueryError("the query only excludes words; add a word to look for")
        if skipped:
            raise QueryError(
                f"nothing to look for: {', '.join(skipped)} "
                + ("is a word" if len(skipped) == 1 else "are words")
                + " too common to be indexed"
            )
        raise QueryError("the query is empty; give a word to look for")
    return Query(text=text, required=tuple(required), excluded=tuple(excluded))


def _fts5_term(term: Term) -> str:
    return '"' + " ".join(w.replace('"', '""') for w in term.words) + '"'


def _tsquery_term(term: Term) -> str:
    quoted = [_tsquery_lexeme(w) for w in term.words]
    return quoted[0] if len(quoted) == 1 else "(" + " <-> ".join(quoted) + ")"


def _tsquery_lexeme(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"
