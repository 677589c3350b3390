"""Fields of repeated blocks (comments, posts, listed threads): the forum paper's semantic
nodes and rules R1–R5 (SPEC §5), shared by comment and forum extraction.

A block becomes a list of semantic nodes, depth first: an element holding only text and
inline elements (links, emphasis, <time>) is one node. Nodes are aligned across the blocks of
one region by their position key (the tag/class path from the block's root). A position whose
text is the same in every block is a label ("回复", "Reply", "says:"), not data.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import lru_cache

from lxml import etree

from topiccrawler.extract.dates import (
    _WORD_HINTS,
    MONTH_WORD,
    TIME_ATTRIBUTES,
    TOOLTIP_ATTRIBUTES,
    find_time,
    parse_time,
    tooltip,
)
from topiccrawler.extract.parse import normalize_space
from topiccrawler.extract.tree import TextStats, summed, text_stats
from topiccrawler.extract.words import Words

# Elements that do not break a semantic node: text-level markup.
INLINE_TAGS = frozenset(
    ("a", "abbr", "b", "bdi", "big", "cite", "code", "em", "font", "i", "img", "kbd", "label",
     "mark", "q", "s", "small", "span", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr")
)  # fmt: skip
SKIPPED_TAGS = frozenset(
    ("script", "style", "template", "svg", "button", "select", "textarea", "input",
     "form", "iframe", "object", "embed", "head")
)  # fmt: skip
# class/id/itemprop words that name the author of a record.
AUTHOR_HINT = Words(
    r"(?:^|[-_\s])(?:author|username|user-?name|u-?name|user|nick(?:name)?|poster|fn|name|by|"
    r"commenter|comment-author|postauthor|member|byline)(?:$|[-_\s])"
)
# A box the markup calls the poster's profile ("thread-profile-box"): its first line names
# the author where no element is called the author itself.
PROFILE_HINT = Words(r"(?:^|[-_\s])profile(?:[-_](?:box|card|info))?(?:$|[-_\s])")
# class/id names of record chrome: reply and vote buttons, avatars, signatures. Matched on
# whole class names, by their last word ("comment-reply-link", not "bbp-reply-content").
CHROME_CLASS = re.compile(
    r"^(?:[\w-]*[-_])?(?:reply|respond|vote|votes|like|likes|share|sharing|report|avatar|"
    r"sig|tools|actions?|buttons?|edit|rating|badges?|karma|quote-?header)(?:[-_](?:link|links|"
    r"button|buttons|btn|bar|box|area|wrap|wrapper|container|list)){0,2}$"
    # long words also at the end of a camel-case name ("messageUserInfo", "postSignature")
    r"|(?:userinfo|user-?stats|user-?details|user-?title|postprofile|signature|toolbar|permalink|"
    r"avatar|badges)$",
    re.I,
)
SIGNATURE = re.compile(r"signature|(?:^|[-_])sig$", re.I)
# Chrome is small: a wrapper named like chrome but holding more text is the record itself.
MAX_CHROME_CHARS = 100
# Texts that are chrome wherever they appear on a record.
CHROME_WORD = (
    r"(?:回复|引用|举报|赞|顶|踩|分享|删除|编辑|评分|收藏|只看该作者|倒序浏览|楼主|沙发|板凳|地板|"
    r"reply|quote|report|like|share|permalink|edit|delete|link|top|select|choose|"
    r"antworten|zitieren|melden|teilen|auswählen|répondre|responder|citer|选择|"
    r"log in to reply|login to reply|cancel reply|[^\w\s]*\d*[^\w\s]*"
    # any short label with a count beside it: a button's tally ("亮了(3)", "Helpful (12)")
    r"|[^\W\d_]{1,4}\s*(?=[(（]\d+[)）]))(?:\s*\(\d*\)|\s*（\d*）)?"
)
# A text made only of chrome words ("回复 赞", "Reply | Quote", "顶(0)").
CHROME_TEXT = re.compile(rf"^{CHROME_WORD}(?:[\s|·/]+{CHROME_WORD})*$", re.I)
# Labels in front of an author: "作者：", "by", "von", "Name:"; those that are common words
# ("from") or say where from ("网友") only with their colon.
BY_VERBS = r"(?:posted|asked|answered|commented|replied|written) by"  # "Asked by jane"
# (a Latin label is a word of its own: "bytedancer" is no "by" and a name)
WORD_END = r"(?![a-zà-öø-ÿ])"
NAME_LABELS = rf"作者|楼主|发帖人|用户|by|von|par|por|name|{BY_VERBS}|geschrieben von"
NAME_LABELS_WITH_COLON = r"from|来自|发件人|留言人|提问人|发布人|发言人|回复人|网友"
AUTHOR_LABEL = re.compile(
    rf"^\s*(?:(?:{NAME_LABELS}){WORD_END}\s*[:：]?|(?:{NAME_LABELS_WITH_COLON})\s*[:：])\s*", re.I
)
# What follows an author's name in a byline: "Jane says:", "Anna sagt:".
AUTHOR_TRAILER = re.compile(
    r"\s*(?:says|said|sagt|schreibt|meint|dit|dice|wrote|说|说道)\s*[:：]?\s*$"
    r"|\s*<[^<>\s]+@[^<>\s]+>\s*$",  # a mail header's address: "Ada Park <ada@example.org>"
    re.I,
)
# A poster's statistics ("Posts: 139", "积分: 84"): a label, a colon and a number, never
# a name, though user boxes mark them as the author's.
STAT_TEXT = re.compile(
    r"^\s*[^\W\d_][\w .'-]{0,24}?\s*[:：]\s*[\d.,]+\s*[kKmM万]?\s*$"
    r"|^\s*[\d.,]+\s*[kKmM万]?\s+(?:posts?|messages?|replies|threads?|topics?|points?|karma|"
    r"beiträge|antworten|themen|punkte|messages|réponses|mensajes|respuestas|"
    r"days?|weeks?|months?|years?|tage|monate|jahre|"
    r"帖子|主题|回复|积分|回帖|精华)\s*$",
    re.I,
)
# Times that are not the record's: when the poster joined, or was last seen; when the post
# was edited (a note under it: "[Beitrag von X am 21. Apr 2020 bearbeitet]").
EDITED_TIME = re.compile(
    r"\b(?:last edited|edited|modified|updated|bearbeitet|geändert|modifié|editado|modificado)\b",
    re.I,
)
NOT_POST_LABELS = (
    r"(?:joined|registered|member since|last (?:seen|active|visit)|mitglied seit|"
    r"join date|date joined|registration date|anmeldungsdatum|registrierungsdatum|"
    r"date d'inscription|fecha de registro|"
    r"registriert|dabei seit|inscrit|inscrito|registrado|注册(?:时间|于|日期)?|加入(?:时间|于)?|"
    r"入坛|最后(?:登录|访问)|上次(?:登录|访问))"
)
NOT_POST_TIME = re.compile(rf"^\s*{NOT_POST_LABELS}\b\s*[:：]?", re.I)
# The same label right before the time, inside a line of the poster's details ("Member
# Joined: 12 Mar 2005 Posts: 122").
NOT_POST_TIME_AFTER = re.compile(rf"(?:^|[\s|·,;]){NOT_POST_LABELS}\s*[:：]?\s*$", re.I)
# A poster's rank or role, shown beside the name in user boxes: never the name itself.
ROLE_TEXT = re.compile(
    r"^\s*(?:(?:new|junior|senior|full|active|registered|well-known|premium|banned|global|super|"
    r"forum|site|community)\s+)?"
    r"(?:member|user|administrator|admin|moderator|mod|staff|guest|newbie|contributor|"
    r"original poster|thread starter|topic starter|op|themenstarter|threadersteller|"
    r"mitglied|benutzer|moderateur|modérateur|membre|miembro|membro|"
    r"会员|管理员|版主|超级版主|新手上路|注册会员|游客)\s*$",
    re.I,
)
# class names of a poster's title, rank, group or flair box ("user-title", "user-group"):
# whole names, by their last word; the links in such a box name a group, not the poster.
RANK_CLASS = re.compile(
    r"^(?:[\w-]*[-_])?(?:user-?title|rank|badges?|flair|(?:member|post|user)?group|role)$", re.I
)
MAX_AUTHOR_CHARS = 40
ZERO_WIDTH = re.compile("[\u200b-\u200d\u2060\ufeff]")  # joiners a name may carry unseen
INVISIBLE = re.compile("[\u200b-\u200f\u2060\ufeff]")  # and the marks of writing direction
MAX_TIME_NODE_CHARS = 80
# What sets a time apart from the byline it ends ("jane · 2022-05-12"): not the time's own.
TIME_SEPARATORS = " ·•|"


def _as_shown(time: str) -> str:
    """A record's time as the page writes it, without invisible marks and separators."""
    return INVISIBLE.sub("", time).strip(TIME_SEPARATORS) or time


