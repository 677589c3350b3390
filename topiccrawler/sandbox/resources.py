"""What the sandbox web is made of: resources by host and path, each page's ground truth, the
stories pages tell, and the placeholder where the server's port goes. The builders
(sandbox/web.py, sandbox/huge.py, sandbox/feeds.py) make them; the server and the fake search
engines read them."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime

PORT_MARK = "__PORT__"  # in rendered pages, where the server's port goes (substituted when served)


def origin(host: str) -> str:
    return f"http://{host}:{PORT_MARK}"


@dataclass
class Record:
    """A comment or post as the ground truth knows it (time as written on the page)."""

    text: str
    author: str
    time: str

    def as_dict(self) -> dict:
        return {"text": self.text, "author": self.author, "time": self.time}


@dataclass
class Truth:
    """What a correct crawler extracts from one page."""

    kind: str
    relevant: bool
    topic: str | None = None
    title: str | None = None
    body: str | None = None
    comments: list[Record] = field(default_factory=list)
    posts: list[Record] = field(default_factory=list)
    threads: list[dict] = field(default_factory=list)
    duplicate_of: tuple[str, str] | None = None
    # "feed" or "sitemap": reachable only through the site's feeds or sitemaps (sandbox/feeds.py)
    found_only: str | None = None


@dataclass
class Resource:
    """One URL's answer. `gate` names a server behaviour: login, slow, strict, js-comments."""

    content_type: str
    body: bytes
    status: int = 200
    truth: Truth | None = None
    gate: str | None = None
    searchable: str | None = None  # text the search engines index, if any
    delay: float = 0.0  # seconds the server waits before answering (a slow site)


@dataclass
class Story:
    topic: str
    title: str
    paragraphs: list[str]
    published: datetime
    author: str


class SandboxWeb:
    """All resources by (host, path), the site names, and the search index."""

    def __init__(self, seed: int, size: str):
        self.seed = seed
        self.size = size
        self.resources: dict[tuple[str, str], Resource] = {}
        self.site_names: dict[str, str] = {}
        # What changes as the server's clock advances: day → resources that replace others.
        self.changes: dict[int, dict[tuple[str, str], Resource]] = {}

    def add(self, host: str, path: str, resource: Resource) -> None:
        self.resources[(host, path)] = resource

    def url(self, host: str, path: str, port: int) -> str:
        return f"http://{host}:{port}{path}"

    def pages_with_truth(self):
        """(host, path, truth) for every page that has ground truth."""
        for (host, path), resource in self.resources.items():
            if resource.truth is not None:
                yield host, path, resource.truth

    def searchable(self):
        for (host, path), resource in self.resources.items():
            if resource.searchable:
                yield host, path, resource


def altered_title(title: str, rng: random.Random) -> str:
    """The small edits reposting sites make: punctuation, spacing, a prefix."""
    changes = [
        lambda t: t.replace("：", ":"),
        lambda t: t.replace("，", " "),
        lambda t: t,
        lambda t: rng.choice(["", "关注 | ", "热点："]) + t,
    ]
    return rng.choice(changes)(title)
