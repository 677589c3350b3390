"""People, places and organisations a page names.

Chinese: jieba's part-of-speech tags (nr/nrfg/nrt people, ns places, nt organisations) from the
crawl's own segmenter. English has no tagger in our dependencies, so names are runs of
capitalised words, and their kind is read from the words around them: an organisation's run
ends in an organisation word (Service, Ministry, Bank …) or is an acronym; a person follows a
title (Mr, President …) or is followed by a speech verb (said, told …), and a later mention of
their surname alone counts for them; a place follows in/at/from/near. A run with no such cue is
left out rather than guessed.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from topiccrawler.relevance.tokenizer import Tokenizer, jieba_data

PERSON, PLACE, ORGANISATION = "person", "place", "organisation"
CHINESE_TAGS = {
    "nr": PERSON, "nrfg": PERSON, "nrt": PERSON,
    "ns": PLACE, "nsf": PLACE,
    "nt": ORGANISATION,
}  # fmt: skip


@dataclass(frozen=True)
class Entity:
    name: str
    kind: str  # person, place or organisation
    mentions: int


def entities(text: str, tokenizer: Tokenizer, limit: int | None = 20) -> list[Entity]:
    """The named entities of `text`, most mentioned first (then by name)."""
    counts: Counter[tuple[str, str]] = Counter()
    for word, tag in tokenizer.tagged(text):
        kind = CHINESE_TAGS.get(tag)
        if kind and len(word) >= 2 and not word.isascii() and _plausible(word, kind):
            counts[(word, kind)] += 1
    counts = _merge_suffixed_places(counts)
    counts.update(english_entities(text))
    ranked = sorted(counts.items(), key=lambda pair: (-pair[1], pair[0]))
    if limit is not None:
        ranked = ranked[:limit]
    return [Entity(name, kind, n) for (name, kind), n in ranked]


# The most common Chinese surnames (single and double): jieba's dictionary tags some plain
# words as names (公正 nr), and a name it guesses starts with a surname.
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁"
    "任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃"
    "武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚"
    "符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆"
    "农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾"
    "隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
)
DOUBLE_SURNAMES = frozenset(
    "欧阳 司马 诸葛 上官 东方 皇甫 尉迟 公孙 慕容 长孙 令狐 夏侯 端木".split()
)
PLACE_SUFFIXES = "省市县区州镇乡村国岛山河湖江海港湾路街道盟旗"
COMMON_PLACE_FREQUENCY = 100  # a place the dictionary knows this often needs no suffix


def _plausible(word: str, kind: str) -> bool:
    """Filters for what jieba's dictionary tags wrongly: names withheld (张某), names that do
    not start with a surname, "places" that are rare words without a place suffix (惠及)."""
    if "某" in word:
        return False
    if kind == PERSON:
        return word[0] in SURNAMES or word[:2] in DOUBLE_SURNAMES or "·" in word
    if kind == PLACE and word[-1] not in PLACE_SUFFIXES:
        return _place_frequencies().get(word, COMMON_PLACE_FREQUENCY) >= COMMON_PLACE_FREQUENCY
    return True


@cache
def _place_frequencies() -> dict[str, int]:
    """Frequencies of the words jieba's dictionary tags as places (read once)."""
    found = {}
    with jieba_data("dict.txt").open(encoding="utf-8") as lines:
        for line in lines:
            if line.endswith(" ns\n"):
                word, frequency, _ = line.split(" ")
                found[word] = int(frequency)
    return found


def _merge_suffixed_places(counts: Counter[tuple[str, str]]) -> Counter[tuple[str, str]]:
    """上海市 and 上海 are one place: the administrative suffix is dropped where the page also
    names the place without it."""
    merged: Counter[tuple[str, str]] = Counter()
    for (name, kind), n in counts.items():
        if kind == PLACE and name[-1] in "市省县区" and (name[:-1], PLACE) in counts:
            name = name[:-1]
        merged[(name, kind)] += n
    return merged


