"""The page as tag blocks, for relevance (SPEC §6, the extended-library paper §1.1): navigation,
anchor texts and other key tags. Title and body come from the extractors; these are the rest.

- navigation: the text of <nav>, menus, breadcrumbs, channel bars and footers (by tag, role,
  class or id);
- anchors: the texts of the page's other links (what the page points to and calls it);
- other: meta keywords and description, and headings (h1–h6): short texts that name the topic.
"""

from __future__ import annotations

from functools import lru_cache

from lxml import etree

from topiccrawler.extract.parse import normalize_space, text_content
from topiccrawler.extract.words import Words

# Class or id words of navigation bars, menus, breadcrumbs, channel bars and footers. The spider
# uses the same words to tell navigation links from content links.
NAVIGATION_WORDS = "nav|menu|breadcrumb|crumb|channel|daohang|topbar|sitemap|footer"
NAVIGATION = Words(NAVIGATION_WORDS)
MAX_ANCHORS = 500  # a page listing thousands of links says what it is in the first few hundred
MAX_BLOCK_CHARS = 20_000


def is_navigation(element: etree._Element) -> bool:
    """A navigation bar, menu, breadcrumb, channel bar or footer: by tag, role, class or id."""
    if element.tag in ("nav", "footer") or element.get("role") == "navigation":
        return True
    return _navigation_named(f"{element.get('class', '')} {element.get('id', '')}")


@lru_cache(maxsize=8192)
def _navigation_named(names: str) -> bool:
    return bool(names.strip()) and NAVIGATION.found(names)


def navigation_hrefs(root: etree._Element) -> set[str]:
    """The href of every link inside navigation (`is_navigation`) anywhere in the page, as
    written. Read by lxml's iterator: the XPath of the same test (`re:test` of every element's
    class and id, which lxml runs as Python callbacks) cost three times parsing the page."""
    hrefs: set[str] = set()
    inside: set[etree._Element] = set()  # (the links of a navigation's navigations are its own)
    for element in root.iter(etree.Element):
        if element in inside or not is_navigation(element):
            continue
        inside.update(element.iterdescendants())
        hrefs.update(
            href for link in element.iterdescendants("a") if (href := link.get("href")) is not None
        )
    return hrefs


def _join(texts: list[str]) -> str:
    return "\n".join(t for t in texts if t)[:MAX_BLOCK_CHARS]


def page_blocks(root: etree._Element) -> dict[str, str]:
    """Navigation, anchor and other blocks of a parsed page, as text (empty when absent)."""
    navigation: list[str] = []
    inside_navigation: set[etree._Element] = set()
    for element in root.iter(
        "nav", "footer", "div", "ul", "ol", "header", "p", "span", "td", "section"
    ):
        if element in inside_navigation or not is_navigation(element):
            continue
        navigation.append(normalize_space(text_content(element)))
        inside_navigation.update(element.iter())
    anchors = [
        normalize_space(text_content(a))
        for a in root.iter("a")
        if a not in inside_navigation and a.get("href")
    ][:MAX_ANCHORS]
    other = [
        normalize_space(meta.get("content", ""))
        for meta in root.iter("meta")
        if (meta.get("name") or "").lower() in ("keywords", "description")
    ]
    other += [
        normalize_space(text_content(h)) for h in root.iter("h1", "h2", "h3", "h4", "h5", "h6")
    ]
    return {"navigation": _join(navigation), "anchors": _join(anchors), "other": _join(other)}
