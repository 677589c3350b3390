"""What every search engine shares: hits, block detection, and construction from a seed file."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar
from urllib.parse import urljoin, urlsplit

from topiccrawler.topics.model import EngineConfig

# Phrases of the pages engines show instead of results when they suspect a robot.
CAPTCHA_MARKERS = (
    "captcha", "verify you are human", "unusual traffic", "are you a robot", "安全验证",
    "验证码", "人机验证", "访问验证", "异常流量", "请完成下方验证",
)  # fmt: skip
# Statuses that mean "not now": rate limited, accepted-but-not-served, forbidden, unavailable.
BLOCKED_STATUSES = (202, 403, 429, 503)
# Hosts engines send robots to.
VERIFICATION_HOSTS = ("wappass.baidu.com", "verify.", "captcha.", "/sorry/")


class EngineBlocked(Exception):
    """The engine answered, but not with results: a captcha, a rate limit, a changed format."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class SearchHit:
    """One result of one query: its URL, rank on the engine (1-based), title and snippet."""

    url: str
    rank: int
    title: str = ""
    snippet: str = ""


class SearchEngine:
    """Builds query URLs and parses result pages; subclasses set `kind` and `default_url`."""

    kind: ClassVar[str]
    default_url: ClassVar[str]
    results_per_page: ClassVar[int] = 10

    def __init__(self, name: str, options: dict | None = None):
        options = dict(options or {})
        self.name = name
        self.url = options.pop("url", None) or self.default_url
        self.obey_robots = bool(options.pop("obey_robots", False))
        self.options = options

    def query_url(self, query: str, page: int) -> str:
        raise NotImplementedError

    def parse(self, text: str, url: str, page: int = 1) -> list[SearchHit]:
        """Hits on result page `page` (ranks count across pages); EngineBlocked if it is not one."""
        raise NotImplementedError

    def first_rank(self, page: int) -> int:
        return (page - 1) * self.results_per_page + 1

    @staticmethod
    def check_response(status: int, url: str, text: str) -> None:
        """Raise EngineBlocked for answers that are not result pages, whatever the engine."""
        if status in BLOCKED_STATUSES:
            raise EngineBlocked(f"HTTP {status}")
        if any(marker in url for marker in VERIFICATION_HOSTS):
            raise EngineBlocked(f"redirected to verification page {urlsplit(url).netloc}")
        head = text[:20000].lower()
        for marker in CAPTCHA_MARKERS:
            if marker in head:
                raise EngineBlocked(f"captcha page ({marker!r})")

    @staticmethod
    def absolute(href: str, base: str) -> str | None:
        """The absolute http(s) URL of a result link; None for empty or javascript: links."""
        if not href.strip():
            return None
        url = urljoin(base, href.strip())
        return url if urlsplit(url).scheme in ("http", "https") else None


def engine_from_config(config: EngineConfig) -> SearchEngine:
    """The engine a seed file's [engines.NAME] table declares."""
    # Late: the engine modules subclass this module's SearchEngine.
    from topiccrawler.seeding import baidu, bing, searxng, template

    kinds = {
        m.kind: m
        for m in (
            searxng.SearxngEngine,
            bing.BingEngine,
            baidu.BaiduEngine,
            template.TemplateEngine,
        )
    }
    return kinds[config.type](config.name, config.options)
