"""What a topic is once its files are loaded: plain frozen dataclasses, no I/O."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

# The three term classes of the topic feature library (SPEC §6), in file order.
TERM_CLASSES: tuple[str, ...] = ("subjects", "domain_terms", "judgement_words")

# Search engine kinds a seed file may name (SPEC §1). The seeding package implements them.
ENGINE_TYPES: tuple[str, ...] = ("searxng", "bing", "baidu", "template")


@dataclass(frozen=True)
class Term:
    """One library term with its synonyms; provenance says where it came from."""

    text: str
    term_class: str
    synonyms: tuple[str, ...] = ()
    provenance: str = "static"


@dataclass(frozen=True)
class KeywordLibrary:
    """The topic feature library read from `keywords/<topic>.toml`."""

    topic: str
    title: str
    language: str
    threshold: float | None  # η; None: estimated from the crawl's own scores ("auto")
    terms: tuple[Term, ...]
    path: Path | None = None
    # Saved pages that train the page classifier before the first page ([examples]).
    relevant_examples: tuple[Path, ...] = ()
    irrelevant_examples: tuple[Path, ...] = ()

    def by_class(self, term_class: str) -> tuple[Term, ...]:
        return tuple(t for t in self.terms if t.term_class == term_class)

    @property
    def all_words(self) -> tuple[str, ...]:
        """Every term and synonym, each once, in file order."""
        seen: dict[str, None] = {}
        for term in self.terms:
            seen.setdefault(term.text)
            for synonym in term.synonyms:
                seen.setdefault(synonym)
        return tuple(seen)


@dataclass(frozen=True)
class AuthoritySite:
    """A site crawled deeply from its start URLs (the authority entrance)."""

    name: str
    start_urls: tuple[str, ...]
    allowed_domains: tuple[str, ...]
    depth_limit: int = 3
    max_pages: int = 1000
    download_delay: float | None = None  # seconds between requests to it (None: DOWNLOAD_DELAY)
    concurrency: int | None = (
        None  # requests in flight to it (None: CONCURRENT_REQUESTS_PER_DOMAIN)
    )
    render: str | None = None  # "auto", "always" or "never" (None: RENDER_MODE)
    # Feeds and sitemaps (discovery/): found on its start and hub pages and in robots.txt
    # unless `discover = false`; the seed file may name more. Their entries outside
    # allowed_domains are dropped unless their host is in entry_domains.
    discover: bool = True
    feeds: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()
    entry_domains: tuple[str, ...] = ()


@dataclass(frozen=True)
class LoginConfig:
    """A site whose pages need a form login. Credentials are never in the seed file: they come
    from environment variables or a file outside the project, read when the crawl logs in."""

    site: str  # host name
    login_url: str
    username_field: str = "username"
    password_field: str = "password"
    username_env: str | None = None
    password_env: str | None = None
    credentials_file: str | None = None  # TOML with username = "…", password = "…"
    failure_text: str | None = None  # text of the page a failed login shows


@dataclass(frozen=True)
class EngineConfig:
    """A search engine the meta-search entrance submits queries to."""

    name: str
    type: str
    options: dict = field(default_factory=dict, hash=False, compare=False)


@dataclass(frozen=True)
class SeedList:
    """Authority sites, `site:` targets and engines read from `seeds/<topic>.toml`."""

    topic: str
    authority: tuple[AuthoritySite, ...] = ()
    target_sites: tuple[str, ...] = ()
    engines: tuple[EngineConfig, ...] = ()
    pages_per_query: int = 1
    query_classes: tuple[str, ...] = TERM_CLASSES  # term classes queried one term at a time
    combinations: tuple[tuple[str, str], ...] = ()  # class pairs queried as "term1 term2"
    logins: tuple[LoginConfig, ...] = ()
    path: Path | None = None


@dataclass(frozen=True)
class Topic:
    """Everything the spider needs to know about the topic it crawls."""

    name: str
    keywords: KeywordLibrary
    seeds: SeedList
