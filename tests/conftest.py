"""Shared fixtures: loopback servers, databases (SQLite always; PostgreSQL where it runs), and
a helper that runs the topic spider in-process."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from tests.servers import FixtureSite
from topiccrawler.storage import Database

os.environ.setdefault("SCRAPY_SETTINGS_MODULE", "topiccrawler.settings")

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
POSTGRES_URL = os.environ.get(
    "TOPICCRAWLER_TEST_POSTGRES_URL", "postgresql+psycopg://127.0.0.1:5432/test"
)


def need_service(name: str, reason: str) -> None:
    """Skip on a laptop without the service; fail in CI, where every service must be up."""
    if IN_CI:
        pytest.fail(f"{name} is required in CI: {reason}")
    pytest.skip(f"{name} not available: {reason}")


@pytest.fixture(scope="session")
def site() -> Iterator[FixtureSite]:
    with FixtureSite() as server:
        yield server


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'crawl.db'}"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL whose search_path is a fresh schema, dropped afterwards."""
    try:
        admin = create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")
        with admin.connect() as connection:
            connection.execute(text("select 1"))
    except Exception as exc:  # noqa: BLE001 (any failure to connect means "not available")
        need_service("PostgreSQL", f"{POSTGRES_URL}: {exc.__class__.__name__}: {exc}")
    schema = f"tc_test_{uuid.uuid4().hex[:12]}"
    with admin.connect() as connection:
        connection.execute(text(f'create schema "{schema}"'))
    try:
        yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'drop schema "{schema}" cascade'))
        admin.dispose()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each storage test runs on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def database(database_url: str) -> Iterator[Database]:
    """The store at the head schema, on SQLite and on PostgreSQL in turn."""
    db = Database(database_url)
    db.upgrade()
    yield db
    db.dispose()


@pytest.fixture
def seeds_file(tmp_path: Path, site: FixtureSite):
    """Write a seed file pointing at the fixture site; returns a function taking extra TOML."""

    def write(depth_limit: int = 3, max_pages: int = 50, start: str = "/index.html") -> Path:
        path = tmp_path / "seeds.toml"
        path.write_text(
            "[[authority]]\n"
            'name = "fixture"\n'
            f'start_urls = ["{site.url}{start}"]\n'
            f"depth_limit = {depth_limit}\n"
            f"max_pages = {max_pages}\n",
            encoding="utf-8",
        )
        return path

    return write
