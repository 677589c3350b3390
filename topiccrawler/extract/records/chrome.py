"""Record chrome: buttons, user boxes, signatures, ranks and screen-reader text, which are
neither a record's text nor its author.
"""

from __future__ import annotations

from lxml import etree

from topiccrawler.extract.parse import normalize_space
from topiccrawler.extract.records.markup import SemanticNode
from topiccrawler.extract.records.patterns import (
    ATTACHMENT_LINE,
    BACKLINKS,
    CHROME_CLASS,
    CHROME_TEXT,
    CJK,
    EDIT_NOTE,
    GUEST_NOTICE,
    MAX_CHROME_CHARS,
    MIN_ONE_LINE_CHARS,
    OUTCRY,
    RANK_CLASS,
    REPLY_NAMED,
    SENT_FROM,
    SIGNATURE,
    VISUALLY_HIDDEN,
)


def rank_marked(element: etree._Element) -> bool:
    return any(RANK_CLASS.match(name) for name in (element.get("class") or "").split())


def _label_list(element: etree._Element) -> bool:
    """A <dl> of short labels and their values: a poster's points, posts, join date."""
    if element.tag != "dl":
        return False
    terms = [normalize_space("".join(dt.itertext())) for dt in element.iter("dt")]
    if terms:
        return all(len(term) <= 16 for term in terms)
    # Terms shown as icons (their label in a title, their element gone with cleaning):
    # short values only ("Apr 5, 2020", "1,204").
    values = [normalize_space("".join(dd.itertext())) for dd in element.iter("dd")]
    return bool(values) and all(len(value) <= 24 for value in values)


def chrome_marked(element: etree._Element) -> bool:
    """Named like chrome, and small like chrome (a post's wrapper may carry "reply" too), or a
    signature."""
    if _label_list(element):
        return True
    names = f"{element.get('class') or ''} {element.get('id') or ''}".split()
    marked = [name for name in names if CHROME_CLASS.match(name)]
    if not marked:
        return False
    if any(SIGNATURE.search(name) for name in marked):
        return True
    text = "".join("".join(element.itertext()).split())
    if all(REPLY_NAMED.match(name) for name in marked) and reads_as_sentence(text):
        return False  # "root-reply-container": the reply itself, a short one, not its button
    return len(text) <= MAX_CHROME_CHARS


def reads_as_sentence(squeezed: str) -> bool:
    """Text (white space removed) that reads as a sentence, not a button's label: eight CJK
    characters, or MIN_ONE_LINE_CHARS letters and digits."""
    return len(CJK.findall(squeezed)) >= 8 or sum(c.isalnum() for c in squeezed) >= (
        MIN_ONE_LINE_CHARS
    )


def visually_hidden(element: etree._Element, stops: set[etree._Element]) -> bool:
    """The element, or an ancestor below one of `stops`, is named as screen-reader text."""
    while element is not None and element not in stops:
        names = element.get("class")
        if names and VISUALLY_HIDDEN.found(names):
            return True
        element = element.getparent()
    return False


def is_chrome(node: SemanticNode, block: etree._Element) -> bool:
    """A reply/vote/quote button, an avatar, a bare number, the client it was sent from, a
    note that the record was edited, a notice to guests, an attachment's file line, the replies' backlinks, a form
    field's label: chrome on any record."""
    if OUTCRY.match(node.text):
        return False
    if any(
        p.match(node.text)
        for p in (CHROME_TEXT, SENT_FROM, EDIT_NOTE, GUEST_NOTICE, ATTACHMENT_LINE, BACKLINKS)
    ):
        return True
    if _labels_only(node):
        return True
    return under_chrome(node, {block})


def _labels_only(node: SemanticNode) -> bool:
    """The node's text is a form field's <label> ("电梯直达", "Jump to page"): the field it
    names is gone with the page's cleaning, and the label is no one's words."""
    element = node.element
    if element is None:
        return False
    labels = [element] if element.tag == "label" else list(element.iter("label"))
    shown = " ".join(normalize_space("".join(label.itertext())) for label in labels)
    return bool(labels) and normalize_space(shown) == node.text


def under_chrome(node: SemanticNode, stops: set[etree._Element]) -> bool:
    """The node sits in chrome below the record (a user-info box's "Joined: Mar 8, 2010" is
    not the post's time): its element or an ancestor up to one of `stops`."""
    element = node.element
    while element is not None and element not in stops:
        if chrome_marked(element):
            return True
        element = element.getparent()
    return False
