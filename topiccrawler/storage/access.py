"""Opening the database for a command, with every failure a user can cause (a bad URL, a
missing driver, a path that cannot hold a file, permissions, a server that does not answer, a
database with no schema) turned into one `StoreError` line naming the culprit and the fix.

Every `topiccrawler` command and `scrapy crawl topic` open the store through `opened_store`;
a command that only reads passes `create=False` and never creates a database file.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError as AlembicError
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError, StatementError

from topiccrawler.errors import UserError
from topiccrawler.storage.db import (
    DATABASE_URL_ENV,
    Database,
    current_revision,
    head_revision,
    migrations_dir,
)

URL_FORMS = "sqlite:///PATH or postgresql://USER@HOST/DATABASE"
DRIVERS = {"psycopg": "psycopg[binary]", "psycopg2": "psycopg2-binary", "asyncpg": "asyncpg",
           "pymysql": "pymysql", "mysqldb": "mysqlclient"}  # fmt: skip


class StoreError(UserError):
    """The database named by DATABASE_URL cannot be used; the message says why and what to do."""


def _parse(url: str) -> URL:
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise StoreError(f"DATABASE_URL {url!r} is not a database URL: use {URL_FORMS}") from exc
    try:
        dialect = parsed.get_dialect()
    except NoSuchModuleError as exc:
        shown = parsed.render_as_string(hide_password=True)
        raise StoreError(
            f"DATABASE_URL {shown}: unknown database kind '{parsed.drivername}': use {URL_FORMS}"
        ) from exc
    try:
        dialect.import_dbapi()
    except ImportError as exc:
        driver = parsed.get_driver_name()
        shown = parsed.render_as_string(hide_password=True)
        raise StoreError(
            f"DATABASE_URL {shown} needs the Python driver '{driver}', which is not installed: "
            f"pip install {DRIVERS.get(driver, driver)}, or name another driver in the URL"
        ) from exc
    return parsed


def _check_sqlite_path(path: Path, create: bool) -> None:
    """What the file system would refuse, said before SQLite says "unable to open"."""
    for folder in path.parents:
        if folder.exists():
            if not folder.is_dir():
                raise StoreError(
                    f"SQLite database {path}: {folder} is a file, not a folder; "
                    "set DATABASE_URL to a path in a folder"
                )
            if create and not path.exists() and not os.access(folder, os.W_OK | os.X_OK):
                raise StoreError(
                    f"SQLite database {path}: no permission to create a file in {folder}; "
                    "set DATABASE_URL to a folder you can write, or change its permissions"
                )
            break
    if path.is_dir():
        raise StoreError(
            f"SQLite database {path} is a folder: set DATABASE_URL to a file (…/topiccrawler.db)"
        )
    if not path.exists():
        if not create:
            raise StoreError(
                f"no database at {path}: crawl first (scrapy crawl topic -a topic=NAME) or run "
                "`topiccrawler db upgrade`; or set DATABASE_URL (or "
                f"${DATABASE_URL_ENV}) to the database a crawl wrote"
            )
        return
    wanted = os.R_OK | (os.W_OK if create else 0)
    if not os.access(path, wanted):
        raise StoreError(
            f"SQLite database {path}: no permission to {'write' if create else 'read'} it; "
            "change its permissions or set DATABASE_URL to another file"
        )


def _known_revision(revision: str) -> bool:
    try:
        ScriptDirectory(str(migrations_dir())).get_revision(revision)
    except AlembicError:
        return False
    return True


def driver_error(exc: BaseException) -> BaseException:
    """The database driver's own exception that SQLAlchemy wrapped (its message says what the
    server said), or `exc` itself."""
    if isinstance(exc, StatementError) and exc.orig is not None:
        return exc.orig
    return exc


def describe_database_error(exc: BaseException, display_url: str) -> str:
    """One line for a database failure: the driver's own first line, and what to check."""
    original = driver_error(exc)
    first = (str(original).strip().splitlines() or [original.__class__.__name__])[0]
    lowered = first.lower()
    if "connection refused" in lowered or "could not connect" in lowered or "timeout" in lowered:
        hint = "is the database server running and DATABASE_URL's host and port right?"
    elif "password" in lowered or "authentication" in lowered or "role" in lowered:
        hint = "check the user and password in DATABASE_URL"
    elif "does not exist" in lowered:
        hint = "create the database (createdb) or fix its name in DATABASE_URL"
    elif "not a database" in lowered or "malformed" in lowered:
        hint = "the file is not a topiccrawler SQLite database: set DATABASE_URL to another file"
    elif "readonly" in lowered or "read-only" in lowered or "permission" in lowered:
        hint = "change the file's (or its folder's) permissions, or set DATABASE_URL elsewhere"
    elif "no such table" in lowered or "no such column" in lowered or "undefined" in lowered:
        hint = "run `topiccrawler db upgrade`"
    else:
        hint = "check DATABASE_URL"
    return f"cannot use the database {display_url}: {first}; {hint}"


def open_database(
    url: str, create: bool = True, busy_timeout: float = 30.0, require_head: bool = True
) -> Database:
    """The database at `url`, checked: reachable, and (when `create` is off) there already,
    holding the schema this version reads (unless not `require_head`). Raises StoreError."""
    parsed = _parse(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        _check_sqlite_path(Path(parsed.database), create)
    try:
        database = Database(url, busy_timeout, create=create)
    except (SQLAlchemyError, ImportError, OSError) as exc:
        shown = parsed.render_as_string(hide_password=True)
        raise StoreError(describe_database_error(exc, shown)) from exc
    try:
        revision = current_revision(database.engine)
        shown = database.display_url()
        if revision is not None and not _known_revision(revision):
            database.dispose()
            raise StoreError(
                f"the database {shown} has a schema this version of topiccrawler does not"
                f" know (revision {revision}, newer?): upgrade topiccrawler"
            )
        if not create and require_head and revision != head_revision():
            database.dispose()
            if revision is None:
                problem = "holds no topiccrawler tables"
            else:
                problem = f"is at schema revision {revision}, this version reads {head_revision()}"
            raise StoreError(
                f"the database {shown} {problem}: run `topiccrawler db upgrade` (a crawl does"
                " it too)"
            )
    except SQLAlchemyError as exc:
        database.dispose()
        raise StoreError(describe_database_error(exc, database.display_url())) from exc
    return database


@contextmanager
def opened_store(url: str, create: bool = True, upgrade: bool = False) -> Iterator[Database]:
    """`open_database`, upgraded to the head schema when asked, disposed at the end; a
    database failure inside the block becomes a StoreError too."""
    database = open_database(url, create=create)
    try:
        if upgrade:
            try:
                database.upgrade()
            except AlembicError as exc:  # a revision this version does not know: a newer one's
                raise StoreError(
                    f"the database {database.display_url()} has a schema this version of "
                    f"topiccrawler does not know ({exc}): upgrade topiccrawler, or use another"
                    " DATABASE_URL"
                ) from exc
        yield database
    except (SQLAlchemyError, OSError) as exc:
        raise StoreError(describe_database_error(exc, database.display_url())) from exc
    finally:
        database.dispose()