@dataclass
class SemanticNode:
    """One unit of a block's text: its position key, its text, and what links it holds."""

    key: str
    text: str
    link_text: str = ""
    element: etree._Element | None = field(default=None, repr=False)
    time: str | None = None  # a time written in the node (or in a <time> inside it)
    machine_time: str | None = None  # the same time from a datetime/title attribute, if any


def class_word(element: etree._Element) -> str:
    """The first class name without digits ("comment-1234" and "comment-99" are one class)."""
    return _first_class_word(element.get("class") or "")


_DIGIT_RUNS = re.compile(r"\d+")


@lru_cache(maxsize=8192)
def _first_class_word(classes: str) -> str:
    """`class_word` of a class attribute; a page repeats a few of them thousands of times."""
    names = classes.split()
    return _DIGIT_RUNS.sub("", names[0]) if names else ""


def _holding_blocks(block: etree._Element) -> set:
    """The block and its descendants that hold more than text and inline elements: those
    with a descendant element neither inline nor skipped, found in one pass up from each."""
    found: set = set()
    for element in block.iterdescendants(etree.Element):
        if element.tag in INLINE_TAGS or element.tag in SKIPPED_TAGS:
            continue
        above = element.getparent()
        while above is not None and above not in found:
            found.add(above)
            if above is block:
                break
            above = above.getparent()
    return found


def node_text(element: etree._Element, skip: frozenset = frozenset()) -> str:
    """Visible text below an element, skipping script-like elements and `skip` subtrees.

    Block elements and <br> break lines; inline elements join their neighbours, with a space
    where two ASCII words or numbers would otherwise run together ("user754" + "2026-01-13").
    """
    parts: list[str] = []

    def put(text: str | None, boundary: bool = False) -> None:
        if not text:
            return
        if boundary and parts and parts[-1] and _runs_together(parts[-1][-1], text[0]):
            parts.append(" ")
        parts.append(text)

    def walk(node: etree._Element) -> None:
        put(node.text, boundary=True)
        for child in node:
            if isinstance(child.tag, str) and child.tag not in SKIPPED_TAGS and child not in skip:
                inline = child.tag in INLINE_TAGS and child.tag != "br"
                if not inline:
                    parts.append("\n")
                walk(child)  # noqa: F821 (bound while it runs; deleted after)
                if not inline:
                    parts.append("\n")
            put(child.tail, boundary=True)

    walk(element)
    del walk  # a recursive closure is a reference cycle: freed now, not by the collector
    lines = (normalize_space(line) for line in "".join(parts).splitlines())
    return "\n".join(line for line in lines if line)


def _runs_together(left: str, right: str) -> bool:
    """Two word characters meeting, one of them Latin or a digit ("老李" + "2026-01-13")."""
    return left.isalnum() and right.isalnum() and (left.isascii() or right.isascii())


def text_and_links(blocks: Sequence[etree._Element]) -> tuple[list[str], int, int]:
    """The blocks' texts, and their characters in all and inside links (white space out)."""
    texts = [" ".join(b.itertext()) for b in blocks]
    text = sum(len("".join(t.split())) for t in texts)
    link = sum(len("".join("".join(a.itertext()).split())) for b in blocks for a in b.iter("a"))
    return texts, text, link


def _link_text(element: etree._Element) -> str:
    anchors = [element] if element.tag == "a" else element.iter("a")
    return normalize_space(" ".join("".join(a.itertext()) for a in anchors))


# An age shown without "ago" ("21 天", "3w", "5 days") where an attribute holds the time.
BARE_AGE = re.compile(
    r"^\s*\d+\s*(?:秒|分钟?|小时|天|日|周|个月|月|年|[smhdwy]|mo|mins?|hrs?|"
    r"(?:second|minute|hour|day|week|month|year)s?)\s*$",
    re.I,
)


# A coarse date shown where an attribute holds the time ("September 2019", "2019"): a year in
# a short text is what the page writes.
SHOWN_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
MAX_COARSE_CHARS = 30


def _coarse(shown: str) -> bool:
    """A year, or a day and a month's name ("May 13"), in a short text: a date as shown."""
    if len(shown) > MAX_COARSE_CHARS:
        return False
    if SHOWN_YEAR.search(shown) is not None:
        return True
    return _HAS_DIGIT.search(shown) is not None and MONTH_WORD.search(shown) is not None


def _time_of(element: etree._Element, text: str) -> tuple[str | None, str | None]:
    """A time written in the node (as shown, from the smallest element showing it), and the
    machine-readable form a <time datetime> or a title attribute gives, if any. Shown as an
    age ("21 天") with the time in the attribute, the age is what the page writes; an empty
    element with the attribute (a script's, or microdata's) beside a written time, the
    written time."""
    for node in element.iter("time", "abbr", "span", "a"):
        for attribute in ("datetime", *TOOLTIP_ATTRIBUTES, "data-time"):
            value = node.get(attribute)
            if value and find_time(value):
                shown = normalize_space("".join(node.itertext()))
                written = find_time(shown) or BARE_AGE.match(shown) or _coarse(shown)
                if not shown and find_time(text):  # an empty element beside the written time
                    return find_time(text), value.strip()
                return (shown if written else value), value.strip()
    if not find_time(text):
        if not MONTH_DAY.search(text):
            return None, None
        return next(filter(None, map(cued_time, element.iter(etree.Element))), None), None
    timed = [
        node
        for node in element.iterdescendants(etree.Element)
        if len(node) == 0 and len(shown := node_text(node)) <= MAX_TIME_NODE_CHARS
        and find_time(shown)
    ]  # fmt: skip
    if timed:
        # Where several elements write a date (a badge's "推荐于2023-11-03" beside the post's
        # time), the one the markup calls the time.
        node = next((n for n in timed if TIME_CLASS.found(_author_marks(n))), timed[0])
        return _with_clock(node, node_text(node)), None
    if len(text) > MAX_TIME_NODE_CHARS or _opening_link_text(element, text) is not None:
        return find_time(text), None  # a byline: "milkfan · 2 天前 · 1024 次点击"
    return text, None


# class/id words of an element that holds a record's time.
TIME_CLASS = Words(
    r"(?:^|[-_\s])(?:time|date|datetime|timestamp|pubtime|posted|post-?date|ago)(?:$|[-_\s])"
)


# A date shown without its year ("11-02", "11/02 18:30", "11月2日"): no time on its own (a
# score, a range), a record's time where the markup calls its element the date or time.
CUED_DATE = re.compile(r"^\s*(?:\d{1,2}[-/.]\d{1,2}|\d{1,2}月\d{1,2}日)(?:\s+\d{1,2}:\d{2})?\s*$")


MONTH_DAY = re.compile(r"\d[-/.月]\d")  # what a CUED_DATE has somewhere in a longer text


def cued_time(element: etree._Element) -> str | None:
    """The element's text where it is a date without its year (CUED_DATE) and the element,
    or its parent, is named for a date or time ("date", "reply-time")."""
    text = element.text
    if not text or len(element) or not CUED_DATE.match(text):
        return None
    named = element
    for _ in range(2):
        if named is None or not isinstance(named.tag, str):
            return None
        if TIME_CLASS.found(_author_marks(named)):
            return text.strip()
        named = named.getparent()
    return None


def _opening_link_text(element: etree._Element, text: str) -> str | None:
    """The text of the element's first link where the element's `text` starts with it and
    goes on (a byline: the poster's name, then the time or more)."""
    first = element if element.tag == "a" else next(element.iter("a"), None)
    if first is None:
        return None
    shown = normalize_space("".join(first.itertext()))
    return shown if shown and text.startswith(shown) and len(text) > len(shown) else None


CLOCK = re.compile(r"\d{1,2}:\d{2}")
# A date's clock written in an element of its own beside it ("<b>9:00am</b> On <b>Apr 24</b>")
# is read with it from their parent, up to this long.
MAX_DATE_AND_CLOCK_CHARS = 40


def _with_clock(node: etree._Element, shown: str) -> str:
    """The date as shown, with its clock when a sibling element writes that."""
    parent = node.getparent()
    if parent is None or CLOCK.search(shown):
        return shown
    around = node_text(parent)
    if len(around) <= MAX_DATE_AND_CLOCK_CHARS and CLOCK.search(around):
        return around
    return shown


# Text pieces longer than this are prose: a record's time is written in a short one.
MAX_TIME_PIECE_CHARS = 120


