"""64-bit SimHash of a text's character 4-grams: near-identical bodies differ in a few bits,
unrelated ones in about half. Used to confirm that two pages with matching titles carry the
same story (the seeding paper's own weakness: uniform titles of different stories).
"""

from __future__ import annotations

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
    hashes = _shingle_hashes(chars)
    bits = np.unpackbits(hashes.view(np.uint8)).reshape(-1, 64)
    votes = bits.sum(axis=0, dtype=np.int32) * 2 - len(hashes)
    packed = np.packbits((votes > 0).astype(np.uint8))
    return int.from_bytes(packed.tobytes(), "big") or 1  # 0 is reserved for "unknown"


# Shingle hashes, vectorised (a hash function a shingle called from Python cost about a
# microsecond each, a millisecond a page): the code points of a shingle folded with odd 64-bit
# multipliers, then SplitMix64's finaliser, so every bit of the hash depends on every
# character. Each shingle votes as often as it occurs (the usual weighting by frequency).
_FOLD = np.array(
    [0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93],
    dtype=np.uint64,
)
_MIX = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))
_SHIFTS = (np.uint64(30), np.uint64(27), np.uint64(31))


def _shingle_hashes(chars: str) -> np.ndarray:
    """One 64-bit hash per character SHINGLE-gram of `chars` (little-endian uint64)."""
    encoded = chars.encode("utf-32-le", "surrogatepass")  # a lone surrogate is a character too
    points = np.frombuffer(encoded, dtype=np.uint32).astype(np.uint64)
    count = len(points) - SHINGLE + 1
    hashes = points[:count] * _FOLD[0]
    for offset in range(1, SHINGLE):
        hashes += points[offset : offset + count]
        hashes *= _FOLD[offset]
    hashes ^= hashes >> _SHIFTS[0]
    hashes *= _MIX[0]
    hashes ^= hashes >> _SHIFTS[1]
    hashes *= _MIX[1]
    hashes ^= hashes >> _SHIFTS[2]
    return hashes.astype("<u8", copy=False)


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
