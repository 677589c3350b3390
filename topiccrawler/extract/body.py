"""The crawl's default body extractor: the decay paper's method, improved where the benchmark
(benchmarks/body.py) showed it losing.

Measured weaknesses of the method as published, and what is done about each:
- the main-topic subtree sits too high on pages with long comment sections, "related" teasers
  or footers carrying plain text: each child's non-link text is weighted by what its class, id
  and tag say (article/content/正文 up; comment/related/share/sidebar down) before FindMT
  compares them, and HTML5 page chrome (nav, aside, footer, header) is removed first;
- short paragraphs are lost when one paragraph dominates (the paper's own failure analysis):
  FindMT never descends into a paragraph-level node;
- inside the subtree, blocks named as chrome are pruned like link-dense ones.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from functools import lru_cache

from lxml import etree

from topiccrawler.extract.body_decay import DECAY_THRESHOLD, MAX_LINK_DENSITY, extract_body_decay
from topiccrawler.extract.parse import text_content, visible_text
from topiccrawler.extract.tree import TextStats, clean_tree, drop, element_stats, text_stats
from topiccrawler.extract.words import Words

# HTML5 page chrome: never body (the paper: meta information is not body either).
CHROME_TAGS = ("nav", "aside", "footer", "header")
# Class/id words of blocks that are not the article, and of blocks that are.
NEGATIVE_NAMES = Words(
    r"comment|reply|respond|discuss|sidebar|side-bar|widget|footer|foot\b|related|recommend|"
    r"share|social|sns|breadcrumb|crumb|\bnav|menu|banner|advert|\bads?\b|promo|sponsor|"
    r"subscribe|newsletter|popup|modal|cookie|copyright|author-bio|pager|pagination|"
    r"hot|rank|tags?\b|toolbar|disclaimer|评论|相关|推荐|热门|版权"
)
# Blocks removed before FindMT when nothing in their names speaks for them (readability's
# "unlikely candidates", narrowed).
UNLIKELY_NAMES = Words(r"comment|respond|disqus|评论")
# Named as a sidebar: removed only when small (themes name whole layouts "has-sidebar").
SIDEBAR_NAMES = Words(r"sidebar|side-bar")
POSITIVE_NAMES = Words(
    r"article|content|post|entry|main|body|text|story|detail|zoom|正文|内容|artic"
)
TAG_WEIGHTS = {"article": 1.5, "main": 1.3}
# Nodes FindMT never descends into: one paragraph is never the whole body.
PARAGRAPH_TAGS = frozenset(
    ("p", "span", "font", "b", "strong", "em", "i", "a", "h1", "h2", "h3", "h4", "h5", "h6",
     "li", "br", "blockquote", "pre", "code", "small", "big", "u", "sup", "sub")
)  # fmt: skip
BLOCK_TAGS = frozenset(
    (
        "div",
        "section",
        "article",
        "main",
        "table",
        "tbody",
        "tr",
        "td",
        "ul",
        "ol",
        "dl",
        "form",
        "center",
        "body",
    )
)


@dataclass(frozen=True)
class BodyOptions:
    """Switches for each improvement, so the benchmark can measure them one by one."""

    threshold: float = DECAY_THRESHOLD
    max_link_density: float = MAX_LINK_DENSITY
    drop_chrome: bool = True
    drop_unlikely: bool = True
    name_weights: bool = True
    discount_links: bool = False
    drop_repeats: bool = True
    drop_meta: bool = True
    include_siblings: bool = True
    sibling_blocks: bool = True  # sibling containers of paragraphs join the region too
    loose_text_weight: float = 0.5  # non-link text outside <p>/<pre>/<blockquote>, vs prose
    stop_at_paragraphs: bool = True
    prune_named_chrome: bool = True
    keep_links_in_prose: bool = True  # links inside a sentence are the sentence's words
    own_text: bool = True  # a node's own text lines compete with its children in FindMT
    negative_weight: float = 0.2
    positive_weight: float = 1.5


def name_weight(element: etree._Element, options: BodyOptions, shared: str = "") -> float:
    """How much an element's class/id/tag say it is the article (1.0: they say nothing);
    `shared`: a class prefix all its siblings carry too (see `shared_prefix`), left unread."""
    weight = TAG_WEIGHTS.get(element.tag, 1.0) if isinstance(element.tag, str) else 1.0
    classes = element.get("class", "")
    if shared:
        classes = _without_prefix(classes, shared)
    negative, positive = _names_say(f"{classes} {element.get('id', '')}")
    if negative:
        weight *= options.negative_weight
    if positive:
        weight *= options.positive_weight
    return weight


@lru_cache(maxsize=8192)
def _names_say(names: str) -> tuple[bool, bool]:
    """Whether class and id names speak against the block (NEGATIVE_NAMES) and for it
    (POSITIVE_NAMES); pages repeat a few names thousands of times."""
    return NEGATIVE_NAMES.found(names), POSITIVE_NAMES.found(names)


# A class name's block part, as component naming writes it: "ArticlePage-main",
# "article__body", "post_meta" (the block, then "-", "_" or "__", then the element).
_BLOCK_PREFIX = re.compile(r"(?<!\S)([A-Za-z][A-Za-z0-9]*)(?:__?|-)(?=[A-Za-z0-9])")


def shared_prefix(children: list[etree._Element]) -> str:
    """The class-name block every one of these siblings carries (component naming: a page's
    blocks all called "ArticlePage-…"), or "": it names the page's template, not which block
    is the article, so FindMT reads the rest of their names ("main", "below")."""
    common: set[str] | None = None
    for child in children:
        found = set(_BLOCK_PREFIX.findall(child.get("class") or ""))
        common = found if common is None else common & found
        if not common:
            return ""
    return min(common) if common and len(children) > 1 else ""


def _without_prefix(classes: str, prefix: str) -> str:
    """Class names with the block part `prefix` (and its separator) taken off."""
    return re.sub(rf"(?<!\S){re.escape(prefix)}(?:__?|-)(?=[A-Za-z0-9])", "", classes)


def _is_paragraph_level(element: etree._Element) -> bool:
    """True for a paragraph, or a container holding no block-level element."""
    if element.tag in PARAGRAPH_TAGS:
        return True
    return not any(
        child.tag in BLOCK_TAGS or child.tag == "p"
        for child in element.iter(etree.Element)
        if child is not element
    )


def score(
    element: etree._Element, info: TextStats, options: BodyOptions, shared: str = ""
) -> float:
    """A child's information amount: its non-link text, discounted by its link density (a
    block that is one third links is worth two thirds) and weighted by its names (`shared`:
    a class prefix of all the siblings compared, which tells none of them apart)."""
    amount = info.prose + options.loose_text_weight * (info.clear - info.prose)
    if options.discount_links:
        amount *= 1.0 - info.link_density
    if options.name_weights:
        amount *= name_weight(element, options, shared)
    return amount


def find_region(
    root: etree._Element, stats: dict[etree._Element, TextStats], options: BodyOptions
) -> etree._Element:
    """FindMT with the weights and the paragraph stop."""
    node = root
    while True:
        children = [c for c in node if c in stats and stats[c].text]
        if not children:
            return node
        # The node's own text (text nodes right in it, lines between <br>s) competes too.
        own = stats[node].text - sum(stats[c].text for c in children) if node in stats else 0
        own = options.loose_text_weight * own if options.own_text else 0
        if len(children) == 1:
            if options.stop_at_paragraphs and _is_paragraph_level(children[0]):
                return node
            if own > score(children[0], stats[children[0]], options):
                return node
            node = children[0]
            continue
        shared = shared_prefix(children) if options.name_weights else ""
        scores = {c: score(c, stats[c], options, shared) for c in children}
        best = max(children, key=scores.__getitem__)
        total = sum(scores.values()) + own
        if total <= 0 or (total - scores[best]) / total > options.threshold:
            return node
        if options.stop_at_paragraphs and _is_paragraph_level(best):
            return node
        node = best


def prune(
    node: etree._Element,
    stats: dict[etree._Element, TextStats],
    options: BodyOptions,
    region_text: int,
) -> None:
    """CleanTree, plus blocks named as chrome that hold a minority of the region's text."""
    for child in list(node):
        if child not in stats:
            continue
        info = stats[child]
        if info.text and info.link_density > options.max_link_density:
            if not (options.keep_links_in_prose and _in_prose(child)):
                drop(child)
        elif (
            options.prune_named_chrome
            and info.text < region_text / 2
            and _names_say(f"{child.get('class', '')} {child.get('id', '')}") == (True, False)
        ):
            drop(child)
        else:
            prune(child, stats, options, region_text)


