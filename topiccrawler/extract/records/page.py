"""All records of one page: forum posts or listed threads (SoL), else comments (POL)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urljoin

from lxml import etree

from topiccrawler.extract.dates import parse_time, written_day_first
from topiccrawler.extract.parse import parse_html
from topiccrawler.extract.records.chrome import reads_as_sentence
from topiccrawler.extract.records.comments import (
    RecordOptions,
    Region,
    comment_regions,
    extract_comments,
    reads_as_records,
)
from topiccrawler.extract.records.fields import block_fields
from topiccrawler.extract.records.forum import extract_forum, is_forum_page, reread, unwrap
from topiccrawler.extract.records.linked import linked_posts, merged
from topiccrawler.extract.records.nodes import Evidence, text_evidence
from topiccrawler.extract.records.signed import signed_comments
from topiccrawler.extract.records.times import shows_time
from topiccrawler.extract.tree import clean_tree
from topiccrawler.items import CommentRecord, PostRecord, ThreadRecord  # noqa: F401


@dataclass
class PageRecords:
    kind: str = ""  # "thread" (a forum thread page), "list" (a thread list) or ""
    comments: list[CommentRecord] = field(default_factory=list)
    posts: list[PostRecord] = field(default_factory=list)
    threads: list[ThreadRecord] = field(default_factory=list)
    # The elements of the given tree holding the comments and replies (a thread's first post,
    # its body, is not among them): what the body extractor leaves out.
    elements: list[etree._Element] = field(default_factory=list, repr=False)


def extract_records(
    page: str | etree._Element,
    options: RecordOptions = RecordOptions(),
    now: datetime | None = None,
    url: str | None = None,
    cleaned: tuple[etree._Element, dict, Evidence] | None = None,
) -> PageRecords:
    """Comments, posts and threads of a page (HTML text or a parsed tree, left untouched);
    the page is kept as it is for a client without JavaScript (<noscript> content shown).

    SoL decides the page's kind. On a page that says it is a forum (URL, generator, a thread
    in its JSON-LD) SoL goes first and POL only runs when it finds nothing. Elsewhere the repeated blocks of a thread
    page are posts, not comments, and comments found outside them (under each answer of a Q&A
    page) are kept; a thread list is only believed on a page without comments.

    `cleaned`: the page as `clean_tree` leaves it and its <body>'s `text_evidence` (the text
    statistics, which the caller shares with the body extractor, and the evidence): see
    `shared_records`; detection runs in that tree and the records' elements are its own.
    """
    root = parse_html(page) if isinstance(page, str) else page
    url = url or root.getroottree().docinfo.URL
    if cleaned is not None:
        tree, stats, evidence = cleaned
        origin = None
    else:
        # Detection changes the tree it works on: a copy, mapped back to the caller's elements
        # (text given: no caller's elements, the copy's are given).
        tree = copy.deepcopy(root)
        origin = None if isinstance(page, str) else dict(zip(tree.iter(), root.iter(), strict=True))
        clean_tree(
            tree, unwrap=("noscript",), in_place=True, keep_times=options.measure != "signature"
        )
        unwrap_wrapper_forms(tree)
        script_links_as_text(tree)
        stats = None
    body = tree.find("body")
    if body is None:
        body = tree
    if stats is None:
        stats, evidence = text_evidence(body)  # one pass, for both detectors
    if origin is None:  # the tree's own elements are given
        origin = Known(stats)
    generator = " ".join(
        content
        for meta in _document(root).iter("meta")
        if meta.get("name") == "generator" and (content := meta.get("content")) is not None
    )
    if options.measure == "signature":
        return finish(
            linked(signature_page(body, stats, options, now), root, body), [], origin, url, now
        )
    # A page says it is a thread by its URL's words, its generator, or a thread (a question
    # and its answers, a posting and its replies) its JSON-LD spells out and it shows.
    forum = is_forum_page(url, generator) or (has_json_ld(root) and bool(linked_posts(root, body)))
    if options.gate and not forum and not has_json_ld(root):
        from topiccrawler.extract.records.signature import best_score  # (see signature_page)

        if best_score(body, stats, options.model) < _gate(options.model):
            return finish(PageRecords(), [], origin, url)  # no group looks like records
    if forum:
        records, blocks = forum_records(body, options, now, url, generator, stats, evidence)
        return finish(linked(records, root, body), blocks, origin, url, now)
    regions = comment_regions(body, options, stats, evidence)
    found = extract_forum(
        body,
        url=url,
        options=options.forum,
        now=now,
        comments=[r.blocks for r in regions],
        generator=generator,
        stats=stats,
        evidence=evidence,
    )
    if found.kind:
        # Comments under the posts (under each answer of a Q&A page) stay comments; a
        # region POL took for comments that is the thread list's rows is the list.
        regions = outside(regions, found.blocks)
    comment_blocks = [b for r in regions for b in r.blocks]
    if found.kind == "thread":
        comments = replying(found, regions, options, now)
        records = PageRecords(kind="thread", posts=found.posts, comments=comments)
        blocks = found.blocks[1:] + comment_blocks  # the first post is the thread's body
    elif found.kind == "list" and not regions:
        records = PageRecords(kind="list", threads=found.threads)
        blocks = []
    else:
        records = PageRecords(comments=extract_comments(body, options, now=now, regions=regions))
        blocks = comment_blocks
        if not records.comments and not found.kind:  # comments delimited by signatures?
            signed, elements = signed_comments(body, now)
            if signed:
                records.comments, blocks = signed, elements
    return finish(linked(records, root, body), blocks, origin, url, now)


def signature_page(body, stats, options: RecordOptions, now) -> PageRecords:
    """Records as the signature scorer finds them (the `signature` measure): the accepted
    groups' blocks, their fields read as comments' are; a page of them is a thread. The
    scorer's module is imported here: the default measure never reads it (nor its patterns)."""
    from topiccrawler.extract.records.signature import signature_groups

    blocks, inside = signature_groups(body, stats, options.model)
    if not blocks:
        return PageRecords()
    # Groups inside the records whose every block names its author and (nearly) every one
    # a time are comments under them (a Q&A page's); other lists inside posts stay text.
    under = []
    for group in inside:
        fields = block_fields(group, set(group), now)
        timed = sum(f.time is not None for f in fields)
        if all(f.author and f.text for f in fields) and timed >= 0.8 * len(fields):
            under.append((group, fields))
    taken = set(blocks) | {b for group, _ in under for b in group}
    found = with_header_rows(blocks, block_fields(blocks, taken, now), now)
    posts = [
        PostRecord(f.text, f.author, f.author_url, f.time, f.published_at, f.time_attr)
        for f in found
        if f.text
    ]
    comments = [
        CommentRecord(
            f.text,
            f.author,
            f.author_url,
            f.time,
            f.published_at,
            reply_to=f.reply_to,
            time_attr=f.time_attr,
        )  # fmt: skip
        for _, fields in under
        for f in fields
        if f.text
    ]
    return PageRecords(kind="thread", posts=posts, comments=comments)


