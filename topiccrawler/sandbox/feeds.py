"""The sandbox's feeds and sitemaps, and the articles only they lead to.

- The news portal announces an RSS 2.0 feed and an Atom feed on its home page
  (`<link rel="alternate">`): each lists recent finance articles that are linked anyway, and tax
  articles that nothing links to (feed-only).
- The tax authority's robots.txt names a sitemap index listing a gzipped URL set (every article,
  and tax articles nothing links to) and a news sitemap (`<news:title>`,
  `<news:publication_date>`) of more such articles (sitemap-only).
- A day later (the server's `advance(1)`), one more article appears in each feed and each
  sitemap; the index dates the changed sitemaps anew.

None of these articles is searchable or linked, so a crawl stores them only by reading the feeds
and sitemaps. Built with a random generator of their own, so the rest of the web is the same
byte for byte as without them.
"""

from __future__ import annotations

import gzip
import random
from datetime import datetime, timedelta
from email.utils import format_datetime
from xml.sax.saxutils import escape

from topiccrawler.sandbox import render
from topiccrawler.sandbox.resources import Resource, Story, origin
from topiccrawler.sandbox.text import Writer
from topiccrawler.sandbox.web import PORTAL_A, TAX_BUREAU, TOPIC

FIRST_DAY = datetime(2026, 3, 1, 6, 0)  # the sandbox server's day 0 (its Last-Modified)
FEED_ONLY = {"rss": (3, 1), "atom": (2, 1)}  # feed-only articles: day 0, added on day 1
SITEMAP_ONLY = {"pages": (3, 1), "news": (2, 1)}  # sitemap-only articles, the same
LINKED_IN_FEEDS = 5  # finance articles (linked from the site too) each feed also lists


def add_feeds_and_sitemaps(builder) -> None:
    rng = random.Random(builder.web.seed * 7919 + 38)
    _Feeds(builder, rng, Writer(rng)).build()


class _Feeds:
    def __init__(self, builder, rng: random.Random, write: Writer):
        self.builder = builder
        self.web = builder.web
        self.rng = rng
        self.write = write
        self.titles: list[set[str]] | None = None  # character pairs of the web's titles

    def build(self) -> None:
        self.portal_feeds()
        self.bureau_sitemaps()

    def story(self, day: int, n: int) -> Story:
        published = FIRST_DAY + timedelta(days=day, hours=n + 1, minutes=self.rng.randint(0, 59))
        paragraphs = self.write.tax_paragraphs(self.rng.randint(3, 6))
        return Story(TOPIC, self.title(), paragraphs, published, self.write.nickname())

    def title(self) -> str:
        """A tax title unlike every title in the web: these articles are no reposts."""
        if self.titles is None:
            self.titles = [_bigrams(r.truth.title) for r in self.web.resources.values()
                           if r.truth is not None and r.truth.title]  # fmt: skip
            for change in self.web.changes.values():
                self.titles += [_bigrams(r.truth.title) for r in change.values()
                                if r.truth is not None and r.truth.title]  # fmt: skip
        for _ in range(100):
            title = self.write.tax_title()
            grams = _bigrams(title)
            if all(len(grams & other) < 0.4 * len(grams) for other in self.titles):
                break
        self.titles.append(grams)
        return title

    def article(self, host: str, path: str, story: Story, only: str, day: int) -> None:
        """An article nothing links to, served from `day` on."""
        name = self.web.site_names[host]
        if host == PORTAL_A:
            markup = render.portal_a_article(name, "财经", story, f"-{name}", [], [])
        else:
            markup = render.bureau_article(name, "信息公开", story)
        truth = self.builder.article_truth(story, [])
        truth.found_only = only
        if day == 0:
            self.builder.add_page(host, path, markup, truth, searchable=False)
        else:
            resource = Resource("text/html", self.builder.html(markup), truth=truth)
            self.web.changes.setdefault(day, {})[(host, path)] = resource

    def publish(self, day: int, host: str, path: str, resource: Resource) -> None:
        if day == 0:
            self.web.add(host, path, resource)
        else:
            self.web.changes.setdefault(day, {})[(host, path)] = resource

    # --- the news portal's feeds -----------------------------------------------------------------

    def portal_feeds(self) -> None:
        host = PORTAL_A
        linked = sorted(
            (path, resource.truth.title)
            for (h, path), resource in self.web.resources.items()
            if h == host and path.startswith("/finance/2") and resource.truth is not None
        )[-LINKED_IN_FEEDS:]
        items = [(title, path, FIRST_DAY - timedelta(hours=3 * i)) for i, (path, title) in
                 enumerate(reversed(linked))]  # fmt: skip
        for kind, (today, later) in FEED_ONLY.items():
            listed = list(items)
            for day, count in ((0, today), (1, later)):
                for n in range(count):
                    story = self.story(day, n)
                    path = f"/finance/{kind}/{day}-{n + 1}.html"
                    self.article(host, path, story, "feed", day)
                    summary = story.paragraphs[0][:120]
                    listed.insert(0, (story.title, path, story.published, summary))
                body = (
                    rss_feed(self.web.site_names[host], host, listed)
                    if kind == "rss"
                    else _atom(self.web.site_names[host], host, listed)
                )
                content_type = "application/rss+xml" if kind == "rss" else "application/atom+xml"
                self.publish(day, host, f"/{kind}.xml", Resource(content_type, body.encode()))
        self.builder.homes[host]["head"] = (
            '<link rel="alternate" type="application/rss+xml" title="财经 RSS" href="/rss.xml">\n'
            '<link rel="alternate" type="application/atom+xml" title="财经 Atom" '
            'href="/atom.xml">\n'
            '<link rel="alternate" hreflang="en" href="/en/">\n'  # no feed: a translation
        )

    # --- the tax authority's sitemaps ------------------------------------------------------------

    def bureau_sitemaps(self) -> None:
        host = TAX_BUREAU
        base = origin(host)
        articles = sorted(
            path
            for (h, path), resource in self.web.resources.items()
            if h == host and resource.truth is not None and resource.truth.kind == "article"
        )
        pages = [(f"{base}{path}", FIRST_DAY - timedelta(days=1), None) for path in articles]
        news: list[tuple[str, datetime, str]] = []
        index_dates = {"pages": FIRST_DAY, "news": FIRST_DAY}
        for day in (0, 1):
            for part in ("pages", "news"):
                for n in range(SITEMAP_ONLY[part][day]):
                    story = self.story(day, n + 5)
                    path = f"/xxgk/{part}-{day}-{n + 1}.html"
                    self.article(host, path, story, "sitemap", day)
                    if part == "pages":
                        pages.append((f"{base}{path}", story.published, None))
                    else:
                        news.append((f"{base}{path}", story.published, story.title))
                if day:
                    index_dates[part] = FIRST_DAY + timedelta(days=day)
            site = self.web.site_names[host]
            xml = _urlset(pages).encode()
            self.publish(day, host, "/sitemaps/pages.xml.gz",
                         Resource("application/x-gzip", gzip.compress(xml, mtime=0)))  # fmt: skip
            self.publish(day, host, "/sitemaps/news.xml",
                         Resource("application/xml", _news(site, news).encode()))  # fmt: skip
            index = _index([(f"{base}/sitemaps/{part}", index_dates[key])
                            for part, key in (("pages.xml.gz", "pages"), ("news.xml", "news"))])  # fmt: skip
            self.publish(
                day, host, "/sitemap_index.xml", Resource("application/xml", index.encode())
            )
        robots = "\n".join(["User-agent: *", f"Sitemap: {base}/sitemap_index.xml", ""])
        self.web.add(host, "/robots.txt", Resource("text/plain", robots.encode()))


