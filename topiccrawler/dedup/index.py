"""An incremental TF-IDF index of titles that answers "which stored title is this one a repost
of?" at a cost that does not grow with the number of stored titles (SPEC §7).

Weights are TF × IDF over the titles seen so far (IDF smoothed as scikit-learn does:
ln((1 + N) / (1 + df)) + 1), vectors L2-normalised, similarity the cosine, all with the IDF of
the moment of the query.

Candidates come from *rare-word pairs* (a banding scheme in the manner of MinHash-LSH, with the
band chosen by rarity instead of a random permutation): each title is filed under the pairs of
its KEY_WORDS rarest words, rarity being the word's frequency in jieba's dictionary, a fixed
reference that does not drift as titles come in (words outside it, such as names, count as the
rarest; numbers come after rare words: dates are common). A query looks up the pairs of its
QUERY_WORDS rarest words. A repost carries the same words, so it shares its original's rarest
pair; a cosine of 0.8 leaves room for a word or two changed, which the two extra query words
cover. Two given rare words seldom meet in unrelated titles, so a pair's bucket stays short at
any index size, and it is bounded anyway: only its newest MAX_BUCKET titles are looked at.
Candidates are then scored exactly, in one vectorised pass over a flat token array.

What the candidates can miss: a stored title sharing fewer than two of the query's rarest words
(a cosine of 0.8 between such titles is rare, and they are seldom reposts), and, for thresholds
far below 0.8, titles sharing only common words. The benchmark (benchmarks/dedup.py) measures
recall against injected reposts.

Everything is kept in flat arrays, no Python object per title: about 130 bytes a title
(benchmark keys), plus the key (URL) bytes.

Numbers tell stories apart where words cannot: `10月10日早盘分析` and `10月25日早盘分析` share a
template, not a story. Two titles that both carry numbers are duplicates only if their numbers
are the same (reposts keep the date and the figures).
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from itertools import chain, combinations, repeat

import numpy as np

from topiccrawler.dedup.simhash import same_body
from topiccrawler.relevance.tokenizer import jieba_data

DUPLICATE_THRESHOLD = 0.8  # the paper: 0.5 over-merges; cos 35.26° = 0.8165 is the upper reference
KEY_WORDS = 3  # a title is filed under the pairs of its 3 rarest words (3 pairs)
QUERY_WORDS = 5  # a query looks up the pairs of its 5 rarest words (10 pairs)
# Per pair, the newest titles holding it that become candidates: bounds a query's cost whatever
# the bucket (two rare words that keep meeting are a recurring template, not one story).
MAX_BUCKET = 256
NUMBER_RARITY = 10_000  # numbers rank after words rarer than this (jieba frequency)
KEYS = 3  # slots per title in the pair table (== number of pairs of KEY_WORDS words)
NIL = 0xFFFFFFFF


@dataclass(frozen=True)
class Match:
    key: str
    similarity: float


@cache
def dictionary_frequencies() -> dict[str, str]:
    """jieba's dictionary word frequencies (read as data; the segmenter is rjieba), lower-cased
    as tokens are; values are the frequencies as written (converted when looked up). Read in
    one split of the whole file: a tenth of a line-by-line parse (about 0.1 s)."""
    text = jieba_data("dict.txt").read_text(encoding="utf-8").lower()
    fields = text.split()
    if len(fields) == 3 * text.count("\n") and all(f.isdigit() for f in fields[1:300:3]):
        return dict(zip(fields[0::3], fields[1::3], strict=True))
    frequencies = {}  # not three fields a line: line by line
    for line in text.splitlines():
        parts = line.split(" ")
        if len(parts) >= 2 and parts[1].isdigit():
            frequencies[parts[0]] = parts[1]
    return frequencies


def dictionary_rarity(token: str) -> int:
    """Lower is rarer: jieba's frequency, 0 for words outside the dictionary."""
    if token.isdigit():
        return NUMBER_RARITY
    return int(dictionary_frequencies().get(token, 0))