def with_header_rows(blocks: list, found: list, now) -> list:
    """A record laid out over two sibling rows (a header row with its author and time, then
    the row of its text, or the text then a footer row) where detection took the text rows
    only: when fewer than half the records have a time or an author, each block is widened
    to the row beside it holding text (before it, else after), and the widened blocks' fields
    are kept where they name more authors and times."""

    def named(fields) -> int:
        return sum(bool(f.time) + bool(f.author) for f in fields)

    if min(sum(bool(f.time) for f in found), sum(bool(f.author) for f in found)) * 2 >= len(found):
        return found
    taken = set(blocks)
    for step in ("getprevious", "getnext"):
        rows = [_text_sibling(b, step, taken) for b in blocks]
        if any(r is None for r in rows) or len(set(rows)) < len(rows):
            continue
        if sum(shows_time(r) for r in rows) < 0.8 * len(rows):
            continue
        pairs = [
            [r, b] if step == "getprevious" else [b, r] for r, b in zip(rows, blocks, strict=True)
        ]
        wrappers = wrapped(pairs)
        widened = block_fields(wrappers, set(wrappers), now)
        if named(widened) > named(found):
            return widened
        for wrapper in wrappers:  # not better: the rows go back where they were
            unwrap(wrapper)
    return found


def _text_sibling(block, step: str, taken: set):
    """The nearest sibling element on one side holding text, not itself a record."""
    sibling = getattr(block, step)()
    while sibling is not None and not "".join(sibling.itertext()).strip():
        sibling = getattr(sibling, step)()
    return None if sibling is None or sibling in taken else sibling


def wrapped(rows: list[list]) -> list:
    """Each record's rows wrapped in one attribute-less element in their place (what
    `restore` undoes in a shared tree): the record's block."""
    wrappers = []
    for row in rows:
        wrapper = etree.Element("tbody" if row[0].tag == "tr" else "div")
        row[0].addprevious(wrapper)
        wrapper.extend(row)
        wrappers.append(wrapper)
    return wrappers


def _gate(model) -> float:
    from topiccrawler.extract.records.signature import shipped_model

    model = model or shipped_model()
    return model.gate if model is not None else 0.0


