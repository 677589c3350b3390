"""`topiccrawler demo`: crawl the sandbox web for the tax topic with the real spider, store into
SQLite, and print a summary scored against the sandbox's ground truth."""

from __future__ import annotations

import errno
import os
import shlex
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scrapy.crawler import CrawlerProcess
from scrapy.settings import Settings
from sqlalchemy.engine import make_url

from topiccrawler.extensions.interrupt import INTERRUPTS_KEY, hold_signals_until_running
from topiccrawler.extensions.progress import OUTCOME_KEY
from topiccrawler.sandbox.server import SandboxServer
from topiccrawler.sandbox.truth import CrawlScore, score_crawl
from topiccrawler.sandbox.web import (
    BING,
    FORUM_DIV,
    FORUM_TABLE,
    MEMBER_PASSWORD,
    MEMBER_USER,
    MEMBERS,
    PORTAL_A,
    PORTAL_B,
    SEARXNG,
    TAX_BUREAU,
    TOPIC,
    build_web,
)
from topiccrawler.spiders.topic import TopicSpider
from topiccrawler.storage.db import DATABASE_URL_ENV, Database, resolve_database_url

DEFAULT_DEMO_DB = Path("data/demo.db")  # relative to the working folder
USER_ENV, PASSWORD_ENV = "TOPICCRAWLER_SANDBOX_USER", "TOPICCRAWLER_SANDBOX_PASSWORD"


def sandbox_login_env() -> dict[str, str]:
    """The environment variables the sandbox seed file's [[login]] reads."""
    return {USER_ENV: MEMBER_USER, PASSWORD_ENV: MEMBER_PASSWORD}


def sandbox_seed_file(server: SandboxServer) -> str:
    """A seed file for the tax topic on the running sandbox: the tax authority, a news portal, a
    page of hostile pages, a forum and a members club as authority sites, both sandbox engines,
    the portals and forums as `site:` targets."""
    return f"""# Seeds for the tax topic on the sandbox web at port {server.port} (generated).
[[authority]]
name = "{server.web.site_names[TAX_BUREAU]}"
start_urls = ["{server.url(TAX_BUREAU)}"]
depth_limit = 4
max_pages = 500

# A news portal: mostly off-topic channels, and a robots.txt that disallows a linked section.
[[authority]]
name = "{server.web.site_names[PORTAL_A]}"
start_urls = ["{server.url(PORTAL_A)}"]
depth_limit = 2
max_pages = 200

# Hostile input every crawler meets: malformed, huge, deeply nested and binary pages, dead links.
[[authority]]
name = "{server.web.site_names[PORTAL_B]}专题"
start_urls = ["{server.url(PORTAL_B, "/special/index.html")}"]
depth_limit = 1
max_pages = 20

# A Discuz!-style forum: its boards' thread lists run over several pages, and so do threads.
[[authority]]
name = "{server.web.site_names[FORUM_TABLE]}"
start_urls = ["{server.url(FORUM_TABLE)}"]
depth_limit = 2
max_pages = 150

# A members club: its articles are for logged-in members.
[[authority]]
name = "{server.web.site_names[MEMBERS]}"
start_urls = ["{server.url(MEMBERS)}"]
depth_limit = 1
max_pages = 50

# The members site needs a form login; the credentials come from the environment
# (`sandbox_login_env()`: the sandbox's public test account).
[[login]]
site = "{MEMBERS}"
login_url = "{server.url(MEMBERS, "/login")}"
username_env = "{USER_ENV}"
password_env = "{PASSWORD_ENV}"

[search]
engines = ["sandbox-searxng", "sandbox-bing"]
target_sites = ["{PORTAL_A.removeprefix("www.")}", "{PORTAL_B.removeprefix("www.")}", "{FORUM_TABLE}", "{FORUM_DIV}"]
pages_per_query = 2

[engines.sandbox-searxng]
type = "searxng"
url = "{server.url(SEARXNG, "/search")}"

[engines.sandbox-bing]
type = "bing"
url = "{server.url(BING, "/search")}"
"""


def sandbox_crawl_settings(server: SandboxServer) -> dict[str, Any]:
    """Settings that point a crawl at the sandbox: its hosts resolve to 127.0.0.1, and the
    timeouts suit a local web (the slow page answers after the download timeout)."""
    return {
        "TWISTED_DNS_RESOLVER": "topiccrawler.sandbox.resolver.SandboxResolver",
        "SANDBOX_HOSTS": server.hosts,
        "ALLOWED_ADDRESSES": [f"127.0.0.1:{server.port}"],  # loopback: exactly the sandbox server
        "DOWNLOAD_TIMEOUT": 3,
        "DOWNLOAD_DELAY": 0.05,
        "AUTOTHROTTLE_START_DELAY": 0.05,
        "RETRY_TIMES": 1,
        "BAN_MIN_DELAY": 0.4,  # the strict site wants 0.3 s between requests
        # The browser resolves names itself: the sandbox's .test hosts are loopback for it too.
        "RENDER_BROWSER_ARGS": ["--host-resolver-rules=MAP *.test 127.0.0.1"],
    }