# Elements below that give a time as an attribute (XPaths compiled once: `element.xpath(…)`
# compiles its expression at every call).
_TIMED_BELOW = etree.XPath(
    "descendant::time[@datetime] | descendant::*[@data-time or @data-timestamp]"
)
_MARKED_BELOW = etree.XPath("descendant::*[@class or @id or @itemprop or @rel]")


def shows_time(block: etree._Element) -> bool:
    """The block writes a time in one of its short texts (a byline, a <time>), or gives one
    as an attribute. Long prose is not read: a date inside a comment's text does not make it a
    record, and scanning prose for dates is what record detection spent most time on."""
    for piece in block.itertext():
        if _short(piece) and find_time(piece):
            return True
    if _TIMED_BELOW(block):
        return True
    if any(_short_time(title) for title in _TOOLTIPS(block)):
        return True
    return any(cued_time(e) for e in block.iter(etree.Element) if e.text and len(e.text) < 20)


def _attribute_time(element: etree._Element) -> bool:
    """The element gives a time as an attribute (as shows_time reads them, for one element):
    a datetime, a data-time, a tooltip holding a date beside a shown age."""
    return (
        (element.tag == "time" and element.get("datetime") is not None)
        or element.get("data-time") is not None
        or element.get("data-timestamp") is not None
        or _short_time(tooltip(element))
    )


_TOOLTIPS = etree.XPath(" | ".join(f".//*/@{name}" for name in TOOLTIP_ATTRIBUTES))


def _short(piece: str) -> bool:
    """The piece is short, its white space squeezed (markup indents lines by dozens)."""
    return (
        len(piece) <= MAX_TIME_PIECE_CHARS or len(" ".join(piece.split())) <= MAX_TIME_PIECE_CHARS
    )


def _short_time(piece: str | None) -> bool:
    return (
        bool(piece)
        and _short(piece)
        and _cued_time(piece, digits=_HAS_DIGIT.search(piece) is not None)
    )


def _cued_time(piece: str, digits: bool) -> bool:
    """A time in the piece (`digits`: it holds one), what find_time needs to find anything
    looked for first: a digit, or one of its words in the lowercased text (`_WORD_HINTS`,
    read as find_time reads them). The words are searched apart from the digit: a pattern
    led by literals alone lets the regex engine skip to where one could start."""
    if not digits and _WORD_HINTS.search(piece.lower()) is None:
        return False
    return find_time(piece) is not None


def _author_marks(element: etree._Element) -> str:
    return " ".join(
        (element.get("class") or "", element.get("id") or "", element.get("itemprop") or "",
         element.get("rel") or "")
    )  # fmt: skip


_HAS_DIGIT = re.compile(r"\d")


@lru_cache(maxsize=8192)
def _author_hint(marks: str) -> bool | None:
    """How an element's marks name an author: False (strongly: "author", "username"), True
    (weakly: a profile box), None (not, or as a thing: "category-name")."""
    if NOT_PERSON.found(marks):
        return None
    if AUTHOR_HINT.found(marks):
        return False
    return True if PROFILE_HINT.found(marks) else None


@lru_cache(maxsize=8192)
def _author_named(marks: str) -> bool:
    """AUTHOR_HINT in an element's marks; pages repeat a few class names thousands of times."""
    return AUTHOR_HINT.found(marks)


class Evidence:
    """What an element of a cleaned page holds below it, so that the detectors compare
    siblings only under a node where records can pass their tests: `timed`, the elements
    `shows_time` is true of; `authored`, those with a descendant the markup names as an
    author; `named`, those with a descendant named like an author or a profile box (what
    `hinted_author` needs to find anyone); `numbered`, those with a digit and a link (what a
    thread-list row needs); `lends`, the elements that give their parent a time of their own
    (in their tail, or as an attribute of theirs): what a row wrapped with its siblings brings
    to the wrapper beside its own `timed`. Each is asked as `element in evidence.timed`.

    Times, digits and links are found for every element in one pass (`text_evidence`); author
    names, asked of few elements (siblings that passed the other tests), when asked."""

    def __init__(self, below: dict, gives: dict, known: dict | set = frozenset()):
        # The elements the page had when the evidence was taken (its text_stats): detection
        # may wrap rows since, which adds no text, so their `timed` still answers `shows_time`.
        self.known = known
        self.timed = _Flagged(below, _TIMED)
        self.numbered = _Flagged(below, _DIGITS | _LINKS)
        self.lends = _Flagged(gives, _TIMED)
        self.authored = _Holds(_names_author)
        self.named = _Holds(_names_someone)

    def shows_time(self, block: etree._Element) -> bool:
        """`shows_time` of the block, looked up for an element the page had."""
        return block in self.timed if block in self.known else shows_time(block)


# What an element holds below it (its text, its children's tails, what its descendants hold
# or give), or gives its parent (its tail, its own attributes), one bit each.
_TIMED, _DIGITS, _LINKS = 1, 2, 4


class _Flagged:
    """`element in flagged`: the element's flags hold all of `bits`."""

    __slots__ = ("flags", "bits")

    def __init__(self, flags: dict, bits: int):
        self.flags, self.bits = flags, bits

    def __contains__(self, element) -> bool:
        return self.flags.get(element, 0) & self.bits == self.bits


def _names_author(element) -> bool:
    return isinstance(element.tag, str) and _author_named(_author_marks(element))


def _names_someone(element) -> bool:
    return isinstance(element.tag, str) and _author_hint(_author_marks(element)) is not None


class _Holds:
    """`element in holds`: a descendant of the element passes `test`. Answers are kept per
    element; a subtree is walked once however many of its ancestors are asked about, without
    recursion (pages nest thousands deep), and no further than the first descendant that
    passes."""

    __slots__ = ("test", "memo")

    def __init__(self, test):
        self.test, self.memo = test, {}

    def __contains__(self, root) -> bool:
        memo, test = self.memo, self.test
        known = memo.get(root)
        if known is not None:
            return known
        stack = [(root, root.iterchildren(etree.Element))]
        while stack:
            node, kids = stack[-1]
            deeper = found = False
            for kid in kids:
                known = memo.get(kid)
                if known or test(kid):
                    found = True
                    break
                if known is None:
                    if len(kid):
                        stack.append((kid, kid.iterchildren(etree.Element)))
                        deeper = True
                        break
                    memo[kid] = False
            if found:
                for element, _ in stack:
                    memo[element] = True
                return True
            if not deeper:
                memo[node] = False
                stack.pop()
        return False


# HTML5 and ARIA landmarks of what sits beside a page's content: their lists are the site's
# (recent comments, latest threads, members online), not the page's records; unless the
# landmark holds half the page's text or more (a stray <aside> left open around the rest).
LANDMARK_TAGS = ("aside", "nav")
LANDMARK_ROLES = ("complementary", "navigation")


def beside_content(body: etree._Element, stats: dict) -> set:
    """The elements inside landmarks beside the page's content (`LANDMARK_TAGS`, `LANDMARK_ROLES`), for the
    detectors to leave alone. Cheap: pages have few landmarks."""
    global _beside_last
    asked, answer = _beside_last
    if asked == (body, id(stats)):
        return answer  # (both detectors ask of the same page)
    page = stats[body].text if body in stats else 0
    beside: set = set()
    for element in body.iter(etree.Element):
        if element.tag not in LANDMARK_TAGS and element.get("role") not in LANDMARK_ROLES:
            continue  # (read by lxml's iterator: an XPath of the three costs half as much again)
        if element not in beside:
            known = stats.get(element)
            if known is not None and known.text * 2 < page:
                beside.update(element.iter())
    _beside_last = ((body, id(stats)), beside)
    return beside


_beside_last: tuple = ((None, None), set())  # the last page's answer


def at_least(elements, holding, count: float) -> bool:
    """`count` or more of the elements are in `holding` (an evidence set), asked until that
    is known."""
    for element in elements:
        if element in holding:
            count -= 1
            if count <= 0:
                return True
    return count <= 0