def linked(records: PageRecords, root: etree._Element, body: etree._Element) -> PageRecords:
    """The posts the page's JSON-LD spells out (a question and its answers, a posting and its
    comments) where they are more than the layout gave: Q&A pages lay the question out unlike
    the answers, and one answer has no sibling to be found by. Posts the layout found too are
    kept as found (`merged`). Not on a thread list."""
    if records.kind == "list" or not has_json_ld(root):
        return records
    posts = linked_posts(root, body)
    if len(posts) > len(records.posts):
        records.kind, records.posts = "thread", merged(records.posts, posts)
    return records


def _document(element: etree._Element) -> etree._Element:
    """The root element of the element's document (what an XPath from "//" reads)."""
    return element.getroottree().getroot()


def has_json_ld(root: etree._Element) -> bool:
    """The document has a <script type="application/ld+json"> (read by lxml's iterator, which
    costs less than an XPath over the whole page)."""
    return any(
        script.get("type") == "application/ld+json" for script in _document(root).iter("script")
    )


# What makes a form a place to write (a reply box, a search field), not a wrapper.
_ENTRY = etree.XPath(
    "descendant::textarea | descendant::select | descendant::input[not(@type) or "
    "@type='text' or @type='search' or @type='email' or @type='password' or @type='url']"
)


def unwrap_wrapper_forms(tree: etree._Element) -> None:
    """Forms with no field to write in give up their markup: a page that wraps posts (or all
    of itself) in a <form> for its buttons shows their text. Reply and search boxes stay
    forms, and their text is skipped as before."""
    for form in list(tree.iter("form")):
        if form.getparent() is not None and not _ENTRY(form):
            _unwrap(form)


def script_links_as_text(tree: etree._Element) -> None:
    """A link whose address is a script naming no address (`javascript:replyFloor(123)`)
    that holds a sentence is the page's text, not a link: some comment systems wrap each
    comment's whole text in one, to open a reply box on a click, and as link text it read as a
    menu's. Its markup becomes a <span>. Short labels ("回复", "more") stay links, and so does
    a script that goes somewhere (`javascript:play('http://…/2akm7.html')`, a gallery's
    captions)."""
    for anchor in list(tree.iter("a")):
        href = (anchor.get("href") or "").lstrip().lower()
        if (
            href.startswith("javascript:")
            and "/" not in href
            and reads_as_sentence("".join("".join(anchor.itertext()).split()))
        ):
            anchor.tag = "span"
            del anchor.attrib["href"]


def _unwrap(element: etree._Element) -> None:
    """The element's children and text in its place, its tail after them."""
    parent = element.getparent()
    index = parent.index(element)
    previous = element.getprevious()

    def after_previous(text: str) -> None:
        if previous is not None:
            previous.tail = (previous.tail or "") + text
        else:
            parent.text = (parent.text or "") + text

    if element.text:
        after_previous(element.text)
    kids, tail = list(element), element.tail
    parent.remove(element)
    for offset, kid in enumerate(kids):
        parent.insert(index + offset, kid)
    if tail:
        if kids:
            kids[-1].tail = (kids[-1].tail or "") + tail
        else:
            after_previous(tail)


def shared_records(
    root: etree._Element,
    tree: etree._Element,
    stats: dict,
    evidence: Evidence,
    options: RecordOptions = RecordOptions(),
    now: datetime | None = None,
    url: str | None = None,
) -> PageRecords:
    """`extract_records` of `root` in `tree`, `clean_tree(root)` made by the caller, with its
    <body>'s `stats` and `evidence` (`text_evidence`): the tree is left as it was (rows detection wrapped given back to their
    parents), for the caller to go on with; the records' elements are the tree's."""
    body = tree.find("body")
    try:
        return extract_records(root, options, now, url, cleaned=(tree, stats, evidence))
    finally:
        restore(body if body is not None else tree, stats)


class Known:
    """The elements a page had when its statistics were taken, each standing for itself (in
    the place of a copy's map to the caller's elements): what `finish` reads."""

    def __init__(self, stats: dict):
        self.stats = stats

    def __contains__(self, element: etree._Element) -> bool:
        return element in self.stats

    def __getitem__(self, element: etree._Element) -> etree._Element:
        return element


# Elements detection may make: `interleaved` wraps rows in attribute-less <div>/<tbody>.
MADE_TAGS = ("div", "tbody")


def restore(body: etree._Element, stats: dict) -> None:
    """Undo what detection changed in the tree: the wrappers it made (elements the page did not
    have when its `stats` were taken) give their rows back to their parents."""
    made = [e for e in body.iterdescendants(*MADE_TAGS) if e not in stats and not len(e.attrib)]
    for element in made:  # (found before any is unwrapped; by lxml's iterator, not an XPath)
        if element.getparent() is not None:
            unwrap(element)


