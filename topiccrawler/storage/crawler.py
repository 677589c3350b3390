"""One `Database` per crawler, shared by the storage pipeline and the crawl-run extension."""

from __future__ import annotations

import logging
from weakref import WeakKeyDictionary

from scrapy.crawler import Crawler
from scrapy.exceptions import NotConfigured

from topiccrawler.storage.db import Database, resolve_database_url

logger = logging.getLogger(__name__)

_databases: WeakKeyDictionary[Crawler, Database] = WeakKeyDictionary()


def database_for(crawler: Crawler) -> Database:
    """The crawler's database, opened (and migrated if DATABASE_AUTO_UPGRADE) on first use.

    Raises NotConfigured when STORAGE_ENABLED is off, so storage components switch themselves off.
    """
    if not crawler.settings.getbool("STORAGE_ENABLED"):
        raise NotConfigured("STORAGE_ENABLED is False")
    database = _databases.get(crawler)
    if database is None:
        database = Database(
            resolve_database_url(crawler.settings.get("DATABASE_URL")),
            crawler.settings.getfloat("DATABASE_BUSY_TIMEOUT", 30.0),
        )
        if crawler.settings.getbool("DATABASE_AUTO_UPGRADE"):
            database.upgrade()
        logger.info("Storing into %s", database.display_url())
        _databases[crawler] = database
    return database
