"""The topic library's review queue and accepted expansions, in `topic_terms` (SPEC §6).

A row is a word proposed for a topic: its concept (the library term it would stand for), class,
provenance (where it was found) and score, and a status: `candidate` until a person decides,
then `accepted` or `rejected`. Accepted rows join the library at the next crawl; rejected rows
stay, so the same word is not proposed again.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from topiccrawler.relevance.expansion import Candidate
from topiccrawler.relevance.library import Expansion
from topiccrawler.storage.models import TopicTerm

CANDIDATE, ACCEPTED, REJECTED = "candidate", "accepted", "rejected"
STATUSES = (CANDIDATE, ACCEPTED, REJECTED)


def propose(session: Session, topic: str, candidates: Iterable[Candidate]) -> int:
    """Queue candidates the topic has never seen (in any status); returns how many were new."""
    known = set(session.scalars(select(TopicTerm.term).where(TopicTerm.topic == topic)))
    added = 0
    for candidate in candidates:
        if candidate.word in known:
            continue
        known.add(candidate.word)
        session.add(
            TopicTerm(
                topic=topic,
                term=candidate.word,
                term_class=candidate.term_class,
                concept=candidate.concept,
                provenance=candidate.provenance,
                status=CANDIDATE,
                score=candidate.score,
                updated_at=datetime.now(UTC),
            )
        )
        added += 1
    return added


def pending(session: Session, topic: str) -> list[TopicTerm]:
    """Candidates waiting for a decision, best score first."""
    return list(
        session.scalars(
            select(TopicTerm)
            .where(TopicTerm.topic == topic, TopicTerm.status == CANDIDATE)
            .order_by(TopicTerm.score.desc().nulls_last(), TopicTerm.id)
        )
    )


def decide(
    row: TopicTerm,
    status: str,
    *,
    term: str | None = None,
    concept: str | None = None,
    term_class: str | None = None,
) -> None:
    """Record a reviewer's decision, with their edits of the word, concept or class."""
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r}: one of {', '.join(STATUSES)}")
    row.status = status
    row.term = term or row.term
    row.concept = concept or row.concept
    row.term_class = term_class or row.term_class
    row.updated_at = datetime.now(UTC)


def accepted_expansions(session: Session, topic: str) -> list[Expansion]:
    rows = session.scalars(
        select(TopicTerm)
        .where(TopicTerm.topic == topic, TopicTerm.status == ACCEPTED)
        .order_by(TopicTerm.id)
    )
    return [Expansion(r.term, r.concept, r.provenance, r.score, r.term_class) for r in rows]
