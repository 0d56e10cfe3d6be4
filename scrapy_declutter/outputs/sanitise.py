"""A copy of a page that can neither run nor load anything, for the report's page view.

An allow-list, applied to the parsed tree and serialised by lxml, so that
nothing is edited as a string and no new markup can form:

* elements: the ones that only lay out text (``ALLOWED_TAGS``) are kept;
  the ones that run code or embed a document (``DROPPED_TAGS``: ``<script>``,
  ``<iframe>``, ``<object>``, ``<template>``, ...) are removed with their
  content, and so are comments and processing instructions (a browser ends a
  comment at ``--!>``, lxml does not); ``<form>`` becomes a ``<div>`` (a form
  that cannot be sent) and ``<xmp>``-like elements a ``<pre>``; any other
  element becomes a ``<span>``, as a browser shows an unknown element, its
  content kept: ``<svg>``, ``<math>``, ``<video>``, ``<noscript>`` too. So the
  browser never parses foreign content (where ``<style>`` holds markup) nor
  raw text other than the ``<style>`` this module checked;
* attributes: only ``ALLOWED_ATTRIBUTES``, none of which holds a URL or code,
  and none whose value names a script or ``data:`` URL (``_safe_value``);
* CSS, in a ``style`` attribute or a ``<style>`` element, is kept only when
  nothing in it could load or run anything (``_UNSAFE_CSS``: a backslash
  escape, ``url``, ``image-set``, ``@import``, ``expression``, ...); otherwise
  the whole attribute or element goes. A ``<style>`` element whose text holds
  ``<`` goes too: it could end the element early in a browser.

Characters XML does not allow (C0 controls from ``&#1;``, U+FFFE) are
dropped from every text and attribute first: lxml refuses to write them back.
"""

import re

from lxml import etree

ALLOWED_TAGS = frozenset(
    """html head body title style div span p a b i u s em strong small big sub sup
    mark abbr cite q dfn code kbd samp var tt time data del ins strike font center br
    hr wbr h1 h2 h3 h4 h5 h6 ul ol li dl dt dd menu table thead tbody tfoot tr td th
    caption col colgroup blockquote pre address article section header footer nav
    aside main figure figcaption details summary hgroup search img label input
    button select option optgroup textarea fieldset legend output progress meter ruby
    rt rp bdi bdo nobr""".split()
)
# Elements that run code or embed a document, and those whose content a
# browser never shows (a template's, a frameset's fallback): with their content.
DROPPED_TAGS = frozenset(
    """script template iframe frame frameset object embed applet param base link meta
    portal noembed noframes""".split()
)
RENAMED_TAGS = {"form": "div", "xmp": "pre", "listing": "pre", "plaintext": "pre"}
# Attributes that hold no URL and no code.
ALLOWED_ATTRIBUTES = frozenset(
    """class id title lang dir style alt width height colspan rowspan headers scope
    align valign bgcolor color face size border cellpadding cellspacing nowrap start
    reversed value type open span label placeholder disabled checked selected readonly
    multiple rows cols maxlength datetime abbr hidden role""".split()
)
# CSS that could load or run something, in any spelling: an escape (``\\75rl(``)
# can spell anything, so a backslash alone is enough to drop the CSS; so is a
# character reference (``@&#105;mport``), which a browser would decode in a
# ``<style>`` of SVG's or MathML's (this module leaves none, but be sure).
_UNSAFE_CSS = re.compile(
    r"\\|&[#a-z]|url|image-set|image\(|cross-fade|element\(|src\(|attr\(|@import"
    r"|expression|binding|behavior|javascript|vbscript",
    re.IGNORECASE,
)
# A browser skips controls and spaces in a scheme ("java\tscript:").
_URL_SCHEME = re.compile(r"(?:java|vb)script:|data:", re.IGNORECASE)
_CONTROLS_AND_SPACES = re.compile("[\x00-\x20]+")
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def drop_characters_xml_forbids(page: etree._Element) -> None:
    """Drop from every text, tail and attribute value the characters lxml
    cannot write back (C0 controls, U+FFFE, U+FFFF)."""
    for node in page.iter():
        if node.text and _NOT_XML.search(node.text):
            node.text = _NOT_XML.sub("", node.text)
        if node.tail and _NOT_XML.search(node.tail):
            node.tail = _NOT_XML.sub("", node.tail)
        if not isinstance(node.tag, str):
            continue
        attributes = node.attrib.items()
        if any(_NOT_XML.search(name + value) for name, value in attributes):
            node.attrib.clear()
            for name, value in attributes:
                if name in ALLOWED_ATTRIBUTES:  # the others go anyway (make_inert)
                    node.set(name, _NOT_XML.sub("", value))


def make_inert(page: etree._Element) -> None:
    """Keep of ``page`` only what can neither run nor load (see the module's doc)."""
    dropped = []
    walker = etree.iterwalk(page, events=("start", "comment", "pi"))
    for event, node in walker:
        if event != "start" or not isinstance(node.tag, str):  # a comment, a PI
            dropped.append(node)
            continue
        if node.tag in DROPPED_TAGS:
            dropped.append(node)
            walker.skip_subtree()  # removed once, with it: removing walks the subtree
            continue
        if node.tag not in ALLOWED_TAGS:
            node.tag = RENAMED_TAGS.get(node.tag, "span")
        attributes = node.attrib.items()
        node.attrib.clear()  # not del: lxml cannot name some attributes it parsed ("{")
        for name, value in attributes:
            if name in ALLOWED_ATTRIBUTES and _safe_value(name, value):
                node.set(name, value)
        if node.tag == "style" and not _safe_style_text(node.text or ""):
            dropped.append(node)
    for node in dropped:
        _drop(node)


def _safe_value(name: str, value: str) -> bool:
    """No CSS that loads, and no value that names a script or ``data:`` URL:
    none of the kept attributes is read as a URL, and none needs one."""
    if name == "style":
        return not _UNSAFE_CSS.search(value)
    return not _URL_SCHEME.search(_CONTROLS_AND_SPACES.sub("", value))


def _safe_style_text(css: str) -> bool:
    """Nothing in it loads, and no ``<`` could end its element early."""
    return "<" not in css and not _UNSAFE_CSS.search(css)


def _drop(node: etree._Element) -> None:
    """Remove ``node`` and its content, keeping the text that follows it."""
    parent = node.getparent()
    if parent is None:
        return
    if node.tail:
        previous = node.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + node.tail
        else:
            parent.text = (parent.text or "") + node.tail
    parent.remove(node)
