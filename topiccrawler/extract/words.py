"""Words looked for in class and id names whatever their case ("comment", "sidebar", "nav"):
the extractors ask this of every name a page uses."""

from __future__ import annotations

import re


class Words:
    """A pattern written in lower case, searched for without regard to case (`found`).

    Searched with the case flag, such a pattern tries each of its words at every position of
    the text. ASCII text (class and id names nearly always are) is searched lowercased by the
    same pattern without the flag instead: the words' first characters then let the regex
    engine skip to where one could begin (a quarter to a third of the time). The answer is the
    same: an ASCII character matches a lower-case letter of the pattern, case ignored, only
    as itself or its upper case, which lower() makes that letter, and lower() changes no
    other ASCII character. Other text is searched with the flag.
    """

    __slots__ = ("caseless", "lowered")

    def __init__(self, pattern: str):
        if pattern != pattern.lower():
            raise ValueError(f"not written in lower case: {pattern!r}")
        self.caseless = re.compile(pattern, re.I)
        self.lowered = re.compile(pattern)

    @property
    def pattern(self) -> str:
        return self.lowered.pattern

    def found(self, text: str) -> bool:
        """The pattern matches somewhere in `text`, case ignored."""
        if text.isascii():
            return self.lowered.search(text.lower()) is not None
        return self.caseless.search(text) is not None
