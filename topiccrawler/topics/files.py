"""Read and validate topic files (TOML); every error names the file and, where known, the line.

A keyword file (`keywords/<topic>.toml`)::

    [topic]
    title = "税务"          # shown in reports
    language = "zh"         # zh, en or mixed
    threshold = "auto"      # η: pages scoring below are not kept; "auto" (or no line):
                            # estimated from the crawl's own scores

    [subjects]
    "税务局" = ["税务机关", "国家税务总局"]   # term = [synonyms]
    [domain_terms]
    "增值税" = ["VAT"]
    [judgement_words]
    "偷税" = ["逃税"]
    [examples]              # optional: saved pages (paths beside this file) that train the
    relevant = ["examples/case.html"]   # page classifier before the first page is fetched
    irrelevant = ["examples/sports.html"]

A seed file (`seeds/<topic>.toml`)::

    [[authority]]
    name = "国家税务总局"
    start_urls = ["https://www.chinatax.gov.cn/"]
    allowed_domains = ["chinatax.gov.cn"]   # default: the start URLs' hosts
    depth_limit = 3
    max_pages = 1000
    discover = true                   # its feeds and sitemaps (the default)
    feeds = ["https://www.chinatax.gov.cn/rss.xml"]          # more feeds than it announces
    sitemaps = ["https://www.chinatax.gov.cn/sitemap.xml"]   # more than robots.txt names
    entry_domains = ["cdn.chinatax.gov.cn"]   # entries there are kept too

    [search]
    engines = ["searx"]
    target_sites = ["gov.cn"]         # each query again as "… site:gov.cn"
    pages_per_query = 1
    query_classes = ["subjects", "domain_terms", "judgement_words"]   # the default
    combine = [["domain_terms", "judgement_words"]]   # also "增值税 偷税" and so on

    [engines.searx]
    type = "searxng"
    url = "http://127.0.0.1:8888/search"
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from topiccrawler.topics.model import (
    ENGINE_TYPES,
    TERM_CLASSES,
    AuthoritySite,
    EngineConfig,
    KeywordLibrary,
    LoginConfig,
    SeedList,
    Term,
)

LANGUAGES = ("zh", "en", "mixed")
AUTO_THRESHOLD = "auto"  # a keyword file's `threshold` that asks for η estimated while crawling


def threshold_override(value, topic_threshold: float | None) -> float | None:
    """η from a setting or an option given beside the topic file: None or "" keeps the topic's,
    "auto" asks for it to be estimated (None), else a number from 0 to 1 (ValueError if not)."""
    if value in (None, ""):
        return topic_threshold
    if str(value).strip().lower() == AUTO_THRESHOLD:
        return None
    number = float(value)
    if not 0 <= number <= 1:
        raise ValueError(f"η must be from 0 to 1 or 'auto', not {value}")
    return number


class TopicFileError(ValueError):
    """A topic file that cannot be used; `str()` reads `path:line: message`."""

    def __init__(self, path: Path | str, message: str, line: int | None = None):
        self.path = Path(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else str(self.path)
        super().__init__(f"{where}: {message}")


# --- locating keys in the source, since tomllib gives no positions for valid documents ----------

_HEADER = re.compile(r"^\s*(\[\[?)\s*(.+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_\-]+)\s*=""")
_KEY_PART = re.compile(r"""\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_\-]+)\s*(?:\.|$)""")


def _unquote(key: str) -> str:
    if key[:1] == '"':
        return key[1:-1].encode().decode("unicode_escape").encode("latin-1").decode("utf-8")
    if key[:1] == "'":
        return key[1:-1]
    return key


class _Locator:
    """Maps key paths such as ("authority", 1, "depth_limit") to 1-based source lines."""

    def __init__(self, text: str):
        self.lines: dict[tuple, int] = {}
        table: tuple = ()
        array_counts: dict[tuple, int] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            if header := _HEADER.match(line):
                parts = tuple(_unquote(p) for p in _KEY_PART.findall(header.group(2)))
                if header.group(1) == "[[":
                    index = array_counts.get(parts, 0)
                    array_counts[parts] = index + 1
                    table = (*parts, index)
                else:
                    table = parts
                self.lines.setdefault(table, number)
            elif key := _KEY.match(line):
                self.lines.setdefault((*table, _unquote(key.group(1))), number)

    def line_of(self, path: tuple) -> int | None:
        """The line of `path`, or of its nearest located ancestor."""
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return None


