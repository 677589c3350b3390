"""The propagation table of the seeding paper (and the collection-system paper's event table):
for each reposted story, its first publisher, the sites that reposted it in time order, the
attention it drew (comments and posts on all its pages), its keywords and the people, places and
organisations it names."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from topiccrawler.storage.known_urls import as_utc
from topiccrawler.storage.models import Comment, ForumPost, Page


@dataclass
class Story:
    title: str
    pages: list[Page]  # first publisher first (earliest publish time, else fetch time)
    attention: int = 0  # comments and posts stored on all its pages
    keywords: list[str] = field(default_factory=list)  # over its pages, most weighty first
    entities: list[tuple[str, str]] = field(default_factory=list)  # (name, kind), most named first

    @property
    def sites(self) -> list[str]:
        return list(dict.fromkeys(p.site for p in self.pages))

    @property
    def first(self) -> Page:
        return self.pages[0]

    @property
    def summary(self) -> str | None:
        """The first publisher's summary, else the first one a repost has."""
        return next((p.summary for p in self.pages if p.summary), None)


def describe(session: Session, story: Story, n_keywords: int = 8, n_entities: int = 8) -> Story:
    """Fill a story's attention, keywords and entities from its stored pages."""
    ids = [p.id for p in story.pages]
    story.attention = sum(
        session.scalar(select(func.count()).select_from(table).where(table.page_id.in_(ids))) or 0
        for table in (Comment, ForumPost)
    )
    weights: Counter[str] = Counter()
    named: Counter[tuple[str, str]] = Counter()
    for page in story.pages:
        for word, weight in page.keywords or []:
            weights[word] += weight
        for entity in page.entities or []:
            named[(entity["name"], entity["kind"])] += entity.get("mentions", 1)
    story.keywords = [w for w, _ in sorted(weights.items(), key=lambda p: (-p[1], p[0]))][
        :n_keywords
    ]
    story.entities = [e for e, _ in sorted(named.items(), key=lambda p: (-p[1], p[0]))][:n_entities]
    return story


def reposted_stories(session: Session, topic: str, limit: int = 50) -> list[Story]:
    """Stories with at least one repost, most reposted first."""
    reposts = session.scalars(
        select(Page).where(Page.topic == topic, Page.duplicate_of_id.is_not(None))
    ).all()
    if not reposts:
        return []
    parents = {p.id: p.duplicate_of_id for p in reposts}
    wanted = set(parents.values()) | set(parents)
    pages = {p.id: p for p in session.scalars(select(Page).where(Page.id.in_(wanted)))}

    def root(page_id: int) -> int:
        seen = set()
        while page_id in parents and page_id not in seen:
            seen.add(page_id)
            page_id = parents[page_id]
        return page_id

    groups: dict[int, list[Page]] = defaultdict(list)
    for page_id, page in pages.items():
        groups[root(page_id)].append(page)
    stories = []
    for root_id, members in groups.items():
        members.sort(key=lambda p: (as_utc(p.published_at) or as_utc(p.fetched_at), p.id))
        anchor = pages.get(root_id, members[0])
        stories.append(Story(anchor.title or anchor.url, members))
    stories.sort(key=lambda s: (-len(s.pages), s.title))
    return [describe(session, story) for story in stories[:limit]]
