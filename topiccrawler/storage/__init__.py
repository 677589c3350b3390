"""SQL storage through SQLAlchemy: models, database set-up, migrations and idempotent writes."""

import logging

# Alembic logs INFO lines as it is imported and on every run; they would flood a crawl's log.
# Set before the import below; `storage.db.upgrade` logs one line of its own instead.
logging.getLogger("alembic").setLevel(logging.WARNING)

from topiccrawler.storage.db import Database, resolve_database_url  # noqa: E402
from topiccrawler.storage.writer import WriteCounts, store_page  # noqa: E402

__all__ = ["Database", "WriteCounts", "resolve_database_url", "store_page"]