class _Document:
    """A parsed TOML file plus what is needed to report errors against it."""

    def __init__(self, path: Path):
        self.path = path
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise TopicFileError(path, f"cannot read: {exc.strerror or exc}") from exc
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = raw[: exc.start].count(b"\n") + 1
            raise TopicFileError(path, "is not UTF-8 text", line) from exc
        try:
            self.data: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            match = re.search(r"\(at line (\d+), column \d+\)", str(exc))
            message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
            line = int(match.group(1)) if match else None
            raise TopicFileError(path, f"invalid TOML: {message}", line) from exc
        self._locator = _Locator(text)

    def error(self, path: tuple, message: str) -> TopicFileError:
        return TopicFileError(self.path, message, self._locator.line_of(path))

    def line_of(self, path: tuple) -> int | None:
        return self._locator.line_of(path)

    def table(self, data: Any, path: tuple, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.error(path, f"'{_dotted(path)}' must be a table")
        for key in data:
            if key not in allowed:
                raise self.error(
                    (*path, key),
                    f"unknown key '{key}' in {_dotted(path) or 'the top level'}"
                    f" (expected one of: {', '.join(sorted(allowed))})",
                )
        return data

    def string(self, value: Any, path: tuple) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.error(path, f"'{_dotted(path)}' must be a non-empty string")
        return value.strip()

    def strings(self, value: Any, path: tuple) -> tuple[str, ...]:
        if not isinstance(value, list):
            raise self.error(path, f"'{_dotted(path)}' must be a list of strings")
        return tuple(self.string(item, path) for item in value)

    def number(self, value: Any, path: tuple, low: float, high: float, also: str = "") -> float:
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not low <= value <= high
        ):
            alternative = f" or {also}" if also else ""
            raise self.error(
                path, f"'{_dotted(path)}' must be a number from {low} to {high}{alternative}"
            )
        return float(value)

    def boolean(self, value: Any, path: tuple) -> bool:
        if not isinstance(value, bool):
            raise self.error(path, f"'{_dotted(path)}' must be true or false")
        return value

    def integer(self, value: Any, path: tuple, low: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            raise self.error(path, f"'{_dotted(path)}' must be a whole number ≥ {low}")
        return value


def _dotted(path: tuple) -> str:
    return ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in path).replace(".[", "[")


# --- keyword files ------------------------------------------------------------------------------


def load_keyword_file(path: Path | str, topic: str | None = None) -> KeywordLibrary:
    """Load and validate a keyword file; the topic name defaults to the file's stem."""
    path = Path(path)
    doc = _Document(path)
    data = doc.table(doc.data, (), {"topic", "examples", *TERM_CLASSES})
    meta = doc.table(data.get("topic", {}), ("topic",), {"name", "title", "language", "threshold"})
    name = doc.string(meta["name"], ("topic", "name")) if "name" in meta else (topic or path.stem)
    language = doc.string(meta.get("language", "zh"), ("topic", "language"))
    if language not in LANGUAGES:
        raise doc.error(("topic", "language"), f"language must be one of {', '.join(LANGUAGES)}")
    raw_threshold = meta.get("threshold", AUTO_THRESHOLD)
    threshold = (
        None
        if raw_threshold == AUTO_THRESHOLD
        else doc.number(raw_threshold, ("topic", "threshold"), 0.0, 1.0, also='"auto"')
    )

    terms: list[Term] = []
    first_seen: dict[str, tuple] = {}
    for term_class in TERM_CLASSES:
        table = data.get(term_class, {})
        if not isinstance(table, dict):
            raise doc.error((term_class,), f"'{term_class}' must be a table of term = [synonyms]")
        for raw_term, raw_synonyms in table.items():
            key_path = (term_class, raw_term)
            text = doc.string(raw_term, key_path)
            synonyms = doc.strings(raw_synonyms, key_path)
            for word in (text, *synonyms):
                if word in first_seen:
                    other = doc.line_of(first_seen[word])
                    where = f" (first at line {other})" if other else ""
                    raise doc.error(key_path, f"'{word}' appears twice in the library{where}")
                first_seen[word] = key_path
            terms.append(Term(text=text, term_class=term_class, synonyms=synonyms))
    if not any(t.term_class in ("subjects", "domain_terms") for t in terms):
        raise doc.error((), "the library needs at least one term in [subjects] or [domain_terms]")
    examples = doc.table(data.get("examples", {}), ("examples",), {"relevant", "irrelevant"})
    example_files = {}
    for kind in ("relevant", "irrelevant"):
        files = []
        for name_ in doc.strings(examples.get(kind, []), ("examples", kind)):
            file = (path.parent / name_).resolve()
            if not file.is_file():
                raise doc.error(("examples", kind), f"example file not found: {file}")
            files.append(file)
        example_files[kind] = tuple(files)
    return KeywordLibrary(
        topic=name,
        title=doc.string(meta.get("title", name), ("topic", "title")),
        language=language,
        threshold=threshold,
        terms=tuple(terms),
        path=path,
        relevant_examples=example_files["relevant"],
        irrelevant_examples=example_files["irrelevant"],
    )


