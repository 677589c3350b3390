"""What the web view shows, read from the store: one page with everything hanging off it, the
crawl runs, and a run's figures while it runs and after.

A running crawl writes its stats into its run's row every few seconds
(extensions/live_stats.py); everything else here is counted from what is stored, so the view
needs no process of its own beside the crawl.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from topiccrawler.storage.models import Comment, CrawlRun, ForumPost, ForumThread, Page
from topiccrawler.storage.runs import SUMMARY_KEY

LIVE_KEY = "topiccrawler/live"  # a running crawl's stats, by worker (extensions/live_stats.py)
SILENT_AFTER = 120  # seconds without new figures after which a run is shown as silent
CURVE_POINTS = 40  # points of a run's harvest curve


@dataclass
class RecordNode:
    """A comment or post with the replies under it."""

    record: Comment | ForumPost
    replies: list[RecordNode] = field(default_factory=list)


@dataclass
class PageView:
    page: Page
    comments: list[RecordNode]
    posts: list[ForumPost]
    threads: list[ForumThread]  # listed on it (a forum's thread list)
    story: list[Page]  # the page and its reposts, first publisher first; [] when it has none
    duplicate_of: Page | None

    @property
    def comment_count(self) -> int:
        def count(nodes: list[RecordNode]) -> int:
            return sum(1 + count(node.replies) for node in nodes)

        return count(self.comments)


def page_view(session: Session, page_id: int) -> PageView | None:
    page = session.get(Page, page_id)
    if page is None:
        return None
    comments = session.scalars(
        select(Comment).where(Comment.page_id == page_id).order_by(Comment.position, Comment.id)
    ).all()
    posts = session.scalars(
        select(ForumPost)
        .where(ForumPost.page_id == page_id)
        .order_by(ForumPost.position, ForumPost.id)
    ).all()
    threads = session.scalars(
        select(ForumThread).where(ForumThread.list_page_id == page_id).order_by(ForumThread.id)
    ).all()
    return PageView(
        page=page,
        comments=reply_tree(comments),
        posts=list(posts),
        threads=list(threads),
        story=story_of(session, page),
        duplicate_of=session.get(Page, page.duplicate_of_id) if page.duplicate_of_id else None,
    )


def reply_tree(records) -> list[RecordNode]:
    """Records in order, each reply under the latest earlier record by the author it answers
    (a comment's reply_to names an author); a reply to nobody known stays at the top."""
    top: list[RecordNode] = []
    latest_by_author: dict[str, RecordNode] = {}
    for record in records:
        node = RecordNode(record)
        parent = latest_by_author.get(record.reply_to) if record.reply_to else None
        (parent.replies if parent is not None else top).append(node)
        if record.author:
            latest_by_author[record.author] = node
    return top


def story_of(session: Session, page: Page) -> list[Page]:
    """The page's story: the first publisher (following duplicate_of up) and every page that
    reposts it, in time order; [] for a page nobody reposted and that reposts nothing."""
    root, seen = page, {page.id}
    while root.duplicate_of_id and root.duplicate_of_id not in seen:
        parent = session.get(Page, root.duplicate_of_id)
        if parent is None:
            break
        seen.add(parent.id)
        root = parent
    members, frontier = {root.id: root}, [root.id]
    while frontier:  # reposts of reposts too
        children = session.scalars(
            select(Page).where(Page.duplicate_of_id.in_(frontier), Page.topic == page.topic)
        ).all()
        frontier = [c.id for c in children if c.id not in members]
        members.update((c.id, c) for c in children)
    if len(members) == 1:
        return []
    return sorted(members.values(), key=lambda p: (_utc(p.published_at or p.fetched_at), p.id))


@dataclass
class RunFigures:
    """One crawl run as the crawls view shows it."""

    run: CrawlRun
    running: bool
    state: str  # "running", "finished", "interrupted", "killed", ...
    fetched: int | None
    stored: int
    kept: int
    comments: int
    posts: int
    threshold: float | None
    failures: dict[str, int]
    curve: list[tuple[int, float]]  # (pages stored so far, share of them kept)
    updated_at: str | None  # when a running crawl last wrote its stats

    @property
    def harvest(self) -> float | None:
        return self.kept / self.stored if self.stored else None

    def as_dict(self) -> dict:
        return {
            "id": self.run.id,
            "topic": self.run.topic,
            "state": self.state,
            "running": self.running,
            "started_at": _iso(self.run.started_at),
            "finished_at": _iso(self.run.finished_at),
            "fetched": self.fetched,
            "stored": self.stored,
            "kept": self.kept,
            "harvest": None if self.harvest is None else round(self.harvest, 3),
            "comments": self.comments,
            "posts": self.posts,
            "threshold": self.threshold,
            "failures": self.failures,
            "curve": [[n, round(h, 3)] for n, h in self.curve],
            "updated_at": self.updated_at,
        }


def runs(session: Session, topic: str | None = None, limit: int = 100) -> list[CrawlRun]:
    statement = select(CrawlRun).order_by(CrawlRun.started_at.desc(), CrawlRun.id.desc())
    if topic:
        statement = statement.where(CrawlRun.topic == topic)
    return list(session.scalars(statement.limit(limit)))


def run_figures(session: Session, run: CrawlRun, curve: bool = True) -> RunFigures:
    """A run's figures: counted from its stored pages, with what its stats add (pages
    fetched, η, failures by cause): the final summary once it ended, its live stats before."""
    stats = run.stats or {}
    summary = stats.get(SUMMARY_KEY) or {}
    live = stats.get(LIVE_KEY) or {}
    running = run.finished_at is None
    counted = session.execute(
        select(func.count(), func.count().filter(Page.is_relevant.is_(True))).where(
            Page.crawl_run_id == run.id
        )
    ).one()
    stored, kept = counted[0] or 0, counted[1] or 0
    records = {
        name: session.scalar(
            select(func.count())
            .select_from(model)
            .join(Page, Page.id == model.page_id)
            .where(Page.crawl_run_id == run.id)
        )
        or 0
        for name, model in (("comments", Comment), ("posts", ForumPost))
    }
    if summary:
        fetched = summary.get("pages_fetched")
        threshold = (summary.get("threshold") or {}).get("threshold")
        failures = dict(summary.get("failures") or {})
        updated = _iso(run.finished_at)
    else:
        fetched = sum(w.get("fetched", 0) for w in live.values()) if live else None
        thresholds = [w.get("threshold") for w in live.values() if w.get("threshold") is not None]
        threshold = thresholds[-1] if thresholds else None
        failures = {}
        for worker in live.values():
            for cause, count in (worker.get("failures") or {}).items():
                failures[cause] = failures.get(cause, 0) + count
        updated = max((w.get("at", "") for w in live.values()), default=None) or None
    state = _state(run, summary, updated)
    return RunFigures(
        run=run, running=running, state=state, fetched=fetched, stored=stored, kept=kept,
        comments=records["comments"], posts=records["posts"], threshold=threshold,
        failures=dict(sorted(failures.items(), key=lambda p: -p[1])),
        curve=harvest_curve(session, run.id) if curve else [], updated_at=updated,
    )  # fmt: skip


def harvest_curve(session: Session, run_id: int) -> list[tuple[int, float]]:
    """The share of stored pages kept as relevant, after each stretch of pages in fetch order."""
    verdicts = session.scalars(
        select(Page.is_relevant)
        .where(Page.crawl_run_id == run_id)
        .order_by(Page.fetched_at, Page.id)
    ).all()
    if not verdicts:
        return []
    step = max(1, len(verdicts) // CURVE_POINTS)
    curve, kept = [], 0
    for n, relevant in enumerate(verdicts, start=1):
        kept += bool(relevant)
        if n % step == 0 or n == len(verdicts):
            curve.append((n, kept / n))
    return curve


def _state(run: CrawlRun, summary: dict, updated: str | None) -> str:
    """How the run ended; "running" while its figures come, "silent" when they stopped coming
    (a crawl killed, or its machine gone: the next crawl of the topic records it as killed)."""
    if run.finished_at is None:
        last = datetime.fromisoformat(updated) if updated else _utc(run.started_at)
        silent = (datetime.now(UTC) - _utc(last)).total_seconds() > SILENT_AFTER
        return "silent" if silent else "running"
    outcome = summary.get("outcome")
    if outcome and outcome != "ok":
        return str(outcome)
    return run.finish_reason or "finished"


def _utc(moment: datetime | None) -> datetime:
    if moment is None:
        return datetime.min.replace(tzinfo=UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _iso(moment: datetime | None) -> str | None:
    return _utc(moment).isoformat() if moment else None