_CAPITALISED = r"(?:[A-Z][a-z]+(?:[-'’][A-Z]?[a-z]+)*|[A-Z]{2,}|[A-Z]\.)"
_CONNECTOR = r"(?:of|the|for|de|van|von|der|du|la)"
_RUN = re.compile(rf"\b{_CAPITALISED}(?:\s+(?:{_CONNECTOR}\s+)*{_CAPITALISED})*")
_LEADING = re.compile(r"^(?:The|A|An|This|That|These|Those|In|On|At|For|But|And|Or|If|As|When)\s+")
ORGANISATION_WORDS = frozenset(
    """Service Agency Bank Ministry Department Committee Council University College Company
    Corporation Corp Inc Ltd LLC Group Party Association Commission Office Court Fund Institute
    Authority Board Bureau Union Organization Organisation Administration Reserve Parliament
    Congress Senate Assembly Police Army Navy Times News Post Agency Federation Foundation
    Network Exchange Club Team Airlines Motors Technologies Systems Holdings Bureau""".split()
)
PERSON_TITLES = re.compile(
    r"(?:Mr|Mrs|Ms|Dr|Prof|Sir|Dame|President|Premier|Prime Minister|Minister|Secretary|"
    r"Senator|Governor|Mayor|Chairman|Chairwoman|Chancellor|Judge|Justice|King|Queen|Pope|"
    r"CEO|Director|Commissioner|Rep|Sen|Gov)\.?\s+$"
)
SPEECH = re.compile(r"^,?\s+(?:said|says|told|added|asked|wrote|announced|explained|argued)\b")
PLACE_CUE = re.compile(r"(?:\bin|\bat|\bfrom|\bnear|\bto|\bacross|\bacross)\s+(?:the\s+)?$")
# Capitalised words that are not names (days, months, sentence-initial function words).
NOT_NAMES = frozenset(
    """I It He She We They You His Her Their Our Its Monday Tuesday Wednesday Thursday Friday
    Saturday Sunday January February March April May June July August September October
    November December Mr Mrs Ms Dr""".split()
)


def english_entities(text: str) -> Counter[tuple[str, str]]:
    """(name, kind) counts of the capitalised runs whose kind the context gives."""
    runs = []
    for match in _RUN.finditer(text):
        for name, start, end in _split_at_titles(match.group(), match.start()):
            name = _LEADING.sub("", name)
            start = end - len(name)
            if len(name) < 2 or name in NOT_NAMES:
                continue
            runs.append((name, text[max(0, start - 40) : start], text[end : end + 20]))
    kinds: dict[str, str] = {}
    for name, before, after in runs:
        kind = _kind(name, before, after)
        if kind and name not in kinds:
            kinds[name] = kind
    # A person named in full is later called by surname alone.
    surnames = {n.split()[-1]: n for n, k in kinds.items() if k == PERSON and " " in n}
    counts: Counter[tuple[str, str]] = Counter()
    for name, _, _ in runs:
        if name in kinds:
            counts[(name, kinds[name])] += 1
        elif name in surnames:
            counts[(surnames[name], PERSON)] += 1
    return counts


_TITLE_WORD = re.compile(
    r"\b(?:Mr|Mrs|Ms|Dr|Prof|President|Premier|Minister|Secretary|Senator|Governor|Mayor|"
    r"Chairman|Chairwoman|Chancellor|Judge|Commissioner|Director|CEO)\.?\s+"
)


def _split_at_titles(run: str, offset: int) -> list[tuple[str, int, int]]:
    """A run holding a title ("IRS Commissioner Charles Rettig") is the words before it and
    the name after it; the title stays in the name's preceding context."""
    pieces = []
    position = 0
    for title in _TITLE_WORD.finditer(run):
        before = run[position : title.start()].strip()
        if before:
            pieces.append((before, offset + position, offset + position + len(before)))
        position = title.end()
    rest = run[position:].strip()
    if rest:
        pieces.append((rest, offset + position, offset + position + len(rest)))
    return pieces


def _kind(name: str, before: str, after: str) -> str | None:
    words = name.split()
    if words[-1] in ORGANISATION_WORDS or (len(words) == 1 and name.isupper() and len(name) >= 2):
        return ORGANISATION
    if PERSON_TITLES.search(before) or (len(words) >= 2 and SPEECH.match(after)):
        return PERSON
    if PLACE_CUE.search(before) and len(words) <= 3:
        return PLACE
    return None