def forum_records(body, options, now, url, generator, stats, evidence) -> tuple[PageRecords, list]:
    """A page that says it is a forum: SoL first. Records POL finds where SoL found a list,
    a lone post or nothing are the forum's posts too (a layout SoL splits, a list of posts).
    Returns the records and the blocks holding the replies (all posts but the first)."""
    found = extract_forum(
        body, url=url, options=options.forum, now=now, generator=generator, stats=stats
    )  # a forum: every node compared
    if found.kind == "thread" and len(found.posts) > 1:
        regions, comments = comments_under(found, options, now, stats, evidence)
        records = PageRecords(kind="thread", posts=found.posts, comments=comments)
        return records, found.blocks[1:] + [b for r in regions for b in r.blocks]
    regions = outside(comment_regions(body, options, stats, evidence), found.blocks)  # not rows
    comments = extract_comments(body, options, now=now, regions=regions) if regions else []
    if len(comments) > len(found.posts):
        posts = [
            PostRecord(c.text, c.author, c.author_url, c.time, c.published_at, c.time_attr)
            for c in comments
        ]
        return PageRecords(kind="thread", posts=posts), [b for r in regions for b in r.blocks][1:]
    if found.kind == "thread":
        return PageRecords(kind="thread", posts=found.posts), found.blocks[1:]
    if found.kind == "list":
        return PageRecords(kind="list", threads=found.threads), []
    return PageRecords(), []


def comments_under(found, options, now, stats, evidence) -> tuple[list, list[CommentRecord]]:
    """The comments under each post of a thread (under the question and each answer of a Q&A
    page): the comment regions POL finds inside the posts' blocks (`replying`)."""
    regions = [
        region
        for block in found.blocks
        for region in comment_regions(
            block, options, stats, evidence, vouched=lambda r: listed_replies(r, stats, now)
        )
        if under_post(region, block, stats, now)
    ]
    regions += lone_comments(found.blocks, regions, now)
    return regions, replying(found, regions, options, now)


def lone_comments(posts: list, regions: list, now) -> list:
    """One comment under a post, where other posts' comments were found: a list of one is no
    region of repeated blocks, but it stands where the others' lists stand (the same path from
    its post, the same tag and first class) and names its author and time as they do."""
    holding = {_post_of(region.parent, posts) for region in regions}
    shapes = {
        (_path(region.parent, post), _shape(region.blocks[0]))
        for region in regions
        if (post := _post_of(region.parent, posts)) is not None
    }
    lone = []
    for post in posts:
        if post in holding:
            continue
        for path, shape in shapes:
            # (an empty path: the other posts' comments are their own children)
            for parent in post.iterdescendants(etree.Element) if path else [post]:
                if path and (_shape(parent) != path[-1] or _path(parent, post) != path):
                    continue
                kids = [c for c in parent if isinstance(c.tag, str) and _shape(c) == shape]
                if len(kids) == 1:
                    [fields] = block_fields(kids, set(kids), now)
                    if fields.author and fields.text and fields.time:
                        lone.append(Region(parent, kids))
    return lone


def _post_of(element, posts: list):
    """The post among `posts` that is or holds `element`."""
    return next((p for p in posts if p is element or p in element.iterancestors()), None)


def _shape(element) -> tuple[str, str]:
    """An element's tag and first class name."""
    names = (element.get("class") or "").split()
    return element.tag, names[0] if names else ""


def _path(element, top) -> tuple:
    """The shapes of the elements from below `top` down to `element`."""
    steps = []
    while element is not None and element is not top:
        steps.append(_shape(element))
        element = element.getparent()
    return tuple(reversed(steps))


def listed_replies(region, stats: dict, now) -> bool:
    """Replies listed under a forum's post that name their author and time only as the
    lines' own words do, not by markup (楼中楼: "<a>jane</a>：text <span>time</span>"), which
    the comment evidence needs of fewer than five: they read as text (`reads_as_records`)
    and every one is a record of its own with a name, a text and (nearly) every one a time,
    as `under_post` reads them; a post's own layout does not."""
    return reads_as_records(region) and _each_signed(region, now)


# What a post keeps of its own beside the comments under it (non-space characters).
MIN_POST_CHARS = 20


def under_post(region, block, stats: dict, now) -> bool:
    """A region inside a post is comments under it, not the post's own layout (a poster's
    column beside the text, profile lines, header and meta rows): the post keeps text of its
    own outside it, and every block names its author and (nearly) every one shows a time."""
    inside = sum(_chars(b, stats) for b in region.blocks)
    if _chars(block, stats) - inside < MIN_POST_CHARS:
        return False
    return _each_signed(region, now)


