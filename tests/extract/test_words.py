"""Words searched case-insensitively give the answer of the pattern with the case flag."""

from __future__ import annotations

import random
import re

import pytest

from topiccrawler.extract.blocks import NAVIGATION
from topiccrawler.extract.body import NEGATIVE_NAMES, POSITIVE_NAMES, SIDEBAR_NAMES, UNLIKELY_NAMES
from topiccrawler.extract.records.comments import COMMENT_HINT, COMMENT_LIST_HINT
from topiccrawler.extract.records.patterns import AUTHOR_HINT, NOT_PERSON, PROFILE_HINT, TIME_CLASS
from topiccrawler.extract.words import Words

PATTERNS = [
    NAVIGATION, NEGATIVE_NAMES, POSITIVE_NAMES, SIDEBAR_NAMES, UNLIKELY_NAMES, COMMENT_HINT,
    COMMENT_LIST_HINT, AUTHOR_HINT, NOT_PERSON, PROFILE_HINT, TIME_CLASS,
]  # fmt: skip
# Pieces of class names, in any case, with the characters that fold to ASCII letters
# (Kelvin sign, long s, dotted capital I) and words of no case.
PIECES = [
    "comment", "Reply", "REPLIES", "side-bar", "SideBar", "nav", "Nav_", "ads", "ad", "tags",
    "foot", "main", "Content", "x", "-", "_", " ", "1", "\u212aommentar", "di\u017fcu\u017f\u017f",
    "\u0130", "评论", "正文", "é", "\t", "Author", "user-name", "TIME", "post-date", "profile-box",
    "category_name", "\u017fite",
]  # fmt: skip


@pytest.mark.parametrize("words", PATTERNS, ids=lambda w: w.pattern[:20])
def test_found_as_the_pattern_with_the_case_flag_finds(words):
    flagged = re.compile(words.pattern, re.I)
    pick = random.Random(36)
    for _ in range(3000):
        text = "".join(pick.choice(PIECES) for _ in range(pick.randint(0, 6)))
        assert words.found(text) == (flagged.search(text) is not None), text


def test_a_pattern_with_upper_case_is_refused():
    with pytest.raises(ValueError):
        Words("Comment|reply")
