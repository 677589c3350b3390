"""The store and the topic as every subcommand opens them: failures are `UserError`s (one
line, exit status 2), and a command that only reads never creates a database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from topiccrawler.errors import UserError

if TYPE_CHECKING:
    from scrapy.settings import Settings
    from sqlalchemy.orm import Session

    from topiccrawler.storage.db import Database
    from topiccrawler.topics import Topic


def database_url(settings: Settings) -> str:
    from topiccrawler.storage.db import resolve_database_url

    return resolve_database_url(settings.get("DATABASE_URL"))


@contextmanager
def command_store(settings: Settings, create: bool = False) -> Iterator[Database]:
    """The configured database for one command: `create=False` (the default) for a command
    that only reads (the database must exist, at the head schema); `create=True` makes or
    upgrades it first."""
    from topiccrawler.storage.access import opened_store

    with opened_store(database_url(settings), create=create, upgrade=create) as database:
        yield database


@contextmanager
def read_session(settings: Settings) -> Iterator[Session]:
    """A session on the configured database, which must exist: for commands that only read."""
    with command_store(settings) as database, database.session() as session:
        yield session


def load_topic(settings: Settings, name: str) -> Topic:
    """The topic's files, loaded and checked; an unknown topic or a broken file is a UserError."""
    from topiccrawler.topics import TopicFileError, UnknownTopicError, load_topic_from_settings

    try:
        return load_topic_from_settings(settings, name)
    except (TopicFileError, UnknownTopicError) as exc:
        raise UserError(str(exc)) from exc


def require_stored_topic(session: Session, settings: Settings, name: str) -> bool:
    """Whether anything is stored under the topic; a UserError when the name is neither stored
    nor a topic file's (a typo: the line lists what there is)."""
    from topiccrawler.storage.stats import stored_topics
    from topiccrawler.topics import TopicFileError, UnknownTopicError, load_topic_from_settings

    stored = stored_topics(session)
    if name in stored:
        return True
    try:
        load_topic_from_settings(settings, name)
    except UnknownTopicError as exc:
        raise UserError(
            f"unknown topic '{name}': nothing is stored under that name and there is no topic "
            f"file for it (stored topics: {', '.join(stored) or 'none'}; "
            "`topiccrawler topics` lists the topic files)"
        ) from exc
    except TopicFileError:  # a broken file still names a topic: it exists
        pass
    return False
