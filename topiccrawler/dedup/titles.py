"""Title normalisation: what is left of a title once sites' decorations are gone.

>>> normalize_title("新华侨涌入:为韩国华社带来新希望-移民-滴答网")
'新华侨涌入:为韩国华社带来新希望'
>>> normalize_title("新华侨涌入:为韩国华社带来新希望 - 无忧雅思网 无忧雅思网")
'新华侨涌入:为韩国华社带来新希望'
>>> normalize_title("【转载】ＶＡＴ新规：小规模纳税人减免_财经频道_新浪网")
'vat新规:小规模纳税人减免'
"""

from __future__ import annotations

import re
import unicodedata

from topiccrawler.extract.page import clean_title

# Prefixes reposting sites put before a title.
REPOST_PREFIX = re.compile(
    r"^\s*(?:【[^】]{1,8}】|\[[^\]]{1,12}\]|(?:转载|转帖|原创|关注|热点|独家|快讯)\s*[|:：]?\s*)+"
)


def normalize_title(title: str | None) -> str:
    """Site/channel suffixes and repost prefixes stripped; full-width folded (NFKC); lower case;
    white space collapsed."""
    if not title:
        return ""
    title = unicodedata.normalize("NFKC", title)
    title = clean_title(REPOST_PREFIX.sub("", title))
    return " ".join(title.split()).lower()
