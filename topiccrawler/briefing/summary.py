"""An extractive summary: the body's own sentences that carry most of its keyword weight,
shown in the order the page gives them. The lead sentence gets a bonus (news puts the story
first); long sentences do not win by length alone (weight over the square root of length)."""

from __future__ import annotations

import math
import re

from topiccrawler.relevance.tokenizer import Tokenizer

# A sentence ends at Chinese end punctuation, or at . ! ? followed by a space and what starts a
# sentence (not "U.S. officials" or "3.5 per cent": the next word must start upper case).
_SENTENCE_END = re.compile(
    r"(?<=[。！？；!?])\s*|(?<=[.!?][\"”’)])\s+|(?<=[.!?])\s+(?=[\"“‘(]?[A-Z0-9\u4e00-\u9fff])"
)
MIN_SENTENCE_CHARS = 8
LEAD_BONUS = 0.3  # the first sentence's score × (1 + this)
MAX_SENTENCE_CHARS = 400  # longer "sentences" (tables, lists run together) are not summaries


def sentences(text: str) -> list[str]:
    """The text's sentences, line breaks ending one too; fragments shorter than a few
    characters (captions, bylines) left out."""
    found = []
    for line in text.splitlines():
        for piece in _SENTENCE_END.split(line.strip()):
            piece = piece.strip()
            if MIN_SENTENCE_CHARS <= len(piece) <= MAX_SENTENCE_CHARS:
                found.append(piece)
    return found


def summarize(text: str, tokenizer: Tokenizer, weights: dict[str, float], n: int = 3) -> str:
    """The `n` best sentences of `text`, in page order, joined by a space (Chinese sentences
    carry their own punctuation, so nothing is added between them)."""
    found = sentences(text)
    if len(found) > n:
        scored = []
        for index, sentence in enumerate(found):
            words = tokenizer.tokens(sentence)
            weight = sum(weights.get(word, 0.0) for word in set(words))
            score = weight / math.sqrt(len(words) or 1)
            if index == 0:
                score *= 1 + LEAD_BONUS
            scored.append((score, -index))
        chosen = sorted(-i for _, i in sorted(scored, reverse=True)[:n])
        found = [found[i] for i in chosen]
    return _join(found)


def _join(parts: list[str]) -> str:
    text = ""
    for part in parts:
        if text and not re.search(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]$", text):
            text += " "
        text += part
    return text
