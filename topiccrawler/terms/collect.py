"""Where candidate terms come from, once a crawl has stored something (SPEC §6):

- `search_result_texts`: for a library term, the texts of its top-L search results, as the
  search entrance stored them (the page body when the page was kept, else the result's title and
  snippet);
- `kept_page_texts`: the bodies of the topic's most relevant stored pages, the feedback loop by
  which terms found while crawling reach the review queue;
- `bootstrap_candidates`: the seed paper's vocabulary bootstrap (§2.2): part-of-speech tagged
  words of an authority site's pages, function words dropped, ranked by frequency.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from topiccrawler.relevance.expansion import NOISE_WORDS, Candidate
from topiccrawler.relevance.library import ConceptLibrary, fold
from topiccrawler.relevance.tokenizer import STOP_WORDS, Tokenizer
from topiccrawler.storage.models import Page, SearchQuery, SearchResult

# jieba part-of-speech tags of content words: nouns (n, nr person, ns place, nt organisation, nz
# other proper, nl, ng), verbal and adjectival nouns (vn, an), English words (eng). Everything
# else (verbs, adverbs, pronouns, prepositions, particles, numerals, measure words…) is left out.
CONTENT_TAGS = frozenset({"n", "nr", "ns", "nt", "nz", "nl", "ng", "vn", "an", "eng"})


def search_result_texts(session: Session, topic: str, term: str, top_l: int) -> list[str]:
    """Texts of the top-L results of the stored queries that contain the term."""
    rows = session.execute(
        select(SearchResult.url, SearchResult.title, SearchResult.snippet, Page.body)
        .join(SearchQuery, SearchResult.query_id == SearchQuery.id)
        .outerjoin(Page, (Page.url_hash == SearchResult.url_hash) & (Page.topic == topic))
        .where(SearchQuery.topic == topic, SearchQuery.query.contains(term))
        .order_by(SearchResult.rank, SearchResult.id)
    ).all()
    texts: dict[str, str] = {}
    for url, title, snippet, body in rows:
        if url not in texts:
            texts[url] = body or f"{title or ''}\n{snippet or ''}"
        if len(texts) >= top_l:
            break
    return list(texts.values())


def kept_page_texts(session: Session, topic: str, limit: int) -> list[str]:
    """Bodies of the topic's most relevant stored pages."""
    return list(
        session.scalars(
            select(Page.body)
            .where(Page.topic == topic, Page.is_relevant.is_(True), Page.body.is_not(None))
            .order_by(Page.relevance.desc())
            .limit(limit)
        )
    )


def bootstrap_candidates(
    library: ConceptLibrary,
    texts: Iterable[str],
    provenance: str,
    top_n: int = 50,
    tokenizer: Tokenizer | None = None,
) -> list[Candidate]:
    """The site's most frequent content words that the library lacks, as new terms (their own
    concept; the reviewer gives them a class). Counted once per page, so one long page does not
    decide the vocabulary."""
    tokenizer = tokenizer or Tokenizer(library.words)
    document_frequency: Counter = Counter()
    for text in texts:
        words = {
            fold(word)
            for word, tag in tokenizer.tagged(text)
            if tag in CONTENT_TAGS and len(word) >= 2 and not word.isdigit()
        }
        document_frequency.update(
            w
            for w in words
            if w not in STOP_WORDS and w not in NOISE_WORDS and w not in library.words
        )
    ranked = sorted(document_frequency.items(), key=lambda kv: (-kv[1], kv[0]))[:top_n]
    return [Candidate(word, word, "domain_terms", provenance, float(n)) for word, n in ranked]
