"""The sandbox at size `huge`: a web of 150,000+ pages rendered on request, never stored.

The other sizes build every page up front (sandbox/web.py); at this size that would hold
gigabytes in the server, so a page here is a pure function of (seed, host, path): the server
renders it when asked and forgets it, and its memory stays flat however long a crawl runs.
Each page draws from its own random generator seeded with that triple, so the same seed serves
the same bytes in any order, and the truth of a page is what rendering it yields.

The web (`HUGE_PLAN`; hosts under `huge.test`):
- news portals: paged section lists, articles with comment sections (none, a few, 10–16),
  related links within the site, links to other portals' articles, dead links (404 paths and
  hosts that do not exist), an RSS feed of the latest articles announced on the home page;
  each portal has its own share of tax articles, from none to most;
- slow portals (every page answers after a delay, one article in 97 after `slow_seconds`,
  a timeout) and strict portals (captcha to bots, 429 when hit fast: the server's `strict` gate);
- Discuz-style forums: boards of paged thread lists, threads from one post to 400 (40 pages);
- repost sites: copies of portals' tax articles under altered titles (truth: `duplicate_of`).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from topiccrawler.sandbox import render
from topiccrawler.sandbox.feeds import rss_feed
from topiccrawler.sandbox.resources import Record, Resource, Story, Truth, altered_title, origin
from topiccrawler.sandbox.text import OTHER_TOPICS, Writer, format_time
from topiccrawler.sandbox.web import BING, SEARXNG, TOPIC

DOMAIN = "huge.test"
# Sites by kind, and what each holds: ~100k portal articles, ~50k forum pages, ~8k reposts.
HUGE_PLAN = {
    "news": 180,  # portals, NEWS_ARTICLES articles each (of them SLOW_SITES slow, STRICT_SITES strict)
    "bbs": 40,  # forums, FORUM_BOARDS boards of FORUM_THREADS threads each
    "repost": 20,  # repost sites, REPOSTS copies each
}
NEWS_ARTICLES = 560
NEWS_PER_LIST = 20
SECTIONS = ("finance", "society", "life")
FORUM_BOARDS = 4
FORUM_THREADS = 60
THREADS_PER_LIST = 20
POSTS_PER_PAGE = 10
REPOSTS = 400
SLOW_SITES = 4  # the first news portals answer every page late
SLOW_DELAY = (0.2, 0.8)  # seconds, drawn per page
SLOW_EVERY = 97  # one article in this many on a slow portal answers after slow_seconds
STRICT_SITES = 3  # the next ones have the strict gate (captcha to bots, 429 when hit fast)
DEAD_HOSTS = 50  # gone0.huge.test …: linked from articles, served by nobody
FEED_ITEMS = 20
EPOCH = datetime(2025, 6, 1, 8, 0)
SITE_WORDS = ("华夏", "东方", "南国", "北方", "长江", "珠江", "中原", "西部", "海峡", "京华")


def _rng(seed: int, *parts) -> random.Random:
    """The generator of one page or one fact of it: seeded with a string (hashed with SHA-512 by
    `random`), so it is the same in every process and independent of every other page's."""
    return random.Random("/".join(map(str, (seed, *parts))))


class _OnDemand:
    """The `resources` mapping the server and truth read, rendering each page when asked."""

    def __init__(self, web: HugeWeb):
        self.web = web

    def get(self, key: tuple[str, str], default=None) -> Resource | None:
        resource = self.web.render(*key)
        return default if resource is None else resource

    def __contains__(self, key) -> bool:
        return self.get(key) is not None

    def update(self, changes: dict) -> None:
        if changes:
            raise ValueError("the huge sandbox web does not change over time")