class _Chains:
    """A hash table of 32-bit keys to entry numbers, entries chained newest first, all in flat
    arrays: per entry its key and the next entry of its bucket; heads per bucket. Entries are
    numbered by the caller (a fixed number per title); unused entries are never linked."""

    def __init__(self):
        self.hashes = array("I")
        self.next = array("I")
        self.heads = array("I", [NIL]) * 1024
        self.linked = 0
        self.pending = np.zeros(0, dtype=np.int64)  # a batch's entries, to link on growing

    def append(self, value: int, link: bool) -> None:
        entry = len(self.hashes)
        self.hashes.append(value)
        if not link:
            self.next.append(NIL)
            return
        if self.linked >= len(self.heads):
            self._grow(self.linked + 1)
        bucket = value & (len(self.heads) - 1)
        self.next.append(self.heads[bucket])
        self.heads[bucket] = entry
        self.linked += 1

    def extend(self, values: np.ndarray, link: np.ndarray) -> None:
        """Many entries at once (the same result as appending them one by one)."""
        first = len(self.hashes)
        self.hashes.frombytes(values.astype(np.uint32).tobytes())
        self.next.frombytes(np.full(len(values), NIL, dtype=np.uint32).tobytes())
        linked = int(link.sum())
        if self.linked + linked > len(self.heads):
            self.linked += linked
            self.pending = np.flatnonzero(link) + first
            self._grow(self.linked)
            return
        self.linked += linked
        entries = (np.flatnonzero(link) + first).astype(np.uint32)
        nxt = np.frombuffer(self.next, dtype=np.uint32)
        heads = np.frombuffer(self.heads, dtype=np.uint32)
        self._link(entries, values[link].astype(np.uint32), nxt, heads)

    @staticmethod
    def _link(entries: np.ndarray, values: np.ndarray, nxt: np.ndarray, heads: np.ndarray):
        """Put entries (oldest first) at the head of their buckets' chains, in place."""
        buckets = values & np.uint32(len(heads) - 1)
        # By bucket, oldest first within: a stable sort, done as one sort of (bucket, position)
        # packed in 64 bits (three times quicker than numpy's stable sort of 32-bit keys).
        position = np.arange(len(buckets), dtype=np.uint64)
        order = np.argsort((buckets.astype(np.uint64) << np.uint64(32)) | position)
        entries, buckets = entries[order], buckets[order]
        same = buckets[1:] == buckets[:-1]
        if len(entries):
            nxt[entries[1:]] = np.where(same, entries[:-1], nxt[entries[1:]])
            starts = np.append(True, ~same)
            nxt[entries[starts]] = heads[buckets[starts]]
            last = np.append(~same, True)
            heads[buckets[last]] = entries[last]

    def find(self, value: int, limit: int) -> Iterable[int]:
        """Entries with this key, newest first, at most `limit` (and a bounded walk)."""
        hashes, nxt = self.hashes, self.next
        entry = self.heads[value & (len(self.heads) - 1)]
        found = steps = 0
        while entry != NIL and found < limit and steps < 4 * limit:
            if hashes[entry] == value:
                yield entry
                found += 1
            entry = nxt[entry]
            steps += 1

    def known(self, values: np.ndarray) -> np.ndarray:
        """For each key, whether some linked entry has it: every chain walked at once."""
        heads = np.frombuffer(self.heads, dtype=np.uint32)
        nxt = np.frombuffer(self.next, dtype=np.uint32)
        hashes = np.frombuffer(self.hashes, dtype=np.uint32)
        entry = heads[values & np.uint32(len(heads) - 1)].astype(np.int64)
        found = np.zeros(len(values), dtype=bool)
        active = np.flatnonzero(entry != NIL)
        while len(active):
            at = entry[active]
            match = hashes[at] == values[active]
            found[active[match]] = True
            entry[active] = nxt[at]
            active = active[~match & (nxt[at] != NIL)]
        return found

    def _grow(self, needed: int) -> None:
        """Enough buckets for `needed` entries (powers of two); chains relinked in one
        vectorised pass, newest first still."""
        size = len(self.heads)
        while size < needed:
            size *= 2
        nxt = np.frombuffer(self.next, dtype=np.uint32).copy()
        old_heads = np.frombuffer(self.heads, dtype=np.uint32)
        # Linked entries are the heads and the entries some entry points to; unused entries
        # are neither, and a batch being added is in `pending`.
        reachable = np.zeros(len(nxt), dtype=bool)
        reachable[old_heads[old_heads != NIL]] = True
        reachable[nxt[nxt != NIL]] = True
        reachable[self.pending] = True
        del old_heads
        entries = np.flatnonzero(reachable).astype(np.uint32)
        nxt[:] = NIL
        heads = np.full(size, NIL, dtype=np.uint32)
        self._link(entries, np.frombuffer(self.hashes, dtype=np.uint32)[entries], nxt, heads)
        self.next = array("I", nxt.tobytes())
        self.heads = array("I", heads.tobytes())
        self.pending = np.zeros(0, dtype=np.int64)


