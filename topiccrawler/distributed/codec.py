"""The shared frontier's stored form of a request: compact bytes, rebuilt into a Request when
popped.

scrapy-redis stores a pickled `Request.to_dict()` (about 750 bytes a link in Redis, with its
sorted-set entry); what a queued request needs is its URL and a handful of fields. Here:

- the URL without `https://<site>` when the request's site (its download slot, the name of the
  queue it sits in) is its host: the site is known again when it is popped;
- the priority, callback and errback by name (the usual ones as one byte), `dont_filter`;
- meta as (key, value) pairs: keys this project sets as one byte each, values tagged and
  compact (small ints as one byte, common strings and the site's own name as one byte, Chinese
  text as UTF-16: two bytes a character), the frontier's features as 16-bit fractions when all
  are in [0, 1] (error below 8e-6: a priority computed from them, 1,000 points for a score of 1,
  moves by 0.01 at most), else as 32-bit floats; 0 and 1 as bits;
- anything else a request carries (another method, a body, headers, cookies, cb_kwargs, flags,
  values no tag covers) kept whole, so nothing is lost; a Request subclass (a FormRequest) is
  stored as scrapy-redis would store it.

A link of the topic spider takes about 80 to 130 bytes (its anchor text is most of it).
"""

from __future__ import annotations

import inspect
import pickle
import struct
from typing import Any

from scrapy import Request
from scrapy.utils.request import request_from_dict

from topiccrawler import meta as m

VERSION = 1
WHOLE = 2  # first byte of a request stored whole (scrapy-redis's form)

# Meta keys set by this project and Scrapy, one byte each (append only: stored requests use
# the positions; a renamed key keeps its position, so what was stored under its old name is read
# back under its new one).
META_KEYS = (
    m.ENTRANCE, m.HOPS, m.AUTHORITY_SITE, "download_slot", m.PAGER_HOPS, m.LINK_TEXT,
    m.LINK_BLOCK, m.AT_DEPTH_LIMIT, m.HOP_LIMIT, m.SITE_BUDGET, m.TUNNEL, m.FRONTIER, "depth",
    m.QUERY, m.ENGINE, m.HIT_TITLE, m.HIT_SNIPPET, m.SEARCH_PAGE, m.CONTINUES_RELEVANT,
    m.FRONTIER_RAISED, m.FRONTIER_FIRST, "playwright", "dont_obey_robotstxt",
    "handle_httpstatus_list", "redirect_urls", "redirect_times", "redirect_ttl",
    "redirect_reasons", "retry_times", "download_timeout", "cookiejar", "proxy", m.LOGIN_STEP,
    m.LEASE, "offset", "sitemap",
)  # fmt: skip
# Common string values, one byte each (append only).
STRINGS = (
    "parse", "on_error", "link", "search", "start", "script", "authority", "content",
    "navigation", "hit", "sitemap", "feed", "pager", "seed", "http", "https",
)  # fmt: skip
FEATURES = ("text", "context", "url", "block", "learned", "model")  # the frontier's, in order

_META_CODE = {key: i for i, key in enumerate(META_KEYS)}
# A meta key whose value is None, False or 0 (a link's authority site, pager hops, depth limit
# flag): one byte, its code with the value in the two high bits (codes stay below KEY_BITS; 255
# is a key stored by name).
KEY_BITS = 0x3F
PLAIN_NONE, PLAIN_FALSE, PLAIN_ZERO = 0x40, 0x80, 0xC0
PLAIN_VALUES = (None, False, 0)
_PLAIN_CODE = {(type(None), None): PLAIN_NONE, (bool, False): PLAIN_FALSE, (int, 0): PLAIN_ZERO}
if len(META_KEYS) >= KEY_BITS:  # 0xFF (PLAIN_ZERO | KEY_BITS) is a key stored by name
    raise RuntimeError("codec: meta key codes must stay below KEY_BITS")
_STRING_CODE = {s: i for i, s in enumerate(STRINGS)}

