"""The topic library as the relevance filter uses it: concepts, and the words that stand for
them (SPEC §6). A concept is a library term; its synonyms, and the expansions a person accepted,
are replaced by it before scoring ("concept replacement"), so a page that says 税务机关 counts
for 税务局.

The static library (STFL) is the terms alone; the extended library (ETFL) adds synonyms from the
topic file and accepted expansions (thesaurus or search-result mining, with their provenance).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from topiccrawler.topics.model import KeywordLibrary, Term


def fold(word: str) -> str:
    """How a word is compared: NFKC, lower case, inner white space collapsed."""
    return " ".join(unicodedata.normalize("NFKC", word).lower().split())


@dataclass(frozen=True)
class Expansion:
    """An accepted word that stands for a concept: where it came from and how it scored."""

    word: str
    concept: str
    provenance: str  # "synonym", "cilin", "search:<term>", "bootstrap:<site>", "user"
    score: float | None = None
    term_class: str | None = None  # for a word that is a new concept of its own


class ConceptLibrary:
    """Words → concepts; concepts → term class."""

    def __init__(self, topic: str, terms: Iterable[Term], expansions: Iterable[Expansion] = ()):
        self.topic = topic
        self.concept_class: dict[str, str] = {}
        self.words: dict[str, str] = {}  # folded word → concept
        self.provenance: dict[str, str] = {}  # folded word → where it came from
        for term in terms:
            concept = fold(term.text)
            self.concept_class.setdefault(concept, term.term_class)
            self._add(concept, concept, term.provenance)
        for expansion in expansions:
            concept = fold(expansion.concept)
            if concept not in self.concept_class and expansion.term_class:
                self.concept_class[concept] = expansion.term_class  # a new library term
                self._add(concept, concept, expansion.provenance)
            if concept in self.concept_class:
                self._add(fold(expansion.word), concept, expansion.provenance)

    def _add(self, word: str, concept: str, provenance: str) -> None:
        if word and word not in self.words:
            self.words[word] = concept
            self.provenance[word] = provenance

    @classmethod
    def static(cls, library: KeywordLibrary) -> ConceptLibrary:
        """The terms alone (STFL)."""
        return cls(library.topic, library.terms)

    @classmethod
    def extended(
        cls, library: KeywordLibrary, accepted: Iterable[Expansion] = ()
    ) -> ConceptLibrary:
        """Terms, the topic file's synonyms and accepted expansions (ETFL)."""
        synonyms = [
            Expansion(synonym, term.text, "synonym")
            for term in library.terms
            for synonym in term.synonyms
        ]
        return cls(library.topic, library.terms, [*synonyms, *accepted])

    @property
    def concepts(self) -> list[str]:
        return list(self.concept_class)

    def concept_of(self, token: str) -> str | None:
        return self.words.get(token)

    def __len__(self) -> int:
        return len(self.words)
