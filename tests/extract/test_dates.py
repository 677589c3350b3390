"""Times as sites write them."""

from __future__ import annotations

import doctest
import random
import re
from datetime import datetime

import pytest

from topiccrawler.extract import dates
from topiccrawler.extract.dates import DEFAULT_TZ, find_time, parse_time

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=DEFAULT_TZ)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-03-15T09:30:00+08:00", "2026-03-15T09:30:00+08:00"),
        ("2026-03-15T01:30:00Z", "2026-03-15T01:30:00+00:00"),
        ("发表于 2026-5-12 10:20", "2026-05-12T10:20:00+08:00"),
        ("2026/05/12", "2026-05-12T00:00:00+08:00"),
        ("2018年3月3日08:05", "2018-03-03T08:05:00+08:00"),
        ("12月30日 10:00", "2025-12-30T10:00:00+08:00"),  # read in June: last December
        ("5月30日", "2026-05-30T00:00:00+08:00"),
        ("November 18, 2019 12:26 PM", "2019-11-18T12:26:00+08:00"),
        ("Posted: Sat Mar 03, 2018 9:15 am", "2018-03-03T09:15:00+08:00"),
        ("18 Nov 2019", "2019-11-18T00:00:00+08:00"),
        ("发表于 3 天前", "2026-05-29T12:00:00+08:00"),
        ("半小时前", "2026-06-01T11:30:00+08:00"),
        ("昨天 12:30", "2026-05-31T12:30:00+08:00"),
        ("前天", "2026-05-30T00:00:00+08:00"),
        ("2 hours ago", "2026-06-01T10:00:00+08:00"),
        ("yesterday 08:00", "2026-05-31T08:00:00+08:00"),
        ("刚刚", "2026-06-01T12:00:00+08:00"),
        # Forum and comment formats in German, French, Spanish and US English.
        ("18. Oktober 2019 um 15:05 Uhr", "2019-10-18T15:05:00+08:00"),
        ("12 mars 2020 à 15h05", "2020-03-12T15:05:00+08:00"),
        ("18 de octubre de 2019 a las 15:05", "2019-10-18T15:05:00+08:00"),
        ("8. April 2019 @ 11:38", "2019-04-08T11:38:00+08:00"),
        ("29.07.2020 // 12:56", "2020-07-29T12:56:00+08:00"),
        ("04-23-2020 at 3:40 pm", "2020-04-23T15:40:00+08:00"),
        ("23-04-2020", "2020-04-23T00:00:00+08:00"),  # day first: 23 cannot be a month
        ("21.04.20", "2020-04-21T00:00:00+08:00"),
        ("Sat, Jun 18 '05, 10:24 AM", "2005-06-18T10:24:00+08:00"),
        ("5/15/2019 10:00", "2019-05-15T10:00:00+08:00"),
        ("Sunday 8th March", "2026-03-08T00:00:00+08:00"),
        ("vor 3 Tagen", "2026-05-29T12:00:00+08:00"),
        ("an hour ago", "2026-06-01T11:00:00+08:00"),
        ("Gestern, 12:30", "2026-05-31T12:30:00+08:00"),
        # Italian, Portuguese and Dutch month names (phpBB in Italian: 3 of 6 posts were
        # dated, so the thread was found in part).
        ("martedì 21 gennaio 2020, 14:24", "2020-01-21T14:24:00+08:00"),
        ("3 de março de 2021", "2021-03-03T00:00:00+08:00"),
        ("12 mei 2019 14:02", "2019-05-12T14:02:00+08:00"),
        ("5 ottobre 2018", "2018-10-05T00:00:00+08:00"),
        # An age written in short after what was done (Q&A sites).
        ("Answered 2y", "2024-06-01T12:00:00+08:00"),
        ("Updated 3d", "2026-05-29T12:00:00+08:00"),
        ("posted 5h", "2026-06-01T07:00:00+08:00"),
        # Russian forums name the month in the genitive.
        ("12 марта 2023, 10:15", "2023-03-12T10:15:00+08:00"),
        ("Отправлено 5 мая 2022 - 18:30", "2022-05-05T18:30:00+08:00"),
        # ... or in the Russian locale's short forms.
        ("7 нояб. 2012 в 16:02", "2012-11-07T16:02:00+08:00"),
        ("15 февр. 2015 в 18:20", "2015-02-15T18:20:00+08:00"),
        ("3 сент. 2019", "2019-09-03T00:00:00+08:00"),
        # C's ctime and `date`, as BBS posts and mail archives date themselves.
        ("发信站: 水木社区 (Tue May 12 10:20:31 2020), 站内", "2020-05-12T10:20:31+08:00"),
        ("Thu Nov  5 09:15:08 CST 2020", "2020-11-05T09:15:08+08:00"),
    ],
)
def test_parse_time(text, expected):
    assert parse_time(text, now=NOW).isoformat() == expected


@pytest.mark.parametrize(
    "text",
    [
        "",
        "没有时间",
        "2026-13-45",
        "版本 3.2.1",
        "version 1.2.34",
        "I may 5 times set 2 alarms",
        "I answered 2 questions",
        "Updated 3 dependencies",
    ],
)
def test_no_time(text):
    assert parse_time(text, now=NOW) is None


@pytest.mark.parametrize(
    "text",
    [
        "VLC media player developer",  # "ayer": Spanish for yesterday
        "Josef Bayer bemerkt",
        "Healthier Hawaii",  # "hier": French for yesterday
        "ahoy there",  # "hoy": Spanish for today
        "Do world buffs apply on all layers or just the layer 2 players see?",
        "a favor 3 Tagen",  # "vor 3 Tagen"
        "Japan hour ago",  # "an hour ago"
        "aber ich kann mich bis heute mit keiner anfreunden",  # a day's name in prose
        "Today's Paper",
        "Zum Zitieren hier klicken",  # German "here", not French "yesterday"
        "Auch hier :",
    ],
)
def test_a_day_word_inside_another_word_or_in_prose_is_no_time(text):
    assert find_time(text) is None and parse_time(text, now=NOW) is None