def text_evidence(body: etree._Element) -> tuple[dict[etree._Element, TextStats], Evidence]:
    """The body's `text_stats` and its `Evidence` (times, digits and links of every element),
    in one pass from the leaves up: each text piece is read from the tree and split once for
    both (two walks read and split every piece twice), each time attribute read once, each
    element's counts and bits its own and its children's (a child's tail is its parent's text,
    and the time it shows is one the child lends)."""
    stats: dict[etree._Element, TextStats] = {}
    below: dict = {}
    gives: dict = {}
    lifted: dict = {}  # what each element brings its parent (but its tail): what it holds and gives
    known = stats.get
    up = lifted.get
    for element in reversed(list(body.iter(etree.Element))):
        tag = element.tag
        given = 0
        if element is not body and not TIME_ATTRIBUTES.isdisjoint(element.keys()):
            get = element.get
            title = (  # tooltip(element), written out: asked of the elements that have one
                get("title")
                or get("data-tippy-content")
                or get("data-original-title")
                or get("data-tooltip")
            )
            if (
                (tag == "time" and get("datetime") is not None)
                or get("data-time") is not None
                or get("data-timestamp") is not None
                or (title and _short_time(title))
            ):
                given = _TIMED
        holds = _LINKS if tag == "a" else 0
        total = link = prose = 0
        text = element.text
        if text:
            words = text.split()
            if words:
                total = len("".join(words))
                bits = _piece(text, words, total)
                if bits == _DIGITS and cued_time(element):
                    bits |= _TIMED  # "11-02" in an element named "date"
                holds |= bits
        if len(element):
            for child in element:
                tail = child.tail
                if tail:
                    words = tail.split()
                    if words:
                        chars = len("".join(words))
                        total += chars
                        bits = _piece(tail, words, chars)
                        if bits:
                            holds |= bits
                            if child.tag.__class__ is str:  # (not a comment's tail)
                                gives[child] = gives.get(child, 0) | bits
                counted = known(child)
                if counted is not None:
                    total += counted.text
                    link += counted.link
                    prose += counted.prose
                    holds |= up(child, 0)
        stats[element] = summed(tag, total, link, prose)
        if holds:
            below[element] = holds
        if given:
            gives[element] = given
        if holds | given:
            lifted[element] = holds | given
    return stats, Evidence(below, gives, known=stats)


def _piece(text: str, words: list[str], chars: int) -> int:
    """The digit and time bits of a text piece, given its words (`text.split()`, not empty)
    and their characters."""
    short = len(text) <= MAX_TIME_PIECE_CHARS or chars + len(words) - 1 <= MAX_TIME_PIECE_CHARS
    if _HAS_DIGIT.search(text):
        return _DIGITS | _TIMED if short and _cued_time(text, digits=True) else _DIGITS
    return _TIMED if short and _cued_time(text, digits=False) else 0


def semantic_nodes(block: etree._Element, skip: frozenset = frozenset()) -> list[SemanticNode]:
    """The block's semantic nodes in document order; `skip` subtrees (nested records) left out."""
    nodes: list[SemanticNode] = []
    blocky = _holding_blocks(block)

    def add(element: etree._Element, key: str, text: str) -> None:
        text = normalize_space(text)
        if text:
            link = _link_text(element) if element.tag == "a" or len(element) else ""
            nodes.append(SemanticNode(key, text, link, element, *_time_of(element, text)))

    def walk(element: etree._Element, key: str) -> None:
        if element not in blocky:  # text and inline elements only: one node
            add(element, key, node_text(element))
            return
        own = [element.text or ""]
        for child in element:
            if not isinstance(child.tag, str) or child.tag in SKIPPED_TAGS or child in skip:
                own.append(child.tail or "")
                continue
            child_key = f"{key}/{child.tag}.{class_word(child)}"
            if child.tag in INLINE_TAGS and child.tag != "br":
                add(child, child_key, node_text(child))
            else:
                walk(child, child_key)  # noqa: F821 (bound while it runs; deleted after)
            own.append(child.tail or "")
        loose = normalize_space(" ".join(own))
        if loose:
            nodes.append(SemanticNode(f"{key}#text", loose, "", element, find_time(loose)))

    walk(block, "")
    del walk  # (the cycle a recursive closure makes, broken: see node_text)
    return nodes


def noise_keys(blocks_nodes: Sequence[Sequence[SemanticNode]], least: int = 3) -> set[str]:
    """Positions whose text is identical in every block (labels), given `least` or more blocks
    (three: two posts may well say the same)."""
    if len(blocks_nodes) < least:
        return set()
    texts: dict[str, set[str]] = {}
    present: Counter = Counter()
    for nodes in blocks_nodes:
        for key in {n.key for n in nodes}:
            present[key] += 1
        for node in nodes:
            texts.setdefault(node.key, set()).add(node.text)
    return {
        k for k, values in texts.items() if present[k] == len(blocks_nodes) and len(values) == 1
    }


def best_key(
    blocks_nodes: Sequence[Sequence[SemanticNode]], test, least: float = 1, prefer=None
) -> str | None:
    """The position where `test(node)` holds in the most blocks (on ties, one where `prefer`
    holds of a node, then the earliest), if in `least` blocks at least."""
    hits: Counter = Counter()
    order: dict[str, int] = {}
    preferred: set = set()
    for nodes in blocks_nodes:
        seen = set()
        for position, node in enumerate(nodes):
            order.setdefault(node.key, position)
            if node.key not in seen and test(node):
                hits[node.key] += 1
                seen.add(node.key)
                if prefer is not None and prefer(node):
                    preferred.add(node.key)
    if not hits:
        return None
    key = min(hits, key=lambda k: (-hits[k], k not in preferred, order[k]))
    return key if hits[key] >= least else None


# A link to a person's page, loosely: "/users/12/jane/", "/u/jane", "/member.php?u=5",
# "space-uid-9", "/@jane" (also a feature of the signature scorer's).
PERSON_LINK = re.compile(
    r"user|member|profile|people|author|/u/|space|home\.php|account|/@|~", re.I
)


def _to_profile(node: SemanticNode) -> bool:
    """The node is, or holds, a link to a person's page (`PERSON_LINK`)."""
    element = node.element
    anchor = element if element.tag == "a" else next(element.iter("a"), None)
    return anchor is not None and PERSON_LINK.search(anchor.get("href") or "") is not None


def hinted_author(
    block: etree._Element, skip: frozenset = frozenset()
) -> tuple[str, etree._Element] | None:
    """The author as the markup names it (class/id/itemprop "author", "username", "fn"…): the
    smallest such element with a short text, its link text first; one whose text is a link (a
    profile link) before others (the "poster-info" lines beside it, a user box); a profile
    box's first line only where nothing is called the author."""
    found = []
    skipped = {e for s in skip for e in s.iter()}  # the nested records' elements
    for element in _MARKED_BELOW(block):
        if element in skipped:
            continue
        marks = " ".join(
            (element.get("class") or "", element.get("id") or "", element.get("itemprop") or "",
             element.get("rel") or "")
        )  # fmt: skip
        weak = _author_hint(marks)  # True: a profile box, its name the author where no other
        if weak is None or not_the_author(element, block, None):
            continue
        linked = _link_text(element)
        name = clean_author(linked, linked=True) if linked else None
        if not name:  # a byline of the name and then the time (linked or not): the name
            linked = ""
            shown = node_text(element).split("\n")[0]
            name = clean_author(shown) or clean_author(_before_time(shown))
        if not name or not_the_author(element, block, name):
            continue
        # the element is a name link: all its text is the link's
        is_link = bool(linked) and normalize_space(" ".join(element.itertext())) == linked
        found.append((weak, not is_link, len(list(element.iter())), name, element))
    if not found:
        return None
    if len(found) > 1:
        # A name in a list of replies under the post (a commenter's) only where no other
        # element names anyone
        found = [(_in_replies(f[-1], block), *f) for f in found]
        *_, name, element = min(found, key=lambda f: f[:4])
    else:
        *_, name, element = found[0]
    return name, element


# Elements the markup names like an author that are not the record's author, case by case as
# data (applied in this order by `not_the_author`): each case's name, and its test of the
# element, the record's block and the name read from it (None: before the name is read,
# the element's own cases).
NOT_THE_AUTHOR: tuple[tuple[str, bool, Callable[..., bool]], ...] = (
    ("chrome (a user box's lines, buttons, a signature)", False,
     lambda element, block, name: _chrome_marked(element)),
    ("a group or rank link in the poster's title box", False,
     lambda element, block, name: _rank_marked(element)),
    ("the time's element ('user-action-time')", False,
     lambda element, block, name: TIME_CLASS.found(_author_marks(element))),
    ("the quoted post's author", True, lambda element, block, name: _quoted(element, block)),
    ("a name mentioned in the text", True,
     lambda element, block, name: name[0] == "@" and _mention(element)),
    ("whom the post answers ('in reply to jane')", True,
     lambda element, block, name: bool(IN_REPLY_TO.match(_first_text(element)))),
)  # fmt: skip


def not_the_author(element: etree._Element, block: etree._Element, name: str | None) -> str | None:
    """The NOT_THE_AUTHOR case the element is: its own cases when `name` is None, else the
    cases of the name read from it."""
    named = name is not None
    for case, needs_name, test in NOT_THE_AUTHOR:
        if needs_name == named and test(element, block, name):
            return case
    return None


def _first_text(element: etree._Element) -> str:
    return next((t for t in element.itertext() if not t.isspace()), "")


