"""The web view: search, one page with its comments, posts and reposts, stories, crawl runs.

A Starlette application with Jinja2 templates, read-only over the store the crawls write
(SQLite or PostgreSQL). Crawled text is text everywhere: templates escape every value, the
Content-Security-Policy allows scripts, styles and requests from this server only (no inline
script, nothing from elsewhere), and the one script (static/view.js) writes text nodes only.
Served beyond loopback it asks for a token (`--token`), given once as ?token=… (kept in a
cookie that only this server sees) or as an `Authorization: Bearer` header.
"""

from __future__ import annotations

import hmac
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from time import monotonic

from jinja2 import Environment, FileSystemLoader, select_autoescape
from sqlalchemy import select
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from topiccrawler.search.query import QueryError, parse_query
from topiccrawler.storage.browse import page_view, run_figures, runs
from topiccrawler.storage.db import Database
from topiccrawler.storage.models import CrawlRun
from topiccrawler.storage.search import (
    KINDS,
    RANK_WINDOW,
    RELEVANCE_WEIGHT,
    SearchFilters,
    search,
)
from topiccrawler.storage.stats import stored_topics
from topiccrawler.storage.stories import reposted_stories

HERE = Path(__file__).parent
PER_PAGE = 20
MAX_PAGE = 500  # result pages a search may be paged to
TOKEN_COOKIE = "topiccrawler_token"
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


class BadRequest(ValueError):
    """A request parameter that cannot be used; the message says which and why."""


