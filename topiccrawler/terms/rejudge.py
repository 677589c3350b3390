"""What `topiccrawler rejudge TOPIC` does (the command line: cli/rejudge.py): score the stored
pages again with today's library, η and page classifier, and update their verdicts (after a
terms review, say, or a crawl judged with an η that turned out wrong).

Pages stored with their text are scored again from their title and body; η (the topic file's
number, `--threshold`, or estimated from the scores when there is none) and the page classifier
(trained on the pages the scores are sure of) are set from the stored pages as a crawl would.
A page stored without its text (dropped by an earlier verdict) keeps its stored score and is
judged by it alone; one that becomes relevant is marked to be fetched again, which
`scrapy crawl topic -a topic=TOPIC -a refetch=yes` does, politely, before anything else.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from topiccrawler.relevance.judge import PageJudge
from topiccrawler.relevance.library import ConceptLibrary
from topiccrawler.relevance.page_classifier import PageClassifier
from topiccrawler.relevance.scorer import RelevanceScorer
from topiccrawler.storage.models import Page
from topiccrawler.storage.search_index import index_pages
from topiccrawler.storage.verdicts import REFETCH, apply_verdict


@dataclass
class Rejudged:
    pages: int = 0
    rescored: int = 0  # scored again from their stored text
    kept_before: int = 0
    kept_after: int = 0
    changed: int = 0
    to_refetch: int = 0  # relevant now, stored without text
    threshold: float | None = None
    mode: str = ""


def rejudge(
    session,
    topic: str,
    library: ConceptLibrary,
    threshold: float | None,
    keep_text: bool = False,
    certainty: float = 0.7,
    use_classifier: bool = True,
    self_training: str = "em",
    batch: int = 1000,
) -> Rejudged:
    """Every stored page of `topic` judged again, in the order it was fetched (an automatic η
    and the classifier learn from the pages as a crawl's would)."""
    scorer = RelevanceScorer(library)
    judge = PageJudge(
        scorer,
        threshold,
        PageClassifier(scorer.tokenizer, self_training=self_training)
        if use_classifier and threshold is None
        else None,
        certainty=certainty,
    )
    result = Rejudged()
    ids = session.scalars(
        select(Page.id).where(Page.topic == topic).order_by(Page.fetched_at, Page.id)
    ).all()
    scores: dict[int, float] = {}
    for start in range(0, len(ids), batch):  # first pass: scores, η and the classifier
        for page in session.scalars(select(Page).where(Page.id.in_(ids[start : start + batch]))):
            if page.body:
                verdict = judge.judge(str(page.id), {"title": page.title, "body": page.body})
                scores[page.id] = verdict.score
                result.rescored += 1
            elif judge.estimator is not None and page.relevance is not None:
                judge.estimator.add(page.relevance)
    judge.refit()  # η and the classifier fitted on everything
    state = judge.state()
    result.threshold, result.mode = state["threshold"], state["mode"]
    for start in range(0, len(ids), batch):  # second pass: the final verdicts
        batch_ids = ids[start : start + batch]
        for page in session.scalars(select(Page).where(Page.id.in_(batch_ids))):
            result.pages += 1
            result.kept_before += bool(page.is_relevant)
            score = scores.get(page.id, page.relevance or 0.0)
            relevant, probability = judge.final_verdict(score, page.title, page.body)
            if relevant and not page.body and not page.is_relevant:
                page.relevance_detail = {**(page.relevance_detail or {}), REFETCH: True}
                result.to_refetch += 1
            result.changed += apply_verdict(
                session, page, relevant, probability, result.threshold, keep_text,
                score=scores.get(page.id), index=False,
            )  # fmt: skip
            result.kept_after += relevant
        session.flush()
        index_pages(session.connection(), batch_ids)  # the search index says the same
    return result