def crawl_command(seeds: Path, settings: dict[str, Any], topic: str = TOPIC) -> list[str]:
    """`scrapy crawl topic` for the sandbox, as a subprocess command (the tests and the
    benchmarks run crawls this way: each in a fresh process, as users run them)."""
    command = [sys.executable, "-m", "scrapy", "crawl", "topic", "-a", f"topic={topic}"]
    command += ["-a", f"seeds={seeds}"]
    for name, value in settings.items():
        command += ["-s", f"{name}={','.join(value) if isinstance(value, list) else value}"]
    return command


@dataclass
class DemoDatabase:
    """Where the demo stores: the demo's own SQLite file (cleared before a run unless `keep`),
    or a database the user configured or named, which is never cleared."""

    url: str
    origin: str  # "demo file", "--db" or "configured"
    sqlite_path: Path | None = None
    clear: bool = False

    @classmethod
    def choose(cls, db: str | None, configured: str | None, keep: bool = False) -> DemoDatabase:
        """--db (a file or a URL), else the configured database (DATABASE_URL,
        $TOPICCRAWLER_DATABASE_URL), else SQLite data/demo.db."""
        if db and "://" in db:
            return cls(resolve_database_url(db), "--db")
        if db:
            path = Path(db).expanduser().resolve()
            return cls(f"sqlite:///{path}", "--db", path, clear=not keep)
        if configured or os.environ.get(DATABASE_URL_ENV):
            return cls(resolve_database_url(configured), "configured")
        path = DEFAULT_DEMO_DB.resolve()
        return cls(f"sqlite:///{path}", "demo file", path, clear=not keep)

    def display_url(self) -> str:
        return make_url(self.url).render_as_string(hide_password=True)

    def describe(self) -> str:
        if self.origin == "configured":
            return (
                f"the configured database {self.display_url()} (DATABASE_URL /"
                f" ${DATABASE_URL_ENV}; nothing is deleted, the demo's pages are topic"
                f" '{TOPIC}' on .test hosts)"
            )
        if self.sqlite_path is not None:
            return f"{self.sqlite_path}{' (cleared first)' if self.clear else ''}"
        return self.display_url()

    def report_path(self) -> Path:
        """Where the demo's report goes: beside its SQLite file (data/demo.db gives
        data/demo-report.html), else data/demo-report.html in the working folder."""
        if self.sqlite_path is not None:
            return self.sqlite_path.with_name(f"{self.sqlite_path.stem}-report.html")
        return DEFAULT_DEMO_DB.resolve().with_name(f"{DEFAULT_DEMO_DB.stem}-report.html")

    def reset(self) -> None:
        """Delete the demo's own SQLite file (and its WAL files) when asked to."""
        if self.clear and self.sqlite_path is not None:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.sqlite_path}{suffix}").unlink(missing_ok=True)


@dataclass
class DemoResult:
    """What `format_summary` reports."""

    score: CrawlScore
    stats: dict
    elapsed: float
    database: DemoDatabase
    port: int
    port_note: str = ""
    report: Path | None = None  # the HTML report written after the crawl
    report_error: str = ""  # why it could not be written
    interrupted: bool = False  # stopped by Ctrl-C or SIGTERM: what was fetched is stored


def serve_sandbox(web, port: int, **options: Any) -> tuple[SandboxServer, str]:
    """The sandbox server on `port`, or on a free port when that one is taken (with a note:
    pages stored by earlier demos on the usual port are not recognised then)."""
    try:
        return SandboxServer(web, port=port, **options), ""
    except OSError as exc:
        if port == 0 or exc.errno != errno.EADDRINUSE:
            raise
        server = SandboxServer(web, port=0, **options)
        return server, (
            f"port {port} is taken, the sandbox is on port {server.port}: pages stored by"
            f" earlier demos (on port {port}) are not counted in this run"
        )


def run_demo(
    size: str = "small",
    seed: int = 1,
    database: DemoDatabase | None = None,
    settings: Settings | None = None,
    log_level: str = "WARNING",
    port: int = 0,
) -> DemoResult:
    """Serve the sandbox, crawl it with the topic spider, score what was stored."""
    database = database or DemoDatabase.choose(None, None)
    web = build_web(seed, size)
    database.reset()
    server, port_note = serve_sandbox(web, port, slow_seconds=10)
    with server, tempfile.TemporaryDirectory(prefix="topiccrawler-demo-") as folder:
        seeds = Path(folder) / "demo-seeds.toml"
        seeds.write_text(sandbox_seed_file(server), encoding="utf-8")
        crawl_settings = settings.copy() if settings else Settings()
        os.environ.update(sandbox_login_env())
        crawl_settings.setdict(
            {
                **sandbox_crawl_settings(server),
                "DATABASE_URL": database.url,
                "LOG_LEVEL": log_level,
            },
            priority="cmdline",
        )
        process = CrawlerProcess(crawl_settings)
        hold_signals_until_running()
        crawler = process.create_crawler(TopicSpider)
        started = time.monotonic()
        process.crawl(crawler, topic=TOPIC, seeds=str(seeds))
        process.start()
        elapsed = time.monotonic() - started
    stored = Database(database.url)
    try:
        with stored.session() as session:
            score = score_crawl(session, web, TOPIC, port=server.port)
    finally:
        stored.dispose()
    result = DemoResult(score, crawler.stats.get_stats(), elapsed, database, server.port, port_note)
    result.interrupted = bool(
        result.stats.get(INTERRUPTS_KEY) or result.stats.get(OUTCOME_KEY) == "interrupted"
    )
    write_report(result)
    return result


