"""Forum thread lists and thread pages by Similarity of Layout (SoL), the forum paper's method
(SPEC §5).

Both page kinds are dozens of blocks with one layout: rows of a thread list, posts of a thread.
SoL compares two nodes by their block-level descendants, level by level (N = 3 levels,
weights 0.6, 0.3, 0.1): the share of positions where both have a node of the same tag and the
same layout attributes. Siblings above 0.9 are alike; the node with the most alike children
holds the topic-info blocks. Their fields come from the rules R1–R5 (`fields.py`).

Which kind a page is, is read from the blocks: posts carry a time and long non-link text each
(R1, R4); list rows carry a title link (R2) and a time or counts (R3, R4). A page is taken for
a thread page rather than an article with comments when nothing outside the posts is a longer
text than the posts, or when the page names itself a forum (its URL or generator). On such a
page, a thread of one post (no siblings to compare) is found by the post's class name, and
schema.org answers or forum postings are believed as marked.
"""

from __future__ import annotations

import re
from collections import ChainMap, Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from lxml import etree

from topiccrawler.extract.dates import find_time
from topiccrawler.extract.records.fields import block_fields
from topiccrawler.extract.records.layout import (
    LAYOUT_TAGS,
    ForumOptions,
    SimilarityOfLayout,
    layout_children,
    layout_levels,
    sol,
)
from topiccrawler.extract.records.lead import (
    answers_apart,
    badge_text,
    is_accepted,
    lead_post,
    lone_posts,
    named_answers,
    post_like,
    schema_posts,
)
from topiccrawler.extract.records.markup import class_word, text_and_links
from topiccrawler.extract.records.nodes import (
    Evidence,
    at_least,
    beside_content,
)
from topiccrawler.extract.records.patterns import alternatives
from topiccrawler.extract.records.similarity import children, similar_siblings
from topiccrawler.extract.records.threads import NUMBER, thread_rows
from topiccrawler.extract.records.times import shows_time
from topiccrawler.extract.records.votes import record_votes
from topiccrawler.extract.tree import element_stats, text_stats
from topiccrawler.items import PostRecord, ThreadRecord

# A URL or generator that calls its page a forum's: words of a kind, never a site's name.
FORUM_WORD_ROWS = (
    (
        "forum|bbs|board|community|discussion",
        "words for a forum ('/forum/', 'bbs.', '/community/')",
    ),
    ("thread|topic", "a thread's page ('/thread-12-1-1.html', '/topic/31/')"),
    ("viewtopic|showthread", "the thread scripts of phpBB-, vBulletin-like software"),
    ("/t/", "a thread's path on Discourse-like software ('/t/slug/5120')"),
    ("questions?/", "a question's page on Q&A software ('/questions/11/', '/question/4711/')"),
    ("论坛|社区|帖子|贴吧", "the same words in Chinese (an IRI's path, a generator)"),
)
FORUM_WORDS = re.compile(alternatives(FORUM_WORD_ROWS), re.I)
# Forum software a <meta name="generator"> names. Read from the generator alone: matched
# against the URL these names could only ever hit a site's host name (a site match).
FORUM_SOFTWARE = re.compile(
    r"discuz|phpbb|vbulletin|xenforo|discourse|flarum|mybb|smf|invision|nodebb|vanilla",
    re.I,
)
# Link share of posts' text on a page that says it is a forum (0.5 elsewhere).
MAX_FORUM_LINK_SHARE = 0.7


@dataclass
class ForumPage:
    kind: str  # "thread", "list" or "" (neither)
    posts: list[PostRecord]
    threads: list[ThreadRecord]
    blocks: list[etree._Element]
    owners: dict = field(default_factory=dict)  # each post's block: the post read from it
    lead: int = 0  # blocks first whose fields were read apart (an opening post laid out apart)