# The name a post answers, not its author's: "in reply to jane", "Antwort auf …", "回复 …".
IN_REPLY_TO = re.compile(
    r"^\s*(?:in reply to|replying to|reply to|antwort auf|als antwort auf|en réponse à|"
    r"en respuesta a|回复)\b",
    re.I,
)
# Names of things, not people: "category-name", "tag__name", "forum-title-name".
NOT_PERSON = Words(
    r"(?:category|tag|badge|forum|board|site|file|attachment|image|product)[-_]*name"
)
QUOTE_CLASS = re.compile(r"(?:^|[-_\s])quote(?:$|[-_\s])", re.I)


def _mention(element: etree._Element) -> bool:
    """An "@name" in a line of text (its parent says more), not a byline's name."""
    text = normalize_space(" ".join(element.itertext()))
    if not text.startswith("@"):
        return False
    parent = element.getparent()
    around = normalize_space(" ".join(parent.itertext())) if parent is not None else text
    rest = around.replace(text, "", 1).strip(" :：")
    return len(rest) > 2 and not AUTHOR_TRAILER.fullmatch(" " + rest)


def _quoted(element: etree._Element, block: etree._Element) -> bool:
    """The element sits in a quotation inside the block (<blockquote>, class "quote")."""
    for ancestor in element.iterancestors():
        if ancestor is block:
            return False
        if ancestor.tag == "blockquote" or QUOTE_CLASS.search(ancestor.get("class") or ""):
            return True
    return False


def _in_replies(element: etree._Element, block: etree._Element) -> bool:
    """The element sits in a list of replies or comments shown under the post in the block
    ("comments-list", "sub-replies", "comments"): a commenter's name, not the post's author."""
    for ancestor in element.iterancestors():
        if ancestor is block:
            return False
        if is_replies_list(ancestor):
            return True
    return False


def is_replies_list(element: etree._Element) -> bool:
    """The element is named as the list of replies or comments shown under a post
    ("comments", "answer-comments", "replies", "comment-list", "sub-replies")."""
    classes = element.get("class")
    if not classes:
        return False
    lowered = classes.lower()
    if "comment" not in lowered and "repl" not in lowered:
        return False  # (nearly every element: no name of replies)
    return any(REPLIES_LIST.match(name) or REPLIES_CLASS.match(name) for name in classes.split())


# A class naming a list of replies by its plural: "comments", "answer-item-comments", "replies".
REPLIES_LIST = re.compile(r"^(?:[\w-]*[-_])?(?:comments|replies)$", re.I)


def _rank_marked(element: etree._Element) -> bool:
    return any(RANK_CLASS.match(name) for name in (element.get("class") or "").split())


# What a name cannot be, case by case as data (applied in this order by `not_a_name`, the
# cheap tests first): each case's name, its test of the text, and whether a profile link
# makes the text a name after all (a profile named after its role, "Moderator").
BRACKETED = re.compile(r"^[\[【「『〔]\s*([^\[\]【】「」『』〔〕]+?)\s*[\]】」』〕]$")
WEB_ADDRESS = re.compile(r"^(?:https?://|www\.)\S+$", re.I)
NOT_A_NAME: tuple[tuple[str, Callable[[str], object], bool], ...] = (
    ("too long", lambda text: len(text) > MAX_AUTHOR_CHARS, False),
    ("a web address", WEB_ADDRESS.match, False),
    ("a time", lambda text: find_time(text), False),
    ("chrome words", CHROME_TEXT.match, False),
    ("a poster's statistics", STAT_TEXT.match, False),
    ("a rank or role", ROLE_TEXT.match, True),
)


def not_a_name(text: str, linked: bool = False) -> str | None:
    """The NOT_A_NAME case the text is, or None."""
    for case, test, link_makes_a_name in NOT_A_NAME:
        if not (linked and link_makes_a_name) and test(text):
            return case
    return None


def clean_author(text: str | None, linked: bool = False) -> str | None:
    """An author's name without labels and trailers; None when it cannot be a name
    (`NOT_A_NAME`)."""
    if not text:
        return None
    text = normalize_space(ZERO_WIDTH.sub("", text.split("\n")[0]))
    text = AUTHOR_TRAILER.sub("", AUTHOR_LABEL.sub("", text)).strip(" :：|·-")
    text = BRACKETED.sub(r"\1", text)  # a name shown in brackets: "[清风徐来]"
    if not text or not_a_name(text, linked):
        return None
    return text


def _label_list(element: etree._Element) -> bool:
    """A <dl> of short labels and their values: a poster's points, posts, join date."""
    if element.tag != "dl":
        return False
    terms = [normalize_space("".join(dt.itertext())) for dt in element.iter("dt")]
    if terms:
        return all(len(term) <= 16 for term in terms)
    # Terms shown as icons (their label in a title, their element gone with cleaning):
    # short values only ("Apr 5, 2020", "1,204").
    values = [normalize_space("".join(dd.itertext())) for dd in element.iter("dd")]
    return bool(values) and all(len(value) <= 24 for value in values)


def _chrome_marked(element: etree._Element) -> bool:
    """Named like chrome, and small like chrome (a post's wrapper may carry "reply" too), or a
    signature."""
    if _label_list(element):
        return True
    names = f"{element.get('class') or ''} {element.get('id') or ''}".split()
    marked = [name for name in names if CHROME_CLASS.match(name)]
    if not marked:
        return False
    if any(SIGNATURE.search(name) for name in marked):
        return True
    text = "".join("".join(element.itertext()).split())
    if all(REPLY_NAMED.match(name) for name in marked) and _sentence(text):
        return False  # "root-reply-container": the reply itself, a short one, not its button
    return len(text) <= MAX_CHROME_CHARS


# A class named for a reply ("root-reply", "reply-container", "reply-link"): a button or a
# reply box, or the reply itself, which a sentence in it tells (no button holds one).
REPLY_NAMED = re.compile(r"^(?:[\w-]*[-_])?(?:reply|respond)(?:[-_][a-z]+){0,2}$", re.I)


def _sentence(squeezed: str) -> bool:
    """Text (white space removed) that reads as a sentence, not a button's label: eight CJK
    characters, or MIN_ONE_LINE_CHARS letters and digits."""
    return len(_CJK.findall(squeezed)) >= 8 or sum(c.isalnum() for c in squeezed) >= (
        MIN_ONE_LINE_CHARS
    )


# Class names of text kept for screen readers only ("sr-only", "visually-hidden",
# "screen-reader-text"): a time there repeats the one the page shows, in another form.
VISUALLY_HIDDEN = Words(r"sr-only|visually-?hidden|screen-reader|offscreen")


def visually_hidden(element: etree._Element, stops: set[etree._Element]) -> bool:
    """The element, or an ancestor below one of `stops`, is named as screen-reader text."""
    while element is not None and element not in stops:
        names = element.get("class")
        if names and VISUALLY_HIDDEN.found(names):
            return True
        element = element.getparent()
    return False


def is_chrome(node: SemanticNode, block: etree._Element) -> bool:
    """A reply/vote/quote button, an avatar, a bare number: chrome on any record."""
    return bool(CHROME_TEXT.match(node.text)) or under_chrome(node, {block})


def under_chrome(node: SemanticNode, stops: set[etree._Element]) -> bool:
    """The node sits in chrome below the record (a user-info box's "Joined: Mar 8, 2010" is
    not the post's time): its element or an ancestor up to one of `stops`."""
    element = node.element
    while element is not None and element not in stops:
        if _chrome_marked(element):
            return True
        element = element.getparent()
    return False


# "回复 @张三：", "@Jane:", "In reply to Jane": who a comment answers.
REPLY_TO = re.compile(r"^(?:回复\s*@?|@|in reply to\s+|antwort auf\s+)([^\s:：,，]{1,30})", re.I)


@dataclass
class BlockFields:
    """What one record block says: its text without chrome, author, time, reply-to."""

    element: etree._Element
    text: str
    author: str | None = None
    author_url: str | None = None  # the author's profile link, as the page gives it
    time: str | None = None  # as written
    published_at: datetime | None = None
    reply_to: str | None = None
    time_attr: str | None = None  # the time as an attribute gives it, when not as shown


