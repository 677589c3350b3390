"""Every project setting changes something a user could observe: each is changed in turn, the
crawl's components are built from it as Scrapy builds them (`from_crawler`), and some
component's configuration must differ from the one built with the defaults. A setting that a
component reads only later (when the crawl opens, per request, or only in a shared crawl) is
listed in READ_LATER with the module that reads it and when; the list is checked against that
module's source, so it cannot name a reader that no longer reads the setting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scrapy.exceptions import NotConfigured
from scrapy.settings import default_settings
from scrapy.utils.misc import build_from_crawler, load_object

from tests.crawl import make_crawler
from tests.test_settings import ADD_ON_PREFIXES, defined
from topiccrawler import settings as project_settings
from topiccrawler.spiders.topic import TopicSpider

PACKAGE = Path(__file__).resolve().parents[1] / "topiccrawler"
COMPONENT_GROUPS = ("SPIDER_MIDDLEWARES", "DOWNLOADER_MIDDLEWARES", "ITEM_PIPELINES", "EXTENSIONS")
NOT_CONFIGURATION = {"crawler", "stats", "settings", "signals", "spider", "_crawler"}

# Setting → (the module that reads it, when). Each is exercised by that module's own tests.
READ_LATER = {
    "COOKIES_FILE": ("middlewares/sessions.py", "when the crawl opens"),
    "PROFILES_FILE": ("middlewares/profiles.py", "when the crawl opens"),
    "DATABASE_BUSY_TIMEOUT": ("storage/crawler.py", "when the database is first opened"),
    "DEAD_LINK_RETRY_AFTER": ("middlewares/known_urls.py", "when the crawl opens"),
    "REVISIT_AFTER": ("middlewares/known_urls.py", "when the crawl opens"),
    "REVISIT_DISCUSSIONS_AFTER": ("middlewares/known_urls.py", "when the crawl opens"),
    "REVISIT_HUBS_AFTER": ("middlewares/known_urls.py", "when the crawl opens"),
    "FRONTIER_WEIGHTS": ("middlewares/frontier.py", "when the crawl opens (with the topic)"),
    "FRONTIER_MAX_QUEUED": ("frontier/scheduler.py", "when the scheduler opens"),
    "FRONTIER_URL_CACHE": ("middlewares/frontier.py", "the URL memos' size, a module's"),
    "HARVEST_WINDOW": ("extensions/harvest.py", "when the crawl opens"),
    "RELEVANCE_BLOCK_IMPACT": ("crawl/topic.py", "when the topic's scorer is made"),
    "RELEVANCE_THRESHOLD": ("middlewares/relevance.py", "when the crawl opens (with the topic)"),
    "STORAGE_SPILL_DIR": ("pipelines/storage.py", "when the database is unreachable"),
    "SEARCH_ENGINE_TIMEOUT": ("spiders/topic.py", "per search request"),
    "SEARCH_FOLLOW_DEPTH": ("topics/limits.py", "per page the search entrance found"),
    "SEARCH_MAX_QUERIES": ("spiders/topic.py", "when the search requests are made"),
    "SEARCH_NEXT_PAGE_YIELD": ("spiders/topic.py", "per judged search hit"),
    "SEARCH_REPEAT_AFTER": ("spiders/topic.py", "when the search requests are made"),
    "SITE_MAX_PAGES": ("topics/limits.py", "per page the search entrance found"),
    "PROXY_BACKOFF": ("middlewares/proxies.py", "only with PROXIES or PROXY_FILE"),
    "PROXY_BACKOFF_MAX": ("middlewares/proxies.py", "only with PROXIES or PROXY_FILE"),
    "PROXY_FILE": ("middlewares/proxies.py", "when the middleware is built (a file to read)"),
    "PROXY_RETRY_TIMES": ("middlewares/proxies.py", "only with PROXIES or PROXY_FILE"),
    "REDIS_URL": ("distributed/state.py", "by the add-on: a shared crawl"),
    "REDIS_CRAWL_NAME": ("distributed/state.py", "only in a shared crawl"),
    "REDIS_PARAMS": ("distributed/state.py", "only in a shared crawl"),
    "REDIS_WORKER_TIMEOUT": ("distributed/state.py", "only in a shared crawl"),
    "REDIS_BLOOM_CAPACITY": ("distributed/scheduler.py", "only in a shared crawl"),
    "REDIS_BLOOM_ERROR": ("distributed/scheduler.py", "only in a shared crawl"),
    "REDIS_FLUSH_ON_START": ("distributed/scheduler.py", "only in a shared crawl"),
    "REDIS_IDLE_TIMEOUT": ("distributed/scheduler.py", "only in a shared crawl"),
    "REDIS_LOCAL_SEEN_MAX": ("distributed/scheduler.py", "only in a shared crawl"),
    "REDIS_FRONTIER_BAND": ("distributed/scheduler.py", "only in a shared crawl"),
    "REDIS_WORKER_STALL_TIMEOUT": ("distributed/scheduler.py", "only in a shared crawl"),
    "RENDER_BROWSER": ("render/handler.py", "when the first page is rendered"),
    "RENDER_BROWSER_ARGS": ("render/handler.py", "when the first page is rendered"),
    "RENDER_MAX_PAGES": ("render/handler.py", "when the first page is rendered"),
    "RENDER_TIMEOUT": ("render/handler.py", "when the first page is rendered"),
    "DATABASE_URL": ("storage/crawler.py", "when the database is first opened"),
    "TOPIC_DEFAULT": ("topics/registry.py", "when a topic is looked up"),
    "TOPIC_DIRS": ("topics/registry.py", "when a topic is looked up"),
    "TOPIC_KEYWORDS_DIR": ("topics/registry.py", "when a topic is looked up"),
    "TOPIC_SEEDS_DIR": ("topics/registry.py", "when a topic is looked up"),
    "TOPIC_LOCK_DIR": ("locks.py", "when `scrapy crawl` takes the topic's lock"),
    "SEARCH_RELEVANCE_WEIGHT": ("cli/search.py", "by `topiccrawler search` (and serve.py)"),
    "SEARCH_RANK_WINDOW": ("cli/search.py", "by `topiccrawler search` (and serve.py)"),
    **{
        name: ("pipelines/briefing.py", "when the spider opens: with the topic's words")
        for name in ("BRIEFING_KEYWORDS", "BRIEFING_SUMMARY_SENTENCES", "BRIEFING_ENTITIES")
    },
}


# A value to change to where the generic change would not be a valid one.
OTHER_VALUE = {
    "PROXIES": ["http://127.0.0.1:3128"],
    "RENDER_MODE": "never",
    "RELEVANCE_CLASSIFIER_SELF_TRAINING": "confident",
    "EXTRACT_PROCESSES": 2,
}


def changed(value: Any) -> Any:
    """Another value of the same kind as a setting's default."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value * 2 + 1
    if isinstance(value, float):
        return value * 2 + 0.5
    if isinstance(value, str):
        return f"{value}x"
    if isinstance(value, list | tuple):
        return list(value)[:-1] if value else ["x"]
    if isinstance(value, dict):
        return {}
    raise TypeError(f"no other value for {value!r}")