def write_report(result: DemoResult) -> None:
    """The topic's report (as `topiccrawler report` writes it) beside the demo's database."""
    from topiccrawler.report import gather, render

    path = result.database.report_path()
    stored = Database(result.database.url)
    try:
        with stored.session() as session:
            page = render(gather(session, TOPIC))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(page, encoding="utf-8")
    except OSError as exc:
        result.report_error = f"cannot write {path}: {exc.strerror or exc}"
    else:
        result.report = path
    finally:
        stored.dispose()


def format_summary(result: DemoResult, web_size: str) -> str:
    score, stats, elapsed = result.score, result.stats, result.elapsed

    def ratio(part: int, whole: int) -> str:
        return f"{part}/{whole} ({part / whole:.0%})" if whole else f"{part}/0"

    relevance = (
        f"{score.kept} kept, {score.kept_relevant} of them relevant per ground truth"
        if score.decided
        else "no decisions (the relevance stage is not installed yet)"
    )
    duplicates = (
        f"{score.duplicates_marked} reposts marked, {score.duplicates_correct} of them right; "
        f"{score.reposts_findable} were findable (ground truth)"
    )
    command = "topiccrawler" + (
        ""  # the configured database is every command's
        if result.database.origin == "configured"
        else f" -s DATABASE_URL={shlex.quote(result.database.display_url())}"
    )
    lines = [
        "",
        f"topiccrawler demo: tax topic on the sandbox web ({web_size})"
        + (" — interrupted" if result.interrupted else ""),
        *(
            [
                f"  interrupted           by Ctrl-C or SIGTERM: the {score.pages} pages stored are"
                " kept (run again with --keep to go on from them)"
            ]
            if result.interrupted
            else []
        ),  # fmt: skip
        f"  time taken            {elapsed:.1f} s",
        f"  requests / responses  {stats.get('downloader/request_count', 0)} / {stats.get('downloader/response_count', 0)}",
        f"  search queries        {stats.get('topiccrawler/storage/search_queries', 0)} answered, "
        f"{stats.get('topiccrawler/storage/search_results', 0)} results",
        f"  pages stored          {score.pages}",
        f"  relevant (truth)      {ratio(score.relevant_fetched, score.pages)} of stored = harvest rate {score.harvest_rate:.2f}",
        f"  recall of relevant    {ratio(score.relevant_fetched, score.relevant_in_web)} of the sandbox's relevant pages",
        f"  blocked pages         {score.not_genuine} stored pages are a captcha or ban page, not the page",
        f"  kept as relevant      {relevance}",
        f"  comments stored       {score.comments_stored}, {score.comments_right} right "
        f"(truth on kept pages: {score.comments_kept_true}; on all fetched: {score.comments_true})",
        f"  forum posts stored    {score.posts_stored}, {score.posts_right} right "
        f"(truth on kept pages: {score.posts_kept_true}; on all fetched: {score.posts_true})",
        f"  duplicates            {duplicates}",
        f"  feeds and sitemaps    {score.via_feeds} pages came from feeds, {score.via_sitemaps} from"
        f" sitemaps; feed-only relevant articles {score.feed_only_stored}/"
        f"{score.feed_only_in_web} stored, sitemap-only {score.sitemap_only_stored}/"
        f"{score.sitemap_only_in_web}",
        f"  skipped / failed      {sum(v for k, v in stats.items() if k.startswith('topiccrawler/skipped/'))} skipped, "
        f"{stats.get('topiccrawler/fetch/failed', 0)} failed (dead links, timeouts, bans)",
        f"  errors logged         {stats.get('log_count/ERROR', 0)} (dead links and timeouts are logged as errors by Scrapy)",
        f"  database              {result.database.describe()}",
        f"  sandbox               http://*.test:{result.port}/ (URLs stay the same across runs"
        " on this port)",
        f"  look inside           {command} stats",
        f"  search it             {command} search 增值税 发票",
        f"  browse it             {command} serve   (then http://127.0.0.1:8800/)",
    ]
    if result.report:
        lines.append(f"  report                {result.report} (open it in a browser)")
    elif result.report_error:
        lines.append(f"  report                not written: {result.report_error}")
    if result.port_note:
        lines.append(f"  note                  {result.port_note}")
    return "\n".join(lines)