INLINE_TAGS = frozenset(("a", "span", "font", "b", "strong", "em", "i", "u", "small", "sup", "sub"))
# Elements that hold a paragraph's text: the links inline in them are judged with it.
PROSE_PARENTS = frozenset(
    ("p", "li", "blockquote", "pre", "dd", "td", "h1", "h2", "h3", "h4", "h5", "h6")
)
# Words around an inline link that make it part of a sentence (not a list item).
_WORDS = re.compile(r"\w{2}|[\u4e00-\u9fff]", re.UNICODE)


def _in_prose(element: etree._Element) -> bool:
    """An inline link written into a sentence: inside a paragraph (the paragraph's own link
    density judges it as a whole: "(see <a>the report</a>)." or a link after "Source: " is
    its words), or where text of words runs right up to it on either side (a bare list of
    links is separated by nothing, bullets or bars)."""
    if element.tag not in INLINE_TAGS:
        return False
    for ancestor in element.iterancestors():
        if ancestor.tag in PROSE_PARENTS:
            return True
        if ancestor.tag not in INLINE_TAGS:
            break
    previous = element.getprevious()
    before = (previous.tail if previous is not None else element.getparent().text) or ""
    after = element.tail or ""
    return bool(_WORDS.search(before[-3:]) or _WORDS.search(after[:3]))