def block_fields(blocks: list[etree._Element], all_blocks: set, now=None) -> list[BlockFields]:
    """Text, author, time and reply-to of each block of one region; records nested in a block
    (`all_blocks` below it) are left to themselves."""
    skips = {
        b: frozenset(
            d
            for d in b.iterdescendants(etree.Element)
            if d in all_blocks and not _time_only(d)  # a bare time is no record
        )
        for b in blocks
    }
    nodes = [semantic_nodes(b, skips[b]) for b in blocks]
    stops = set(blocks)
    noise = noise_keys(nodes)
    not_post = _not_post_times(nodes)
    time_key = best_key(
        nodes,
        lambda n: (
            n.time is not None
            and len(n.text) <= MAX_TIME_PIECE_CHARS  # a date inside prose is not the time
            and n.key not in noise
            and not under_chrome(n, stops)
            and id(n) not in not_post
        ),
        prefer=lambda n: not visually_hidden(n.element, stops),
    )
    # Author links: a link the same in every block ("发消息", "PM") is a label, also in a
    # thread of two; unless no other link is there (one poster twice).
    labels = noise_keys(nodes, least=2)

    def name_link(n: SemanticNode, skip: set) -> bool:
        return bool(
            n.link_text
            and n.link_text == n.text
            and clean_author(n.text) is not None
            and n.key not in skip
        )

    link_key = (
        best_key(nodes, lambda n: name_link(n, labels), prefer=_to_profile)
        or best_key(nodes, lambda n: name_link(n, noise), prefer=_to_profile)
        or best_key(  # a byline opening with the name: where most records have one
            nodes, lambda n: n.key not in labels and byline_name(n) is not None, len(nodes) / 2
        )
        or best_key(  # a line signed with the name after its text: where most records have one
            nodes, lambda n: n.key not in labels and signed_name(n) is not None, len(nodes) / 2
        )
    )
    containers = content_elements(blocks, skips)
    authors: dict[etree._Element, str | None] = {}
    placed = []
    for block, block_nodes in zip(blocks, nodes, strict=True):
        author, author_element = _author(block, block_nodes, skips[block], link_key)
        authors[block] = author
        time_node = next(
            (
                n
                for n in block_nodes
                if n.key == time_key and n.time and len(n.text) <= MAX_TIME_PIECE_CHARS
            ),
            None,
        )
        if time_node is None:
            time_node = next(
                (n for n in block_nodes if n.time and len(n.text) <= MAX_TIME_NODE_CHARS), None
            )
        if time_node is None or time_node.key.endswith("#text"):
            # a text of lines whose header line holds the time: that line, not the text
            time_node = _header_line_time([time_node] if time_node else block_nodes) or time_node
        candidates, said = [], []
        for n in block_nodes:
            if n.key in noise or n is time_node or is_chrome(n, block):
                continue
            if _holds(n, author_element) and not _around_name(n, author_element, author):
                words = _said_after_name(n, author)  # "晨跑的猫：终于凉快了": what follows
                if words is not None:
                    candidates.append(words)
                    said.append(words)
                continue
            candidates.append(_without_name(n, author))
        container = containers[block]
        inside = sum(len(n.text) for n in candidates if _within(n, container))
        byline = _inside(author_element, container) or (
            time_node is not None and _inside(time_node.element, container) and inside < 10
        )
        if container is not block and byline:
            container = block  # elected the byline, not the text: a short record's header won
        text_nodes = [n for n in candidates if _within(n, container)]
        card = user_card(block, author_element, time_node)
        if card is not None:
            dropped = [n for n in text_nodes if _inside(n.element, card) and n not in said]
            if all(len(n.text) <= MAX_CARD_LINE_CHARS for n in dropped):
                text_nodes = [n for n in text_nodes if n not in dropped] or text_nodes
        text_nodes = _without_replies(block, text_nodes, time_node, container)
        text_nodes = _without_byline(block, text_nodes, time_node, container)
        if not text_nodes and time_node is not None:
            # nothing but the byline: a record written as one line, text, author and time
            text_nodes = [n for n in [_one_line(time_node, author, author_element)] if n]
            if text_nodes and time_node.time is not None:  # the line's time, not the line
                time_node = replace(time_node, time=find_time(time_node.time) or time_node.time)
        text = "\n".join(n.text for n in text_nodes)
        reply_to = _reply_to(block, authors, text)
        placed.append(
            BlockFields(
                block,
                text,
                author=author,
                author_url=_href(author_element),
                time=_as_shown(time_node.time) if time_node and time_node.time else None,
                published_at=_moment(time_node, now),
                reply_to=reply_to,
                time_attr=_time_attr(time_node),
            )
        )
    return placed


# A poster's card is short lines (name, rank, "Posts: 139"); a longer one is prose.
MAX_CARD_LINE_CHARS = 60


# class names of the replies to a post shown under it ("sub-replies", "core_reply_wrapper",
# "comments-wrap"): whole names, by their last words.
REPLIES_CLASS = re.compile(
    r"^(?:[\w-]*[-_])?(?:repl(?:y|ies)|comments?)(?:[-_](?:wrapper|wrap|container|list|box|area))+$"
    r"|^(?:sub|child|nested|inner)[-_]?(?:repl(?:y|ies)|comments?|posts?)$",
    re.I,
)
_REPLY_NAMED = etree.XPath(
    "descendant::*[contains(@class, 'epl') or contains(@class, 'omment') or "
    "contains(@class, 'EPL') or contains(@class, 'OMMENT')]"
)


def _without_replies(
    block: etree._Element, nodes: list[SemanticNode], time_node, container
) -> list[SemanticNode]:
    """The nodes outside the replies shown under the post (a list named so, with times of its
    own, holding neither the post's time nor its text's element): comments on the post, not
    its text. Nothing is dropped where nothing would be left."""
    shown = time_node.element if time_node is not None else None
    lists = [
        e
        for e in _REPLY_NAMED(block)
        if any(REPLIES_CLASS.match(name) for name in e.get("class").split())
        and not _inside(shown, e)
        and not _inside(container, e)
        and shows_time(e)
    ]
    if not lists:
        return nodes
    kept = [n for n in nodes if not any(_inside(n.element, e) for e in lists)]
    return kept or nodes


def _without_byline(
    block: etree._Element, nodes: list[SemanticNode], time_node, container
) -> list[SemanticNode]:
    """The nodes outside the time's byline: a short element (a post's tail: "via Android",
    "2楼", the time) whose other pieces are no text of the post, when it does not hold the
    post's text element. Nothing is dropped where nothing would be left."""
    if time_node is None or time_node.element is None:
        return nodes
    loose = time_node.key.endswith("#text")  # the element's own text: it is the byline
    byline = time_node.element if loose else time_node.element.getparent()
    if byline is None or _inside(container, byline) or _inside(block, byline):
        return nodes
    if sum(map(len, byline.itertext())) > 4 * MAX_TIME_NODE_CHARS:
        return nodes  # (a cheap bound first: white space counted)
    if len(node_text(byline)) > MAX_TIME_NODE_CHARS:
        return nodes
    if next(byline.iter(*PARAGRAPH_TAGS), None) is not None:
        return nodes
    dropped = [n for n in nodes if _inside(n.element, byline)]
    if any(len(n.text) > MAX_AUTHOR_CHARS for n in dropped):
        return nodes  # a line of text, not a byline's piece
    kept = [n for n in nodes if n not in dropped]
    return kept or nodes


def _time_only(block: etree._Element) -> bool:
    """A block whose text is a time and little more ("11 days ago"): taken for a nested record
    it would hide its record's time."""
    text = " ".join("".join(block.itertext()).split())
    if len(text) > MAX_TIME_NODE_CHARS:
        return False
    time = find_time(text)
    return bool(time) and len(text.replace(time, "").strip()) < 10


def _not_post_times(blocks_nodes: Sequence[Sequence[SemanticNode]]) -> set[int]:
    """ids of the nodes whose time is not the post's: a join or last-seen date, labelled in
    the node ("Joined: …", "Member Joined: …") or in the one before it ("Registriert seit:" | "17. Dezember
    2019"), and an edit note's time."""
    found = set()
    for nodes in blocks_nodes:
        for i, node in enumerate(nodes):
            if node.time is None:
                continue
            label = nodes[i - 1].text if i else ""
            at = node.text.find(find_time(node.time) or node.time)
            if (
                NOT_POST_TIME.match(node.text)
                or (at > 0 and NOT_POST_TIME_AFTER.search(node.text[:at]))
                or (len(label) <= 30 and NOT_POST_TIME.match(label) and not find_time(label))
                or EDITED_TIME.search(node.text)
            ):
                found.add(id(node))
    return found


def user_card(
    block: etree._Element, author: etree._Element | None, time_node: SemanticNode | None
) -> etree._Element | None:
    """The poster's card beside the post (name, rank, post counts, points in a column of its
    own): the subtree holding the author but not the post's time, below the element that
    holds both. None when the author and time share one byline or either is missing."""
    if author is None or time_node is None or time_node.element is None:
        return None
    shown = time_node.element
    card = author
    for ancestor in author.iterancestors():
        if ancestor is block or _inside(shown, ancestor):
            break
        card = ancestor
    else:
        return None
    if card is author or _inside(shown, card):
        return None  # the name alone, or a byline with the time
    return card