def _bigrams(text: str) -> set[str]:
    return {text[i : i + 2] for i in range(len(text) - 1)}


def _w3c(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S+08:00")


def rss_feed(site: str, host: str, items: list[tuple]) -> str:
    base = origin(host)
    entries = "\n".join(
        f"<item><title>{escape(title)}</title><link>{base}{path}</link>"
        f"<description>{escape(rest[1] if len(rest) > 1 else title)}</description>"
        f"<pubDate>{format_datetime(rest[0] - timedelta(hours=8))[:-6]} GMT</pubDate></item>"
        for title, path, *rest in items
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel>'
        f"<title>{escape(site)} 财经</title><link>{base}/</link>"
        f"<description>{escape(site)}</description>\n{entries}\n</channel></rss>\n"
    )


def _atom(site: str, host: str, items: list[tuple]) -> str:
    base = origin(host)
    entries = "\n".join(
        f'<entry><title>{escape(title)}</title><link rel="alternate" href="{base}{path}"/>'
        f"<id>{base}{path}</id><updated>{_w3c(rest[0])}</updated>"
        f"<summary>{escape(rest[1] if len(rest) > 1 else title)}</summary></entry>"
        for title, path, *rest in items
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom">'
        f"<title>{escape(site)} 财经</title><id>{base}/atom.xml</id>"
        f"<updated>{_w3c(FIRST_DAY)}</updated>\n{entries}\n</feed>\n"
    )


def _urlset(pages: list[tuple[str, datetime, str | None]]) -> str:
    urls = "\n".join(f"<url><loc>{loc}</loc><lastmod>{_w3c(when)}</lastmod></url>"
                     for loc, when, _ in pages)  # fmt: skip
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n{urls}\n</urlset>\n'
    )


def _news(site: str, news: list[tuple[str, datetime, str]]) -> str:
    urls = "\n".join(
        f"<url><loc>{loc}</loc><news:news><news:publication><news:name>{escape(site)}"
        "</news:name><news:language>zh</news:language></news:publication>"
        f"<news:publication_date>{_w3c(when)}</news:publication_date>"
        f"<news:title>{escape(title)}</news:title></news:news></url>"
        for loc, when, title in news
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
        'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">\n'
        f"{urls}\n</urlset>\n"
    )


def _index(sitemaps: list[tuple[str, datetime]]) -> str:
    listed = "\n".join(f"<sitemap><loc>{loc}</loc><lastmod>{_w3c(when)}</lastmod></sitemap>"
                       for loc, when in sitemaps)  # fmt: skip
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n'
        f"{listed}\n</sitemapindex>\n"
    )