@lru_cache(maxsize=8192)
def _unlikely(names: str) -> str:
    """What drop_unlikely reads in class and id names: "unlikely", "sidebar" or "" (nothing,
    or a name that speaks for the block); pages repeat a few names thousands of times."""
    if not names.strip() or POSITIVE_NAMES.found(names):
        return ""
    if UNLIKELY_NAMES.found(names):
        return "unlikely"
    return "sidebar" if SIDEBAR_NAMES.found(names) else ""


def drop_unlikely(
    root: etree._Element, stats: dict[etree._Element, TextStats] | None = None
) -> dict[etree._Element, TextStats]:
    """Remove comment sections, and small blocks named as sidebars, unless their names also
    speak for them; comments have their own extractor. Returns the text statistics of what is
    left (those of the removed blocks' ancestors counted again, not the whole page); `stats`:
    the tree's own, if the caller has them (updated in place)."""
    stats = text_stats(root) if stats is None else stats
    page_text = stats[root].text
    parents = []
    for element, names in _named(root):
        if element.tag in ("html", "body") or element.getparent() is None:
            continue
        verdict = _unlikely(names)
        if not verdict:
            continue
        small = stats[element].text < page_text / 2 if element in stats else True
        if verdict == "unlikely" or (small and verdict == "sidebar"):
            parents.append(element.getparent())
            drop(element)
    restat(root, parents, stats)
    return stats


def _named(root: etree._Element) -> list[tuple[etree._Element, str]]:
    """The elements below `root` with a class or id (an element without either has no
    verdict), each with its names ("class id"); found before any is dropped, by lxml's
    iterator (an XPath of the same costs a quarter more, and the names read again)."""
    named = []
    for element in root.iterdescendants(etree.Element):
        classes, name = element.get("class"), element.get("id")
        if classes is not None or name is not None:
            named.append((element, f"{classes or ''} {name or ''}"))
    return named


def restat(
    root: etree._Element, parents: list[etree._Element], stats: dict[etree._Element, TextStats]
) -> None:
    """Count again the statistics of `parents` (of removed elements) and of their ancestors,
    deepest first; parents no longer in the tree are left alone."""
    changed: dict[etree._Element, int] = {}  # still in the page, with their depth
    for parent in parents:
        chain = [parent, *parent.iterancestors()]
        if chain[-1] is root:
            for depth, element in enumerate(reversed(chain)):
                changed[element] = depth
    for element in sorted(changed, key=changed.get, reverse=True):  # deepest first
        stats[element] = element_stats(element, stats)


