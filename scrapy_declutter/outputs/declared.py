"""What a page declares about itself for machines: ``<meta>`` tags,
schema.org JSON-LD and microdata, each read into plain values for
``metadata.py`` to choose from.

JSON-LD is whatever JSON a page wrote: every value is checked for its type
before it is used (a value of another type is passed over), and nothing here
recurses into it, so no nesting costs more than ``json`` itself allows.
"""

import html
import json
import re
from collections.abc import Callable, Iterator

from lxml import etree

# The attributes, not their elements: libxml2 finds these faster.
_ITEMPROP = etree.XPath("descendant::*/@itemprop")
# An element's text, compiled once (``element.xpath`` compiles at each call).
STRING = etree.XPath("string()")
# The first element inside an item that holds its name, found in C.
_ITEM_NAME = etree.XPath("descendant::*[@itemprop='name'][1]")
_ARTICLE_TYPES = re.compile(r"Article|BlogPosting|Posting|Report|Review|Recipe|HowTo|Story")
# Types of the page itself, or of the site or blog it is in: an object one of
# these holds may be the page's own article (``WebPage.mainEntity``,
# ``Blog.blogPost``); an object another holds is that one's part.
_PAGE_TYPES = re.compile(r"Page$|WebSite$|Blog$")
# The page's own object, read when it declares no article.
_PAGE_TYPE = re.compile(r"WebPage|Page$")
# The nearest element above that is an item, found in C.
_OWNER = etree.XPath("ancestor::*[@itemscope][1]")
# The elements of a microdata property that are read, in document order: a
# page nests thousands of them (each one's text the whole subtree beneath it).
MAX_ITEMS_A_PROPERTY = 10
# The characters XML forbids that ``str.split`` leaves in: C0 controls that are
# not white space, lone surrogates, U+FFFE and U+FFFF (JSON's "\u0001",
# "\ud800", "\uffff"; the tree's text has none, ``parse.py`` drops them there).
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\ud800-\udfff\ufffe\uffff]")


def meta_values(elements: list[etree._Element]) -> dict[str, list[str]]:
    """Every <meta content> by its lower-cased name, property or (in the
    ``<head>``) itemprop."""
    values: dict[str, list[str]] = {}
    for element in elements:
        content = one_line(element.get("content", ""))
        if not content:
            continue
        for attribute in ("property", "name", "itemprop", "http-equiv"):
            key = element.get(attribute)
            # an itemprop in the body is an item's (the claim a review
            # reviews): ``Microdata`` reads it, knowing whose it is
            if key and (attribute != "itemprop" or _in_head(element)):
                values.setdefault(key.strip().lower(), []).append(content)
    return values


def _in_head(element: etree._Element) -> bool:
    parent = element.getparent()
    return parent is not None and parent.tag == "head"


def values_for(meta: dict[str, list[str]], keys: tuple[str, ...]) -> Iterator[str]:
    """The ``<meta>`` values of ``keys``, key by key in their order."""
    for key in keys:
        yield from meta.get(key, ())


def json_ld(scripts: list[etree._Element]) -> tuple[dict, list[dict]]:
    """The page's article object (an empty dict if none) and every JSON-LD object."""
    nodes: list[dict] = []
    for script in scripts:
        if script.get("type", "").strip().lower() not in (
            "application/ld+json",
            "application/json+ld",
        ):
            continue
        try:
            data = json.loads(script.text or "", strict=False)
        except (ValueError, RecursionError):  # broken, or nested past what json reads
            continue
        pending = [data]
        while pending:  # objects, lists and @graph, flattened
            value = pending.pop()
            if isinstance(value, list):
                pending.extend(reversed(value))
            elif isinstance(value, dict):
                nodes.append(value)
                if isinstance(value.get("@graph"), list):
                    pending.extend(reversed(value["@graph"]))
    by_id = {node["@id"]: node for node in nodes if isinstance(node.get("@id"), str)}
    for node in nodes:  # resolve {"@id": ...} references one level deep
        for key in ("author", "publisher", "image"):
            node[key] = _resolve(node.get(key), by_id)
    typed = [(types_of(node), node) for node in nodes]
    held = _held_ids(typed)
    for types, node in typed:
        if any(_ARTICLE_TYPES.search(t) for t in types) and not _held(node, held):
            return node, nodes
    for types, node in typed:
        if any(_PAGE_TYPE.search(t) for t in types):
            return node, nodes
    return {}, nodes


def _held(node: dict, held: set[str]) -> bool:
    identifier = node.get("@id")
    return isinstance(identifier, str) and identifier in held


