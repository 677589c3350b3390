"""Times as Chinese and English sites write them, absolute and relative, to datetimes.

`find_time` finds the first time written in a text (returned as written, so the page's own
form is kept); `parse_time` turns such a string into an aware datetime. Relative forms
("3 小时前", "昨天 12:30", "2 hours ago") need the moment the page was fetched (`now`).
Times without a zone are taken in `DEFAULT_TZ`, China Standard Time: the zone of most pages
this crawler reads; pass another where a site says otherwise.

>>> parse_time("2026年3月1日 08:05", now=NOW_FOR_DOCTEST).isoformat()
'2026-03-01T08:05:00+08:00'
>>> parse_time("3 小时前", now=NOW_FOR_DOCTEST).isoformat()
'2026-06-01T09:00:00+08:00'
>>> find_time("发表于 2026-5-12 10:20 | 只看该作者")
'2026-5-12 10:20'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta, timezone
from functools import lru_cache

DEFAULT_TZ = timezone(timedelta(hours=8), "CST")
NOW_FOR_DOCTEST = datetime(2026, 6, 1, 12, 0, tzinfo=DEFAULT_TZ)

# Month names in English, German, French, Spanish, Italian, Portuguese, Dutch and Russian (comment
# and forum pages in the wild; Russian dates name the month in the genitive: "12 марта 2023", or abbreviated as the
# Russian locale's short forms write it: "07 нояб. '12", "15 февр.", "3 сент.").
MONTHS = {
    name: number
    for number, names in enumerate(
        [("jan", "january", "januar", "jän", "jänner", "janvier", "janv", "enero", "ene", "gennaio", "gen", "janeiro",
          "januari",
          "января", "январь", "янв"),
         ("feb", "february", "februar", "février", "févr", "fevrier", "febrero", "febbraio", "fevereiro", "fev", "februari", "февраля", "февраль",
          "февр", "фев"),
         ("mar", "march", "märz", "mär", "maerz", "mars", "marzo", "março", "maart", "mrt", "марта", "март", "мар"),
         ("apr", "april", "avril", "avr", "abril", "abr", "aprile", "апреля", "апрель", "апр"),
         ("may", "mai", "mayo", "maggio", "mag", "maio", "mei", "мая", "май"),
         ("jun", "june", "juni", "juin", "junio", "giugno", "giu", "junho", "июня", "июнь", "июн"),
         ("jul", "july", "juli", "juillet", "juil", "julio", "luglio", "lug", "julho", "июля", "июль", "июл"),
         ("aug", "august", "août", "aout", "agosto", "ago", "augustus", "августа", "август", "авг"),
         ("sep", "sept", "september", "septembre", "septiembre", "set", "settembre", "setembro", "сентября", "сентябрь",
          "сент", "сен"),
         ("oct", "october", "okt", "oktober", "octobre", "octubre", "ottobre", "ott", "outubro", "октября", "октябрь", "окт"),
         ("nov", "november", "novembre", "noviembre", "novembro", "ноября", "ноябрь", "нояб", "ноя"),
         ("dec", "december", "dez", "dezember", "décembre", "decembre", "dic", "diciembre", "dicembre", "dezembro", "декабря",
          "декабрь", "дек")],
        start=1,
    )
    for name in names
}  # fmt: skip


def _trie(words) -> str:
    """A regex matching any of `words`, factored by common prefixes: an alternation of 90
    month names costs a test per name at every word, the factored form one per letter."""
    tree: dict = {}
    for word in words:
        node = tree
        for char in word:
            node = node.setdefault(char, {})
        node[""] = {}

    def render(node: dict) -> str:
        ends = "" in node
        branches = [re.escape(c) + render(child) for c, child in sorted(node.items()) if c]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends:
            return f"(?:{body})?"
        return body

    return render(tree)


_MONTH = r"(?P<mon>" + _trie(MONTHS) + r")\.?"
# A month's name as a word of its own ("May 13" beside a machine-readable date).
MONTH_WORD = re.compile(rf"(?<![^\W\d_]){_MONTH}(?![^\W\d_])", re.I)
# Month names safe without a year beside them: capitalised, and not also a common word.
_MONTH_NAME = (
    r"(?P<mon>"
    + _trie(m.capitalize() for m in MONTHS if m not in ("set", "ago", "mar", "mai", "may"))
    + r")\.?"
)
# A clock after a date: "08:05", "um 15:05 Uhr", "at 3:05 pm", "à 15h05", "a las 15:05",
# "в 16:02"
# (`_CLOCK` where it may be left out).
_A_CLOCK = r"(?:(?:\s*+T\s*+|\s*+(?:,\s*+)?(?:(?:um|at|à|a\s+las|в|-|\||@|//?)\s*+)?(?<=\s)|(?<=日))(?P<h>\d{1,2})(?:[:：]|h(?=\d\d))(?P<mi>\d{2})(?:[:：](?P<s>\d{2}))?(?:\.\d+)?\s*(?P<ampm>[ap]\.?m\.?|uhr)?)"
_CLOCK = f"{_A_CLOCK}?"
# The separator before the clock is written with possessive runs of white space and a final
# look-back for one (not "\s*,?\s*(?:at)?\s+"): the same strings, but a long run of white space
# after a date is read once, not in every split (which took 0.4 s on one 4 kB text).
_ZONE = r"(?P<tz>Z|[+-]\d{2}:?\d{2})?"

PATTERNS = [
    # 2026-03-01 08:05, 2026/3/1, 2026.03.01, 2026年3月1日 08:05, ISO with zone
    ("ymd", re.compile(rf"(?<!\d)(?P<y>(?:19|20)\d{{2}})\s*[-/.年]\s*(?P<m>\d{{1,2}})\s*[-/.月]\s*(?P<d>\d{{1,2}})(?!\d)(?:\s*日(?![^\W\d]))?{_CLOCK}{_ZONE}", re.I)),
    # March 1, 2026 8:05 pm / Mar. 1 2026
    ("mdy", re.compile(rf"\b{_MONTH}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>(?:19|20)\d{{2}}){_CLOCK}", re.I)),
    # Tue May 12 10:20:31 2020, Thu Nov  5 09:15:08 CST 2020 (C's ctime and `date`, as BBS
    # posts and mail archives write their dates: the clock between the day and the year)
    # (the weekday leads: scanned for at every position, a month name would cost more)
    ("mdy", re.compile(rf"\b(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+{_MONTH}\s+(?P<d>\d{{1,2}})\s+(?P<h>\d{{1,2}}):(?P<mi>\d{{2}})(?::(?P<s>\d{{2}}))?\s+(?:[a-z]{{2,5}}\s+)?(?P<y>(?:19|20)\d{{2}})(?!\d)", re.I)),
    # 1 March 2026, 18. Oktober 2019 um 15:05 Uhr, 18 de octubre de 2019
    ("dmy", re.compile(rf"\b(?P<d>\d{{1,2}})(?:\.|er)?\s+(?:de\s+)?{_MONTH}\s+(?:de\s+)?(?P<y>(?:19|20)\d{{2}}){_CLOCK}", re.I)),
    # 21-Nov-19 10:53:49, 21-Nov-2019 (day, month name and year joined by dashes)
    ("dmy", re.compile(rf"(?<![\d-])(?P<d>\d{{1,2}})-{_MONTH}-(?:(?P<y>(?:19|20)\d{{2}})|(?P<yy>\d{{2}}))(?![\d-]){_CLOCK}", re.I)),
    # 18.10.2019 15:05 (day first, as Europe writes it with dots)
    ("dmy", re.compile(rf"(?<![\d.])(?P<d>\d{{1,2}})\.\s?(?P<m>\d{{1,2}})\.\s?(?P<y>(?:19|20)\d{{2}})(?!\d){_CLOCK}")),
    # 04-23-2020 at 3:40 pm (month first with dashes, as US forums write it; day first when
    # the first number cannot be a month)
    ("mdy", re.compile(rf"(?<![\d.-])(?P<m>\d{{1,2}})-(?P<d>\d{{1,2}})-(?P<y>(?:19|20)\d{{2}})(?![\d-]){_CLOCK}")),
    # 21.04.20, Jun 18 '05 (two-digit years)
    ("dmy", re.compile(rf"(?<![\d.])(?P<d>\d{{2}})\.(?P<m>\d{{2}})\.(?P<yy>\d{{2}})(?![\d.]){_CLOCK}")),
    # 5/15/19, 15/05/2019 (month first unless it cannot be)
    ("mdy", re.compile(rf"(?<![\d/])(?P<m>\d{{1,2}})/(?P<d>\d{{1,2}})/(?:(?P<y>(?:19|20)\d{{2}})|(?P<yy>\d{{2}}))(?![\d/]){_CLOCK}")),
    ("mdy", re.compile(rf"\b{_MONTH}\s+(?P<d>\d{{1,2}}),?\s+[’'](?P<yy>\d{{2}})\b{_CLOCK}", re.I)),
    # 3月1日 08:05 (this year)
    ("md", re.compile(rf"(?<![\d年])(?P<m>\d{{1,2}})\s*月\s*(?P<d>\d{{1,2}})\s*日{_CLOCK}")),
    # April 1, Sunday 8th March, 5. Januar (this year; capitalised month names only, so that
    # "may" or "set" in a sentence is not a date)
    ("md", re.compile(rf"\b{_MONTH_NAME}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\b(?![.,:]?\s*\d){_CLOCK}")),
    ("md", re.compile(rf"\b(?P<d>\d{{1,2}})(?:st|nd|rd|th|\.)?\s+{_MONTH_NAME}\b(?![.,]?\s*\d{{4}}){_CLOCK}")),
    # 昨天 12:30, 前天, 今天 08:00, yesterday, today, heute, gestern. A Latin word begins at a
    # word's start ("player" and "ahoy" hold no "ayer" or "hoy") and, without a clock after it,
    # ends the text ("Posted yesterday", not "published today (Nov. 18) in" or "bis heute
    # mit"); French "hier" needs its clock: far more often it is German "here".
    ("day", re.compile(rf"(?P<day>今天|昨天|前天)\b,?{_CLOCK}", re.I)),
    ("day", re.compile(rf"\b(?P<day>today|yesterday|heute|gestern|vorgestern|aujourd'hui|hier|hoy|ayer)\b,?{_A_CLOCK}", re.I)),
    ("day", re.compile(r"\b(?P<day>today|yesterday|heute|gestern|vorgestern|aujourd'hui|hoy|ayer)\b(?=\W*\Z)", re.I)),
    # 3 小时前, 半小时前, 2 hours ago, 刚刚, just now
    ("ago", re.compile(
        r"(?P<n>\d+|半|一|两|几|\ban?)\s*(?P<unit>秒钟?|分钟|小时|个?钟头|天|日|周|星期|个月|月|年|"
        r"seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?)\s*(?:前|ago)",
        re.I,
    )),  # fmt: skip
    # vor 3 Tagen, il y a 2 heures, hace 5 minutos
    ("ago", re.compile(
        r"\b(?:vor|il y a|hace)\s+(?P<n>\d+|einem|einer|an?|une?)\s+(?P<unit>Sekunden?|Minuten?|Stunden?|"
        r"Tag(?:en)?|Wochen?|Monat(?:en)?|Jahr(?:en)?|secondes?|minutes?|heures?|jours?|semaines?|"
        r"mois|ans?|segundos?|minutos?|horas?|días?|semanas?|meses|mes|años?)\b",
        re.I,
    )),  # fmt: skip
    # Answered 2y, Updated 5mo, Posted 3d: an age written in short after what was done
    ("ago", re.compile(
        r"\b(?:answered|updated|posted|edited|asked|replied|commented|modified)\s+(?P<n>\d+)\s*"
        r"(?P<unit>y|yr|mo|w|d|h|min|m|s)\b",
        re.I,
    )),  # fmt: skip
    ("now", re.compile(r"刚刚|\b(?:just now|gerade eben|à l'instant)", re.I)),
]  # fmt: skip

_UNITS = {
    "秒": 1, "秒钟": 1, "分钟": 60, "小时": 3600, "钟头": 3600, "个钟头": 3600, "天": 86400,
    "日": 86400, "周": 604800, "星期": 604800, "个月": 2592000, "月": 2592000, "年": 31536000,
    "sec": 1, "second": 1, "min": 60, "minute": 60, "hr": 3600, "hour": 3600, "day": 86400,
    "week": 604800, "month": 2592000, "year": 31536000,
    "sek": 1, "seg": 1, "stu": 3600, "hor": 3600, "heu": 3600, "tag": 86400, "jou": 86400,
    "día": 86400, "dia": 86400, "woc": 604800, "sem": 604800, "mon": 2592000, "moi": 2592000,
    "mes": 2592000, "jah": 31536000, "ans": 31536000, "an": 31536000, "año": 31536000,
    "y": 31536000, "yr": 31536000, "mo": 2592000, "w": 604800, "d": 86400, "h": 3600, "m": 60,
    "s": 1,
}  # fmt: skip
_NUMBERS = {
    "半": 0.5,
    "一": 1,
    "两": 2,
    "几": 3,
    "a": 1,
    "an": 1,
    "einem": 1,
    "einer": 1,
    "un": 1,
    "une": 1,
}


def _body(pattern: re.Pattern) -> str:
    """The pattern's source with its names dropped and its own case flag, to join others."""
    body = re.sub(r"\(\?P<\w+>", "(?:", pattern.pattern)
    return f"(?i:{body})" if pattern.flags & re.I else f"(?-i:{body})"


