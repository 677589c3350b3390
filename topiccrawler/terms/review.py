"""A person's review of candidate terms (SPEC §6): nothing joins the library without it.

Two ways to review, on the same queue (`storage/terms.py`):

- at a terminal, one candidate at a time: accept, reject, edit the word, change its concept or
  class, skip, quit;
- in a file, for editors: `export` writes the queue as tab-separated lines, the reviewer
  marks each line's first column (+ accept, - reject, ? undecided) and may edit the word,
  concept or class; `apply` merges the decisions back, naming file and line of any bad line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from sqlalchemy.orm import Session

from topiccrawler.storage.models import TopicTerm
from topiccrawler.storage.terms import ACCEPTED, REJECTED, decide, pending
from topiccrawler.topics.model import TERM_CLASSES

FILE_HEADER = (
    "# Candidate terms for topic '{topic}'. Mark the first column: + accept, - reject, ? later.\n"
    "# You may edit the word, the concept (the library term it stands for) and the class\n"
    f"# ({', '.join(TERM_CLASSES)}). Then: topiccrawler terms review {{topic}} --apply FILE\n"
    "# decision\tword\tconcept\tclass\tprovenance\tscore\tid\n"
)
DECISIONS = {"+": ACCEPTED, "-": REJECTED, "?": None}


class ReviewFileError(ValueError):
    """A review file line that cannot be applied; `str()` reads `path:line: message`."""


def review_interactively(
    session: Session, topic: str, ask: Callable[[str], str], say: Callable[[str], None]
) -> dict[str, int]:
    """Walk the queue with a person; returns how many were accepted, rejected, skipped."""
    counts = {"accepted": 0, "rejected": 0, "skipped": 0}
    queue = pending(session, topic)
    say(f"{len(queue)} candidate terms for '{topic}'")
    for n, row in enumerate(queue, 1):
        word, concept, term_class = row.term, row.concept, row.term_class
        while True:
            score = f"{row.score:.2f}" if row.score is not None else "-"
            say(
                f"[{n}/{len(queue)}] {word}  → concept {concept} ({term_class})  "
                f"from {row.provenance}, score {score}"
            )
            answer = ask("[a]ccept [r]eject [e]dit word [o] concept [c]lass [s]kip [q]uit: ")
            answer = answer.strip().lower()[:1]
            if answer == "a":
                decide(row, ACCEPTED, term=word, concept=concept, term_class=term_class)
                counts["accepted"] += 1
            elif answer == "r":
                decide(row, REJECTED)
                counts["rejected"] += 1
            elif answer == "e":
                word = ask("word: ").strip() or word
                continue
            elif answer == "o":
                concept = (
                    ask("concept (a library term, or the word itself for a new term): ").strip()
                    or concept
                )
                continue
            elif answer == "c":
                choice = ask(f"class ({', '.join(TERM_CLASSES)}): ").strip()
                if choice in TERM_CLASSES:
                    term_class = choice
                else:
                    say(f"unknown class {choice!r}")
                continue
            elif answer == "q":
                counts["skipped"] += len(queue) - n + 1
                return counts
            else:
                counts["skipped"] += 1
            break
    return counts


def export_queue(session: Session, topic: str, out: TextIO) -> int:
    """Write the queue for an editor; returns how many candidates were written."""
    queue = pending(session, topic)
    out.write(FILE_HEADER.format(topic=topic))
    for row in queue:
        score = f"{row.score:.4f}" if row.score is not None else ""
        fields = ("?", row.term, row.concept, row.term_class, row.provenance, score, str(row.id))
        out.write("\t".join(f.replace("\t", " ") for f in fields) + "\n")
    return len(queue)


def apply_file(session: Session, topic: str, path: Path) -> dict[str, int]:
    """Merge an edited review file: every line is checked before anything is changed."""
    rows = {r.id: r for r in session.query(TopicTerm).filter(TopicTerm.topic == topic)}
    decisions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) != 7:
            raise ReviewFileError(
                f"{path}:{number}: expected 7 tab-separated fields, found {len(fields)}"
            )
        mark, word, concept, term_class, _, _, row_id = (f.strip() for f in fields)
        if mark not in DECISIONS:
            raise ReviewFileError(f"{path}:{number}: decision must be +, - or ?, not {mark!r}")
        if term_class not in TERM_CLASSES:
            raise ReviewFileError(f"{path}:{number}: unknown class {term_class!r}")
        if not row_id.isdigit() or int(row_id) not in rows:
            raise ReviewFileError(f"{path}:{number}: no candidate {row_id!r} for topic '{topic}'")
        if not word or not concept:
            raise ReviewFileError(f"{path}:{number}: the word and the concept may not be empty")
        decisions.append((rows[int(row_id)], DECISIONS[mark], word, concept, term_class))
    counts = {"accepted": 0, "rejected": 0, "skipped": 0}
    for row, status, word, concept, term_class in decisions:
        if status is None:
            counts["skipped"] += 1
            continue
        decide(row, status, term=word, concept=concept, term_class=term_class)
        counts[status] += 1
    return counts