NONE, FALSE, TRUE, INT, FLOAT, STR, BYTES, LIST, TUPLE, DICT, COMMON, PICKLE, FRONTIER = range(13)
STR16, SITE = 13, 14  # a string as UTF-16 (Chinese: 2 bytes a character); the queue's site
SMALL = 16  # tags from SMALL on are the ints 0..(255 - SMALL), one byte
_F32 = struct.Struct("<f")
_U16 = struct.Struct("<H")
HALVES = 0x80  # in the features' present mask: the features in 16 bits (see _frontier)
PARENT = 0x40  # in the same mask: a link's parent's relevance follows the offset (16 bits)
_F64 = struct.Struct("<d")

URL_WHOLE, URL_HTTPS_SITE, URL_HTTP_SITE = range(3)
HAS_CALLBACK, HAS_ERRBACK, DONT_FILTER, HAS_ATTRS = 4, 8, 16, 32


# --- varints and tagged values -------------------------------------------------------------------


def _varint(out: bytearray, n: int) -> None:
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7


def _zigzag(n: int) -> int:
    return n * 2 if n >= 0 else -n * 2 - 1


def _unzigzag(n: int) -> int:
    return n >> 1 if not n & 1 else -((n + 1) >> 1)


def _text(out: bytearray, text: str) -> None:
    encoded = text.encode("utf-8", "surrogatepass")
    _varint(out, len(encoded))
    out += encoded


def _read_text(data: bytes, pos: int) -> tuple[str, int]:
    length, pos = _read_varint(data, pos)
    return data[pos : pos + length].decode("utf-8", "surrogatepass"), pos + length


def _value(out: bytearray, value: Any, site: str = "") -> None:
    """A value, tagged; what no tag covers is pickled (nothing is lost)."""
    kind = type(value)
    if value is None:
        out.append(NONE)
    elif kind is bool:
        out.append(TRUE if value else FALSE)
    elif kind is int:
        if 0 <= value <= 255 - SMALL:
            out.append(SMALL + value)
        else:
            out.append(INT)
            _varint(out, _zigzag(value))
    elif kind is float:
        out.append(FLOAT)
        out += _F64.pack(value)
    elif kind is str:
        code = _STRING_CODE.get(value)
        if code is not None:
            out.append(COMMON)
            out.append(code)
        elif value == site and site:
            out.append(SITE)
        else:
            encoded = value.encode("utf-8", "surrogatepass")
            if len(value) * 2 < len(encoded) and not any("\ud800" <= c <= "\udfff" for c in value):
                encoded = value.encode("utf-16-le")
                out.append(STR16)
            else:
                out.append(STR)
            _varint(out, len(encoded))
            out += encoded
    elif kind is bytes:
        out.append(BYTES)
        _varint(out, len(value))
        out += value
    elif kind is list or kind is tuple:
        out.append(LIST if kind is list else TUPLE)
        _varint(out, len(value))
        for item in value:
            _value(out, item, site)
    elif kind is dict and all(type(k) is str for k in value):
        out.append(DICT)
        _varint(out, len(value))
        for key, item in value.items():
            _text(out, key)
            _value(out, item, site)
    else:
        out.append(PICKLE)
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        _varint(out, len(data))
        out += data


def _read_value(data: bytes, pos: int, site: str = "") -> tuple[Any, int]:
    tag = data[pos]
    pos += 1
    if tag >= SMALL:
        return tag - SMALL, pos
    if tag == NONE:
        return None, pos
    if tag in (FALSE, TRUE):
        return tag == TRUE, pos
    if tag == INT:
        n, pos = _read_varint(data, pos)
        return _unzigzag(n), pos
    if tag == FLOAT:
        return _F64.unpack_from(data, pos)[0], pos + 8
    if tag == STR:
        return _read_text(data, pos)
    if tag == STR16:
        length, pos = _read_varint(data, pos)
        return data[pos : pos + length].decode("utf-16-le"), pos + length
    if tag == SITE:
        return site, pos
    if tag == COMMON:
        return STRINGS[data[pos]], pos + 1
    if tag == BYTES:
        length, pos = _read_varint(data, pos)
        return bytes(data[pos : pos + length]), pos + length
    if tag in (LIST, TUPLE):
        length, pos = _read_varint(data, pos)
        items = []
        for _ in range(length):
            item, pos = _read_value(data, pos, site)
            items.append(item)
        return (items if tag == LIST else tuple(items)), pos
    if tag == DICT:
        length, pos = _read_varint(data, pos)
        result = {}
        for _ in range(length):
            key, pos = _read_text(data, pos)
            result[key], pos = _read_value(data, pos, site)
        return result, pos
    if tag == PICKLE:
        length, pos = _read_varint(data, pos)
        return pickle.loads(data[pos : pos + length]), pos + length
    if tag == FRONTIER:
        return _read_frontier(data, pos)
    raise ValueError(f"stored request: unknown tag {tag} at byte {pos - 1}")