# How a pattern's match can begin: with the number it leads with (after a look-behind or a word
# boundary), with a number or a word ("3 小时前", "an hour ago"), or else at a word's start or
# at a Chinese word of a relative time (今天, 刚刚, 半小时前: inside runs of Chinese, no word
# boundary before them).
_LED_BY_NUMBER = re.compile(r"(?:\(\?<!\[?[^)]*\)|\\b)?\(\?P<\w+>(?:\(\?:19\|20\)|\\d)")
_NUMBER_OR_WORD = re.compile(r"\(\?P<\w+>\\d\+\|")
_CHINESE_STARTS = "今昨前刚半一两几"


def _detector(patterns) -> re.Pattern:
    """All patterns as one alternation (names dropped, each with its own case flag): one scan
    finds the leftmost time, and at one position the earlier pattern wins, as in PATTERNS.

    The patterns are grouped by what their matches begin with (a digit; a word's start; one of
    `_CHINESE_STARTS`), so that at most positions the scan gives up after three tests instead
    of trying every pattern: half the time of the plain alternation on the bench pages' texts,
    with the same matches (tests/extract/test_dates.py compares them)."""
    numbers, words, others = [], [], []
    for _, pattern in patterns:
        source = pattern.pattern
        if _LED_BY_NUMBER.match(source):
            numbers.append(_body(pattern))
            if not _NUMBER_OR_WORD.match(source):
                continue
        elif source.startswith(r"\b"):
            words.append(_body(pattern))
            continue
        others.append(_body(pattern))
    groups = []
    if numbers:
        groups.append("(?=\\d)(?:" + "|".join(numbers) + ")")
    if words or others:
        groups.append("\\b(?:" + "|".join(words + others) + ")")
    if others:
        groups.append(f"(?=[{_CHINESE_STARTS}])(?:" + "|".join(others) + ")")
    alternation = "|".join(groups)
    first = _first_characters(alternation)
    # Positions whose character begins no pattern (spaces, most letters, most Chinese) are
    # passed over after one test of a character class instead of the three groups' tests.
    return re.compile(f"(?=(?i:[{first}]))(?:{alternation})" if first else alternation)