def _held_ids(typed: list[tuple[list[str], dict]]) -> set[str]:
    """The ``@id`` of every object that an object other than a page holds by
    reference, one level deep: a claim a ``ClaimReview`` reviews, a review of
    a product, an item of a list. It is that object's part, not the page's
    article (and its author is not the page's)."""
    held: set[str] = set()
    for types, node in typed:
        if any(_PAGE_TYPES.search(t) for t in types):
            continue
        for key, value in node.items():
            if key.startswith("@"):  # a keyword (``@graph``), not a property
                continue
            for part in value if isinstance(value, list) else (value,):
                # an article that names itself (its ``mainEntityOfPage``) holds no part
                if isinstance(part, dict) and part.get("@id") != node.get("@id"):
                    if isinstance(part.get("@id"), str):
                        held.add(part["@id"])
    return held


def _resolve(value: object, by_id: dict[str, dict]) -> object:
    """``value`` with a reference, or each reference of a list, replaced by
    its object (lists in the list are left as they are)."""
    if isinstance(value, list):
        return [_referenced(v, by_id) for v in value]
    return _referenced(value, by_id)


def _referenced(value: object, by_id: dict[str, dict]) -> object:
    if isinstance(value, dict) and set(value) <= {"@id", "@type"}:
        reference = value.get("@id")
        if isinstance(reference, str):
            return by_id.get(reference, value)
    return value


def types_of(node: dict) -> list[str]:
    """A JSON-LD object's ``@type`` as a list (one type or several; none
    when it is neither a string nor a list)."""
    types = node.get("@type")
    if isinstance(types, str):
        return [types]
    return [t for t in types if isinstance(t, str)] if isinstance(types, list) else []


def site_from_graph(nodes: list[dict]) -> str | None:
    """The name of the page's ``WebSite`` object, if it has one."""
    for node in nodes:
        if "WebSite" in types_of(node):
            return value_text(node.get("name"))
    return None


class Microdata:
    """The values of the page's ``itemprop`` elements by property: the first
    ``MAX_ITEMS_A_PROPERTY`` elements of each, found on first use, each
    element's value read once (an element often holds several properties)."""

    def __init__(self, root: etree._Element):
        self.root = root
        self.by_property: dict[str, list[etree._Element]] | None = None
        self.read: dict[etree._Element, str | None] = {}

    def values(
        self, prop: str, where: Callable[[etree._Element], bool] | None = None
    ) -> Iterator[str | None]:
        """The values (``_item_value``) of ``prop``'s elements, in document
        order; with ``where``, of those elements for which it is true."""
        if self.by_property is None:
            self.by_property = {}
            for value in _ITEMPROP(self.root):
                element = value.getparent()
                for name in value.split():
                    elements = self.by_property.setdefault(name, [])
                    if len(elements) < MAX_ITEMS_A_PROPERTY:
                        elements.append(element)
        for element in self.by_property.get(prop, ()):
            if where is not None and not where(element):
                continue
            if element not in self.read:
                self.read[element] = _item_value(element)
            yield self.read[element]


def part_of_another_item(element: etree._Element) -> bool:
    """Whether a property's item (the nearest item above ``element``) is
    itself the property of an item that is not a page (``_PAGE_TYPES``):
    the claim a ``ClaimReview`` reviews, a comment or a review of the
    article. Its properties (an author) are that part's, not the page's."""
    owner = _OWNER(element)
    if not owner or owner[0].get("itemprop") is None:
        return False
    holder = _OWNER(owner[0])
    if not holder:
        return False
    types = (holder[0].get("itemtype") or "").split()
    return not any(_PAGE_TYPES.search(t.rstrip("/")) for t in types)


def _item_value(element: etree._Element) -> str | None:
    """A microdata property's value: its ``datetime`` or ``content``, else
    the text of its item's ``name`` (an author ``Person``), else its text."""
    if element.tag == "meta":
        return value_text(element.get("content"))
    for attribute in ("datetime", "content"):
        if element.get(attribute):
            return value_text(element.get(attribute))
    names = _ITEM_NAME(element)
    return value_text(STRING(names[0] if names else element))


def value_text(value: object) -> str | None:
    """A JSON-LD or attribute value as one line of text (the first of a list)."""
    if isinstance(value, list):
        value = value[0] if value else None
    if isinstance(value, dict):
        value = value.get("name") or value.get("@value")
    return one_line(value) if isinstance(value, str) else None


def one_line(text: str) -> str | None:
    """``text`` with its white space collapsed and control characters
    dropped, ``None`` if nothing is left."""
    text = " ".join(text.split())
    if "&" in text:  # escaped twice in the page: "&amp;#8211;"
        text = " ".join(html.unescape(text).split())
    if not text.isprintable() and _CONTROLS.search(text):  # one fast test for most values
        text = _CONTROLS.sub("", text)
    return text or None