PAIR_A, PAIR_B, PAIR_SALT, SINGLE_SALT = 0x9E3779B1, 0x85EBCA77, 0x27D4EB2F, 0x165667B1


def _pair_hashes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """TitleIndex._pair_hash over arrays (token ids below 2**32: no product overflows)."""
    low, high = np.minimum(a, b).astype(np.uint64), np.maximum(a, b).astype(np.uint64)
    mixed = (low * np.uint64(PAIR_A)) ^ (high * np.uint64(PAIR_B)) ^ np.uint64(PAIR_SALT)
    return mixed & np.uint64(NIL)


def _single_hashes(a: np.ndarray) -> np.ndarray:
    return ((a.astype(np.uint64) * np.uint64(PAIR_A)) ^ np.uint64(SINGLE_SALT)) & np.uint64(NIL)


def _extended(values: array, more: np.ndarray) -> array:
    """Extend, moving a 32-bit array to 64 bits when the values no longer fit."""
    if values.typecode == "I" and len(more) and int(more[-1]) > NIL:
        values = array("Q", values)
    values.frombytes(more.astype(np.dtype(values.typecode)).tobytes())
    return values


def _grown(values: array, value: int) -> array:
    """Append, moving a 32-bit array to 64 bits when a value no longer fits."""
    try:
        values.append(value)
    except OverflowError:
        values = array("Q", values)
        values.append(value)
    return values