def _first_characters(source: str) -> str | None:
    """A character class body holding every character a match of the pattern `source` can
    begin with (more, never fewer: letters in any case, look-arounds passed over), read from
    the pattern's parse; None where any character may begin one (or the parse is not read)."""
    try:  # Python's own reading of the pattern (re._parser: the module re compiles with)
        from re import _parser as sre  # (its constants are its own: `from ._constants import *`)

        parsed = list(sre.parse(source))
    except (ImportError, AttributeError, re.error):  # another Python's internals: no class
        return None

    def of_sequence(items: list) -> tuple[set[str] | None, bool]:
        """The first characters of a sequence of items, and whether it can match nothing."""
        found: set[str] = set()
        for op, argument in items:
            first, empty = of_item(op, argument)
            if first is None:
                return None, False
            found |= first
            if not empty:
                return found, False
        return found, True

    def of_item(op, argument) -> tuple[set[str] | None, bool]:
        if op is sre.LITERAL:
            return {re.escape(chr(argument))}, False
        if op is sre.IN:
            found = set()
            for kind, value in argument:
                if kind is sre.LITERAL:
                    found.add(re.escape(chr(value)))
                elif kind is sre.RANGE:
                    found.add(f"{re.escape(chr(value[0]))}-{re.escape(chr(value[1]))}")
                elif kind is sre.CATEGORY and value is sre.CATEGORY_DIGIT:
                    found.add(r"\d")
                else:  # a negated class, a class of letters or spaces: anything, near enough
                    return None, False
            return found, False
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):  # zero width: the next item begins
            return set(), True
        if op is sre.SUBPATTERN:
            return of_sequence(list(argument[3]))
        if op is sre.BRANCH:
            found, empty = set(), False
            for alternative in argument[1]:
                first, can_be_empty = of_sequence(list(alternative))
                if first is None:
                    return None, False
                found |= first
                empty = empty or can_be_empty
            return found, empty
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            least, _, repeated = argument
            first, empty = of_sequence(list(repeated))
            return first, least == 0 or empty
        return None, False  # any other item: anything may begin it

    first, empty = of_sequence(parsed)
    return None if first is None or empty else "".join(sorted(first))


