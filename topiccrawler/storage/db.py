"""Opening the database: URL resolution, engine set-up per dialect, and Alembic upgrades."""

from __future__ import annotations

import fcntl
import logging
import os
import tempfile
from functools import cache
from importlib import resources
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from topiccrawler.topics.registry import project_root

DATABASE_URL_ENV = "TOPICCRAWLER_DATABASE_URL"
DEFAULT_SQLITE_PATH = Path("data") / "topiccrawler.db"
MIGRATIONS_DIR = Path(__file__).parent / "migrations"


@cache
def migrations_dir() -> Path:
    """The Alembic scripts as files on disk: where the package is, or, when it runs from a
    zipped egg (Scrapyd), a copy in a temporary folder (Alembic reads real files only)."""
    if MIGRATIONS_DIR.is_dir():
        return MIGRATIONS_DIR
    target = Path(tempfile.mkdtemp(prefix="topiccrawler-migrations-"))

    def copy(source, destination: Path) -> None:
        destination.mkdir(exist_ok=True)
        for entry in source.iterdir():
            if entry.is_dir():
                if entry.name != "__pycache__":
                    copy(entry, destination / entry.name)
            elif entry.name.endswith((".py", ".mako")):
                (destination / entry.name).write_bytes(entry.read_bytes())

    copy(resources.files("topiccrawler.storage") / "migrations", target)
    return target


logger = logging.getLogger(__name__)


def resolve_database_url(configured: str | None = None) -> str:
    """The URL to use: the DATABASE_URL setting, else $TOPICCRAWLER_DATABASE_URL, else the
    SQLite file `data/topiccrawler.db` under the project root.

    `postgresql://` and `postgres://` URLs are given the psycopg 3 driver.
    """
    url = configured or os.environ.get(DATABASE_URL_ENV)
    if not url:
        return f"sqlite:///{project_root() / DEFAULT_SQLITE_PATH}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def create_database_engine(url: str, busy_timeout: float = 30.0, create: bool = True) -> Engine:
    """An engine with the per-dialect settings a crawler needs (SQLite: WAL, FKs, busy wait;
    PostgreSQL: a dead connection found before use, a connection attempt given up in 10 s).
    `create=False` (a command that only reads): no folder made, the file's journal mode left
    as it is."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if create and parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": busy_timeout})
        event.listen(engine, "connect", _sqlite_pragmas if create else _sqlite_reader_pragmas)
        return engine
    connect_args = {"connect_timeout": 10} if parsed.get_backend_name() == "postgresql" else {}
    return create_engine(url, pool_pre_ping=True, connect_args=connect_args)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    # WAL lets a reader (`topiccrawler stats`) look while a crawl writes.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _sqlite_reader_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def alembic_config(engine: Engine) -> Config:
    """An Alembic config that runs the package's migrations on `engine` (no alembic.ini needed)."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.attributes["engine"] = engine
    return config


MIGRATION_LOCK = 0x746F7069  # PostgreSQL advisory lock key: one migration at a time


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Create or upgrade the schema to `revision`; quiet when there is nothing to do. Workers
    starting together take turns (a PostgreSQL advisory lock, a lock file beside a SQLite file):
    the first migrates, the others find the schema at head."""
    if revision == "head" and current_revision(engine) == head_revision():
        return
    if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
        with open(f"{engine.url.database}.migrate-lock", "a") as lock:  # processes on one file
            fcntl.flock(lock, fcntl.LOCK_EX)
            _upgrade(engine, revision)
        return
    if engine.dialect.name != "postgresql":
        _upgrade(engine, revision)
        return
    with engine.connect() as lock:
        lock.execute(text("select pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK})
        try:
            _upgrade(engine, revision)
        finally:
            lock.execute(text("select pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
            lock.commit()


def _upgrade(engine: Engine, revision: str) -> None:
    before = current_revision(engine)
    if revision == "head" and before == head_revision():
        return
    command.upgrade(alembic_config(engine), revision)
    logger.info("Database schema upgraded from %s to %s", before, current_revision(engine))


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    return ScriptDirectory(str(migrations_dir())).get_current_head()


class Database:
    """An engine plus a session factory; the one object components share to reach storage."""

    def __init__(self, url: str, busy_timeout: float = 30.0, create: bool = True):
        self.url = url
        self.engine = create_database_engine(url, busy_timeout, create)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    def display_url(self) -> str:
        """The URL with any password hidden, for logs and summaries."""
        return make_url(self.url).render_as_string(hide_password=True)

    def upgrade(self) -> None:
        upgrade(self.engine)

    def session(self) -> Session:
        return self.sessions()

    def dispose(self) -> None:
        self.engine.dispose()