class HugeWeb:
    """The interface of `SandboxWeb` (resources, site_names, changes, pages_with_truth,
    searchable), with every page rendered from (seed, host, path) on request."""

    size = "huge"

    def __init__(self, seed: int = 1, plan: dict[str, int] | None = None):
        self.seed = seed
        self.plan = dict(plan or HUGE_PLAN)
        self.resources = _OnDemand(self)
        self.changes: dict[int, dict] = {}
        self.news = [f"news{i:03d}.{DOMAIN}" for i in range(self.plan["news"])]
        self.forums = [f"bbs{i:03d}.{DOMAIN}" for i in range(self.plan["bbs"])]
        self.reposters = [f"repost{i:03d}.{DOMAIN}" for i in range(self.plan["repost"])]
        self.kind = {h: "news" for h in self.news}
        self.kind |= {h: "bbs" for h in self.forums} | {h: "repost" for h in self.reposters}
        self.site_names = {
            host: f"{SITE_WORDS[i % len(SITE_WORDS)]}{label}{i:03d}"
            for hosts, label in ((self.news, "新闻网"), (self.forums, "论坛"),
                                 (self.reposters, "转载网"))
            for i, host in enumerate(hosts)
        }  # fmt: skip
        self.site_names |= {SEARXNG: "SearXNG（沙盒）", BING: "必应（沙盒）"}
        # Each portal's share of tax articles: a few mostly tax, most a little, some none.
        self.tax_share = {}
        for host in self.news:
            roll = _rng(seed, host, "share").random()
            self.tax_share[host] = 0.7 if roll < 0.15 else 0.2 if roll < 0.6 else 0.0
        # Article numbers by (host, section): one list of ints per portal and section (~0.3 MB
        # for the whole web), so that a section's list pages do not redraw 560 topics each.
        self._sections: dict[tuple[str, str], list[int]] = {}
        self.slow = set(self.news[:SLOW_SITES])
        self.strict = set(self.news[SLOW_SITES : SLOW_SITES + STRICT_SITES])

    def url(self, host: str, path: str, port: int) -> str:
        return f"http://{host}:{port}{path}"

    # --- the whole web, lazily ------------------------------------------------------------------

    def paths(self, host: str) -> Iterator[str]:
        """Every page path of a site, home first."""
        yield "/"
        kind = self.kind[host]
        if kind == "news":
            for section in SECTIONS:
                for page in range(1, self._news_lists(host, section) + 1):
                    yield _news_list_path(section, page)
            for n in range(NEWS_ARTICLES):
                yield f"/a/{n}.html"
            yield "/rss.xml"
        elif kind == "bbs":
            yield "/forum.php"
            for board in range(1, FORUM_BOARDS + 1):
                for page in range(1, -(-FORUM_THREADS // THREADS_PER_LIST) + 1):
                    yield f"/forum-{board}-{page}.html"
                for t in range(FORUM_THREADS):
                    tid = _tid(board, t)
                    for page in range(1, self._thread_pages(host, tid) + 1):
                        yield f"/thread-{tid}-{page}-1.html"
        else:
            for page in range(1, -(-REPOSTS // NEWS_PER_LIST) + 1):
                yield f"/r/index_{page}.html"
            for n in range(REPOSTS):
                yield f"/r/{n}.html"

    def pages_with_truth(self) -> Iterator[tuple[str, str, Truth]]:
        """(host, path, truth) of every page, rendered one at a time (minutes for all of them:
        meant for samples and tests, not for scoring a crawl; see `is_relevant`)."""
        for host in self.kind:
            for path in self.paths(host):
                resource = self.render(host, path)
                if resource is not None and resource.truth is not None:
                    yield host, path, resource.truth

    def page_count(self) -> int:
        return sum(sum(1 for _ in self.paths(host)) for host in self.kind)

    def searchable(self) -> Iterator[tuple[str, str, Resource]]:
        """What the search engines index: each portal's first 10 articles (bounded, so the
        server's index stays small)."""
        for host in self.news:
            for n in range(10):
                resource = self.render(host, f"/a/{n}.html")
                if resource is not None and resource.searchable:
                    yield host, f"/a/{n}.html", resource

    def is_relevant(self, url: str) -> bool:
        """The truth's relevance of a URL without rendering its page (cheap: a crawl's harvest
        over 100,000 pages is scored with it)."""
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        path = parts.path
        kind = self.kind.get(host)
        if kind == "news" and path.startswith("/a/"):
            n = _number(path[3:].removesuffix(".html"))
            return n is not None and n < NEWS_ARTICLES and self._article_topic(host, n) == TOPIC
        if kind == "bbs" and path.startswith("/thread-"):
            tid = _number(path.split("-")[1])
            return tid is not None and self._thread_topic(host, tid) == TOPIC
        if kind == "repost" and path.startswith("/r/") and not path.startswith("/r/index"):
            n = _number(path[3:].removesuffix(".html"))
            return n is not None and n < REPOSTS  # reposts copy tax articles only
        return False

    # --- rendering ------------------------------------------------------------------------------

    def render(self, host: str, path: str) -> Resource | None:
        """The resource at (host, path), or None (a 404)."""
        kind = self.kind.get(host)
        if kind is None:
            return self._robots() if host in (SEARXNG, BING) and path == "/robots.txt" else None
        if path == "/robots.txt":
            return self._robots()
        try:
            if kind == "news":
                resource = self._news(host, path)
            elif kind == "bbs":
                resource = self._forum(host, path)
            else:
                resource = self._repost_site(host, path)
        except ValueError:  # a path with a number that does not parse
            return None
        if resource is not None and host in self.slow:
            resource.delay = _rng(self.seed, host, path, "delay").uniform(*SLOW_DELAY)
        return resource

    def _robots(self) -> Resource:
        return Resource("text/plain", b"User-agent: *\nDisallow:\n")

    def _page(self, markup: str, truth: Truth, gate: str | None = None) -> Resource:
        text = None
        if truth.title and truth.kind == "article":
            text = truth.title + "\n" + (truth.body or "")
        return Resource(
            "text/html",
            markup.encode("utf-8", errors="xmlcharrefreplace"),
            truth=truth,
            gate=gate,
            searchable=text,
        )

    # --- news portals ---

    def _article_topic(self, host: str, n: int) -> str:
        rng = _rng(self.seed, host, n, "topic")
        return TOPIC if rng.random() < self.tax_share[host] else rng.choice(OTHER_TOPICS)

    def _published(self, host: str, n: int) -> datetime:
        return EPOCH + timedelta(hours=7 * n + _rng(self.seed, host, n, "time").randint(0, 6))

    def _title(self, host: str, n: int) -> str:
        topic = self._article_topic(host, n)
        write = Writer(_rng(self.seed, host, n, "title"))
        return write.tax_title() if topic == TOPIC else write.other_title(topic)

    def _story(self, host: str, n: int) -> Story:
        topic = self._article_topic(host, n)
        write = Writer(_rng(self.seed, host, n, "body"))
        count = write.rng.randint(3, 7)
        paragraphs = (
            write.tax_paragraphs(count) if topic == TOPIC else write.other_paragraphs(topic, count)
        )
        return Story(topic, self._title(host, n), paragraphs, self._published(host, n),
                     write.nickname())  # fmt: skip

    def _section(self, host: str, n: int) -> str:
        return (
            "finance"
            if self._article_topic(host, n) in (TOPIC, "markets")
            else (SECTIONS[1 + n % 2])
        )

    def _section_articles(self, host: str, section: str) -> list[int]:
        """Article numbers of a section, newest first (cheap: topics only)."""
        numbers = self._sections.get((host, section))
        if numbers is None:
            numbers = [n for n in range(NEWS_ARTICLES) if self._section(host, n) == section][::-1]
            self._sections[(host, section)] = numbers
        return numbers

    def _news_lists(self, host: str, section: str) -> int:
        return max(1, -(-len(self._section_articles(host, section)) // NEWS_PER_LIST))

    def _news(self, host: str, path: str) -> Resource | None:
        name = self.site_names[host]
        gate = "strict" if host in self.strict else None
        if path == "/":
            links = [(f"{section}频道", _news_list_path(section, 1)) for section in SECTIONS]
            latest = [(self._title(host, n), f"/a/{n}.html")
                      for n in range(NEWS_ARTICLES - 1, NEWS_ARTICLES - 11, -1)]  # fmt: skip
            head = (f'<link rel="alternate" type="application/rss+xml" title="{name}" '
                    f'href="{origin(host)}/rss.xml">\n')  # fmt: skip
            markup = render.listing_page(name, name, links + latest, heading="栏目导航", head=head)
            return self._page(markup, Truth(kind="list", relevant=False), gate)
        if path == "/rss.xml":
            items = [(self._title(host, n), f"/a/{n}.html", self._published(host, n))
                     for n in range(NEWS_ARTICLES - 1, NEWS_ARTICLES - 1 - FEED_ITEMS, -1)]  # fmt: skip
            return Resource("application/rss+xml", rss_feed(name, host, items).encode("utf-8"))
        if path.startswith("/a/") and path.endswith(".html"):
            n = int(path[3:-5])
            if not 0 <= n < NEWS_ARTICLES:
                return None
            if host in self.slow and n % SLOW_EVERY == SLOW_EVERY - 1:
                return Resource("text/html", b"<html><body>late</body></html>", gate="slow")
            return self._article(host, n, gate)
        for section in SECTIONS:
            if path.startswith(f"/{section}/index"):
                page = (
                    1
                    if path == f"/{section}/index.html"
                    else int(path.removeprefix(f"/{section}/index_").removesuffix(".html"))
                )
                return self._news_list(host, section, page, gate)
        return None

    def _news_list(self, host: str, section: str, page: int, gate: str | None):
        numbers = self._section_articles(host, section)
        pages = max(1, -(-len(numbers) // NEWS_PER_LIST))
        if not 1 <= page <= pages:
            return None
        chunk = numbers[(page - 1) * NEWS_PER_LIST : page * NEWS_PER_LIST]
        links = [(self._title(host, n), f"/a/{n}.html") for n in chunk]
        pager = []
        if page > 1:
            pager.append(("上一页", _news_list_path(section, page - 1)))
        if page < pages:
            pager.append(("下一页", _news_list_path(section, page + 1)))
        name = self.site_names[host]
        markup = render.listing_page(name, f"{section}频道 第{page}页", links, pager=pager)
        return self._page(markup, Truth(kind="list", relevant=False), gate)

    def _article(self, host: str, n: int, gate: str | None) -> Resource:
        story = self._story(host, n)
        rng = _rng(self.seed, host, n, "page")
        write = Writer(rng)
        roll = rng.random()
        count = 0 if roll < 0.4 else rng.randint(1, 4) if roll < 0.65 else rng.randint(10, 16)
        times = sorted(write.time_after(story.published, 72) for _ in range(count))
        comments = [Record(write.comment(story.topic == TOPIC), write.nickname(),
                           format_time(t, "iso")) for t in times]  # fmt: skip
        related = [(self._title(host, m), f"/a/{m}.html")
                   for m in sorted({(n + d) % NEWS_ARTICLES for d in (1, 2, 3, -1, -2, 17)})]  # fmt: skip
        for _ in range(2):  # other portals' articles: the web is one graph
            other = rng.choice(self.news)
            m = rng.randrange(NEWS_ARTICLES)
            related.append((self._title(other, m), f"{origin(other)}/a/{m}.html"))
        if rng.random() < 0.1:  # dead links: a page the site no longer has, a host that is gone
            related.append(("旧闻回顾", f"/a/{NEWS_ARTICLES + rng.randrange(10_000)}.html"))
        if rng.random() < 0.05:
            gone = f"gone{rng.randrange(DEAD_HOSTS)}.{DOMAIN}"
            related.append(("合作媒体", f"{origin(gone)}/a/{rng.randrange(1000)}.html"))
        name = self.site_names[host]
        markup = render.portal_a_article(name, self._section(host, n), story, f"-{name}",
                                         comments, related)  # fmt: skip
        truth = Truth(kind="article", relevant=story.topic == TOPIC, topic=story.topic,
                      title=story.title, body="\n".join(story.paragraphs), comments=comments)  # fmt: skip
        return self._page(markup, truth, gate)

    # --- forums ---

    def _thread_topic(self, host: str, tid: int) -> str:
        board = tid // 1000
        return TOPIC if (board + _rng(self.seed, host, "boards").randrange(2)) % 2 else "culture"

    def _thread_replies(self, host: str, tid: int) -> int:
        rng = _rng(self.seed, host, tid, "replies")
        return rng.choice([0, 1, 3, 8, 14, 25, 40, 60, 120, 250, 399])

    def _thread_pages(self, host: str, tid: int) -> int:
        return (self._thread_replies(host, tid) + 1 + POSTS_PER_PAGE - 1) // POSTS_PER_PAGE

    def _thread_title(self, host: str, tid: int) -> str:
        topic = self._thread_topic(host, tid)
        write = Writer(_rng(self.seed, host, tid, "title"))
        return write.tax_title() if topic == TOPIC else write.other_title(topic)

    def _thread_start(self, host: str, tid: int) -> datetime:
        return EPOCH + timedelta(hours=_rng(self.seed, host, tid, "time").randint(0, 8000))

    def _posts(self, host: str, tid: int, page: int) -> list[Record]:
        """The posts of one thread page: floor k is written k hours after the thread began."""
        topic = self._thread_topic(host, tid)
        total = self._thread_replies(host, tid) + 1
        start = self._thread_start(host, tid)
        posts = []
        for floor in range((page - 1) * POSTS_PER_PAGE, min(total, page * POSTS_PER_PAGE)):
            write = Writer(_rng(self.seed, host, tid, floor))
            if floor == 0:
                text = "".join(
                    write.tax_paragraphs(2) if topic == TOPIC else write.other_paragraphs(topic, 2)
                )
            else:
                text = write.comment(topic == TOPIC)
            when = format_time(start + timedelta(hours=floor), "iso")
            posts.append(Record(text, write.nickname(), when))
        return posts

    def _forum(self, host: str, path: str) -> Resource | None:
        name = self.site_names[host]
        boards = [(f"版块{b}", f"/forum-{b}-1.html") for b in range(1, FORUM_BOARDS + 1)]
        if path == "/":
            markup = render.listing_page(name, name, [("进入论坛", "/forum.php")])
            return self._page(markup, Truth(kind="list", relevant=False))
        if path == "/forum.php":
            markup = render.listing_page(name, name, boards, heading="版块")
            return self._page(markup, Truth(kind="list", relevant=False))
        if path.startswith("/forum-") and path.endswith(".html"):
            board, page = (int(x) for x in path[7:-5].split("-"))
            pages = -(-FORUM_THREADS // THREADS_PER_LIST)
            if not (1 <= board <= FORUM_BOARDS and 1 <= page <= pages):
                return None
            listed = []
            for t in range((page - 1) * THREADS_PER_LIST, page * THREADS_PER_LIST):
                tid = _tid(board, t)
                listed.append({
                    "title": self._thread_title(host, tid),
                    "url": (host, f"/thread-{tid}-1-1.html"),
                    "author": Writer(_rng(self.seed, host, tid, 0)).nickname(),
                    "time": format_time(self._thread_start(host, tid), "iso")[:10],
                    "replies": self._thread_replies(host, tid),
                    "views": 10 * self._thread_replies(host, tid) + 37,
                })  # fmt: skip
            markup = render.discuz_list(name, f"版块{board}", board, listed, page, pages)
            return self._page(markup, Truth(kind="thread-list", relevant=False, threads=listed))
        if path.startswith("/thread-") and path.endswith("-1.html"):
            tid, page = (int(x) for x in path[8:-7].split("-"))
            board, t = divmod(tid, 1000)
            pages = self._thread_pages(host, tid) if 1 <= board <= FORUM_BOARDS else 0
            if not (t < FORUM_THREADS and 1 <= page <= pages):
                return None
            title = self._thread_title(host, tid)
            posts = self._posts(host, tid, page)
            markup = render.discuz_thread(name, f"版块{board}", title, posts, tid, page, pages,
                                          first_floor=(page - 1) * POSTS_PER_PAGE + 1)  # fmt: skip
            topic = self._thread_topic(host, tid)
            truth = Truth(kind="thread", relevant=topic == TOPIC, topic=topic, title=title,
                          posts=posts)  # fmt: skip
            return self._page(markup, truth)
        return None

    # --- repost sites ---

    def _original(self, host: str, n: int) -> tuple[str, int]:
        """The portal article repost n of `host` copies: a tax article (searched for in a
        bounded number of draws; a portal with no tax share is skipped)."""
        rng = _rng(self.seed, host, n, "original")
        taxing = [h for h in self.news[:40] if self.tax_share[h] > 0] or self.news
        while True:
            other, m = rng.choice(taxing), rng.randrange(NEWS_ARTICLES)
            if self._article_topic(other, m) == TOPIC:
                return other, m

    def _repost_site(self, host: str, path: str) -> Resource | None:
        name = self.site_names[host]
        pages = -(-REPOSTS // NEWS_PER_LIST)
        if path == "/":
            links = [("转载文章", "/r/index_1.html")]
            markup = render.listing_page(name, name, links)
            return self._page(markup, Truth(kind="list", relevant=False))
        if path.startswith("/r/index_") and path.endswith(".html"):
            page = int(path[9:-5])
            if not 1 <= page <= pages:
                return None
            links = [(self._title(*self._original(host, n)), f"/r/{n}.html")
                     for n in range((page - 1) * NEWS_PER_LIST, page * NEWS_PER_LIST)]  # fmt: skip
            pager = [("下一页", f"/r/index_{page + 1}.html")] if page < pages else []
            markup = render.listing_page(name, "转载", links, pager=pager)
            return self._page(markup, Truth(kind="list", relevant=False))
        if path.startswith("/r/") and path.endswith(".html"):
            n = int(path[3:-5])
            if not 0 <= n < REPOSTS:
                return None
            source, m = self._original(host, n)
            story = self._story(source, m)
            rng = _rng(self.seed, host, n, "repost")
            copy = Story(story.topic, altered_title(story.title, rng), story.paragraphs,
                         story.published + timedelta(hours=rng.randint(1, 48)), story.author)  # fmt: skip
            markup = render.repost_article(name, copy, f"【转载】{copy.title}",
                                           f"{origin(source)}/a/{m}.html",
                                           self.site_names[source], "utf-8")  # fmt: skip
            truth = Truth(kind="article", relevant=True, topic=story.topic, title=copy.title,
                          body="\n".join(story.paragraphs), duplicate_of=(source, f"/a/{m}.html"))  # fmt: skip
            return self._page(markup, truth)
        return None


def _news_list_path(section: str, page: int) -> str:
    return f"/{section}/index.html" if page == 1 else f"/{section}/index_{page}.html"


def _tid(board: int, t: int) -> int:
    return board * 1000 + t


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() else None