def topic_blocks(
    body: etree._Element,
    options: ForumOptions,
    stats: dict | None = None,
    evidence: Evidence | None = None,
) -> list[list[etree._Element]]:
    """Groups of alike children, largest first (the paper keeps the node with the most).
    Children without any text are not compared: no post or list row is empty. Given the
    page's `Evidence` (off forums), only under nodes where posts or rows could pass their
    tests (`could_hold_records`)."""
    measure = SimilarityOfLayout(options.weights)
    stats = stats if stats is not None else text_stats(body)
    beside = beside_content(body, stats)  # a sidebar's "latest threads" are the site's
    made: dict = {}  # statistics of wrappers detection made since `stats` (not added to it)
    groups = []
    for node in body.iter(*LAYOUT_TAGS, "body"):
        if len(node) < options.min_blocks or node in beside:
            continue  # fewer children than a group needs, of any kind
        if evidence is not None and not could_hold_records(node, node, evidence):
            continue  # (most nodes off forums: asked of all children before kids are read)
        kids = [c for c in children(node) if c.tag in LAYOUT_TAGS and _text(c, stats, made)]
        if len(kids) < options.min_blocks:
            continue
        if evidence is not None:
            known = ChainMap(stats, made) if made else stats
            kids = could_be_records(node, kids, evidence, known, options)
            if not kids:
                continue
        found = [
            role
            for group in similar_siblings(
                kids, measure, options.similarity, options.min_blocks, options.max_siblings
            )
            for role in by_role(named_alike(group, kids))
        ]
        if not found:  # (where SoL grouped some, `named_alike` adds their like)
            found = badged_posts(kids, options, evidence)
        groups.extend(_merged(found, kids) if len(found) > 1 else found)
    groups.sort(key=len, reverse=True)
    return groups


def _text(element: etree._Element, stats: dict, made: dict) -> int:
    """The element's text length; for a wrapper comment detection made since the page's
    statistics were taken (a <dt>/<dd> pair wrapped), counted from its children into `made`
    (`stats` also says which elements the page had: `restore` unwraps the others)."""
    known = stats.get(element)
    if known is None:
        known = made.get(element) or made.setdefault(element, element_stats(element, stats))
    return known.text


def badged_posts(kids: list, options: ForumOptions, evidence: Evidence | None = None) -> list[list]:
    """Siblings the page names alike (tag and first class name), each like a post, that SoL
    finds alike once their badge rows are left out: a group. A post marked as the accepted
    answer (or the best, or sticky) holds a row more ("Accepted answer"), which shifts every
    position SoL compares; where the other posts form a group `named_alike` adds it, but two
    answers form none. A badge row is a short text alone: no link, no time, no digit."""
    by_name: dict[tuple[str, str], list] = {}
    for kid in kids:
        if word := class_word(kid):
            by_name.setdefault((kid.tag, word), []).append(kid)
    groups = []
    for same in by_name.values():
        if len(same) < options.min_blocks:
            continue
        if evidence is not None and not all(
            k in evidence.timed or k not in evidence.known for k in same
        ):
            continue  # (a post shows a time: `post_like`, from the page's evidence)
        if not any(badge_text(row) for block in same for row in layout_children(block)):
            continue  # (most siblings named alike: no badge, and SoL has compared them)
        if not all(map(post_like, same)):
            continue
        levels = [layout_levels(block, len(options.weights), left_out=badge_text) for block in same]
        if len(set(map(len, (level[0] for level in levels)))) != 1:
            continue  # a row more or less than a badge
        first = levels[0]
        if all(sol(first, other, options.weights) > options.similarity for other in levels[1:]):
            groups.append(same)
    return groups


def by_role(group: list[etree._Element]) -> list[list[etree._Element]]:
    """A group whose members' class names take turns in a cycle of two to four (a post's head
    row, body row and foot row, each post after the other: alike to SoL, which compares what is
    inside them, not their names) as one group per role, for `candidates` to pair the rows of
    each post (`interleaved`). Other groups as they are."""
    words = [class_word(member) for member in group]
    roles = list(dict.fromkeys(words))
    period = len(roles)
    if not 2 <= period <= 4 or not all(roles) or len(group) < 2 * period:
        return [group]
    if any(word != words[i % period] for i, word in enumerate(words)):
        return [group]
    return [[m for m, word in zip(group, words, strict=True) if word == role] for role in roles]


