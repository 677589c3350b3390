"""Body fingerprints computed ahead (by an extraction worker) are taken, once, and bounded."""

from __future__ import annotations

from topiccrawler.dedup import simhash as module
from topiccrawler.dedup.simhash import simhash


def test_a_fingerprint_computed_ahead_is_taken_once():
    text = "增值税改革说明，一段足够长的正文。" * 20
    value = simhash(text)
    module.remember(text, 12345)  # (a worker's answer stands for the text)
    assert simhash(text) == 12345
    assert simhash(text) == value  # taken: computed again from here on


def test_fingerprints_computed_ahead_are_bounded(monkeypatch):
    monkeypatch.setattr(module, "AHEAD_MAX", 3)
    texts = [f"{i} " + "正文" * 150 for i in range(5)]
    for text in texts:
        module.remember(text, 7)
    assert simhash(texts[0]) != 7 and simhash(texts[4]) == 7  # the oldest went first
    module._ahead.clear()


def test_the_fingerprint_of_a_text_never_changes():
    """Fingerprints are stored with pages and compared with those of later crawls: a change of
    the function (hash, shingles, bit order) makes every stored one meaningless, so it comes
    with a migration that computes them anew (storage/migrations, 0010)."""
    text = (
        "The tax office said on Monday that the new rules for small firms take effect in May, "
        "and that returns filed before then are read under the old ones. "
        "税务局周一表示，小企业新规五月起施行。"
    ) * 3
    assert simhash(text) == 0x3B323FA9CF384A9F
