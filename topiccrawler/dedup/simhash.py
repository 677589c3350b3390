"""64-bit SimHash of a text's character 4-grams: near-identical bodies differ in a few bits,
unrelated ones in about half. Used to confirm that two pages with matching titles carry the
same story (the seeding paper's own weakness: uniform titles of different stories).
"""

from __future__ import annotations

import hashlib

import numpy as np

SHINGLE = 4
MAX_CHARS = 4000  # the start of a body identifies it; hashing all of a huge page buys nothing
MIN_CHARS = 200  # shorter bodies give no stable fingerprint: one added line shifts too many bits
SAME_BODY_BITS = 8  # Hamming distance up to which two bodies count as the same story (of 64)


# Fingerprints computed ahead (an extraction worker computes a body's with the body), taken by
# the first simhash() of the same text: pages between extraction and dedup, at most this many.
# Kept by the text's length and hash, not the text: a dropped page's body is not held here.
AHEAD_MAX = 1024
_ahead: dict[tuple[int, int], int] = {}


def remember(text: str, value: int) -> None:
    """`value` is simhash(text), computed elsewhere (in a worker process): the next
    simhash(text) here returns it without hashing again."""
    _ahead[(len(text), hash(text))] = value
    if len(_ahead) > AHEAD_MAX:
        del _ahead[next(iter(_ahead))]  # the oldest: its page never reached dedup


def simhash(text: str | None) -> int:
    """The fingerprint as an unsigned 64-bit int; 0 for text too short to tell."""
    if text and _ahead:
        known = _ahead.pop((len(text), hash(text)), None)
        if known is not None:
            return known
    chars = "".join((text or "").split())[:MAX_CHARS]
    if len(chars) < MIN_CHARS:
        return 0
    shingles = {chars[i : i + SHINGLE] for i in range(len(chars) - SHINGLE + 1)}
    digests = b"".join(map(_digest, shingles))
    bits = np.unpackbits(np.frombuffer(digests, dtype=np.uint8).reshape(-1, 8), axis=1)
    votes = bits.sum(axis=0, dtype=np.int64) * 2 - len(shingles)
    packed = np.packbits((votes > 0).astype(np.uint8))
    return int.from_bytes(packed.tobytes(), "big") or 1  # 0 is reserved for "unknown"


# An empty 8-byte BLAKE2b state, copied for each shingle: a copy costs less than a new hasher
# (whose parameters are parsed each time); same digests.
_EMPTY = hashlib.blake2b(digest_size=8)


def _digest(shingle: str) -> bytes:
    hasher = _EMPTY.copy()
    hasher.update(shingle.encode("utf-8"))
    return hasher.digest()


def distance(a: int, b: int) -> int:
    return (a ^ b).bit_count()


def same_body(a: int, b: int, max_bits: int = SAME_BODY_BITS) -> bool:
    """True when both fingerprints are known and close, or when either is unknown."""
    return not a or not b or distance(a, b) <= max_bits


def to_signed(value: int) -> int:
    """For a BIGINT column."""
    return value - (1 << 64) if value >= 1 << 63 else value


def from_signed(value: int | None) -> int:
    return (value + (1 << 64)) if value is not None and value < 0 else (value or 0)