def test_find_time_keeps_the_written_form():
    assert find_time("| November 18, 2019 12:26 PM | 3 min read") == "November 18, 2019 12:26 PM"
    assert find_time("2005-04-27 14:32更新 来源：千龙网") == "2005-04-27 14:32"
    assert find_time("no date here") is None
    assert (
        find_time("Borchert sagt: 18. Oktober 2019 um 15:05 Uhr") == "18. Oktober 2019 um 15:05 Uhr"
    )
    assert find_time("Josef Bayer, vor 3 Tagen") == "vor 3 Tagen"
    assert find_time("The player said: ayer 10:20") == "ayer 10:20"
    assert find_time("Posted by Ann · yesterday") == "yesterday"  # a day's name ending the text
    assert find_time("published today (Nov. 18) in the journal") == "Nov. 18"
    assert find_time("Zitieren · hier à 15:05") == "hier à 15:05"  # French, with its clock
    long_prose = "Die Lounge ist voll. " * 200  # no digits: the scan is skipped
    assert find_time(long_prose + "Am 3. Mai 2020 war es leer.") == "3. Mai 2020"


def test_doctests():
    assert doctest.testmod(dates).failed == 0


# Pieces of times and of the words around them, in many scripts and cases, for the property below.
PIECES = (
    "2020", "19", "-", "/", ".", "年", "月", "日", " ", "  ", "\n", "12", "3", "05", ":", "10:30",
    "pm", "May", "may", "March", "Mar.", "sept", "Tue", "Wednesday,", "de", "octubre", "vor",
    "3 Tagen", "il y a", "hace", "hours", "ago", "小时", "前", "半", "两", "今天", "昨天", "刚刚",
    "的", "几", "一", "分钟", "just now", "a", "an", "hour", "answered", "asked", "5mo",
    "posted 3d", "ſep", "İl y a", "x", "发表于", "|", "·", "T", "Z", "+08:00", "'05", ",", "th",
    "Uhr", "um", "à", "h", "１２", "٣", "21-Nov-19", "18.10.2019", "04-23-2020", "5/15/19",
    "3月1日", "aujourd'hui", "gerade eben", "à l'instant", "ago 5, 2020", "dic", "player", "hoy",
    "hier", "yesterday",
)  # fmt: skip


def test_the_grouped_scan_finds_what_one_alternation_of_the_patterns_finds():
    # find_time scans with the patterns grouped by how a match begins (for speed); at every
    # position the same pattern must win as in the plain alternation, in PATTERNS order.
    plain = re.compile("|".join(dates._body(p) for _, p in dates.PATTERNS))
    rng = random.Random(5)
    for _ in range(20000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 14)))
        start = rng.randint(0, 3)
        found, expected = dates._ANY_TIME.search(text, start), plain.search(text, start)
        assert (found and (found.start(), found.group(0))) == (
            expected and (expected.start(), expected.group(0))
        ), text


def test_the_scan_for_times_without_digits_finds_what_their_alternation_finds():
    # _WORDS_ONLY is grouped and guarded by its first characters as _ANY_TIME is.
    words = [p for p in dates.PATTERNS if p[0] in ("day", "ago", "now")]
    plain = re.compile("|".join(dates._body(p) for _, p in words))
    rng = random.Random(7)
    for _ in range(20000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 14)))
        found, expected = dates._WORDS_ONLY.search(text), plain.search(text)
        assert (found and (found.start(), found.group(0))) == (
            expected and (expected.start(), expected.group(0))
        ), text


def test_the_first_characters_of_a_pattern_hold_every_start_of_a_match():
    first = dates._first_characters
    assert first(r"\b(?:today|hier)") == "ht"
    assert first(r"(?<!\d)(?:19|20)\d{2}") == "12"
    assert first("a?b") == "ab"  # (an optional item: the next one may begin)
    assert first(r"[0-9]+|刚刚") == "0-9刚"
    assert first(r"\d+") == r"\d"
    # anything may begin these: no class, the scan tries every position
    assert first("a*") is None  # (it can match nothing)
    assert first(".x") is None
    assert first("[^a]") is None
    assert first(r"\w") is None
    assert first(r"\s*x") is None  # (a class of spaces is not read: anything)


def test_day_first_reads_a_date_of_numbers_that_could_be_either():
    assert parse_time("04/07/2023", now=NOW).month == 4
    assert parse_time("04/07/2023", now=NOW, day_first=True).month == 7
    assert parse_time("04-07-2023 10:20", now=NOW, day_first=True).month == 7
    assert parse_time("21/05/2024", now=NOW, day_first=True).month == 5  # only one way
    assert parse_time("2023-04-07", now=NOW, day_first=True).month == 4  # year first: ISO
    assert parse_time("Apr 7, 2023", now=NOW, day_first=True).month == 4  # a month's name


def test_a_page_writes_its_dates_of_numbers_day_first_when_one_can_only_be():
    assert dates.written_day_first(["04/07/2023 8:24 pm", "Postado : 21/05/2024 10:14 pm"])
    assert not dates.written_day_first(["04/07/2023", "10/06/2023"])  # either way: no telling
    assert not dates.written_day_first(["21/05/2024", "05/21/2024"])  # both ways: no convention
    assert not dates.written_day_first(["2024-05-21", "21. Mai 2024", None])