def _order(doc: np.ndarray, rank: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """np.lexsort((ids, rank, doc)): by title, rarity, then token id. When the three fit in 63
    bits together (they do for batches of stored titles: 15 + 20 + 21 bits or so) one sort of
    packed keys, three times quicker; the (title, id) pairs are distinct, so the order is the
    same."""
    if not len(doc):
        return np.zeros(0, dtype=np.int64)
    id_bits = int(ids.max()).bit_length()
    rank_bits = int(rank.max()).bit_length()
    if int(doc.max()).bit_length() + rank_bits + id_bits > 63:
        return np.lexsort((ids, rank, doc))
    packed = (
        (doc.astype(np.uint64) << np.uint64(rank_bits + id_bits))
        | (rank.astype(np.uint64) << np.uint64(id_bits))
        | ids.astype(np.uint64)
    )
    return np.argsort(packed)


class TitleIndex:
    """Titles by key (a URL): their distinct token ids and counts in flat arrays, document
    frequencies, rare-word pair chains, body fingerprints, keys as UTF-8 in one buffer."""

    def __init__(
        self,
        threshold: float = DUPLICATE_THRESHOLD,
        rarity: Callable[[str], int] = dictionary_rarity,
    ):
        self.threshold = threshold
        self.rarity = rarity
        if rarity is dictionary_rarity:
            dictionary_frequencies()  # read now, at start, not by the first title of the crawl
        self.vocabulary: dict[str, int] = {}
        self.df = array("I")
        self.numeric = array("B")  # 1 for tokens that are numbers
        self.rank = array("Q")  # the token's rarity (lower is rarer)
        self.tokens = array("I")  # every title's distinct token ids, title after title
        self.counts = array("B")  # how often each of those occurs in its title (up to 255)
        self.offsets = array("I", [0])  # title n's tokens are tokens[offsets[n]:offsets[n + 1]]
        self.fingerprints = array("Q")  # body SimHash per title, 0 when unknown
        self._key_bytes = bytearray()
        self._key_offsets = array("I", [0])
        self._keys = _Chains()  # one entry per title: hash of its key
        self._pairs = _Chains()  # KEYS entries per title: its rare-word pairs
        self._query_table = np.zeros(0)  # the query's weights by token id, zero elsewhere

    def __len__(self) -> int:
        return len(self.fingerprints)

    def __contains__(self, key: str) -> bool:
        return self._find(key) is not None

    def key(self, doc: int) -> str:
        return self._key_bytes[self._key_offsets[doc] : self._key_offsets[doc + 1]].decode()

    def _find(self, key: str) -> int | None:
        encoded = key.encode()
        for doc in self._keys.find(hash(key) & NIL, 1 << 30):
            start = self._key_offsets[doc]
            if self._key_bytes[start : self._key_offsets[doc + 1]] == encoded:
                return doc
        return None

    def idf(self, df: int) -> float:
        return math.log((1 + len(self)) / (1 + df)) + 1.0

    def _rarest(self, token_ids: Iterable[int], n: int) -> list[int]:
        rank = self.rank
        return sorted(token_ids, key=lambda t: (rank[t], t))[:n]

    @staticmethod
    def _pair_hash(a: int, b: int) -> int:
        if a > b:
            a, b = b, a
        return ((a * PAIR_A) ^ (b * PAIR_B) ^ PAIR_SALT) & NIL

    @staticmethod
    def _single_hash(a: int) -> int:
        return ((a * PAIR_A) ^ SINGLE_SALT) & NIL

    def _file_under(self, token_ids: list[int]) -> list[int]:
        rarest = self._rarest(token_ids, KEY_WORDS)
        if len(rarest) == 1:
            return [self._single_hash(rarest[0])]
        return [self._pair_hash(a, b) for a, b in combinations(rarest, 2)]

    def _token_id(self, token: str) -> int:
        token_id = self.vocabulary.get(token)
        if token_id is None:
            token_id = self.vocabulary[token] = len(self.df)
            self.df.append(0)
            self.numeric.append(token.isdigit())
            self.rank.append(max(0, int(self.rarity(token))))
        return token_id

    def _new_tokens(self, words: list[str]) -> dict[str, int]:
        """Ids for words not yet in the vocabulary, given in order of first appearance (as
        `_token_id` would one by one), with their document frequency, number flag and rarity
        set in a few C-level passes: a million stored titles bring hundreds of thousands."""
        distinct = dict.fromkeys(words)  # in order of first appearance
        first = len(self.df)
        new = dict(zip(distinct, range(first, first + len(distinct)), strict=True))
        self.vocabulary.update(new)
        self.df.frombytes(bytes(4 * len(new)))  # zeros
        numeric = bytes(map(str.isdigit, new))
        self.numeric.frombytes(numeric)
        if self.rarity is dictionary_rarity:
            frequencies = dictionary_frequencies()
            rank = np.fromiter(
                map(int, map(frequencies.get, new, repeat("0"))), dtype=np.int64, count=len(new)
            )
            rank[np.frombuffer(numeric, dtype=np.uint8).astype(bool)] = NUMBER_RARITY
        else:
            rank = np.fromiter(map(self.rarity, new), dtype=np.int64, count=len(new))
        self.rank.frombytes(np.maximum(rank, 0).astype(np.uint64).tobytes())
        return new

    def add(self, key: str, tokens: Iterable[str], fingerprint: int = 0) -> None:
        """Index a title (once per key), with its page's body fingerprint if known."""
        if self._find(key) is not None:
            return
        counts = Counter(self._token_id(t) for t in tokens)
        ids = sorted(counts)
        for token_id in ids:
            self.df[token_id] += 1
            self.tokens.append(token_id)
            self.counts.append(min(counts[token_id], 255))
        self.offsets = _grown(self.offsets, len(self.tokens))
        self.fingerprints.append(fingerprint)
        self._key_bytes += key.encode()
        self._key_offsets = _grown(self._key_offsets, len(self._key_bytes))
        self._keys.append(hash(key) & NIL, link=True)
        filed = self._file_under(ids) if ids else []
        for slot in range(KEYS):
            if slot < len(filed):
                self._pairs.append(filed[slot], link=True)
            else:
                self._pairs.append(0, link=False)

    def add_many(self, titles: Iterable[tuple[str, Iterable[str] | str, int]]) -> None:
        """Index many (key, tokens, fingerprint) at once, as `add` would one by one, with the
        per-title work vectorised: what makes loading millions of stored titles take seconds.
        The tokens may come as one string, joined by single spaces (a stored title key)."""
        titles = titles if isinstance(titles, list) else list(titles)
        keys = [title[0] for title in titles]
        hashes = (np.fromiter(map(hash, keys), dtype=np.int64, count=len(keys)) & NIL).astype(
            np.uint32
        )
        maybe_known = self._keys.known(hashes)  # a stored key of the same hash: look closer
        if maybe_known.any() or len(set(keys)) < len(keys):
            kept, seen = [], set()
            for title, key, look in zip(titles, keys, maybe_known.tolist(), strict=True):
                if key in seen or (look and self._find(key) is not None):
                    continue
                seen.add(key)
                kept.append(title)
            titles = kept
            keys = [title[0] for title in titles]
            hashes = np.fromiter((hash(key) & NIL for key in keys), np.uint32, len(keys))
        if not keys:
            return
        n = len(keys)
        fingerprints = [title[2] for title in titles]
        if all(type(t[1]) is str for t in titles):  # stored title keys: split all at once
            joined = [t[1] for t in titles]
            words = " ".join(joined).split(" ")
            lengths = np.fromiter(map(str.count, joined, repeat(" ")), np.int64, count=n) + 1
        else:
            token_lists = [t[1] if type(t[1]) is list else list(t[1]) for t in titles]
            words = list(chain.from_iterable(token_lists))
            lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=n)
        # One C-level pass over the words; -1 for new ones, given ids next.
        get = self.vocabulary.get
        flat = np.fromiter(map(get, words, repeat(-1)), dtype=np.int64, count=len(words))
        missing = np.flatnonzero(flat < 0)
        if len(missing):
            new = self._new_tokens([words[i] for i in missing.tolist()])
            flat[missing] = np.fromiter(
                map(new.__getitem__, (words[i] for i in missing.tolist())),
                dtype=np.int64,
                count=len(missing),
            )
        docs = np.repeat(np.arange(n, dtype=np.int64), lengths)
        vocabulary_size = len(self.df)
        distinct, counts = np.unique(docs * vocabulary_size + flat, return_counts=True)
        doc_of, ids = np.divmod(distinct, vocabulary_size)  # by title, then by token id
        per_doc = np.bincount(doc_of, minlength=n)
        df = np.frombuffer(self.df, dtype=np.uint32)
        df += np.bincount(ids, minlength=vocabulary_size).astype(np.uint32)
        del df
        self.tokens.frombytes(ids.astype(np.uint32).tobytes())
        self.counts.frombytes(np.minimum(counts, 255).astype(np.uint8).tobytes())
        ends = int(self.offsets[-1]) + np.cumsum(per_doc)
        self.offsets = _extended(self.offsets, ends)
        self.fingerprints.frombytes(np.asarray(fingerprints, dtype=np.uint64).tobytes())
        encoded = [key.encode() for key in keys]
        key_ends = len(self._key_bytes) + np.cumsum(np.fromiter(map(len, encoded), np.int64, n))
        self._key_bytes += b"".join(encoded)
        self._key_offsets = _extended(self._key_offsets, key_ends)
        self._keys.extend(hashes, np.ones(n, dtype=bool))
        # The KEY_WORDS rarest of each title's distinct tokens (rarity, then id).
        rank = np.frombuffer(self.rank, dtype=np.uint64)[ids]
        order = _order(doc_of, rank, ids)
        starts = np.cumsum(per_doc) - per_doc
        sorted_doc, sorted_ids = doc_of[order], ids[order]
        sorted_position = np.arange(len(ids)) - np.repeat(starts, per_doc)
        rarest = np.full((n, KEY_WORDS), -1, dtype=np.int64)
        top = sorted_position < KEY_WORDS
        rarest[sorted_doc[top], sorted_position[top]] = sorted_ids[top]
        values = np.zeros((n, KEYS), dtype=np.uint64)
        link = np.zeros((n, KEYS), dtype=bool)
        for slot, (a, b) in enumerate(combinations(range(KEY_WORDS), 2)):
            both = (rarest[:, a] >= 0) & (rarest[:, b] >= 0)
            values[both, slot] = _pair_hashes(rarest[both, a], rarest[both, b])
            link[both, slot] = True
        single = (rarest[:, 0] >= 0) & (rarest[:, 1] < 0)
        values[single, 0] = _single_hashes(rarest[single, 0])
        link[single, 0] = True
        self._pairs.extend(values.ravel(), link.ravel())

    def newest(self, keep: int) -> TitleIndex:
        """A new index of the newest `keep` titles (keys, tokens with their counts, body
        fingerprints), document frequencies counted over them alone: what DEDUP_MAX_TITLES
        trims a long crawl's index to."""
        words = [""] * len(self.vocabulary)
        for word, token_id in self.vocabulary.items():
            words[token_id] = word
        index = TitleIndex(self.threshold, self.rarity)
        first = max(0, len(self) - keep)
        index.add_many(
            (
                self.key(doc),
                [
                    words[self.tokens[at]]
                    for at in range(self.offsets[doc], self.offsets[doc + 1])
                    for _ in range(self.counts[at])
                ],
                self.fingerprints[doc],
            )
            for doc in range(first, len(self))
        )
        return index

    def document(self, doc: int) -> list[int]:
        return list(self.tokens[self.offsets[doc] : self.offsets[doc + 1]])

    def best_match(
        self,
        tokens: Iterable[str],
        exclude: str | None = None,
        skip: Callable[[str], bool] | None = None,
        fingerprint: int = 0,
    ) -> Match | None:
        """The most similar stored title at or above the threshold, the earliest on ties;
        `exclude` (a key) and keys for which `skip` is true are not candidates, nor titles whose
        body fingerprint says another story (when both fingerprints are known)."""
        counts = Counter(tokens)
        known = {self.vocabulary[t]: c for t, c in counts.items() if t in self.vocabulary}
        if not known:
            return None
        # Unknown tokens weigh in the query's norm: the stored titles lack them.
        raw = {t: c * self.idf(self.df[t]) for t, c in known.items()}
        unknown = sum((c * self.idf(0)) ** 2 for t, c in counts.items() if t not in self.vocabulary)
        norm2 = sum(w * w for w in raw.values()) + unknown
        if sum(w * w for w in raw.values()) / norm2 < self.threshold**2 - 1e-12:
            return None  # even a title holding every known token falls short
        candidates = self._candidates(list(known))
        if not len(candidates):
            return None
        similarities = self._similarities(candidates, raw, math.sqrt(norm2))
        numbers = {self.vocabulary.get(t, -1 - i) for i, t in enumerate(counts) if t.isdigit()}
        order = np.lexsort((candidates, -similarities))  # best first, earliest on ties
        for i in order:
            similarity = float(similarities[i])
            if similarity < self.threshold - 1e-9:
                break
            doc = int(candidates[i])
            key = self.key(doc)
            if key == exclude or (skip is not None and skip(key)):
                continue
            if not same_body(fingerprint, self.fingerprints[doc]):
                continue
            if numbers:
                stored_numbers = {t for t in self.document(doc) if self.numeric[t]}
                if stored_numbers and stored_numbers != numbers:
                    continue
            return Match(key, similarity)
        return None

    def _candidates(self, token_ids: list[int]) -> np.ndarray:
        """Titles filed under a pair of the query's rarest words (or under one of its words,
        for one-word titles), the newest MAX_BUCKET of each."""
        rarest = self._rarest(token_ids, QUERY_WORDS)
        keys = [self._pair_hash(a, b) for a, b in combinations(rarest, 2)]
        keys += [self._single_hash(t) for t in rarest]
        found: set[int] = set()
        for value in keys:
            found.update(entry // KEYS for entry in self._pairs.find(value, MAX_BUCKET))
        return np.fromiter(sorted(found), dtype=np.int64, count=len(found))

    def _similarities(self, docs: np.ndarray, raw: dict[int, float], norm: float) -> np.ndarray:
        """Exact cosine of each candidate title with the query, in one pass over their tokens."""
        offsets = np.frombuffer(self.offsets, dtype=np.dtype(self.offsets.typecode))
        starts = offsets[docs].astype(np.int64)
        lengths = offsets[docs + 1].astype(np.int64) - starts
        first = np.cumsum(lengths) - lengths  # where each candidate begins in the gathered run
        positions = np.arange(int(lengths.sum())) - np.repeat(first - starts, lengths)
        token_ids = np.frombuffer(self.tokens, dtype=np.uint32)[positions]
        counts = np.frombuffer(self.counts, dtype=np.uint8)[positions]
        df = np.frombuffer(self.df, dtype=np.uint32)[token_ids]
        weights = counts * (np.log((1 + len(self)) / (1.0 + df)) + 1.0)
        if len(self._query_table) < len(self.df):
            self._query_table = np.zeros(2 * len(self.df))
        query_ids = list(raw)
        self._query_table[query_ids] = [raw[t] / norm for t in query_ids]
        try:
            dots = np.add.reduceat(weights * self._query_table[token_ids], first)
        finally:
            self._query_table[query_ids] = 0.0
        norms = np.sqrt(np.add.reduceat(weights * weights, first))
        return dots / norms
