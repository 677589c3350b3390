"""The propagation table of the seeding paper: for each reposted story, its first publisher
and the sites that reposted it, in time order."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from topiccrawler.storage.known_urls import as_utc
from topiccrawler.storage.models import Page


@dataclass
class Story:
    title: str
    pages: list[Page]  # first publisher first (earliest publish time, else fetch time)

    @property
    def sites(self) -> list[str]:
        return list(dict.fromkeys(p.site for p in self.pages))


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
    return stories[:limit]