def named_alike(group: list[etree._Element], kids: list[etree._Element]) -> list[etree._Element]:
    """The group with the siblings named like all its members (same tag, same first class
    name without digits, or the same microdata type) that look like posts themselves: a post marked "best answer" or
    "sticky" holds a badge more, which SoL's positions tell apart, but the page names it one
    of them."""
    if len(kids) == len(group):
        return group
    names = {(g.tag, _name(g)) for g in group}
    if len(names) != 1:
        return group
    ((tag, name),) = names
    if not name:
        return group
    members = set(group)
    extra = [
        k for k in kids if k not in members and k.tag == tag and _name(k) == name and post_like(k)
    ]
    if not extra or not all(map(post_like, group)):
        return group  # (only posts take their like: not a group of ads named like posts)
    texts = Counter(" ".join("".join(k.itertext()).split()) for k in extra)
    extra = [k for k in extra if texts[" ".join("".join(k.itertext()).split())] == 1]
    if not extra:
        return group  # (a box repeated word for word is an advertisement, not a post)
    order = {k: i for i, k in enumerate(kids)}
    return sorted([*group, *extra], key=order.get)


def _name(element: etree._Element) -> str:
    """What the page names an element by: its first class name without digits, else its
    microdata type (a class-less `<div itemtype="http://schema.org/Article">` post)."""
    return class_word(element) or element.get("itemtype") or ""


def _merged(groups: list[list], kids: list) -> list[list]:
    """Groups that share a member (one took the other's as named alike) as one."""
    merged: list[set] = []
    for group in groups:
        members = set(group)
        for other in [m for m in merged if m & members]:
            members |= other
            merged.remove(other)
        merged.append(members)
    if len(merged) == len(groups):
        return groups
    order = {k: i for i, k in enumerate(kids)}
    return [sorted(m, key=order.get) for m in merged]


def could_hold_records(node: etree._Element, kids, evidence: Evidence) -> bool:
    """What `candidates` needs of a node's children off a forum: posts show a time in 80% of
    them, two at least (counted over all children: a post may be a stretch of rows); list
    rows have a link and, in 80% of them, a number. `kids`: the children compared, or the
    node itself for all its children (what any choice of them needs)."""
    if at_least(node.iterchildren(etree.Element), evidence.timed, 2):
        return True
    if kids is node:
        kids = node.iterchildren(etree.Element)
    return at_least(kids, evidence.numbered, 2)


def could_be_records(
    node: etree._Element, kids: list, evidence: Evidence, stats: dict, options: ForumOptions
) -> list:
    """The kids of the tags among which `candidates` could find posts or rows off a forum,
    where the node `could_hold_records` (siblings are only compared within one tag): its
    tests bounded from the blocks' text statistics first, then from the page's `Evidence`.
    Posts need a block with text mostly outside links, one with 15 characters outside them
    and times in two; rows a title link in two, and a number in them. All kids are kept
    where rows wrapped into stretches (`interleaved`, which reads every group of the node)
    could pass as posts: two groups or more, text outside links, and times in two stretches."""
    least = options.min_blocks
    by_tag: dict[str, list] = {}
    for kid in kids:
        by_tag.setdefault(kid.tag, []).append(kid)
    if any(k not in evidence.known for k in kids):
        return kids if could_hold_records(node, kids, evidence) else []
    posts, rows = [], []
    for tag, same in by_tag.items():
        if len(same) < least:
            continue
        if any(2 * stats[k].link < stats[k].text for k in same) and any(
            stats[k].clear >= 15 for k in same
        ):
            posts.append(tag)
        if sum(stats[k].link >= 4 for k in same) >= 0.8 * least:
            rows.append(tag)
    stretches = _could_stretch(node, by_tag, stats, least)
    if not (posts or rows or stretches):
        return []
    if not could_hold_records(node, kids, evidence):
        return []
    if stretches and at_least(
        node.iterchildren(etree.Element), _Either(evidence.timed, evidence.lends), 2
    ):
        return kids
    kept = {t for t in rows if at_least(by_tag[t], evidence.numbered, 0.8 * least)}
    kept.update(t for t in posts if at_least(by_tag[t], evidence.timed, 0.8 * least))
    return [k for k in kids if k.tag in kept]