# What joins a byline's name to its time: "By jane On 2020.03.12", "von Max am 3. Mai".
BYLINE_JOIN = re.compile(
    r"(?:^|[\s,|·-]+)(?:on|at|am|um|le|el|il|op|于|发表于|发布于|posted(?: on)?)?[\s,|·:-]*$"
    # the time's own label ("作者：江南小雨 时间：2019-03-01"), written against the name
    r"|\s*(?:(?:留言|回复|发表|发布|提问|发帖|更新|评论|创建)?时间|日期|发表于|发布于|time|date)"
    r"\s*[:：]\s*$",
    re.I,
)


def _before_time(text: str) -> str:
    """A byline's text before the time it gives ("By jane On 2020.03.12 13:17": "By jane")."""
    time = find_time(text)
    if not time or time not in text:
        return text
    before = text.split(time)[0]
    return BYLINE_JOIN.sub("", before) if before.strip() else text


def _author(
    block: etree._Element, nodes: list[SemanticNode], skip: frozenset, link_key: str | None
) -> tuple[str | None, etree._Element | None]:
    """R5: the element the markup calls the author, else a labelled name, else the earliest
    short link at the position that holds one in most blocks, else a link to a person's page.
    A name the markup calls the author inside a list of replies under the post is a
    commenter's: the post's author where the position of the others' names holds none."""
    hinted = hinted_author(block, skip)
    if hinted and _in_replies(hinted[1], block):
        keyed = _keyed_author(nodes, link_key)
        if keyed is not None and keyed[0]:
            return keyed
    if hinted:
        return hinted
    for node, following in zip(nodes[:6], [*nodes[1:7], None], strict=False):
        if LABELLED_NAME.match(node.text):
            name = clean_author(_before_time(node.text))
            if name:
                return name, node.element
        elif following is not None and NAME_LABEL.match(node.text):
            # the label in a cell of its own, the name in the next ("From:" | "Ada Park <…>")
            name = clean_author(_before_time(following.text), linked=bool(following.link_text))
            if name:
                return name, following.element
    keyed = _keyed_author(nodes, link_key)
    if keyed is not None:
        return keyed
    for node in nodes:  # no link where the others' authors are: a link to a person's page
        if node.link_text == node.text and _to_profile(node):
            name = clean_author(node.link_text, linked=True)
            if name and not _in_replies(node.element, block):
                return name, _anchor(node.element)
    return None, None


def _keyed_author(
    nodes: list[SemanticNode], link_key: str | None
) -> tuple[str | None, etree._Element] | None:
    """The name at the position that holds the author's link in most blocks (`link_key`),
    and its link; None where the block has nothing there."""
    for node in nodes:
        if node.key == link_key:
            signed = signed_name(node)
            if signed is not None:
                return signed, [*node.element.iter("a")][-1]
            name = (
                clean_author(node.link_text) or _numbered_user(node.link_text) or byline_name(node)
            )
            return name, _anchor(node.element)
    return None


def _anchor(element: etree._Element) -> etree._Element:
    """The link the element is or holds (itself where it holds none)."""
    if element.tag == "a":
        return element
    return next(element.iter("a"), element)


def byline_name(node: SemanticNode) -> str | None:
    """The name a byline opens with: a short line that starts with a link whose text is a
    name and goes on to the time ("<a>山间行者</a> 2024-04-20 09:02 北京", "<a>milkfan</a> · 2 天前 ·
    1024 次点击"), a line of the name, a colon and what the person said ("<a>晨跑的猫</a>：终于
    凉快了"), or the name and a level badge ("<a>老股民张三</a> Lv3"): the link is the poster's."""
    if not node.link_text or node.link_text == node.text:
        return None
    shown = _opening_link_text(node.element, node.text)
    if shown is None:
        return None
    rest = node.text[len(shown) :]
    if len(node.text) > MAX_TIME_NODE_CHARS and not SAID.match(rest):
        return None  # a byline is short; a line of what someone said need not be
    name = clean_author(shown, linked=True)
    shown_time = find_time(rest) or (node.time is not None and node.time in rest)
    if name is None or not (shown_time or SAID.match(rest) or LEVEL.match(rest)):
        return None
    return name


def signed_name(node: SemanticNode) -> str | None:
    """The name a line is signed with after its text: the line's last link, a name, right
    after a dash and followed by nothing but the time ("Works now, thanks! — <a>jane</a> ·
    2022-05-12"): a comment written on one line, text first."""
    if not node.link_text or node.link_text == node.text or node.time is None:
        return None
    if len(node.text) > MAX_TIME_PIECE_CHARS:
        return None  # (a sentence that links a name, not a signature)
    links = list(node.element.iter("a"))
    if not links:
        return None
    last = links[-1]
    shown = normalize_space("".join(last.itertext()))
    before, found, after = node.text.rpartition(shown) if shown else ("", "", "")
    if not found or not SIGNED.search(before) or not before.rstrip(" –—-").strip():
        return None
    when = find_time(after)
    if when is None or normalize_space(after.replace(when, " ", 1)).strip(" ·|,()"):
        return None  # not the time after the name, or more than it
    return clean_author(shown, linked=True)


# The dash a signature follows ("… — jane", "… – jane"), after the text it signs.
SIGNED = re.compile(r"\S\s*[—–]\s*$|\S\s+-\s*$")


# What a person says, after their name and a colon ("<a>晨跑的猫</a>：终于凉快了"): a sentence.
SAID = re.compile(r"^\s*[:：]\s*\S")
# A user's level or rank badge beside the name ("Lv2", "LV.5", "等级 3", "V6", "VIP"): the
# line is the name's.
LEVEL = re.compile(r"^\s*(?:lv\.?\s*\d+|level\s*\d+|等级\s*\d+|v\d{1,2}|vip\d{0,2})\s*$", re.I)


# A line naming the author after a label: "作者：", "by jane", a message's "From: Ada Park".
# (Fewer words than AUTHOR_LABEL strips: "par", "name" and "用户" open many lines that name no one,
# "Parents: …")
LABELLED_NAME = re.compile(
    rf"^\s*(?:(?:作者|楼主|by|von|{BY_VERBS}){WORD_END}\s*[:：]?"
    rf"|(?:{NAME_LABELS_WITH_COLON})\s*[:：])\s*\S",
    re.I,
)
# A label alone, the name in the node after it.
NAME_LABEL = re.compile(
    rf"^\s*(?:{NAME_LABELS}|{NAME_LABELS_WITH_COLON}|author)\s*[:：]?\s*$", re.I
)
# A user named by a number ("1657811359"): at the position that holds the authors' links in
# the other posts, a linked number this long is a name, not a count.
NUMBERED_USER = re.compile(r"^\d{5,12}$")


def _numbered_user(text: str) -> str | None:
    text = normalize_space(text)
    return text if NUMBERED_USER.match(text) else None


PARAGRAPH_TAGS = frozenset(("p", "li", "pre", "dd"))
# Share of a node's non-link text one child must hold for the content to be looked for in it.
CONTENT_SHARE = 0.6


def content_element(
    block: etree._Element, skip: frozenset = frozenset(), stats: dict | None = None
) -> etree._Element:
    """R1, within one block: the element holding the record's text. From the block down, go
    into the child holding most of the non-link text while it holds at least CONTENT_SHARE of
    it: a post's message box, not its user-info column (join date, post count) or signature.
    `stats`: `text_stats` of a subtree holding the block, when the caller has them."""
    stats = stats if stats is not None and block in stats else text_stats(block)
    nested_text: dict[etree._Element, int] = {}
    for nested in skip:  # nested records are not this record's text
        for ancestor in nested.iterancestors():
            nested_text[ancestor] = nested_text.get(ancestor, 0) + stats[nested].clear
            if ancestor is block:
                break

    def clear(element: etree._Element) -> int:
        return stats[element].clear - nested_text.get(element, 0)

    element = block
    while True:
        total = clear(element)
        kids = [c for c in element if isinstance(c.tag, str) and c in stats and c not in skip]
        best = max(kids, key=clear, default=None)
        if best is None or total <= 0 or clear(best) < CONTENT_SHARE * total:
            return element
        if best.tag in PARAGRAPH_TAGS or best.tag in INLINE_TAGS:
            # The text is the paragraphs' parent's, however many there are; and never a
            # <span>'s: a byline's name or time may outweigh a one-line comment.
            return element
        element = best


def _element_key(element: etree._Element, block: etree._Element) -> str:
    steps = []
    while element is not None and element is not block:
        steps.append(f"{element.tag}.{class_word(element)}")
        element = element.getparent()
    return "/".join(reversed(steps))


