"""Find a topic's files by name and load them into a `Topic`.

A topic name is looked up in three places, first match wins (both files come from the same
place): the project (`keywords/` and `seeds/` beside `scrapy.cfg`, or the working folder when
there is none; TOPIC_KEYWORDS_DIR / TOPIC_SEEDS_DIR), the folders of TOPIC_DIRS (or
$TOPICCRAWLER_TOPICS_DIR), each holding `keywords/` and `seeds/`, and the topics shipped with
the package. So `topiccrawler demo` and `scrapy crawl topic -a topic=tax` work from any folder,
and a project's own `keywords/tax.toml` overrides the shipped one.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from scrapy.utils.conf import closest_scrapy_cfg

from topiccrawler.topics.files import TopicFileError, load_keyword_file, load_seed_file
from topiccrawler.topics.model import Topic

TOPIC_FILE_SUFFIX = ".toml"
TOPICS_DIR_ENV = "TOPICCRAWLER_TOPICS_DIR"
# The topics installed with the package (package data): tax, overseas-chinese.
SHIPPED_DIR = Path(__file__).resolve().parent / "shipped"


@dataclass(frozen=True)
class TopicFolder:
    """One place topics are looked up in: its keyword and seed folders, and what it is."""

    keywords: Path
    seeds: Path
    origin: str  # "project", "configured" or "shipped"

    def keyword_file(self, name: str) -> Path:
        return self.keywords / (name + TOPIC_FILE_SUFFIX)

    def seed_file(self, name: str) -> Path:
        return self.seeds / (name + TOPIC_FILE_SUFFIX)


class UnknownTopicError(LookupError):
    """No keyword file of that name anywhere; the message names the folders and the topics."""

    def __init__(self, name: str, keywords_dir: Path | list[Path], known: list[str]):
        self.name = name
        folders = keywords_dir if isinstance(keywords_dir, list) else [keywords_dir]
        listing = ", ".join(known) if known else "none"
        where = ", ".join(str(f / (name + TOPIC_FILE_SUFFIX)) for f in folders)
        super().__init__(f"unknown topic '{name}': no {where} (topics available: {listing})")


def project_root() -> Path:
    """The folder of the nearest scrapy.cfg (as Scrapy finds it), else the working folder."""
    cfg = closest_scrapy_cfg()
    return Path(cfg).parent if cfg else Path.cwd()


def resolve_dir(value: str | Path) -> Path:
    """A folder setting: absolute as given, relative to the project root otherwise."""
    path = Path(value).expanduser()
    return path if path.is_absolute() else project_root() / path


def topic_dirs(settings) -> tuple[Path, Path]:
    """The project's keyword and seed folders (TOPIC_KEYWORDS_DIR, TOPIC_SEEDS_DIR): where
    `topiccrawler topics new` writes."""
    return resolve_dir(settings.get("TOPIC_KEYWORDS_DIR")), resolve_dir(
        settings.get("TOPIC_SEEDS_DIR")
    )


def configured_dirs(settings) -> list[Path]:
    """TOPIC_DIRS, else $TOPICCRAWLER_TOPICS_DIR (folders separated by os.pathsep)."""
    folders = settings.getlist("TOPIC_DIRS") if settings.get("TOPIC_DIRS") else []
    if not folders:
        folders = [f for f in os.environ.get(TOPICS_DIR_ENV, "").split(os.pathsep) if f.strip()]
    return [resolve_dir(f) for f in folders]


def topic_folders(settings) -> list[TopicFolder]:
    """The places a topic name is looked up in, in order."""
    keywords, seeds = topic_dirs(settings)
    folders = [TopicFolder(keywords, seeds, "project")]
    folders += [
        TopicFolder(f / "keywords", f / "seeds", "configured") for f in configured_dirs(settings)
    ]
    folders.append(TopicFolder(SHIPPED_DIR / "keywords", SHIPPED_DIR / "seeds", "shipped"))
    return folders


def find_topic(settings, name: str) -> TopicFolder:
    """The first folder holding `keywords/<name>.toml`; UnknownTopicError if none does."""
    folders = topic_folders(settings)
    for folder in folders:
        if folder.keyword_file(name).is_file():
            return folder
    raise UnknownTopicError(name, [f.keywords for f in folders], all_topics(settings))


def all_topics(settings) -> list[str]:
    """Every topic name found in any of the folders, sorted."""
    return sorted({n for f in topic_folders(settings) for n in available_topics(f.keywords)})


def load_topic_from_settings(
    settings, name: str | None = None, keywords: str | None = None, seeds: str | None = None
) -> Topic:
    """Load a topic by name from the first folder that has it (or from explicit paths), the
    default topic taken from TOPIC_DEFAULT."""
    name = name or settings.get("TOPIC_DEFAULT")
    if keywords is not None:
        if seeds is None:  # a keyword file from anywhere: seeds by the topic's name
            seeds = str(_folder_or_project(settings, name).seed_file(name))
        project = topic_folders(settings)[0]
        return load_topic(name, project.keywords, project.seeds, keywords, seeds)
    folder = find_topic(settings, name)
    return load_topic(name, folder.keywords, folder.seeds, None, seeds)


def _folder_or_project(settings, name: str) -> TopicFolder:
    try:
        return find_topic(settings, name)
    except UnknownTopicError:
        return topic_folders(settings)[0]


def available_topics(keywords_dir: Path) -> list[str]:
    """Topic names: the keyword files in `keywords_dir`, sorted."""
    if not keywords_dir.is_dir():
        return []
    return sorted(p.stem for p in keywords_dir.glob("*" + TOPIC_FILE_SUFFIX) if p.is_file())


def load_topic(
    name: str,
    keywords_dir: Path,
    seeds_dir: Path,
    keywords_path: Path | str | None = None,
    seeds_path: Path | str | None = None,
) -> Topic:
    """Load `keywords/<name>.toml` and `seeds/<name>.toml`, or the explicit paths given.

    Raises UnknownTopicError for a name with no keyword file and TopicFileError for a file that
    is missing or invalid.
    """
    if keywords_path is None:
        keywords_path = keywords_dir / (name + TOPIC_FILE_SUFFIX)
        if not keywords_path.is_file():
            raise UnknownTopicError(name, keywords_dir, available_topics(keywords_dir))
    if seeds_path is None:
        seeds_path = seeds_dir / (name + TOPIC_FILE_SUFFIX)
    keywords = load_keyword_file(_existing(keywords_path), topic=name)
    seeds = load_seed_file(_existing(seeds_path), topic=keywords.topic)
    return Topic(name=keywords.topic, keywords=keywords, seeds=seeds)


def _existing(path: Path | str) -> Path:
    path = Path(path)
    if not path.is_file():
        raise TopicFileError(path, "file not found")
    return path
