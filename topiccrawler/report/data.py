"""What the report shows, read from the store: every figure of the briefing as plain data, so
the HTML and the plots only lay it out."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from topiccrawler.storage.known_urls import as_utc
from topiccrawler.storage.models import Comment, CrawlRun, ForumPost, Page, TopicTerm
from topiccrawler.storage.stories import Story, reposted_stories
from topiccrawler.storage.terms import CANDIDATE

TOP_SITES = 15
TOP_NAMES = 20
TOP_STORIES = 8
SLOW_SITES = 10
# Pages a site banned the crawl with, per site, in a run's stats (runs stored before the ban
# middleware's stats were renamed say "blocks").
BAN_STAT_PREFIXES = ("topiccrawler/bans/site/", "topiccrawler/blocks/site/")


@dataclass
class SiteRow:
    site: str
    stored: int
    kept: int
    comments: int = 0
    posts: int = 0


@dataclass
class SiteHealth:
    site: str
    fetched: int
    mean_latency_ms: float | None
    blocked: int  # block pages seen (captchas, 403/429 …) over the runs


@dataclass
class ReportData:
    topic: str
    since: datetime | None
    generated_at: datetime
    pages: int = 0
    kept: int = 0
    comments: int = 0
    posts: int = 0
    runs: int = 0
    harvest: list[tuple[int, float]] = field(
        default_factory=list
    )  # (n-th page judged, rate so far)
    scores: list[float] = field(default_factory=list)  # relevance of every judged page
    kept_scores: list[float] = field(default_factory=list)
    dropped_scores: list[float] = field(default_factory=list)
    threshold: float | None = None
    threshold_how: str = ""  # "auto", "fixed", or "" (read off the verdicts)
    sites: list[SiteRow] = field(default_factory=list)
    records_per_day: dict[date, tuple[int, int]] = field(default_factory=dict)  # comments, posts
    keywords: list[tuple[str, float]] = field(default_factory=list)
    entities: list[tuple[str, str, int]] = field(default_factory=list)  # name, kind, mentions
    stories: list[Story] = field(default_factory=list)
    health: list[SiteHealth] = field(default_factory=list)
    candidates: list[TopicTerm] = field(default_factory=list)

    @property
    def harvest_rate(self) -> float | None:
        return self.kept / self.pages if self.pages else None


def gather(
    session: Session, topic: str, since: datetime | None = None, now: datetime | None = None
) -> ReportData:
    """Everything the report of `topic` shows, for pages fetched since `since` (all if None)."""
    data = ReportData(topic, since, now or datetime.now().astimezone())
    where = [Page.topic == topic]
    if since is not None:
        where.append(Page.fetched_at >= since)
    pages = session.execute(
        select(
            Page.id, Page.site, Page.fetched_at, Page.relevance, Page.is_relevant,
            Page.keywords, Page.entities,
        ).where(*where).order_by(Page.fetched_at, Page.id)
    ).all()  # fmt: skip
    data.pages = len(pages)
    judged = [p for p in pages if p.is_relevant is not None]
    kept = 0
    for n, page in enumerate(judged, 1):
        kept += bool(page.is_relevant)
        data.harvest.append((n, kept / n))
    data.kept = kept
    data.scores = [p.relevance for p in judged if p.relevance is not None]
    data.kept_scores = [p.relevance for p in judged if p.relevance is not None and p.is_relevant]
    data.dropped_scores = [
        p.relevance for p in judged if p.relevance is not None and not p.is_relevant
    ]
    data.threshold, data.threshold_how = _threshold(session, topic)

    by_site: dict[str, SiteRow] = {}
    for page in pages:
        row = by_site.setdefault(page.site, SiteRow(page.site, 0, 0))
        row.stored += 1
        row.kept += bool(page.is_relevant)
    page_site = {p.id: p.site for p in pages}
    per_day: dict[date, list[int]] = defaultdict(lambda: [0, 0])
    for index, table in enumerate((Comment, ForumPost)):
        rows = session.execute(
            select(table.page_id, table.published_at, table.first_seen_at).where(
                table.page_id.in_(list(page_site))
            )
        ).all() if page_site else []  # fmt: skip
        for row in rows:
            site = by_site[page_site[row.page_id]]
            if index == 0:
                site.comments += 1
                data.comments += 1
            else:
                site.posts += 1
                data.posts += 1
            when = as_utc(row.published_at) or as_utc(row.first_seen_at)
            per_day[when.date()][index] += 1
    data.records_per_day = {day: (c, p) for day, (c, p) in sorted(per_day.items())}
    data.sites = sorted(by_site.values(), key=lambda r: (-r.kept, -r.stored, r.site))

    weights: Counter[str] = Counter()
    named: Counter[tuple[str, str]] = Counter()
    for page in pages:
        if not page.is_relevant:
            continue
        for word, weight in page.keywords or []:
            weights[word] += weight
        for entity in page.entities or []:
            named[(entity["name"], entity["kind"])] += entity.get("mentions", 1)
    data.keywords = sorted(weights.items(), key=lambda p: (-p[1], p[0]))[:TOP_NAMES]
    data.entities = [
        (name, kind, n) for (name, kind), n in sorted(named.items(), key=lambda p: (-p[1], p[0]))
    ][:TOP_NAMES]
    data.stories = [
        s
        for s in reposted_stories(session, topic, limit=TOP_STORIES * 4)
        if since is None or any(as_utc(p.fetched_at) >= as_utc(since) for p in s.pages)
    ][:TOP_STORIES]
    data.health, data.runs = _site_health(session, topic, since)
    data.candidates = list(
        session.scalars(
            select(TopicTerm)
            .where(TopicTerm.topic == topic, TopicTerm.status == CANDIDATE)
            .order_by(TopicTerm.score.desc().nulls_last(), TopicTerm.term)
            .limit(30)
        )
    )
    return data


def _threshold(session: Session, topic: str) -> tuple[float | None, str]:
    """η of the latest crawl that recorded one, and how it was set ("auto" or "fixed"); for
    crawls from before η was recorded, read off the verdicts: between the lowest score of a
    kept page and the highest of a dropped one."""
    runs = session.scalars(
        select(CrawlRun).where(CrawlRun.topic == topic).order_by(CrawlRun.id.desc()).limit(20)
    ).all()
    for run in runs:
        state = (run.stats or {}).get("topiccrawler/relevance/threshold")
        if isinstance(state, dict) and state.get("threshold") is not None:
            return float(state["threshold"]), str(state.get("mode", ""))
    lowest_kept = session.scalar(
        select(func.min(Page.relevance)).where(Page.topic == topic, Page.is_relevant.is_(True))
    )
    highest_dropped = session.scalar(
        select(func.max(Page.relevance)).where(Page.topic == topic, Page.is_relevant.is_(False))
    )
    if lowest_kept is None or highest_dropped is None:
        return None, ""
    return (lowest_kept + highest_dropped) / 2, ""


def _site_health(
    session: Session, topic: str, since: datetime | None
) -> tuple[list[SiteHealth], int]:
    """Per site over the runs: pages fetched, mean time to answer, block pages seen. Sites
    that blocked come first, then the slowest."""
    where = [CrawlRun.topic == topic]
    if since is not None:
        where.append(CrawlRun.started_at >= since)
    fetched: Counter[str] = Counter()
    latency: Counter[str] = Counter()
    blocked: Counter[str] = Counter()
    runs = session.scalars(select(CrawlRun).where(*where)).all()
    for run in runs:
        stats = run.stats or {}
        summary = stats.get("topiccrawler/summary") or {}
        for site, counts in (summary.get("sites") or {}).items():
            fetched[site] += counts.get("fetched", 0)
            latency[site] += counts.get("latency_ms", 0)
        for key, value in stats.items():
            for prefix in BAN_STAT_PREFIXES:
                if key.startswith(prefix) and isinstance(value, int):
                    blocked[key[len(prefix) :]] += value
    rows = [
        SiteHealth(site, fetched[site], latency[site] / fetched[site] if fetched[site] else None,
                   blocked[site])
        for site in set(fetched) | set(blocked)
    ]  # fmt: skip
    rows.sort(key=lambda r: (-r.blocked, -(r.mean_latency_ms or 0), r.site))
    return rows[: SLOW_SITES + sum(r.blocked > 0 for r in rows)], len(runs)