def content_elements(blocks: list[etree._Element], skips: dict) -> dict:
    """R1 over the region: the content element's position is the one most blocks agree on
    (a short post's own choice may be its user-info column); blocks without an element at
    that position keep their whole text."""
    stats: dict = {}
    for block in blocks:  # one pass per outermost block: nested ones are inside
        if block not in stats:
            stats.update(text_stats(block))
    chosen = {b: content_element(b, skips[b], stats) for b in blocks}
    votes = Counter(_element_key(e, b) for b, e in chosen.items() if e is not b)
    if not votes:
        return {b: b for b in blocks}
    key, count = votes.most_common(1)[0]
    if count < 0.5 * len(blocks):
        return {b: b for b in blocks}
    found = {}
    for block in blocks:
        element = chosen[block]
        if _element_key(element, block) != key:
            skip = skips[block]
            element = next(
                (
                    e
                    for e in block.iterdescendants(etree.Element)
                    if _element_key(e, block) == key
                    and not (e in skip or any(a in skip for a in e.iterancestors()))
                ),
                block,
            )
        found[block] = element
    return found


def _inside(element: etree._Element | None, container: etree._Element | None) -> bool:
    """`element` is `container` or sits below it."""
    if element is None or container is None:
        return False
    return element is container or any(a is container for a in element.iterancestors())


def _within(node: SemanticNode, container: etree._Element) -> bool:
    """The node is in the container, or is an inline node holding it."""
    inline = not node.key.endswith("#text")
    return _inside(node.element, container) or (inline and _inside(container, node.element))


def _href(element: etree._Element | None) -> str | None:
    """The link an author element is or holds (a profile page), if any."""
    if element is None:
        return None
    anchor = element if element.tag == "a" else next(element.iter("a"), None)
    if anchor is None:
        anchor = next(element.iterancestors("a"), None)
    href = (anchor.get("href") or "").strip() if anchor is not None else ""
    return href if href and not href.startswith(("#", "javascript:")) else None


def _time_attr(node: SemanticNode | None) -> str | None:
    """The attribute's form of the record's time, when it is not the one shown."""
    if node is None or not node.machine_time or node.machine_time == node.time:
        return None
    return node.machine_time


# A header line above a message: a label, a colon, and what it says ("发信站: 水木社区 (Tue May
# 12 10:20:31 2020), 站内", "Date: Tue, 12 May 2020 10:20"), as BBS posts and mail archives
# open the text of a post; looked for among its first MESSAGE_HEADER_LINES lines.
HEADER_LINE = re.compile(r"^\s*[^\W\d_][^\W\d_ ]{0,11}(?: [^\W\d_]+)?\s*[:：]")
MESSAGE_HEADER_LINES = 5


def _header_line_time(nodes: list[SemanticNode]) -> SemanticNode | None:
    """A time written on a header line of a post's text (`HEADER_LINE`): a text of lines
    broken by <br> is one node (long as prose, or the time's node where short), whose own
    lines are read one by one."""
    for node in nodes:
        if node.time is None or node.element is None:
            continue
        element = node.element
        lines = [element.text, *(child.tail for child in element if child.tag == "br")]
        shown = [line for line in lines if line and not line.isspace()][:MESSAGE_HEADER_LINES]
        for line in shown:
            if len(line) <= MAX_TIME_NODE_CHARS and HEADER_LINE.match(line):
                found = find_time(line)
                if found is not None:
                    return SemanticNode(f"{node.key}#line", line.strip(), "", element, found)
    return None


def _moment(node: SemanticNode | None, now) -> datetime | None:
    """The record's time as a datetime: the machine-readable attribute when the page gives one
    (it carries the zone), else the text as written."""
    if node is None:
        return None
    return (node.machine_time and parse_time(node.machine_time)) or parse_time(node.time, now=now)


def _around_name(node: SemanticNode, element: etree._Element | None, name: str | None) -> bool:
    """The node holds the author's element and a text of its own far longer than the name (a
    record flattened to one line of inline markup: name, counts, date and text)."""
    return (
        bool(name)
        and element is not None
        and node.element is not element
        and _inside(element, node.element)
        and len(node.text) > 3 * len(name) + MAX_TIME_NODE_CHARS
    )


def _without_name(node: SemanticNode, name: str | None) -> SemanticNode:
    """A node holding the author's name among more text, without the name."""
    if not name or name not in node.text or len(node.text) <= 3 * len(name) + MAX_TIME_NODE_CHARS:
        return node
    text = normalize_space(node.text.replace(name, " ", 1))
    return SemanticNode(node.key, text, node.link_text, node.element, node.time, node.machine_time)


# Letters and digits a one-line record's text has beside its byline (eight CJK characters do
# too): fewer are the byline's own labels ("By | | Topic: Hardware").
MIN_ONE_LINE_CHARS = 20


def _said_after_name(node: SemanticNode, name: str | None) -> SemanticNode | None:
    """The node without its opening "name：" where it goes on with what the person said."""
    if not name or not node.text.startswith(name):
        return None
    rest = node.text[len(name) :]
    if not SAID.match(rest):
        return None
    said = rest.lstrip().lstrip(":：").strip()
    return SemanticNode(node.key, said, node.link_text, node.element, node.time, node.machine_time)


def _one_line(
    node: SemanticNode, name: str | None, element: etree._Element | None
) -> SemanticNode | None:
    """A record written as one line, its text then its author and time ("Thanks, that worked.
    – newbie Mar 1, 2020 at 10:30": signed after the text), or its author, its text and the
    time last ("<a>jane</a> Works now. 2023-05-12 09:40"): the node holding them, without
    author and time, where what is left reads as a text of its own (MIN_ONE_LINE_CHARS) and is
    not mostly a link; None for a byline (name and time, little else), a byline followed by a
    status, or a header row."""
    if not name or node.time is None or element is None or not _holds(node, element):
        return None
    when = node.time if node.time in node.text and node.time != node.text else find_time(node.time)
    rest = node.text.replace(name, " ", 1).replace(when or node.time, " ", 1)
    rest = normalize_space(rest).strip(" –—-·|,:;")
    linked = normalize_space(node.link_text.replace(name, " ", 1))
    if not _sentence(rest) or len(linked) * 2 >= len(rest):
        return None  # (a header row's linked title: "Re: … by jane: 12:18pm")
    said = node.text.find(rest[:10])
    if node.text.find(name) < said and node.text.find(when or node.time) < said:
        return None  # a byline, then a status ("spinner 2 minutes ago Viewing thread: …")
    return SemanticNode(node.key, rest, node.link_text, node.element, None, None)


def _holds(node: SemanticNode, element: etree._Element | None) -> bool:
    """True when the semantic node is, holds or sits inside `element`."""
    if node.key.endswith("#text"):
        return element is not None and node.element is element
    return _inside(node.element, element) or _inside(element, node.element)


def _reply_to(block: etree._Element, authors: dict, text: str) -> str | None:
    """The author of the record this one is nested in, or the name it addresses."""
    for ancestor in block.iterancestors():
        if ancestor in authors:
            return authors[ancestor]
    match = REPLY_TO.match(text)
    return match.group(1) if match else None


# A title: four words or more, 20 characters, or eight CJK characters.
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def _title_like(text: str) -> bool:
    return (
        len(text.split()) >= 4 or len("".join(text.split())) >= 20 or len(_CJK.findall(text)) >= 8
    )


def teasers(blocks: Sequence[etree._Element]) -> bool:
    """Blocks that each open with a title linking to a page of its own: teasers of other
    threads or articles ("latest posts", "most active", "related"), not records, whatever
    bylines, times and excerpts they carry. A post or comment opens with its byline or text."""
    hrefs = set()
    for block in blocks:
        anchor = _opening_link(block)
        if anchor is not None:
            hrefs.add((anchor.get("href") or "").split("#")[0])
    return len(blocks) >= 2 and len(hrefs) >= 0.8 * len(blocks)


def _opening_link(block: etree._Element) -> etree._Element | None:
    """The link holding the block's first text, when that text reads as a title and the link
    goes to another page (not an anchor of this one)."""
    owner = _first_text_owner(block)
    if owner is None:
        return None
    anchor = owner if owner.tag == "a" else next(owner.iterancestors("a"), None)
    if anchor is None or not _inside(anchor, block):
        return None
    href = (anchor.get("href") or "").strip()
    title = normalize_space("".join(anchor.itertext()))
    if not href or href.startswith(("#", "javascript:")) or find_time(title):
        return None
    return anchor if _title_like(title) else None


def _first_text_owner(element: etree._Element) -> etree._Element | None:
    """The element whose text (or a child's tail) is the first visible text below `element`."""
    if element.text and element.text.strip():
        return element
    for child in element:
        if isinstance(child.tag, str) and child.tag not in SKIPPED_TAGS:
            found = _first_text_owner(child)
            if found is not None:
                return found
        if child.tail and child.tail.strip():
            return element
    return None
