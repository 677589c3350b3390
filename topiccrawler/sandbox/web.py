"""The sandbox web: a deterministic offline internet, generated from a seed, with ground truth.

Sites live under the `.test` top-level domain (reserved for testing, RFC 6761) and are all
served by one loopback server that dispatches on the Host header; `SandboxResolver` maps
`*.test` to 127.0.0.1 inside a crawl. Pages are rendered once, at build time, with the
placeholder `__PORT__` where the server's port goes (substituted when served), so the same
seed gives the same web byte for byte.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta

from topiccrawler.sandbox import render
from topiccrawler.sandbox.resources import (
    Record,
    Resource,
    SandboxWeb,
    Story,
    Truth,
    altered_title,
    origin,
)
from topiccrawler.sandbox.text import OTHER_TOPICS, Writer, format_time

TOPIC = "tax"  # the sandbox's relevant topic: pages about Chinese taxation

# Hosts, by role.
TAX_BUREAU = "www.taxbureau.test"
PORTAL_A = "www.huaxia-news.test"
PORTAL_B = "www.dongfang-finance.test"
LEGACY = "legacy.oldnews.test"
FORUM_TABLE = "bbs.taxforum.test"
FORUM_DIV = "club.moneytalk.test"
BLOG = "blog.taxnotes.test"
SHOP = "shop.mall.test"
STRICT = "www.strict-news.test"
MEMBERS = "members.taxclub.test"
SEARXNG = "searx.search.test"
BING = "bing.search.test"

SIZES = {"small": 1, "medium": 5, "large": 37}  # scale factors: ~300, ~1,400 and ~10,000 pages
# Sizes whose pages are rendered on request, not built up front (sandbox/huge.py): ~160,000 pages.
ON_DEMAND_SIZES = ("huge",)

MEMBER_USER = "demo"  # credentials of the members site's login form (a sandbox, not a secret)
MEMBER_PASSWORD = "sandbox-password"


def build_web(seed: int = 1, size: str = "small") -> SandboxWeb:
    """Generate the whole sandbox web for `seed` at `size` (small, medium or large); `huge`
    gives a web whose pages are rendered on request (sandbox/huge.py), with the same interface."""
    if size in ON_DEMAND_SIZES:
        from topiccrawler.sandbox.huge import HugeWeb  # huge.py builds on this module's classes

        return HugeWeb(seed)
    if size not in SIZES:
        raise ValueError(
            f"unknown size {size!r}; choose from {', '.join((*SIZES, *ON_DEMAND_SIZES))}"
        )
    return _Builder(seed, size).build()


class _Builder:
    def __init__(self, seed: int, size: str):
        self.rng = random.Random(seed)
        self.write = Writer(self.rng)
        self.scale = SIZES[size]
        self.web = SandboxWeb(seed, size)
        self.clock = datetime(2026, 1, 5, 8, 0)
        self.originals: list[tuple[str, str, Story]] = []  # tax stories that may be reposted
        self.homes: dict[str, dict] = {}  # host -> home page links, rendered last

    def build(self) -> SandboxWeb:
        self.tax_bureau()
        self.portal_a()
        self.portal_b()
        self.legacy_site()
        self.forum_table()
        self.forum_div()
        self.blog()
        self.shop()
        self.strict_site()
        self.members_site()
        self.reposts()
        # Late: sandbox/scripted.py builds on this module's classes (a cycle within the package).
        from topiccrawler.sandbox.scripted import add_scripted_pages

        add_scripted_pages(self)  # pages built by script (their own random generator)
        from topiccrawler.sandbox.feeds import add_feeds_and_sitemaps

        add_feeds_and_sitemaps(self)  # feeds, sitemaps and their articles (their own generator)
        self.search_hosts()
        self.render_homes()
        return self.web

    # --- helpers --------------------------------------------------------------------------------

    def tick(self) -> datetime:
        self.clock += timedelta(minutes=self.rng.randint(20, 600))
        return self.clock

    def story(self, topic: str) -> Story:
        count = self.rng.randint(3, 7)
        if topic == TOPIC:
            title, paragraphs = self.write.tax_title(), self.write.tax_paragraphs(count)
        else:
            title, paragraphs = (
                self.write.other_title(topic),
                self.write.other_paragraphs(topic, count),
            )
        return Story(topic, title, paragraphs, self.tick(), self.write.nickname())

    def records(self, count: int, on_tax: bool, after: datetime, style: str) -> list[Record]:
        times = sorted(self.write.time_after(after, 72) for _ in range(count))
        return [
            Record(self.write.comment(on_tax), self.write.nickname(), format_time(t, style))
            for t in times
        ]

    def comment_count(self) -> int:
        """40% no comments, 25% a few (below POL's b = 5), 35% a real comment section."""
        roll = self.rng.random()
        if roll < 0.4:
            return 0
        if roll < 0.65:
            return self.rng.randint(1, 4)
        return self.rng.randint(10, 16)

    def html(self, markup: str, encoding: str = "utf-8") -> bytes:
        return markup.encode(encoding, errors="xmlcharrefreplace")

    def add_page(
        self,
        host: str,
        path: str,
        markup: str,
        truth: Truth,
        story: Story | None = None,
        encoding: str = "utf-8",
        gate: str | None = None,
        searchable: bool = True,
    ) -> None:
        text = None
        if searchable and truth.title:
            content = truth.body or "\n".join(p.text for p in truth.posts)
            text = truth.title + "\n" + content
        self.web.add(
            host,
            path,
            Resource(
                "text/html", self.html(markup, encoding), truth=truth, gate=gate, searchable=text
            ),
        )

    def article_truth(self, story: Story, comments: list[Record], kind: str = "article") -> Truth:
        return Truth(
            kind=kind,
            relevant=story.topic == TOPIC,
            topic=story.topic,
            title=story.title,
            body="\n".join(story.paragraphs),
            comments=comments,
        )

    def robots(self, host: str, disallow: tuple[str, ...] = ()) -> None:
        lines = ["User-agent: *", *(f"Disallow: {d}" for d in disallow), ""]
        self.web.add(host, "/robots.txt", Resource("text/plain", "\n".join(lines).encode()))

    def home(
        self,
        host: str,
        links: list[tuple[str, str]],
        heading: str | None = None,
        encoding: str = "utf-8",
        gate: str | None = None,
    ) -> None:
        self.homes[host] = {"links": links, "heading": heading, "encoding": encoding, "gate": gate}

    def render_homes(self) -> None:
        for host, home in self.homes.items():
            name = self.web.site_names[host]
            charset = "gbk" if home["encoding"] == "gb18030" else "utf-8"
            markup = render.listing_page(
                name,
                name,
                home["links"],
                heading=home["heading"],
                charset=charset,
                head=home.get("head", ""),
            )
            self.web.add(
                host,
                "/",
                Resource(
                    "text/html",
                    self.html(markup, home["encoding"]),
                    gate=home["gate"],
                    truth=Truth(kind="list", relevant=False),
                ),
            )

    def listing(
        self, host: str, name: str, path: str, title: str, links: list[tuple[str, str]], **kw
    ) -> None:
        self.add_page(
            host,
            path,
            render.listing_page(name, title, links, **kw),
            Truth(kind="list", relevant=False),
            searchable=False,
        )

    def paged_lists(
        self,
        host: str,
        name: str,
        section: str,
        title: str,
        items: list[tuple[str, str]],
        per_page: int = 20,
    ) -> None:
        """/section/index.html, index_2.html …, 20 links each, with next/previous links."""
        pages = [items[i : i + per_page] for i in range(0, len(items), per_page)] or [[]]
        for number, chunk in enumerate(pages, start=1):
            path = f"/{section}/index.html" if number == 1 else f"/{section}/index_{number}.html"
            nav = []
            if number > 1:
                nav.append(
                    (
                        "上一页",
                        f"/{section}/index.html"
                        if number == 2
                        else f"/{section}/index_{number - 1}.html",
                    )
                )
            if number < len(pages):
                nav.append(("下一页", f"/{section}/index_{number + 1}.html"))
            self.listing(host, name, path, f"{title} 第{number}页", chunk, pager=nav)

    # --- sites ----------------------------------------------------------------------------------

    def tax_bureau(self) -> None:
        host, name = TAX_BUREAU, "国家税务总局（沙盒）"
        self.web.site_names[host] = name
        self.robots(host)
        sections = {"tzgg": "通知公告", "zcjd": "政策解读", "zfal": "执法案例"}
        home_links = []
        for section, label in sections.items():
            items = []
            for n in range(1, 12 * self.scale + 1):
                # Enforcement cases sit deep: /zfal/<year>/<region>/<n>.html.
                path = (
                    f"/zfal/{2020 + n % 6}/r{n % 4}/{n}.html"
                    if section == "zfal"
                    else f"/{section}/{n}.html"
                )
                topic = TOPIC if self.rng.random() > 0.1 else "culture"  # a few non-tax notices
                story = self.story(topic)
                if topic != TOPIC:
                    story.title = (
                        f"机关{self.rng.choice(['党建', '工会', '志愿服务'])}活动：{story.title}"
                    )
                markup = render.bureau_article(name, label, story)
                self.add_page(host, path, markup, self.article_truth(story, []))
                items.append((story.title, path))
                if topic == TOPIC:
                    self.originals.append((host, path, story))
            self.paged_lists(host, name, section, label, items)
            home_links.append((label, f"/{section}/index.html"))
        self.home(host, home_links, heading="栏目导航")

    def portal_a(self) -> None:
        host, name = PORTAL_A, "华夏新闻网"
        self.web.site_names[host] = name
        self.robots(host, ("/internal/",))
        channels = {
            "finance": "财经",
            "sports": "体育",
            "culture": "文化",
            "tech": "科技",
            "travel": "旅游",
        }
        topics = {
            "finance": None,
            "sports": "sports",
            "culture": "culture",
            "tech": "technology",
            "travel": "travel",
        }
        home = []
        js_done = False
        for channel, label in channels.items():
            items = []
            for n in range(1, 10 * self.scale + 1):
                topic = topics[channel] or (TOPIC if self.rng.random() < 0.5 else "markets")
                story = self.story(topic)
                path = f"/{channel}/{story.published:%Y%m%d}/{n}.html"
                comments = self.records(
                    self.comment_count(), topic == TOPIC, story.published, "iso"
                )
                js = topic == TOPIC and not js_done and len(comments) >= 10
                related = [(t, p) for t, p in items[-8:]]
                suffix = f"_{label}频道_{name}" if self.rng.random() < 0.5 else f"-{name}"
                if js:
                    js_done = True
                    api = f"/api/comments/{channel}-{n}.json"
                    markup = render.portal_a_article(
                        name, label, story, suffix, [], related, comments_api=api
                    )
                    payload = [c.as_dict() for c in comments]
                    self.web.add(
                        host,
                        api,
                        Resource(
                            "application/json", json.dumps(payload, ensure_ascii=False).encode()
                        ),
                    )
                    truth = self.article_truth(story, comments, kind="article-js-comments")
                    self.add_page(host, path, markup, truth, gate="js-comments")
                else:
                    markup = render.portal_a_article(name, label, story, suffix, comments, related)
                    self.add_page(host, path, markup, self.article_truth(story, comments))
                items.append((story.title, path))
                if topic == TOPIC:
                    self.originals.append((host, path, story))
            self.paged_lists(host, name, channel, f"{label}频道", items)
            home.append((f"{label}频道", f"/{channel}/index.html"))
        # Disallowed by robots.txt, but linked from the home page.
        internal = self.story(TOPIC)
        self.add_page(
            host,
            "/internal/draft.html",
            render.portal_a_article(name, "内部", internal, "-内部稿", [], []),
            self.article_truth(internal, []),
            searchable=False,
        )
        home.append(("内部稿件", "/internal/draft.html"))
        self.home(host, home, heading="频道")

    def portal_b(self) -> None:
        host, name = PORTAL_B, "东方财经网"
        self.web.site_names[host] = name
        self.robots(host)
        items = []
        for n in range(1, 16 * self.scale + 1):
            topic = TOPIC if self.rng.random() < 0.3 else "markets"
            story = self.story(topic)
            path = f"/news/{n}.html"
            comments = self.records(self.comment_count(), topic == TOPIC, story.published, "slash")
            markup = render.portal_b_article(name, story, comments)
            self.add_page(host, path, markup, self.article_truth(story, comments))
            items.append((story.title, path))
            if topic == TOPIC:
                self.originals.append((host, path, story))
        self.paged_lists(host, name, "news", "财经要闻", items)
        # Hostile input a crawler meets: each is linked from the special-topics page.
        special = [
            ("格式错误的页面", "/special/malformed.html"),
            ("超大页面", "/special/huge.html"),
            ("深层嵌套页面", "/special/deep.html"),
            ("研究报告下载", "/special/report.html"),
            ("已删除的文章", "/archive/gone-1.html"),
            ("已删除的文章二", "/archive/gone-2.html"),
            ("响应超时的页面", "/archive/slow.html"),
        ]
        self.hostile_pages(host, name)
        self.listing(host, name, "/special/index.html", "专题", special)
        self.home(host, [("财经要闻", "/news/index.html"), ("专题", "/special/index.html")])

    def hostile_pages(self, host: str, name: str) -> None:
        story = self.story(TOPIC)
        malformed = render.malformed_article(name, story)
        self.add_page(
            host,
            "/special/malformed.html",
            malformed,
            self.article_truth(story, [], kind="malformed"),
        )
        huge_story = self.story("markets")
        # ~2 MB: a long report of numbered sections (distinct paragraphs, as real long pages have)
        huge_story.paragraphs = [
            f"（{n}）{p}"
            for n, p in enumerate(self.write.other_paragraphs("markets", 4000), start=1)
        ]
        self.add_page(
            host,
            "/special/huge.html",
            render.portal_b_article(name, huge_story, []),
            self.article_truth(huge_story, [], kind="huge"),
            searchable=False,
        )
        deep_story = self.story(TOPIC)
        self.add_page(
            host,
            "/special/deep.html",
            render.deep_article(name, deep_story, depth=3000),
            self.article_truth(deep_story, [], kind="deep"),
        )
        # A PDF-like binary served as text/html.
        binary = b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n" + bytes(
            self.rng.randrange(256) for _ in range(4096)
        )
        self.web.add(host, "/special/report.html", Resource("text/html", binary))
        self.web.add(
            host,
            "/archive/slow.html",
            Resource("text/html", b"<html><body>late</body></html>", gate="slow"),
        )

    def legacy_site(self) -> None:
        """An old portal: table layout, GB18030/GBK pages, one Big5 page, one lying charset."""
        host, name = LEGACY, "老新闻网"
        self.web.site_names[host] = name
        self.robots(host)
        items = []
        for n in range(1, 8 * self.scale + 1):
            topic = TOPIC if n % 2 or n == 2 else self.rng.choice(OTHER_TOPICS)
            story = self.story(topic)
            if n == 1:
                declared, encoding, kind = "big5", "big5", "big5"
            elif n == 2:
                declared, encoding, kind = "utf-8", "gb18030", "lying-charset"
            else:
                declared, encoding, kind = "gbk", "gb18030", "gbk"
            path = f"/html/{n:04d}.htm"
            markup = render.legacy_article(name, story, declared)
            self.add_page(
                host, path, markup, self.article_truth(story, [], kind=kind), encoding=encoding
            )
            items.append((story.title, path))
            if topic == TOPIC and kind == "gbk":
                self.originals.append((host, path, story))
        self.home(host, items, encoding="gb18030")

    def forum_threads(
        self, board_topic: str, count: int
    ) -> list[tuple[str, str, datetime, list[Record], int]]:
        threads = []
        for _ in range(count):
            opening = self.story(board_topic)
            title = (
                opening.title
                if board_topic != TOPIC or self.rng.random() < 0.5
                else (self.rng.choice(["求助：", "请教：", "讨论："]) + opening.title)
            )
            replies = self.rng.choice([0, 1, 2, 5, 9, 14, 23, 31])
            posts = [Record("".join(opening.paragraphs[:2]), opening.author, "")]
            when = opening.published
            for _ in range(replies):
                when = self.write.time_after(when, 30)
                posts.append(
                    Record(
                        self.write.comment(board_topic == TOPIC),
                        self.write.nickname(),
                        format_time(when, "iso"),
                    )
                )
            posts[0].time = format_time(opening.published, "iso")
            threads.append(
                (
                    title,
                    opening.topic,
                    opening.published,
                    posts,
                    self.rng.randint(replies * 3 + 5, replies * 40 + 60),
                )
            )
        return threads

    def forum_table(self) -> None:
        """A Discuz-style forum: table layouts, forum-FID-PAGE.html and thread-TID-PAGE-1.html."""
        host, name = FORUM_TABLE, "税友论坛"
        self.web.site_names[host] = name
        self.robots(host)
        boards = [(2, "增值税与发票", TOPIC), (3, "个税与社保", TOPIC), (9, "灌水闲聊", "culture")]
        tid = 1000
        board_links = []
        for fid, label, topic in boards:
            threads = self.forum_threads(topic, 12 * self.scale)
            listed = []
            for title, thread_topic, when, posts, views in threads:
                tid += 1
                pages = [posts[i : i + 10] for i in range(0, len(posts), 10)]
                for number, chunk in enumerate(pages, start=1):
                    path = f"/thread-{tid}-{number}-1.html"
                    markup = render.discuz_thread(
                        name,
                        label,
                        title,
                        chunk,
                        tid,
                        number,
                        len(pages),
                        first_floor=(number - 1) * 10 + 1,
                    )
                    truth = Truth(
                        kind="thread",
                        relevant=thread_topic == TOPIC,
                        topic=thread_topic,
                        title=title,
                        posts=chunk,
                    )
                    self.add_page(host, path, markup, truth)
                listed.append(
                    {
                        "title": title,
                        "url": (host, f"/thread-{tid}-1-1.html"),
                        "author": posts[0].author,
                        "time": format_time(when, "iso")[:10],
                        "replies": len(posts) - 1,
                        "views": views,
                    }
                )
            list_pages = [listed[i : i + 15] for i in range(0, len(listed), 15)]
            for number, chunk in enumerate(list_pages, start=1):
                path = f"/forum-{fid}-{number}.html"
                markup = render.discuz_list(name, label, fid, chunk, number, len(list_pages))
                truth = Truth(kind="thread-list", relevant=False, threads=chunk)
                self.add_page(host, path, markup, truth, searchable=False)
            board_links.append((label, f"/forum-{fid}-1.html"))
        self.listing(host, name, "/forum.php", name, board_links, heading="版块")
        self.home(host, [("进入论坛", "/forum.php")])

    def forum_div(self) -> None:
        """A modern div-based forum: /board/ID?page=N lists, /topic/ID?page=N threads."""
        host, name = FORUM_DIV, "理财社区"
        self.web.site_names[host] = name
        self.robots(host)
        boards = [(1, "股票交流", "markets"), (2, "税务问答", TOPIC)]
        topic_id = 500
        links = []
        for board_id, label, topic in boards:
            threads = self.forum_threads(topic, 10 * self.scale)
            listed = []
            for title, thread_topic, when, posts, views in threads:
                topic_id += 1
                pages = [posts[i : i + 8] for i in range(0, len(posts), 8)]
                for number, chunk in enumerate(pages, start=1):
                    path = f"/topic/{topic_id}" + (f"?page={number}" if number > 1 else "")
                    markup = render.div_thread(
                        name, label, title, chunk, topic_id, number, len(pages)
                    )
                    truth = Truth(
                        kind="thread",
                        relevant=thread_topic == TOPIC,
                        topic=thread_topic,
                        title=title,
                        posts=chunk,
                    )
                    self.add_page(host, path, markup, truth)
                listed.append(
                    {
                        "title": title,
                        "url": (host, f"/topic/{topic_id}"),
                        "author": posts[0].author,
                        "time": format_time(when, "zh"),
                        "replies": len(posts) - 1,
                        "views": views,
                    }
                )
            list_pages = [listed[i : i + 12] for i in range(0, len(listed), 12)]
            for number, chunk in enumerate(list_pages, start=1):
                path = f"/board/{board_id}" + (f"?page={number}" if number > 1 else "")
                markup = render.div_list(name, label, board_id, chunk, number, len(list_pages))
                self.add_page(
                    host,
                    path,
                    markup,
                    Truth(kind="thread-list", relevant=False, threads=chunk),
                    searchable=False,
                )
            links.append((label, f"/board/{board_id}"))
        self.home(host, links, heading="版块")

    def blog(self) -> None:
        host, name = BLOG, "税务笔记"
        self.web.site_names[host] = name
        self.robots(host)
        items = []
        for n in range(1, 8 * self.scale + 1):
            story = self.story(TOPIC if n % 3 else "travel")
            comments = self.records(
                self.rng.randint(5, 12), story.topic == TOPIC, story.published, "zh"
            )
            path = f"/post/{n}.html"
            self.add_page(
                host,
                path,
                render.blog_post(name, story, comments),
                self.article_truth(story, comments),
            )
            items.append((story.title, path))
        self.home(host, items, heading="最新文章")

    def shop(self) -> None:
        """Product pages: 'related products' lists look like comments to a naive detector."""
        host, name = SHOP, "好物商城"
        self.web.site_names[host] = name
        self.robots(host)
        items = []
        for n in range(1, 6 * self.scale + 1):
            product = self.write.product()
            reviews = self.records(self.rng.randint(6, 10), False, self.tick(), "iso")
            for review in reviews:
                review.text = self.write.review()
            related = [
                (
                    self.write.product(),
                    f"/item/{self.rng.randint(1, 6 * self.scale)}.html",
                    f"¥{self.rng.randint(19, 499)}",
                )
                for _ in range(8)
            ]
            path = f"/item/{n}.html"
            title = f"{product} 正品包邮"
            description = f"这款{product}采用优质材料制作，做工精细，适合日常使用。"
            truth = Truth(
                kind="product",
                relevant=False,
                topic="shopping",
                title=title,
                body=description,
                comments=reviews,
            )
            self.add_page(
                host, path, render.shop_item(name, title, description, reviews, related), truth
            )
            items.append((title, path))
        self.home(host, items, heading="热销商品")

    def strict_site(self) -> None:
        """A news site that bans bot User-Agents (captcha page) and answers 429 when hit fast."""
        host, name = STRICT, "严选新闻网"
        self.web.site_names[host] = name
        self.robots(host)
        items = []
        for n in range(1, 8 * self.scale + 1):
            story = self.story(TOPIC if n % 2 else "sports")
            path = f"/a/{n}.html"
            self.add_page(
                host,
                path,
                render.portal_b_article(name, story, []),
                self.article_truth(story, []),
                gate="strict",
            )
            items.append((story.title, path))
        self.home(host, items, gate="strict")

    def members_site(self) -> None:
        """Pages behind a login form: /login sets a session cookie that /vip/ pages need."""
        host, name = MEMBERS, "税务会员俱乐部"
        self.web.site_names[host] = name
        self.robots(host)
        items = []
        for n in range(1, 4 * self.scale + 1):
            story = self.story(TOPIC)
            path = f"/vip/{n}.html"
            self.add_page(
                host,
                path,
                render.portal_b_article(name, story, []),
                self.article_truth(story, []),
                gate="login",
                searchable=False,
            )
            items.append((story.title, path))
        self.web.add(
            host,
            "/login",
            Resource(
                "text/html",
                self.html(render.login_page(name)),
                truth=Truth(kind="login", relevant=False),
            ),
        )
        self.home(host, items + [("登录", "/login")], heading="会员专享")

    def reposts(self) -> None:
        """Copy a share of the tax stories to other sites under altered titles, as portals do."""
        targets = [
            (PORTAL_B, "/repost/{n}.html", "{title} | 财经频道 | 东方财经网"),
            (BLOG, "/repost/{n}.html", "【转载】{title}"),
            (STRICT, "/r/{n}.html", "{title}-严选新闻网"),
            (LEGACY, "/zz/{n}.htm", "{title}_老新闻网"),
        ]
        originals = [o for o in self.originals if o[0] != LEGACY]
        self.rng.shuffle(originals)
        count = max(6, len(originals) // 4)
        n = 0
        repost_links: dict[str, list[tuple[str, str]]] = {}
        for host, path, story in sorted(originals[:count], key=lambda o: o[2].published):
            elsewhere = [t for t in targets if t[0] != host]  # a site does not repost its own story
            for target, pattern, title_pattern in self.rng.sample(
                elsewhere, self.rng.randint(1, 3)
            ):
                n += 1
                copy = Story(
                    story.topic,
                    altered_title(story.title, self.rng),
                    list(story.paragraphs),
                    story.published + timedelta(hours=self.rng.randint(1, 48)),
                    story.author,
                )
                shown_title = title_pattern.format(title=copy.title)
                repost_path = pattern.format(n=n)
                truth = self.article_truth(copy, [])
                truth.duplicate_of = (host, path)
                encoding = "gb18030" if target == LEGACY else "utf-8"
                markup = render.repost_article(
                    self.web.site_names[target],
                    copy,
                    shown_title,
                    f"{origin(host)}{path}",
                    self.web.site_names[host],
                    "gbk" if target == LEGACY else "utf-8",
                )
                self.add_page(
                    target,
                    repost_path,
                    markup,
                    truth,
                    encoding=encoding,
                    gate="strict" if target == STRICT else None,
                )
                repost_links.setdefault(target, []).append((shown_title, repost_path))
        for target, links in repost_links.items():
            index = {LEGACY: "/zz/index.htm", STRICT: "/r/index.html"}.get(
                target, "/repost/index.html"
            )
            encoding = "gb18030" if target == LEGACY else "utf-8"
            gate = "strict" if target == STRICT else None
            charset = "gbk" if target == LEGACY else "utf-8"
            markup = render.listing_page(
                self.web.site_names[target], "转载", links, charset=charset
            )
            self.web.add(
                target,
                index,
                Resource(
                    "text/html",
                    self.html(markup, encoding),
                    gate=gate,
                    truth=Truth(kind="list", relevant=False),
                ),
            )
            self.homes[target]["links"].append(("转载文章", index))

    def search_hosts(self) -> None:
        for host, name in ((SEARXNG, "SearXNG（沙盒）"), (BING, "必应（沙盒）")):
            self.web.site_names[host] = name
            self.robots(host)