# --- seed files ---------------------------------------------------------------------------------

_AUTHORITY_KEYS = {
    "name", "start_urls", "allowed_domains", "depth_limit", "max_pages", "download_delay",
    "concurrency", "render", "discover", "feeds", "sitemaps", "entry_domains",
}  # fmt: skip
RENDER_MODES = ("auto", "always", "never")
_LOGIN_KEYS = {
    "site", "login_url", "username_field", "password_field", "username_env", "password_env",
    "credentials_file", "failure_text", "username", "password",
}  # fmt: skip
_SEARCH_KEYS = {"engines", "target_sites", "pages_per_query", "query_classes", "combine"}
_ENGINE_REQUIRED = {"searxng": ("url",), "template": ("url", "results")}


def load_seed_file(path: Path | str, topic: str | None = None) -> SeedList:
    """Load and validate a seed file; every URL must be http(s) and every engine declared."""
    path = Path(path)
    doc = _Document(path)
    data = doc.table(doc.data, (), {"authority", "search", "engines", "login"})

    authority = data.get("authority", [])
    if not isinstance(authority, list):
        raise doc.error(("authority",), "authority sites are written as [[authority]] tables")
    sites = tuple(
        _authority_site(doc, entry, ("authority", i)) for i, entry in enumerate(authority)
    )

    engine_tables = doc.table(data.get("engines", {}), ("engines",), set(data.get("engines", {})))
    engines = {name: _engine(doc, name, table) for name, table in engine_tables.items()}

    search = doc.table(data.get("search", {}), ("search",), _SEARCH_KEYS)
    chosen = doc.strings(search.get("engines", []), ("search", "engines"))
    for name in chosen:
        if name not in engines:
            raise doc.error(
                ("search", "engines"),
                f"engine '{name}' is not declared; add an [engines.{name}] table",
            )
    target_sites = doc.strings(search.get("target_sites", []), ("search", "target_sites"))
    pages = doc.integer(search.get("pages_per_query", 1), ("search", "pages_per_query"), 1)
    classes = doc.strings(
        search.get("query_classes", list(TERM_CLASSES)), ("search", "query_classes")
    )
    pairs = search.get("combine", [])
    if not isinstance(pairs, list):
        raise doc.error(
            ("search", "combine"), "'search.combine' must be a list of [class, class] pairs"
        )
    combinations = tuple(doc.strings(pair, ("search", "combine")) for pair in pairs)
    for name in (*classes, *(c for pair in combinations for c in pair)):
        if name not in TERM_CLASSES:
            raise doc.error(
                ("search",), f"'{name}' is not a term class ({', '.join(TERM_CLASSES)})"
            )
    if any(len(pair) != 2 for pair in combinations):
        raise doc.error(
            ("search", "combine"), "each 'search.combine' entry is a pair of term classes"
        )
    logins = data.get("login", [])
    if not isinstance(logins, list):
        raise doc.error(("login",), "logins are written as [[login]] tables")
    login_configs = tuple(_login(doc, entry, ("login", i)) for i, entry in enumerate(logins))
    if not sites and not chosen:
        raise doc.error((), "nothing to crawl: add [[authority]] sites or [search] engines")
    return SeedList(
        topic=topic or path.stem,
        authority=sites,
        target_sites=target_sites,
        engines=tuple(engines[name] for name in chosen),
        pages_per_query=pages,
        query_classes=classes,
        combinations=combinations,  # type: ignore[arg-type]
        logins=login_configs,
        path=path,
    )


