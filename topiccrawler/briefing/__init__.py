"""What a briefing needs of each page: its keywords, a few sentences that summarise it, and the
people, places and organisations it names (the collection-system paper's page table)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from topiccrawler.briefing.entities import Entity, entities
from topiccrawler.briefing.keywords import keywords
from topiccrawler.briefing.summary import summarize
from topiccrawler.relevance.tokenizer import Tokenizer


@dataclass
class Briefing:
    keywords: list[tuple[str, float]] = field(default_factory=list)  # word, weight; best first
    summary: str = ""
    entities: list[Entity] = field(default_factory=list)  # most mentioned first


@dataclass(frozen=True)
class BriefingOptions:
    """A crawl's briefing settings (BRIEFING_*) and its topic's words (which weigh more as
    keywords)."""

    topic_words: tuple[str, ...] = ()
    keywords: int = 10
    sentences: int = 3
    entities: int = 20


def brief_page(
    title: str | None, body: str | None, options: BriefingOptions, tokenizer: Tokenizer
) -> Briefing:
    """`brief` with a crawl's options; `tokenizer` has the topic's words."""
    return brief(
        title,
        body,
        tokenizer,
        frozenset(options.topic_words),
        options.keywords,
        options.sentences,
        options.entities,
    )


def brief(
    title: str | None,
    body: str | None,
    tokenizer: Tokenizer,
    topic_terms: Iterable[str] = (),
    n_keywords: int = 10,
    n_sentences: int = 3,
    n_entities: int = 20,
) -> Briefing:
    """Keywords and entities of title and body (the title counts as much as its words say),
    and a summary of the body in `n_sentences` of its own sentences."""
    text = "\n".join(part for part in (title, body) if part)
    if not text.strip():
        return Briefing()
    ranked = keywords(text, tokenizer, topic_terms, None)  # all, best first: the top are the
    weights = dict(ranked)  # keywords, all weigh the summary's sentences
    return Briefing(
        keywords=ranked[:n_keywords],
        summary=summarize(body or "", tokenizer, weights, n_sentences),
        entities=entities(text, tokenizer, n_entities),
    )


__all__ = [
    "Briefing", "BriefingOptions", "Entity", "brief", "brief_page", "entities", "keywords",
    "summarize",
]  # fmt: skip