# --- the frontier's features ---------------------------------------------------------------------


def _is_frontier(value: Any) -> bool:
    """The frontier's {"features": {name: float}, "hops": int, "offset": int} and for a link
    "parent": its parent page's relevance, in [0, 1]."""
    return (
        type(value) is dict
        and value.keys() - {"parent"} == {"features", "hops", "offset"}
        and (
            "parent" not in value
            or (type(value["parent"]) in (float, int) and 0.0 <= value["parent"] <= 1.0)
        )
        and type(value["hops"]) is int
        and type(value["offset"]) is int
        and type(value["features"]) is dict
        and all(name in FEATURES for name in value["features"])
        and all(type(v) in (float, int) for v in value["features"].values())
    )


def _frontier(out: bytearray, value: dict) -> None:
    features = value["features"]
    out.append(FRONTIER)
    present = zeros = ones = 0
    for bit, name in enumerate(FEATURES):
        if name in features:
            present |= 1 << bit
            feature = features[name]
            if feature == 0.0:
                zeros |= 1 << bit
            elif feature == 1.0:
                ones |= 1 << bit
    stored = [
        features[name]
        for bit, name in enumerate(FEATURES)
        if present & ~(zeros | ones) & (1 << bit)
    ]
    halves = all(0.0 <= feature <= 1.0 for feature in stored)
    flags = (HALVES if halves else 0) | (PARENT if "parent" in value else 0)
    out += bytes((present | flags, zeros, ones))
    for feature in stored:
        out += _U16.pack(round(feature * 65535)) if halves else _F32.pack(feature)
    _varint(out, _zigzag(value["hops"]))
    _varint(out, _zigzag(value["offset"]))
    if "parent" in value:
        out += _U16.pack(round(value["parent"] * 65535))


def _read_frontier(data: bytes, pos: int) -> tuple[dict, int]:
    present, zeros, ones = data[pos], data[pos + 1], data[pos + 2]
    pos += 3
    halves = present & HALVES
    features: dict[str, float] = {}
    for bit, name in enumerate(FEATURES):
        if not present & (1 << bit):
            continue
        if zeros & (1 << bit):
            features[name] = 0.0
        elif ones & (1 << bit):
            features[name] = 1.0
        elif halves:
            features[name] = _U16.unpack_from(data, pos)[0] / 65535
            pos += 2
        else:
            features[name] = _F32.unpack_from(data, pos)[0]
            pos += 4
    hops, pos = _read_varint(data, pos)
    offset, pos = _read_varint(data, pos)
    known = {"features": features, "hops": _unzigzag(hops), "offset": _unzigzag(offset)}
    if present & PARENT:
        known["parent"] = _U16.unpack_from(data, pos)[0] / 65535
        pos += 2
    return known, pos


# --- requests --------------------------------------------------------------------------------------


def _method_name(function, spider) -> str:
    if not inspect.ismethod(function) or function.__self__ is not spider:
        # As scrapy-redis: a callback that is no method of the spider cannot be stored (the
        # scheduler keeps such requests in the worker).
        raise ValueError(f"Function {function} is not an instance method in: {spider}")
    return function.__func__.__name__


_DEFAULT_ATTRS = {
    "method": "GET", "headers": {}, "body": b"", "cookies": {}, "cb_kwargs": {}, "flags": [],
    "encoding": "utf-8",
}  # fmt: skip


