"""Score what a crawl of the sandbox stored against the sandbox's ground truth."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from topiccrawler.sandbox.web import SandboxWeb, Truth
from topiccrawler.storage.models import Comment, ForumPost, Page


def truth_key(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return (parts.hostname or "").lower(), parts.path + (f"?{parts.query}" if parts.query else "")


def _on_sandbox(web: SandboxWeb, url: str, port: int | None) -> bool:
    parts = urlsplit(url)
    return (parts.hostname or "").lower() in web.site_names and (port is None or parts.port == port)


def truth_for(web: SandboxWeb, url: str) -> Truth | None:
    resource = web.resources.get(truth_key(url))
    return resource.truth if resource else None


def is_genuine(truth: Truth, body: str | None, title: str | None = None) -> bool:
    """True when a stored body holds the page's real text (its first paragraph), not a captcha,
    a ban or an error page that came back in its place. A page stored without its text (dropped
    as irrelevant) is judged by its title."""
    if body is None and title is not None:
        return not truth.title or truth.title in title
    if not truth.body:
        return True
    first = " ".join(truth.body.split("\n", 1)[0].split())
    return first in " ".join((body or "").split())


@dataclass
class CrawlScore:
    """A crawl's stored pages measured against the ground truth of the pages it fetched."""

    pages: int  # stored pages
    relevant_fetched: int  # stored pages that the truth calls relevant, with their real text
    not_genuine: int  # stored pages whose body is not the page's text (captcha, ban, error page)
    relevant_in_web: int  # relevant pages the sandbox holds
    kept: int  # pages the relevance stage kept (0 while it is not installed)
    kept_relevant: int  # of those, relevant per the truth
    decided: int  # pages with a relevance decision
    comments_stored: int
    comments_true: int  # comments the truth has on the fetched pages (server-rendered and JS)
    posts_stored: int
    posts_true: int
    comments_right: int  # stored comments the truth has on their page: text, author, time
    posts_right: int
    comments_kept_true: int  # truth's comments on the pages the crawl kept (stored text)
    posts_kept_true: int
    duplicates_marked: int
    duplicates_correct: int  # marked pages whose mark points into the same story
    reposts_findable: int  # genuinely fetched reposts whose story had another page fetched too
    reposts_fetched: int  # fetched pages the truth calls reposts
    # Feeds and sitemaps: stored pages found through them, and the relevant articles only they
    # lead to (in the web, and stored with their real text).
    via_feeds: int = 0
    via_sitemaps: int = 0
    feed_only_in_web: int = 0
    feed_only_stored: int = 0
    sitemap_only_in_web: int = 0
    sitemap_only_stored: int = 0

    @property
    def harvest_rate(self) -> float:
        return self.relevant_fetched / self.pages if self.pages else 0.0

    @property
    def recall(self) -> float:
        return self.relevant_fetched / self.relevant_in_web if self.relevant_in_web else 0.0


def score_crawl(
    session: Session, web: SandboxWeb, topic: str, port: int | None = None
) -> CrawlScore:
    """Score the topic's stored pages on the sandbox's hosts (at `port` when given: pages of a
    sandbox served on another port, or of the real web in a shared database, are not this
    crawl's)."""
    rows = session.execute(
        select(
            Page.id,
            Page.url,
            Page.is_relevant,
            Page.duplicate_of_id,
            Page.body,
            Page.title,
            Page.found_by,
        ).where(Page.topic == topic)
    ).all()
    pages = [row[:6] for row in rows if _on_sandbox(web, row[1], port)]
    found_by = Counter(row[6] for row in rows if _on_sandbox(web, row[1], port))
    only_stored: Counter[str] = Counter()
    relevant_fetched = not_genuine = kept = kept_relevant = decided = comments_true = posts_true = (
        reposts
    ) = comments_kept_true = posts_kept_true = 0
    for _, url, is_relevant, _, body, title in pages:
        truth = truth_for(web, url)
        if truth is None:
            continue
        if not is_genuine(truth, body, title):
            not_genuine += 1
            continue
        relevant_fetched += truth.relevant
        if truth.found_only and truth.relevant:
            only_stored[truth.found_only] += 1
        comments_true += len(truth.comments)
        posts_true += len(truth.posts)
        if is_relevant is not False:
            comments_kept_true += len(truth.comments)
            posts_kept_true += len(truth.posts)
        reposts += truth.duplicate_of is not None
        if is_relevant is not None:
            decided += 1
            kept += bool(is_relevant)
            kept_relevant += bool(is_relevant) and truth.relevant
    ids = [row[0] for row in pages]
    url_of = {row[0]: row[1] for row in pages}

    def story(url: str) -> tuple[str, str]:
        key = truth_key(url)
        truth = truth_for(web, url)
        return truth.duplicate_of if truth is not None and truth.duplicate_of else key

    marked = [(row[1], url_of.get(row[3])) for row in pages if row[3] is not None]
    correct = sum(1 for url, target in marked if target and story(url) == story(target))
    stories = Counter(
        story(row[1])
        for row in pages
        if (t := truth_for(web, row[1])) is not None and is_genuine(t, row[4], row[5])
    )

    def count(model) -> int:
        if not ids:
            return 0
        return (
            session.scalar(select(func.count()).select_from(model).where(model.page_id.in_(ids)))
            or 0
        )

    def right(model, kind: str) -> int:
        """Stored records that are the truth's own: same text and author, time as written."""
        rows = session.execute(
            select(model.page_id, model.text, model.author, model.published_text).where(
                model.page_id.in_(ids)
            )
        ).all()
        hits = 0
        for page_id, text, author, written in rows:
            truth = truth_for(web, url_of[page_id])
            hits += any(
                r.text == text and r.author == author and r.time in (written or "")
                for r in (getattr(truth, kind) if truth else ())
            )
        return hits

    only_in_web = Counter(
        t.found_only for _, _, t in web.pages_with_truth() if t.found_only and t.relevant
    )
    return CrawlScore(
        comments_right=right(Comment, "comments") if ids else 0,
        posts_right=right(ForumPost, "posts") if ids else 0,
        comments_kept_true=comments_kept_true,
        posts_kept_true=posts_kept_true,
        pages=len(pages),
        relevant_fetched=relevant_fetched,
        not_genuine=not_genuine,
        relevant_in_web=sum(t.relevant for _, _, t in web.pages_with_truth()),
        kept=kept,
        kept_relevant=kept_relevant,
        decided=decided,
        comments_stored=count(Comment),
        comments_true=comments_true,
        posts_stored=count(ForumPost),
        posts_true=posts_true,
        duplicates_marked=len(marked),
        duplicates_correct=correct,
        reposts_findable=sum(n - 1 for n in stories.values() if n > 1),
        reposts_fetched=reposts,
        via_feeds=found_by["feed"],
        via_sitemaps=found_by["sitemap"],
        feed_only_in_web=only_in_web["feed"],
        feed_only_stored=only_stored["feed"],
        sitemap_only_in_web=only_in_web["sitemap"],
        sitemap_only_stored=only_stored["sitemap"],
    )