def strip_chrome(
    tree: etree._Element, stats: dict[etree._Element, TextStats] | None = None
) -> None:
    """Remove the HTML5 page chrome (CHROME_TAGS), keeping tails; `stats` kept up to date."""
    if stats is None:
        etree.strip_elements(tree, *CHROME_TAGS, with_tail=False)
        return
    parents = [e.getparent() for e in tree.iter(*CHROME_TAGS) if e is not tree]
    if parents:
        etree.strip_elements(tree, *CHROME_TAGS, with_tail=False)
        restat(tree, parents, stats)


def complete_stats(
    tree: etree._Element, stats: dict[etree._Element, TextStats]
) -> dict[etree._Element, TextStats]:
    """`stats` (`text_stats` of the tree's <body>, or of the whole tree) made those of the
    whole tree, as text_stats(tree) gives them."""
    if tree not in stats:
        for child in tree.iterchildren(etree.Element):
            if child not in stats:
                stats.update(text_stats(child))
        stats[tree] = element_stats(tree, stats)
    return stats


def extract_body(
    root: etree._Element,
    options: BodyOptions = BodyOptions(),
    cleaned: etree._Element | None = None,
    stats: dict[etree._Element, TextStats] | None = None,
) -> str:
    """The body text of a parsed page, paragraphs on their own lines; never empty for a page
    with text (falls back to the paper's method, then to the page's text).

    `cleaned`: `clean_tree(root)`, made by the caller and given up to this function (it is
    changed), with `stats`, its `text_stats` (of its <body> at least) if the caller has them:
    a page's cleaned tree and statistics shared with the records extractor."""
    tree = clean_tree(root) if cleaned is None else cleaned
    if stats is not None:
        complete_stats(tree, stats)
    if options.drop_chrome:
        strip_chrome(tree, stats)
    if options.drop_unlikely:
        stats = drop_unlikely(tree, stats)
    body = tree.find("body")
    start = body if body is not None else tree
    if stats is None:
        stats = text_stats(start)
    region = find_region(start, stats, options)
    prune(region, stats, options, stats[region].text if region in stats else 0)
    if options.include_siblings:
        region = with_prose_siblings(region, stats, options.sibling_blocks)
    if options.drop_meta:
        drop_title_headings(region, root)
    text = visible_text(region, in_place=True)  # the region is in this function's own copy
    if options.drop_repeats and repeats_lines(text):
        text = drop_repeated_lines(text, keep=sibling_repeats(region))
    if options.drop_meta:
        text = drop_meta_lines(text)
    if text.strip():
        return text
    return extract_body_decay(root) or visible_text(root)


# Short lines that are metadata, not body: source, editor, author, date lines, pagers, and the
# bullets and dates a pruned link list leaves behind.
META_LINE = re.compile(
    r"^(?:(?:文章)?来源|编辑|责任编辑|作者|记者|发布时间|更新时间|时间|日期|字号|浏览|点击|"
    r"source|by|posted|published|updated)\s*[:：]"
    r"|^\d{4}[-/年.]\d{1,2}[-/月.]\d{1,2}日?(?:\s+\d{1,2}:\d{2}(?::\d{2})?)?\s*(?:更新|发布)?\s*(?:来源[:：].*)?$"
    r"|^第\s*\d+\s*页|上一页|下一页|^相关(?:报道|新闻|阅读|文章)[:：]?$"
    r"|^[·•\s]*\(?\d{4}[-/]\d{1,2}[-/]\d{1,2}[\s\d:APMapm]*\)?$",
    re.I,
)
META_LINE_MAX_CHARS = 60


def drop_meta_lines(text: str) -> str:
    """Remove short metadata lines (see META_LINE); long lines are body whatever they start with."""
    return "\n".join(
        line
        for line in text.splitlines()
        if len(line) > META_LINE_MAX_CHARS or not META_LINE.search(line.strip())
    )


