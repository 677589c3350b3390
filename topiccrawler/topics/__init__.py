"""Topic files: the keyword library and the seed list a crawl is built from."""

from topiccrawler.topics.files import TopicFileError, load_keyword_file, load_seed_file
from topiccrawler.topics.model import (
    ENGINE_TYPES,
    TERM_CLASSES,
    AuthoritySite,
    EngineConfig,
    KeywordLibrary,
    SeedList,
    Term,
    Topic,
)
from topiccrawler.topics.registry import (
    UnknownTopicError,
    available_topics,
    load_topic,
    load_topic_from_settings,
    project_root,
    resolve_dir,
    topic_dirs,
)

__all__ = [
    "ENGINE_TYPES",
    "TERM_CLASSES",
    "AuthoritySite",
    "EngineConfig",
    "KeywordLibrary",
    "SeedList",
    "Term",
    "Topic",
    "TopicFileError",
    "UnknownTopicError",
    "available_topics",
    "load_keyword_file",
    "load_seed_file",
    "load_topic",
    "load_topic_from_settings",
    "project_root",
    "resolve_dir",
    "topic_dirs",
]
