"""Posts a page spells out in schema.org JSON-LD: a question and its answers (QAPage), a forum
posting and its comments (DiscussionForumPosting). Q&A software writes these for search
engines, and lays the question out unlike its answers, so that SoL finds no group of alike
posts (one answer) or leaves the question out. They are believed only where each post's text
is shown on the page.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

from lxml import etree, html

from topiccrawler.extract.dates import parse_time
from topiccrawler.extract.parse import json_ld_texts, normalize_space
from topiccrawler.extract.records.votes import shown_count
from topiccrawler.items import PostRecord

# Types whose objects are a thread's opening post.
THREAD_TYPES = frozenset(("Question", "DiscussionForumPosting", "SocialMediaPosting"))
# Keys holding the replies of an opening post; the first marks the accepted answer.
ACCEPTED = "acceptedAnswer"
REPLY_KEYS = (ACCEPTED, "suggestedAnswer", "comment")
# Characters of a post's text (white space out) that must be found on the page (the
# opening of the text: how posts are matched and told apart; epoch-zero times are none).
SHOWN_PREFIX = 40


def linked_posts(root: etree._Element, body: etree._Element) -> list[PostRecord]:
    """The opening post and its replies from the JSON-LD of `root`, in that order, each with
    its author and dateCreated; [] unless there are two or more and every one's text begins
    with words `body` (the cleaned page, scripts out) shows."""
    shown = None
    for script in json_ld_texts(root):
        try:
            data = json.loads(script)
        except (ValueError, RecursionError):  # not JSON, or nested past the parser's depth
            continue
        for thread in _threads(data):
            posts = [_post(thread)] + [_post(r, k == ACCEPTED) for k, r in _replies(thread)]
            posts = [p for p in posts if p is not None]
            first = _start(posts[0].text) if posts else ""
            posts = posts[:1] + [p for p in posts[1:] if _start(p.text) != first]  # repeated
            if len(posts) < 2:
                continue
            if shown is None:
                shown = "".join("".join(body.itertext()).split())
            if all(_shown(p.text, shown) for p in posts):
                return posts
    return []


def _threads(data) -> list[dict]:
    """Opening posts anywhere in the JSON-LD (a QAPage's mainEntity, a @graph's members)."""
    found = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(reversed(item))
        elif isinstance(item, dict):
            types = item.get("@type")
            types = types if isinstance(types, list) else [types]
            if any(t in THREAD_TYPES for t in types if isinstance(t, str)):
                found.append(item)
                continue
            stack.extend(v for k, v in item.items() if k in ("mainEntity", "@graph"))
    return found


def _replies(thread: dict) -> list[tuple[str, dict]]:
    """(key, reply) of each reply, in REPLY_KEYS' order."""
    replies = []
    for key in REPLY_KEYS:
        value = thread.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict):
                replies.append((key, item))
    return replies


def _post(item: dict, accepted: bool = False) -> PostRecord | None:
    text = _text(item.get("text") or item.get("articleBody"))
    if not text:
        return None
    author = item.get("author")
    if isinstance(author, list):
        author = author[0] if author else None
    name = author.get("name") if isinstance(author, dict) else author
    written = item.get("dateCreated") or item.get("datePublished")
    written = written if isinstance(written, str) and not written.startswith("1970") else None
    return PostRecord(
        text,
        author=normalize_space(name) if isinstance(name, str) and name.strip() else None,
        author_url=(author.get("url") if isinstance(author, dict) else None) or None,
        time=written,
        published_at=parse_time(written) if written else None,
        accepted=accepted,
        votes=shown_count(str(item.get("upvoteCount", ""))),
    )


def _text(value) -> str:
    """The post's text: JSON-LD gives it as HTML or as plain text."""
    if not isinstance(value, str) or not value.strip():
        return ""
    if "<" not in value:
        return normalize_space(value)
    try:
        fragment = html.fragment_fromstring(value, create_parent="div")
    except (etree.ParserError, ValueError):
        return normalize_space(re.sub(r"<[^>]+>", " ", value))
    lines = (normalize_space(t) for t in fragment.itertext())
    return "\n".join(line for line in lines if line)


def _start(text: str) -> str:
    return "".join(text.split())[:SHOWN_PREFIX]


def _shown(text: str, shown: str) -> bool:
    words = _start(text)
    return bool(words) and words in shown


def merged(found: list[PostRecord], linked: list[PostRecord]) -> list[PostRecord]:
    """The JSON-LD's posts, each as the layout found it where it did (its time and author as
    shown; accepted as the JSON-LD says), then the layout's posts the JSON-LD does not have."""
    texts = ["".join(p.text.split()) for p in found]
    used: set[int] = set()
    posts = []
    for post in linked:
        start = _start(post.text)
        match = next((i for i, t in enumerate(texts) if i not in used and start in t), None)
        if match is None:
            posts.append(post)
        else:
            used.add(match)
            posts.append(replace(found[match], accepted=found[match].accepted or post.accepted))
    return posts + [p for i, p in enumerate(found) if i not in used]