def drop_title_headings(region: etree._Element, root: etree._Element) -> None:
    """Remove headings that repeat the page's <title>: the title is metadata, not body."""
    title = root.findtext(".//title") or ""
    title = "".join(title.split())
    if not title:
        return
    for heading in list(region.iter("h1", "h2", "h3")):
        text = "".join(text_content(heading).split())
        if text and text in title and heading is not region:
            drop(heading)


SIBLING_MIN_CHARS = 30
SIBLING_MAX_LINK_DENSITY = 0.25


def with_prose_siblings(
    region: etree._Element, stats: dict[etree._Element, TextStats], blocks: bool = True
) -> etree._Element:
    """The region plus sibling paragraphs of clean prose (a lead paragraph set apart from the
    body container, as news sites do), in document order. With `blocks`, sibling containers
    of prose count as paragraphs: templates split one article into several blocks (a lead
    block and a "read all" block) and FindMT picks the largest."""
    parent = region.getparent()
    if parent is None or region.tag == "body":
        return region
    siblings = [
        s for s in parent
        if s is not region and s in stats and stats[s].clear >= SIBLING_MIN_CHARS
        and stats[s].link_density < SIBLING_MAX_LINK_DENSITY
        and (s.tag in ("p", "blockquote") or blocks and _prose_block(s, stats[s]))
    ]  # fmt: skip
    if not siblings:
        return region
    wrapper = region.makeelement("div", {})
    for element in parent:
        if element is region or element in siblings:
            copy_ = copy.deepcopy(element)
            copy_.tail = None
            wrapper.append(copy_)
    return wrapper


# Share of a sibling block's non-link text that must sit in paragraphs for it to be prose.
SIBLING_PROSE_SHARE = 0.8


def _prose_block(element: etree._Element, info: TextStats) -> bool:
    """A container of paragraphs, not named as page chrome."""
    names = f"{element.get('class', '')} {element.get('id', '')}"
    if _names_say(names) == (True, False):
        return False
    return info.prose >= SIBLING_PROSE_SHARE * info.clear


def repeats_lines(text: str, min_chars: int = 10) -> bool:
    """Some line of `min_chars` or more occurs twice (what drop_repeated_lines looks at)."""
    lines = [line for line in text.splitlines() if len(line) >= min_chars]
    return len(set(lines)) < len(lines)


def drop_repeated_lines(text: str, min_chars: int = 10, keep: frozenset = frozenset()) -> str:
    """Keep the first of identical lines: pages hide copies of their text for other screens.
    Lines in `keep` (the text's own repetitions, see `sibling_repeats`) stay every time."""
    seen: set[str] = set()
    kept = []
    for line in text.splitlines():
        if len(line) >= min_chars and line not in keep:
            if line in seen:
                continue
            seen.add(line)
        kept.append(line)
    return "\n".join(kept)


# Elements read as one line each, whose repetitions sibling_repeats looks for.
LINE_TAGS = ("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "dt", "dd", "blockquote", "pre")


def sibling_repeats(region: etree._Element) -> frozenset[str]:
    """Lines the text itself repeats: paragraphs (headings, list items) written more than
    once, every time among the same siblings, where those siblings repeat several such lines
    (MIN_OWN_REPEATS: a meal plan's "Pre-Workout Meal", "Eat 60–90 minutes before your
    workout" and its dishes, day after day). Copies a page hides for other screens sit in
    containers of their own, so a text met under two parents is a copy, and
    drop_repeated_lines keeps only its first; one line said twice ("Sharing is caring!" above
    and below the article) is a label, not a pattern."""
    parents: dict[str, etree._Element | None] = {}
    repeated: dict[etree._Element, set[str]] = {}
    for element in region.iter(LINE_TAGS):
        text = " ".join(text_content(element).split())
        if not text:
            continue
        parent = element.getparent()
        if text not in parents:
            parents[text] = parent
        elif parents[text] is not parent:
            parents[text] = None  # under two parents: a copy
        else:
            repeated.setdefault(parent, set()).add(text)
    own = set()
    for parent, texts in repeated.items():
        texts = {t for t in texts if parents[t] is parent}
        if len(texts) >= MIN_OWN_REPEATS:
            own.update(texts)
    return frozenset(own)


# Distinct lines repeated among the same siblings before repetition is the text's own.
MIN_OWN_REPEATS = 3