def _each_signed(region, now) -> bool:
    """Every block of the region names its author and has a text, (nearly) every one a time."""
    fields = block_fields(region.blocks, set(region.blocks), now)
    timed = sum(f.time is not None for f in fields)
    return all(f.author and f.text for f in fields) and timed >= 0.8 * len(fields)


def _chars(element, stats: dict) -> int:
    known = stats.get(element)
    return known.text if known is not None else len("".join("".join(element.itertext()).split()))


def replying(found, regions: list, options, now) -> list[CommentRecord]:
    """The comments of `regions`; those under a post of `found` reply to the post's author
    unless they name whom they answer. Comments under no post come first, as one set, then
    each post's, in the posts' order."""
    owners = found.owners
    under: dict = {}
    for region in regions:
        owner = region.parent if region.parent in owners else None
        if owner is None:
            owner = next((a for a in region.parent.iterancestors() if a in owners), None)
        under.setdefault(owner, []).append(region)
    inside = [r for owner, group in under.items() if owner is not None for r in group]
    if inside:  # the posts' own fields, without the comments under them
        again = reread(found, {b for r in inside for b in (*r.blocks, *r.nested)}, now)
        found.posts, found.owners = again.posts, again.owners
        owners = again.owners
    comments = []
    for owner in sorted(under, key=lambda o: -1 if o is None else found.blocks.index(o)):
        group = under[owner]
        page = group[0].parent.getroottree().getroot()
        found_here = extract_comments(page, options, now=now, regions=group)
        if owner in owners:
            for comment in found_here:
                comment.reply_to = comment.reply_to or owners[owner].author
        comments.extend(found_here)
    return comments


def outside(regions: list, blocks: list) -> list:
    """The comment regions whose blocks are not, and do not hold, any of `blocks`."""
    taken = set(blocks)
    return [
        r
        for r in regions
        if not any(b in taken or any(d in taken for d in b.iterdescendants()) for b in r.blocks)
    ]


def attributed(posts: list) -> list:
    """Posts (or comments) without author and time are dropped where (nearly) all others have
    both: a header of the reply box ("Sign in to leave a comment · 68 Comments · Best"), a
    list inside a post, or a nested record's frame (an avatar letter), taken for one."""
    full = sum(bool(p.author and p.time) for p in posts)
    bare = [p for p in posts if not p.author and not p.time]
    if len(posts) < 3 or not bare or full < 0.8 * (len(posts) - len(bare)) or full < 2:
        return posts
    return [p for p in posts if p.author or p.time]


def named_only(records: list) -> list:
    """Without the records whose text is only their author's name (a poster's card beside
    the posts, taken for records of their own)."""
    return [r for r in records if not r.author or " ".join(r.text.split()) != r.author]


def finish(
    records: PageRecords, blocks: list, origin: dict, url: str | None, now: datetime | None = None
) -> PageRecords:
    """The records with their blocks as elements of the caller's tree (a block `interleaved`
    made stands for its members), and thread links made absolute; posts without author and
    time dropped where the others have both (`attributed`), and so comments; dates of numbers
    read as the page writes them (`read_day_first`)."""
    records.posts = attributed(named_only(records.posts))
    records.comments = attributed(named_only(records.comments))
    read_day_first(records, now)
    for block in blocks:
        members = [block] if block in origin else list(block)
        records.elements.extend(origin[m] for m in members if m in origin)
    return absolute_links(records, url)


def read_day_first(records: PageRecords, now: datetime | None) -> None:
    """Where the records' written dates say the page puts the day first ("21/05/2024" beside
    "04/07/2023": `written_day_first`), each record whose moment was read from its written
    date month first is read again day first (the 4th of July). Read alone, a date that could
    be either is taken month first; its neighbours on the page decide it."""
    written = [
        r for r in (*records.posts, *records.comments, *records.threads)
        if r.time and getattr(r, "time_attr", None) is None
    ]  # fmt: skip
    if not written_day_first(r.time for r in written):
        return
    for record in written:
        if record.published_at is not None and record.published_at == parse_time(
            record.time, now=now
        ):
            record.published_at = parse_time(record.time, now=now, day_first=True)


def absolute_links(records: PageRecords, base: str | None) -> PageRecords:
    """Thread links resolved against the page's address (they are crawled and stored by it).
    Author links stay as written; storage resolves them."""
    if base:
        for thread in records.threads:
            thread.url = urljoin(base, thread.url)
    return records
