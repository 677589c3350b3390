"""Find a topic's files by name and load them into a `Topic`."""

from __future__ import annotations

from pathlib import Path

from scrapy.utils.conf import closest_scrapy_cfg

from topiccrawler.topics.files import TopicFileError, load_keyword_file, load_seed_file
from topiccrawler.topics.model import Topic

TOPIC_FILE_SUFFIX = ".toml"


class UnknownTopicError(LookupError):
    """No keyword file of that name; the message lists the topics that exist."""

    def __init__(self, name: str, keywords_dir: Path, known: list[str]):
        self.name = name
        listing = ", ".join(known) if known else "none"
        super().__init__(
            f"unknown topic '{name}': no {keywords_dir / (name + TOPIC_FILE_SUFFIX)}"
            f" (topics available: {listing})"
        )


def project_root() -> Path:
    """The folder of the nearest scrapy.cfg (as Scrapy finds it), else the working folder."""
    cfg = closest_scrapy_cfg()
    return Path(cfg).parent if cfg else Path.cwd()


def resolve_dir(value: str | Path) -> Path:
    """A topic folder setting: absolute as given, relative to the project root otherwise."""
    path = Path(value).expanduser()
    return path if path.is_absolute() else project_root() / path


def topic_dirs(settings) -> tuple[Path, Path]:
    """The keyword and seed folders named by TOPIC_KEYWORDS_DIR and TOPIC_SEEDS_DIR."""
    return resolve_dir(settings.get("TOPIC_KEYWORDS_DIR")), resolve_dir(
        settings.get("TOPIC_SEEDS_DIR")
    )


def load_topic_from_settings(
    settings, name: str | None = None, keywords: str | None = None, seeds: str | None = None
) -> Topic:
    """`load_topic` with the folders and the default topic taken from crawl settings."""
    keywords_dir, seeds_dir = topic_dirs(settings)
    return load_topic(
        name or settings.get("TOPIC_DEFAULT"), keywords_dir, seeds_dir, keywords, seeds
    )


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