def encode_request(request: Request, spider, site: str = "") -> bytes:
    """The request's stored form; `site` is the queue it goes to (its download slot)."""
    if type(request) is not Request:
        return bytes([WHOLE]) + pickle.dumps(
            request.to_dict(spider=spider), protocol=pickle.HIGHEST_PROTOCOL
        )
    out = bytearray([VERSION, 0])
    flags = URL_WHOLE
    url = request.url
    if site:
        for form, scheme in ((URL_HTTPS_SITE, "https://"), (URL_HTTP_SITE, "http://")):
            prefix = scheme + site
            if url.startswith(prefix) and url[len(prefix) : len(prefix) + 1] in ("/", "?", "#"):
                flags, url = form, url[len(prefix) :]
                break
    _text(out, url)
    _varint(out, _zigzag(request.priority))
    if request.callback is not None:
        flags |= HAS_CALLBACK
        _value(out, _method_name(request.callback, spider))
    if request.errback is not None:
        flags |= HAS_ERRBACK
        _value(out, _method_name(request.errback, spider))
    if request.dont_filter:
        flags |= DONT_FILTER
    meta = request.meta
    _varint(out, len(meta))
    for key, value in meta.items():
        code = _META_CODE.get(key)
        plain = None
        if code is not None and (
            value is None or value is False or (type(value) is int and not value)
        ):
            plain = _PLAIN_CODE[type(value), value]
        if plain is not None:  # the key and its value (None, False or 0) in one byte
            out.append(plain | code)
            continue
        if code is not None:
            out.append(code)
        else:
            out.append(255)
            _value(out, key)
        if key == m.FRONTIER and _is_frontier(value):
            _frontier(out, value)
        else:
            _value(out, value, site)
    attrs = {}
    whole = request.to_dict(spider=spider) if _has_attrs(request) else None
    if whole is not None:
        attrs = {k: whole[k] for k in _DEFAULT_ATTRS if whole.get(k) != _DEFAULT_ATTRS[k]}
    if attrs:
        flags |= HAS_ATTRS
        _value(out, attrs)
    out[1] = flags
    return bytes(out)


def _has_attrs(request: Request) -> bool:
    return bool(
        request.method != "GET"
        or request.body
        or request.headers
        or request.cookies
        or request.cb_kwargs
        or request.flags
        or request.encoding != "utf-8"
    )


def decode_request(data: bytes, spider, site: str = "") -> Request:
    """A Request from its stored form (and the queue it was in)."""
    if not data:
        raise ValueError("stored request: empty")
    if data[0] == WHOLE:
        return request_from_dict(pickle.loads(data[1:]), spider=spider)
    if data[0] != VERSION:
        raise ValueError(f"stored request: unknown version {data[0]}")
    flags = data[1]
    url, pos = _read_text(data, 2)
    form = flags & 3
    if form == URL_HTTPS_SITE:
        url = "https://" + site + url
    elif form == URL_HTTP_SITE:
        url = "http://" + site + url
    priority, pos = _read_varint(data, pos)
    callback = errback = None
    if flags & HAS_CALLBACK:
        name, pos = _read_value(data, pos)
        callback = getattr(spider, name)
    if flags & HAS_ERRBACK:
        name, pos = _read_value(data, pos)
        errback = getattr(spider, name)
    count, pos = _read_varint(data, pos)
    meta = {}
    for _ in range(count):
        code = data[pos]
        pos += 1
        if code == 255:
            key, pos = _read_value(data, pos)
        elif code >= PLAIN_NONE:
            meta[META_KEYS[code & KEY_BITS]] = PLAIN_VALUES[(code >> 6) - 1]
            continue
        else:
            key = META_KEYS[code]
        meta[key], pos = _read_value(data, pos, site)
    attrs: dict = {}
    if flags & HAS_ATTRS:
        attrs, pos = _read_value(data, pos)
    return Request(
        url,
        callback=callback,
        errback=errback,
        priority=_unzigzag(priority),
        meta=meta,
        dont_filter=bool(flags & DONT_FILTER),
        **attrs,
    )