_ANY_TIME = _detector(PATTERNS)
# Patterns that can match without a digit ("yesterday", "an hour ago", "刚刚"), and words one
# of them needs: a text with none of these words and no digit holds no time.
_WORDS_ONLY = _detector([p for p in PATTERNS if p[0] in ("day", "ago", "now")])
WORD_HINTS = re.compile(
    "今天|昨天|前|刚刚|ago|today|yesterday|heute|gestern|hier|hoy|ayer|vor |il y a|hace|just now"
    "|gerade|instant"
)  # one search of the lower-cased text: a quarter of the time of a test per word
_DIGIT = re.compile(r"\d")
# Attributes whose text a page shows on hover: where a time shown as an age ("3h", "1y")
# gives the date ("Friday, May 12, 2023 at 9:15 AM"): HTML's title and the tooltips of
# script libraries (Tippy, Bootstrap, plain data-tooltip).
TOOLTIP_ATTRIBUTES = ("title", "data-tippy-content", "data-original-title", "data-tooltip")
# Attributes whose value gives a time, or a tooltip that may: most elements have none of them,
# which one look at their names tells (a third of the cost of asking for each in turn).
TIME_ATTRIBUTES = frozenset((*TOOLTIP_ATTRIBUTES, "datetime", "data-time", "data-timestamp"))