def _authority_site(doc: _Document, entry: Any, path: tuple) -> AuthoritySite:
    entry = doc.table(entry, path, _AUTHORITY_KEYS)
    if "start_urls" not in entry:
        raise doc.error(path, "an [[authority]] site needs start_urls")
    start_urls = doc.strings(entry["start_urls"], (*path, "start_urls"))
    if not start_urls:
        raise doc.error((*path, "start_urls"), "start_urls is empty")
    for url in start_urls:
        _check_url(doc, url, (*path, "start_urls"))
    domains = doc.strings(entry.get("allowed_domains", []), (*path, "allowed_domains"))
    if not domains:
        domains = tuple(dict.fromkeys(urlsplit(u).hostname or "" for u in start_urls))
    return AuthoritySite(
        name=doc.string(entry.get("name", domains[0]), (*path, "name")),
        start_urls=start_urls,
        allowed_domains=domains,
        depth_limit=doc.integer(entry.get("depth_limit", 3), (*path, "depth_limit"), 0),
        max_pages=doc.integer(entry.get("max_pages", 1000), (*path, "max_pages"), 1),
        download_delay=(
            doc.number(entry["download_delay"], (*path, "download_delay"), 0.0, 3600.0)
            if "download_delay" in entry
            else None
        ),
        concurrency=(
            doc.integer(entry["concurrency"], (*path, "concurrency"), 1)
            if "concurrency" in entry
            else None
        ),
        render=_render_mode(doc, entry, path),
        discover=doc.boolean(entry.get("discover", True), (*path, "discover")),
        feeds=_urls(doc, entry, path, "feeds"),
        sitemaps=_urls(doc, entry, path, "sitemaps"),
        entry_domains=_domains(doc, entry, path, "entry_domains"),
    )


def _urls(doc: _Document, entry: dict, path: tuple, key: str) -> tuple[str, ...]:
    """A list of http(s) URLs (feeds = [...], sitemaps = [...]), each once."""
    urls = doc.strings(entry.get(key, []), (*path, key))
    for url in urls:
        _check_url(doc, url, (*path, key))
    return tuple(dict.fromkeys(urls))


def _domains(doc: _Document, entry: dict, path: tuple, key: str) -> tuple[str, ...]:
    """Host names (entry_domains = ["cdn.example.com"]): no scheme, path or port."""
    domains = doc.strings(entry.get(key, []), (*path, key))
    for domain in domains:
        if not re.fullmatch(r"[A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:.]+\]", domain):
            raise doc.error(
                (*path, key), f"'{domain}' is not a host name (write example.com, not a URL)"
            )
    return tuple(d.lower() for d in domains)


def _render_mode(doc: _Document, entry: dict, path: tuple) -> str | None:
    if "render" not in entry:
        return None
    mode = doc.string(entry["render"], (*path, "render"))
    if mode not in RENDER_MODES:
        raise doc.error((*path, "render"), f"render is one of {', '.join(RENDER_MODES)}")
    return mode


def _login(doc: _Document, entry: Any, path: tuple) -> LoginConfig:
    entry = doc.table(entry, path, _LOGIN_KEYS)
    for secret in ("username", "password"):
        if secret in entry:
            raise doc.error(
                (*path, secret),
                f"credentials do not belong in a seed file: name an environment variable "
                f"({secret}_env) or a credentials_file outside the project",
            )
    if "login_url" not in entry:
        raise doc.error(path, "a [[login]] needs login_url")
    login_url = doc.string(entry["login_url"], (*path, "login_url"))
    _check_url(doc, login_url, (*path, "login_url"))
    optional = {
        key: doc.string(entry[key], (*path, key))
        for key in ("username_env", "password_env", "credentials_file", "failure_text")
        if key in entry
    }
    if not optional.get("credentials_file") and not (
        optional.get("username_env") and optional.get("password_env")
    ):
        raise doc.error(
            path, "a [[login]] needs username_env and password_env, or credentials_file"
        )
    return LoginConfig(
        site=doc.string(entry.get("site", urlsplit(login_url).hostname or ""), (*path, "site")),
        login_url=login_url,
        username_field=doc.string(
            entry.get("username_field", "username"), (*path, "username_field")
        ),
        password_field=doc.string(
            entry.get("password_field", "password"), (*path, "password_field")
        ),
        **optional,
    )


def _engine(doc: _Document, name: str, table: Any) -> EngineConfig:
    path = ("engines", name)
    if not isinstance(table, dict):
        raise doc.error(path, f"'engines.{name}' must be a table")
    kind = doc.string(table.get("type", ""), (*path, "type")) if "type" in table else ""
    if kind not in ENGINE_TYPES:
        raise doc.error(
            (*path, "type"), f"engine '{name}' needs type = one of {', '.join(ENGINE_TYPES)}"
        )
    for key in _ENGINE_REQUIRED.get(kind, ()):
        if key not in table:
            raise doc.error(path, f"a '{kind}' engine needs '{key}'")
    if "url" in table:
        _check_url(doc, doc.string(table["url"], (*path, "url")), (*path, "url"))
    options = {k: v for k, v in table.items() if k != "type"}
    return EngineConfig(name=name, type=kind, options=options)


def _check_url(doc: _Document, url: str, path: tuple) -> None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise doc.error(path, f"'{url}' is not an http(s) URL")