def _could_stretch(node: etree._Element, by_tag: dict, stats: dict, least: int) -> bool:
    """Stretches of the node's children (`interleaved`) could pass `looks_like_posts`, as far
    as the text statistics tell: two groups or more, a child (or a tail) with text mostly
    outside links, and 15 characters outside links per stretch."""
    if sum(len(same) // least for same in by_tag.values()) < 2:
        return False
    clear = 0
    mostly_text = False
    for kid in node.iterchildren():
        tail = kid.tail
        if tail and not tail.isspace():
            mostly_text = True
            clear += len("".join(tail.split()))
        known = stats.get(kid)
        if known is not None:
            clear += max(0, known.clear)
            mostly_text = mostly_text or 2 * known.link < known.text
    return mostly_text and clear >= 15 * least


class _Either:
    """`element in either`: in one of two evidence sets."""

    __slots__ = ("first", "second")

    def __init__(self, first, second):
        self.first, self.second = first, second

    def __contains__(self, element) -> bool:
        return element in self.first or element in self.second


def looks_like_posts(
    blocks: Sequence[etree._Element], evidence: Evidence | None = None, forum: bool = False
) -> bool:
    """Posts: mostly non-link text, a time in (nearly) every block, some text in each. On a
    page that says it is a forum, short replies may be mostly byline links (name, full name,
    group, date): up to MAX_FORUM_LINK_SHARE of links then (a list's rows are `title_rows`)."""
    _, text, link = text_and_links(blocks)
    n = len(blocks)
    most = MAX_FORUM_LINK_SHARE if forum else 0.5
    if not text or link / text >= most or (text - link) / n < 15:
        return False
    return sum(map(evidence.shows_time if evidence else shows_time, blocks)) / n >= 0.8


def looks_like_thread_list(blocks: Sequence[etree._Element], forum: bool = True) -> bool:
    """List rows: a title link of its own in (nearly) every row, and beside it a time or a
    count (numbers in the title do not count). Off a forum (`forum` False) rows need both, the
    count apart from the time: a "related articles" box has titles with digits and dates."""
    n = len(blocks)
    hrefs = set()
    titles = []
    for block in blocks:
        anchors = [(a, "".join("".join(a.itertext()).split())) for a in block.iter("a")]
        title, text = max(anchors, key=lambda a: len(a[1]), default=(None, ""))
        if len(text) >= 4 and title is not None and title.get("href"):
            hrefs.add(title.get("href"))
        titles.append(title)
    if len(hrefs) < 0.8 * n:
        return False  # rows without their own title link
    rests = [
        " ".join(t for t in _outside(block, title) if not t.strip().startswith("http"))
        for block, title in zip(blocks, titles, strict=True)
    ]
    counted = sum(bool(NUMBER.search(t)) for t in rests) / n
    if counted >= 0.8 if forum else counted < 0.8:
        return forum  # decided without reading times (the costly part)
    if not forum:
        # The count beside the time, not the time's digits: a "related articles" box dates
        # its rows ("2024-01-11 10:01", "March 12, 2023"), a thread list counts replies too.
        times = [find_time(text) for text in rests]
        counts = sum(
            bool(NUMBER.search(text.replace(time, " ", 1) if time else text))
            for text, time in zip(rests, times, strict=True)
        )
        return counts >= 0.8 * n and sum(map(bool, times)) >= 0.5 * n
    needed = 0.5 * n  # rows with a time: read until there are enough
    for text in rests:
        if find_time(text):
            needed -= 1
            if needed <= 0:
                return True
    return needed <= 0


def could_list(blocks: Sequence[etree._Element], forum: bool, evidence: Evidence | None) -> bool:
    """What `looks_like_thread_list` needs off a forum, from the page's `Evidence`: a number
    and a link in 80% of the rows (True where it cannot tell)."""
    if forum or evidence is None or any(b not in evidence.known for b in blocks):
        return True
    return sum(b in evidence.numbered for b in blocks) >= 0.8 * len(blocks)


def _outside(block: etree._Element, skip: etree._Element | None) -> list[str]:
    """The block's text pieces, without those inside `skip` (its tail is outside)."""
    pieces: list[str] = []

    def walk(element: etree._Element) -> None:
        if element.text:
            pieces.append(element.text)
        for child in element:
            if child is not skip and isinstance(child.tag, str):
                walk(child)  # noqa: F821 (bound while it runs; deleted after)
            if child.tail:
                pieces.append(child.tail)

    walk(block)
    del walk  # (the cycle a recursive closure makes, broken: see fields.node_text)
    return pieces


def title_rows(blocks: Sequence[etree._Element]) -> bool:
    """Rows whose longest link is a good part of their text (a third or more): a thread list
    whose rows carry a time and an unlinked author, not posts."""
    if not looks_like_thread_list(blocks):
        return False
    shares = []
    for block in blocks:
        text = len("".join("".join(block.itertext()).split()))
        title = max(
            (len("".join("".join(a.itertext()).split())) for a in block.iter("a")), default=0
        )
        shares.append(title / text if text else 0)
    return sum(shares) / len(shares) >= 0.3


def is_forum_page(url: str | None, generator: str | None) -> bool:
    """The page calls itself a forum: its URL's words, or the software its
    <meta name="generator"> names."""
    generator = generator or ""
    return bool(FORUM_WORDS.search(f"{url or ''} {generator}") or FORUM_SOFTWARE.search(generator))


def longest_text_outside(body: etree._Element, blocks: Sequence[etree._Element]) -> int:
    """Characters of the longest run of prose (<p> siblings' text) outside the blocks."""
    inside = set(blocks)
    best = 0
    for parent in body.iter(etree.Element):
        paragraphs = [p for p in children(parent) if p.tag == "p"]
        if not paragraphs or parent in inside or any(a in inside for a in parent.iterancestors()):
            continue
        best = max(best, sum(len("".join("".join(p.itertext()).split())) for p in paragraphs))
    return best


def extract_forum(
    body: etree._Element,
    url: str | None = None,
    options: ForumOptions = ForumOptions(),
    now: datetime | None = None,
    comments: Sequence[Sequence[etree._Element]] = (),
    generator: str | None = None,
    stats: dict | None = None,
    evidence: Evidence | None = None,
) -> ForumPage:
    """Posts of a thread page or threads of a thread list (or nothing). The tree is changed:
    a post that spans two sibling rows (header row, text row) is wrapped into one element.

    Post-like blocks are a thread when the page calls itself a forum, or when it has no
    comments found by POL (`comments`: each region's blocks) but those under the blocks (under
    each answer of a Q&A page) and no longer text outside them (else they are an article's
    comments, left to POL). `evidence`: the page's (`text_evidence`), to skip nodes
    that cannot hold posts or rows."""
    forum = is_forum_page(url, generator)
    groups = topic_blocks(body, options, stats, None if forum else evidence)
    found = candidates(groups, forum, evidence)
    marked = schema_posts(body)
    if marked:
        forum = True
        found.insert(0, ("thread", marked))
    for kind, blocks in found:
        if kind == "list":
            return ForumPage("list", [], thread_rows(blocks, now), blocks)
        apart = answers_apart(blocks, options)
        blocks = apart + blocks
        named = named_answers(blocks[-1])
        if not forum and _comments_beside(comments, blocks, answered=bool(apart) or named):
            return ForumPage("", [], [], [])
        # The opening post laid out apart: on a forum, or above answers with comments under
        # them or a best answer boxed apart (a Q&A page's question; elsewhere the box above is
        # an article's text).
        answered = forum or bool(comments) or bool(apart) or named
        lead = lead_post(blocks, options, evidence) if answered else []
        owners: dict = {}
        posts = (_posts(lead, now, owners) if lead else []) + _posts(blocks, now, owners)
        blocks = lead + blocks  # the lead's fields are read apart from the replies'
        average = sum(len(p.text) for p in posts) / max(1, len(posts))
        if forum or longest_text_outside(body, blocks) < max(200, 2 * average):
            return ForumPage("thread", posts, [], blocks, owners, len(lead))
        return ForumPage("", [], [], [])
    if forum:
        lone = lone_posts(body)
        if lone:
            owners: dict = {}
            return ForumPage("thread", _posts(lone, now, owners), [], lone, owners)
    return ForumPage("", [], [], [])


def _comments_beside(
    comments: Sequence[Sequence[etree._Element]], blocks: list, answered: bool = False
) -> bool:
    """Comments the blocks are not a thread beside: a region outside them (an article's
    comments), or across them (their own text rows, one in each), or the blocks themselves
    with nothing under one of them; not the boxes that hold them. Comments under one post (a
    Q&A page's, below an answer), or a best answer boxed apart (`answered`), say the blocks
    are posts, also where POL took the posts for comments too."""
    posts = set(blocks)

    def post_of(element: etree._Element) -> etree._Element | None:
        return next((a for a in element.iterancestors() if a in posts), None)

    under = same = False
    for region in comments:
        if set(region) <= posts:
            same = True
            continue
        if all(any(d in posts for d in block.iterdescendants()) for block in region):
            continue  # boxes each holding posts (a best answer's, the others'), not comments
        owners = {post_of(block) for block in region}
        if len(owners) != 1 or None in owners:
            return True
        under = True
    return same and not (under or answered)


def reread(found: ForumPage, records: set, now: datetime | None) -> ForumPage:
    """The thread's posts read again leaving out `records` found inside them (the comments
    under a question and its answers): their text, author and time are the posts' own."""
    owners: dict = {}
    lead, rest = found.blocks[: found.lead], found.blocks[found.lead :]
    posts = (_posts(lead, now, owners, records) if lead else []) + _posts(
        rest, now, owners, records
    )
    return ForumPage(found.kind, posts, found.threads, found.blocks, owners, found.lead)


def _posts(
    blocks: list[etree._Element],
    now: datetime | None,
    owners: dict | None = None,
    inner: set = frozenset(),
) -> list[PostRecord]:
    """The posts read from `blocks` (those with text), records `inner` to them left out;
    `owners` gets each one's block. A block the page's microdata calls the accepted answer
    (itemprop="acceptedAnswer"), or whose class says so ("accepted-answer", "best_answer"),
    is a post marked accepted. Its score is what the block shows (`record_votes`), the
    records inside it left out."""
    posts = []
    nested = set(blocks) | inner
    for f in block_fields(blocks, nested, now):
        if f.text:
            post = PostRecord(
                f.text, f.author, f.author_url, f.time, f.published_at, f.time_attr,
                accepted=is_accepted(f.element), votes=record_votes(f.element, nested),
            )  # fmt: skip
            posts.append(post)
            if owners is not None:
                owners[f.element] = post
    return posts


def candidates(
    groups: list[list[etree._Element]], forum: bool = True, evidence: Evidence | None = None
) -> list[tuple[str, list[etree._Element]]]:
    """("thread", posts) candidates, most text first (a box of truncated teasers of other
    threads looks like posts too), then ("list", rows) ones, most rows first (a thread page's
    "similar threads" box is a list too; a list page has nothing post-like).

    Groups of one parent are first read as one repeating sequence: when two or more groups
    of about the same size interleave (a header row, a text row, a separator per post), each
    stretch from one member of the first group to the next becomes one post. Otherwise the
    groups that look like posts are merged (posts with and without quotes or pictures differ
    in layout): stretches are only built when at most one group looks like posts alone.
    `evidence`: the page's, where the blocks' times are looked up."""
    by_parent: dict[etree._Element, list[list[etree._Element]]] = {}
    for group in groups:
        by_parent.setdefault(group[0].getparent(), []).append(group)
    threads, lists = [], []
    for parent, siblings in by_parent.items():
        post_groups = [
            g
            for g in (_posts_of(group, evidence, forum) for group in siblings)
            if g and not title_rows(g)
        ]
        segments = interleaved(parent, siblings) if len(post_groups) < 2 else None
        if segments and looks_like_posts(segments, evidence, forum):
            threads.append(segments)
            continue
        for wrapper in segments or ():
            unwrap(wrapper)
        if post_groups:
            order = {e: i for i, e in enumerate(parent)}
            threads.append(sorted((b for g in post_groups for b in g), key=order.get))
        lists.extend(
            g
            for g in siblings
            if could_list(g, forum, evidence) and looks_like_thread_list(g, forum)
        )
    threads.sort(key=_prose, reverse=True)
    lists.sort(key=len, reverse=True)
    return [("thread", t) for t in threads] + [("list", rows) for rows in lists]


def _posts_of(
    group: list[etree._Element], evidence: Evidence | None, forum: bool
) -> list[etree._Element]:
    """The group where it looks like posts, else, on a page that says it is a forum's, where
    every block that shows no time stands at either end, the run of those that do, where it
    looks like posts: a header or footer laid out like the posts (the forum's "All times are
    GMT" table) sinks a short thread's share of timed blocks, two posts of three. Empty where
    neither looks like posts."""
    if looks_like_posts(group, evidence, forum):
        return group
    if not forum:
        return []  # (off a forum, a short run of timed blocks is an article's own lines)
    shows = evidence.shows_time if evidence is not None else shows_time
    timed = [i for i, block in enumerate(group) if shows(block)]
    if len(timed) < 2 or len(timed) == len(group) or timed[-1] - timed[0] + 1 != len(timed):
        return []
    run = group[timed[0] : timed[-1] + 1]
    return run if looks_like_posts(run, evidence, forum) else []


def unwrap(wrapper: etree._Element) -> None:
    """Undo a wrapper made by `interleaved`: its children back in its place."""
    for child in list(wrapper):
        wrapper.addprevious(child)
    wrapper.getparent().remove(wrapper)


def _prose(blocks: list[etree._Element]) -> int:
    _, text, link = text_and_links(blocks)
    return text - link


def interleaved(
    parent: etree._Element, groups: list[list[etree._Element]]
) -> list[etree._Element] | None:
    """Groups of one parent that repeat together, wrapped: one wrapper per stretch from a
    member of the group that comes first to the next. None when the groups do not interleave
    (one group only, or sizes too far apart)."""
    if len(groups) < 2:
        return None
    largest = max(len(g) for g in groups)
    together = [g for g in groups if len(g) >= 0.7 * largest]
    if len(together) < 2:
        return None
    order = {e: i for i, e in enumerate(parent)}
    first = min(together, key=lambda g: order[g[0]])
    starts = set(first)
    kids = list(parent)
    members = {e for g in together for e in g}
    stretches: list[list[etree._Element]] = []
    for kid in kids[order[first[0]] :]:
        if kid in starts:
            stretches.append([kid])
        elif stretches and isinstance(kid.tag, str):
            stretches[-1].append(kid)
    if sum(len(s) > 1 for s in stretches) < 0.5 * len(stretches):
        return None  # the others do not sit between the first group's members
    last = max(order[e] for e in members)
    wrappers = []
    for stretch in stretches:
        stretch = [e for e in stretch if order[e] <= last]
        wrapper = etree.Element("tbody" if stretch[0].tag == "tr" else "div")
        stretch[0].addprevious(wrapper)
        wrapper.extend(stretch)
        wrappers.append(wrapper)
    return wrappers