def tooltip(element) -> str | None:
    """The first tooltip attribute (`TOOLTIP_ATTRIBUTES`) an lxml element has."""
    get = element.get
    return (
        get("title")
        or get("data-tippy-content")
        or get("data-original-title")
        or get("data-tooltip")
    )


# What every pattern needs beside digits: a letter (a month name, a unit, 年/月/日, "ago",
# "today") or a separator of a date written in numbers. Pieces of digits alone ("12", "(3)",
# "1,024", "10:30") are no time, and are known so without the alternation.
_MAY_BE_TIME = re.compile(r"[^\W\d_]|[-/.]")
# Characters a time can start before its first digit ("septiembre de 18" is the longest).
_BEFORE_DIGIT = 32


@lru_cache(maxsize=4096)  # record detection asks about the same block texts more than once
def find_time(text: str | None) -> str | None:
    """The first time written in `text`, as written (trimmed), or None.

    The one-scan alternation costs a fraction of a microsecond per character, so prose is
    skipped: the scan starts shortly before the first digit, and the digit-less forms are
    only looked for when one of their words is there.
    """
    if not text or not _MAY_BE_TIME.search(text):
        return None
    best = None
    if WORD_HINTS.search(text.lower()):
        best = _WORDS_ONLY.search(text)
    first = _DIGIT.search(text)
    if first:
        match = _ANY_TIME.search(text, max(0, first.start() - _BEFORE_DIGIT))
        if match and (best is None or match.start() <= best.start()):
            best = match
    return best.group(0).strip() if best else None


