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
    TopicFolder,
    UnknownTopicError,
    all_topics,
    available_topics,
    find_topic,
    load_topic,
    load_topic_from_settings,
    project_root,
    resolve_dir,
    topic_dirs,
    topic_folders,
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
    "TopicFolder",
    "UnknownTopicError",
    "all_topics",
    "available_topics",
    "find_topic",
    "load_keyword_file",
    "load_seed_file",
    "load_topic",
    "load_topic_from_settings",
    "project_root",
    "resolve_dir",
    "topic_dirs",
    "topic_folders",
]