def create_app(
    database: Database,
    token: str | None = None,
    relevance_weight: float = RELEVANCE_WEIGHT,
    rank_window: int | None = RANK_WINDOW,
):
    """The view over `database`; with `token`, every request must carry it."""
    templates = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
    )
    templates.filters["when"] = _when
    templates.filters["score"] = lambda v: "" if v is None else f"{v:.3f}"
    templates.filters["reasons"] = reasons

    topics = StoredTopics(database)

    def render(request: Request, name: str, status: int = 200, **values) -> HTMLResponse:
        html = templates.get_template(name).render(request=request, topics=topics(), **values)
        return HTMLResponse(html, status_code=status)

    def search_page(request: Request):
        values = _search_values(request)
        if not values["q"]:
            return render(request, "search.html", **values, results=None, error=None)
        try:
            results = _run_search(database, values, relevance_weight, rank_window)
        except (QueryError, BadRequest) as exc:
            return render(request, "search.html", 400, **values, results=None, error=str(exc))
        pages = -(-results.total // PER_PAGE)
        return render(request, "search.html", **values, results=results, error=None, pages=pages)

    def search_api(request: Request):
        values = _search_values(request)
        try:
            results = _run_search(database, values, relevance_weight, rank_window)
        except (QueryError, BadRequest) as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        return JSONResponse(
            {
                "query": values["q"],
                "total": results.total,
                "more": results.more,
                "page": values["page"],
                "hits": [hit.as_dict() for hit in results.hits],
            }
        )

    def page_detail(request: Request):
        with database.session() as session:
            view = page_view(session, request.path_params["page_id"])
            if view is None:
                return render(request, "missing.html", 404, what="page")
            return render(request, "page.html", view=view)

    def stories(request: Request):
        topic = request.query_params.get("topic") or topics.latest()
        with database.session() as session:
            found = reposted_stories(session, topic, limit=50) if topic else []
            return render(request, "stories.html", topic=topic, stories=found)

    def crawls(request: Request):
        topic = request.query_params.get("topic") or None
        with database.session() as session:
            figures = [run_figures(session, run, curve=False) for run in runs(session, topic)]
            return render(request, "crawls.html", topic=topic, figures=figures)

    def crawl(request: Request):
        with database.session() as session:
            run = session.get(CrawlRun, request.path_params["run_id"])
            if run is None:
                return render(request, "missing.html", 404, what="crawl run")
            return render(request, "crawl.html", figures=run_figures(session, run))

    def crawl_api(request: Request):
        with database.session() as session:
            run = session.get(CrawlRun, request.path_params["run_id"])
            if run is None:
                return JSONResponse({"error": "no such crawl run"}, status_code=404)
            return JSONResponse(run_figures(session, run).as_dict())

    def home(request: Request):
        return RedirectResponse("/search", status_code=302)

    routes = [
        Route("/", home),
        Route("/search", search_page),
        Route("/api/search", search_api),
        Route("/pages/{page_id:int}", page_detail),
        Route("/stories", stories),
        Route("/crawls", crawls),
        Route("/crawls/{run_id:int}", crawl),
        Route("/api/crawls/{run_id:int}", crawl_api),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if token:
        middleware.insert(0, Middleware(TokenRequired, token=token))
    return Starlette(routes=routes, middleware=middleware)


class SecurityHeaders:
    """The headers that keep crawled text inert on every response."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", [])]
                names = {k.lower() for k, _ in headers}
                headers += [
                    (name.encode(), value.encode())
                    for name, value in SECURITY_HEADERS.items()
                    if name.encode() not in names
                ]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class TokenRequired:
    """Every request carries the token: ?token=… once (then a cookie), or a Bearer header."""

    def __init__(self, app: ASGIApp, token: str):
        self.app = app
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        given = request.query_params.get("token")
        header = request.headers.get("authorization", "")
        candidates = [
            given,
            header[7:] if header.lower().startswith("bearer ") else None,
            request.cookies.get(TOKEN_COOKIE),
        ]
        if not any(c and hmac.compare_digest(c, self.token) for c in candidates):
            response = PlainTextResponse(
                "This view needs its token: open it as /?token=… (see `topiccrawler serve`).",
                status_code=401,
            )
            await response(scope, receive, send)
            return
        if given:  # the token leaves the URL (and the browser's history) at once
            target = request.url.remove_query_params("token")
            response = RedirectResponse(str(target), status_code=303)
            response.set_cookie(
                TOKEN_COOKIE, self.token, httponly=True, samesite="strict", path="/"
            )
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def _search_values(request: Request) -> dict:
    params = request.query_params
    kinds = [k for k in params.getlist("kind") if k]
    try:
        page = max(1, min(MAX_PAGE, int(params.get("page") or 1)))
    except ValueError:
        page = 1
    return {
        "q": (params.get("q") or "").strip(),
        "topic": params.get("topic") or "",
        "site": (params.get("site") or "").strip(),
        "since": params.get("since") or "",
        "until": params.get("until") or "",
        "kinds": kinds,
        "all": params.get("all") in ("1", "on", "yes", "true"),
        "page": page,
    }


def _run_search(database: Database, values: dict, relevance_weight: float, rank_window: int | None):
    if not values["q"]:
        raise QueryError("the query is empty; give a word to look for")
    unknown = [k for k in values["kinds"] if k not in KINDS]
    if unknown:
        raise BadRequest(f"kind must be one of {', '.join(KINDS)}, not {unknown[0]!r}")
    filters = SearchFilters(
        topic=values["topic"] or None,
        site=values["site"] or None,
        since=_day(values["since"], "since"),
        until=_day(values["until"], "until", next_day=True),
        kinds=tuple(values["kinds"]) or KINDS,
        kept_only=not values["all"],
    )
    query = parse_query(values["q"])
    with database.engine.connect() as connection:
        return search(
            connection, query, filters, limit=PER_PAGE, offset=(values["page"] - 1) * PER_PAGE,
            relevance_weight=relevance_weight, rank_window=rank_window,
        )  # fmt: skip


def _day(value: str, name: str, next_day: bool = False) -> datetime | None:
    """A YYYY-MM-DD date as the start of that day in UTC (`until` takes the whole day)."""
    if not value:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError as exc:
        raise BadRequest(f"{name} must be a date as YYYY-MM-DD, not {value!r}") from exc
    start = datetime.combine(day, time.min, tzinfo=UTC)
    return start + timedelta(days=1) if next_day else start


class StoredTopics:
    """The stored topics' names for the filters, read again at most every `ttl` seconds (on a
    store of millions of pages, reading them costs more than a search)."""

    def __init__(self, database: Database, ttl: float = 30.0):
        self.database = database
        self.ttl = ttl
        self.read_at = -ttl
        self.names: list[str] = []

    def __call__(self) -> list[str]:
        if monotonic() - self.read_at > self.ttl:
            with self.database.session() as session:
                self.names = stored_topics(session)
            self.read_at = monotonic()
        return self.names

    def latest(self) -> str | None:
        """The topic crawled last, for a view that shows one topic when none is asked for."""
        with self.database.session() as session:
            latest = session.scalar(
                select(CrawlRun.topic).order_by(CrawlRun.started_at.desc()).limit(1)
            )
        return latest or next(iter(self()), None)


def reasons(detail: dict | None) -> list[tuple[str, str]]:
    """A page's relevance detail as lines a reader follows: the terms that scored, best first;
    each block's score and weight; the rest as written."""
    lines = []
    for key, value in (detail or {}).items():
        if key == "terms" and isinstance(value, dict):
            ranked = sorted(value.items(), key=lambda pair: -float(pair[1] or 0))
            value = ", ".join(f"{term} {float(score):.3f}" for term, score in ranked)
        elif key == "blocks" and isinstance(value, dict):
            value = ", ".join(
                f"{block} {part.get('score', 0):.3f} (weight {part.get('weight', 0):.2f})"
                for block, part in value.items()
                if isinstance(part, dict)
            )
        elif key == "words" and isinstance(value, dict):
            value = "; ".join(f"{concept}: {', '.join(map(str, words))}"
                              for concept, words in value.items())  # fmt: skip
        lines.append((key, str(value)))
    return lines


def _when(moment) -> str:
    if not moment:
        return ""
    if isinstance(moment, str):
        return moment[:16].replace("T", " ")
    return f"{moment:%Y-%m-%d %H:%M}"