def parse_time(
    text: str | None,
    now: datetime | None = None,
    tz: timezone = DEFAULT_TZ,
    day_first: bool = False,
) -> datetime | None:
    """An aware datetime for a time written in `text` (the first one found), or None.
    `day_first`: a date of numbers that could be read either way ("04/07/2023") is the 4th of
    July, not April the 7th (a page's other dates say so: `written_day_first`)."""
    if not text:
        return None
    now = (now or datetime.now(tz)).astimezone(tz)
    for kind, pattern in PATTERNS:
        match = pattern.search(text)
        if match:
            try:
                return _build(kind, match, now, tz, day_first)
            except (ValueError, OverflowError):
                continue
    return None


# A date of numbers with its month or day first and a year ("04/07/2023", "21-05-24").
_EITHER_WAY = re.compile(r"(?<![\d/.-])(\d{1,2})[/-](\d{1,2})[/-](?:\d{4}|\d{2})(?![\d/-])")


def written_day_first(times: Iterable[str | None]) -> bool:
    """Whether a page writes its dates of numbers day first: one of `times` cannot be read
    month first ("21/05/2024") and none cannot be read day first ("05/21/2024"). A page keeps
    one convention; a date that could be read either way is read as its neighbours say."""
    day = month = False
    for text in times:
        for first, second in _EITHER_WAY.findall(text or ""):
            day = day or int(first) > 12 >= int(second)
            month = month or int(second) > 12 >= int(first)
    return day and not month


def _clock(match: re.Match) -> tuple[int, int, int]:
    groups = match.groupdict()
    if not groups.get("h"):
        return 0, 0, 0
    hour, minute, second = int(groups["h"]), int(groups["mi"]), int(groups.get("s") or 0)
    ampm = (groups.get("ampm") or "").lower().replace(".", "")
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    return hour, minute, second


def _build(
    kind: str, match: re.Match, now: datetime, tz: timezone, day_first: bool = False
) -> datetime:
    groups = match.groupdict()
    hour, minute, second = _clock(match)
    if kind in ("ymd", "mdy", "dmy", "md"):
        month = MONTHS[groups["mon"].lower().rstrip(".")] if groups.get("mon") else int(groups["m"])
        day_of_month = int(groups["d"])
        if month > 12 and day_of_month <= 12:
            month, day_of_month = day_of_month, month  # 23-04-2020: day first after all
        elif day_first and kind == "mdy" and not groups.get("mon") and day_of_month <= 12:
            month, day_of_month = day_of_month, month  # 04/07/2023 on a day-first page
        if groups.get("y"):
            year = int(groups["y"])
        elif groups.get("yy"):
            year = (
                2000 + int(groups["yy"])
                if int(groups["yy"]) <= now.year % 100
                else 1900 + int(groups["yy"])
            )
        else:
            year = now.year
        zone = tz
        if groups.get("tz"):
            zone = UTC if groups["tz"] == "Z" else _offset(groups["tz"])
        moment = datetime(year, month, day_of_month, hour, minute, second, tzinfo=zone)
        if kind == "md" and moment > now + timedelta(days=1):
            moment = moment.replace(year=year - 1)  # "12月30日" read in January
        return moment
    if kind == "day":
        back = _DAYS_BACK[groups["day"].lower()]
        day = (now - timedelta(days=back)).date()
        if not groups.get("h"):
            return datetime(day.year, day.month, day.day, tzinfo=tz)
        return datetime(day.year, day.month, day.day, hour, minute, second, tzinfo=tz)
    if kind == "ago":
        count = groups["n"]
        amount = float(_NUMBERS.get(count, count))
        unit = groups["unit"].lower()
        seconds = (
            _UNITS.get(unit)
            or _UNITS.get(unit.rstrip("s"))
            or _UNITS.get(unit[:3])
            or _UNITS[unit[:2]]
        )
        return now - timedelta(seconds=amount * seconds)
    return now  # 刚刚 / just now


_DAYS_BACK = {
    "今天": 0, "today": 0, "heute": 0, "aujourd'hui": 0, "hoy": 0, "昨天": 1, "yesterday": 1,
    "gestern": 1, "hier": 1, "ayer": 1, "前天": 2, "vorgestern": 2,
}  # fmt: skip


def _offset(text: str) -> timezone:
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))