def shape(value: Any, depth: int = 0) -> Any:
    """A comparable picture of a component's attribute: plain values as they are, containers
    and objects by their contents (three levels), anything else by its type."""
    if isinstance(value, int | float | str | bytes | bool | type(None)):
        return value
    if depth > 2:
        return type(value).__name__
    if isinstance(value, set | frozenset):
        return sorted(repr(shape(v, depth + 1)) for v in value)
    if isinstance(value, list | tuple):
        return [shape(v, depth + 1) for v in value[:50]]
    if isinstance(value, dict):
        return sorted((repr(k), repr(shape(v, depth + 1))) for k, v in list(value.items())[:50])
    attributes = getattr(value, "__dict__", None)
    if attributes is None:
        return type(value).__name__
    return sorted(
        (name, repr(shape(v, depth + 1)))
        for name, v in attributes.items()
        if name not in NOT_CONFIGURATION
    )


def configuration(settings: dict[str, Any]) -> dict[str, str]:
    """component.attribute → its picture, for every project component Scrapy would build with
    these settings, the spider (tax topic) and the scheduler."""
    crawler = make_crawler(settings)
    crawler._apply_settings()
    built: dict[str, Any] = {}
    for group in COMPONENT_GROUPS:
        for path in crawler.settings.getwithbase(group):
            if isinstance(path, str) and path.startswith("topiccrawler."):
                try:
                    built[path] = build_from_crawler(load_object(path), crawler)
                except NotConfigured:
                    built[path] = None
    built["spider"] = TopicSpider.from_crawler(crawler, topic="tax")
    built["scheduler"] = build_from_crawler(load_object(crawler.settings["SCHEDULER"]), crawler)
    pictures = {}
    for name, component in built.items():
        if component is None:
            pictures[name] = "not configured"
            continue
        for attribute, value in vars(component).items():
            if attribute not in NOT_CONFIGURATION:
                pictures[f"{name}.{attribute}"] = repr(shape(value))
    return pictures


def project_only() -> list[str]:
    scrapys = {name for name in dir(default_settings) if name.isupper()}
    return sorted(
        name for name in defined() if name not in scrapys and not name.startswith(ADD_ON_PREFIXES)
    )


def test_read_later_names_a_module_that_reads_the_setting():
    stale = [
        f"{name}: {module}"
        for name, (module, _) in READ_LATER.items()
        if f'"{name}"' not in (PACKAGE / module).read_text(encoding="utf-8")
    ]
    assert stale == [], "READ_LATER names modules that do not read these settings:\n" + "\n".join(
        stale
    )
    unknown = sorted(set(READ_LATER) - set(project_only()))
    assert unknown == [], f"READ_LATER lists settings settings.py does not define: {unknown}"


def test_every_setting_changes_a_component(tmp_path):
    database = {"DATABASE_URL": f"sqlite:///{tmp_path / 'crawl.db'}"}
    configuration(database)  # creates the schema (its migrations' data steps use a connection)
    default = configuration(database)
    # Attributes that differ between two builds with the same settings (clocks) say nothing.
    noise = {k for k, v in configuration(database).items() if default.get(k) != v}
    silent = []
    for name in project_only():
        if name in READ_LATER:
            continue
        value = (
            OTHER_VALUE[name] if name in OTHER_VALUE else changed(getattr(project_settings, name))
        )
        try:
            built = configuration({**database, name: value})
        except Exception as exc:  # a value the generic change got wrong: say which
            silent.append(f"settings.py:{defined()[name]}: {name} = {value!r}: {exc!r}")
            continue
        differs = [k for k, v in built.items() if k not in noise and default.get(k) != v]
        if not differs:
            silent.append(f"settings.py:{defined()[name]}: {name} = {value!r} changed nothing")
    if silent:
        pytest.fail(
            "settings whose change no component shows (read it in from_crawler, or list it in "
            "READ_LATER with its reader):\n" + "\n".join(silent)
        )
