"""The page itself with its blocks outlined, kept ones green and removed ones red.

As Boilerpipe's HTMLHighlighter does, the page keeps its own layout: the
markup and its inline styles. Nothing in it can run or load: scripts, frames,
plug-ins, links to other documents and ``<base>`` are removed, and so are
event handlers, ``javascript:`` and every URL an element or a style would
fetch; a Content-Security-Policy that allows no network load is added on top.
The report shows the result in a sandboxed ``<iframe srcdoc>``.

A block starts in an element (``Block.element``). When that element holds
one block and no other block's element, the element itself is outlined.
Otherwise (a container with text around nested blocks, or text split by
``<br><br>``) each run of its own text and inline children between nested
blocks is wrapped in a ``<span>``, outlined as the block whose text it is.
The page is copied first: the result's own tree is left as it was.
"""

import re
from copy import deepcopy

from lxml import etree, html

from scrapy_declutter.core.blocks import BLOCK_TAGS, Block

# The outlines, and links that still look like links without their target.
STYLE = """
.declutter-kept { outline: 3px solid #2a8c3c !important; outline-offset: -1px;
  background-color: rgba(42, 140, 60, .10) !important; }
.declutter-removed { outline: 2px dashed #c0392b !important; outline-offset: -1px;
  background-color: rgba(192, 57, 43, .07) !important; }
span.declutter-kept, span.declutter-removed { box-decoration-break: clone; }
a:not([href]) { color: #1a4fa0; text-decoration: underline; }
"""
# No script, no network: styles inline, images only as data: URLs.
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:"
)
# Elements that run code, embed other documents, or only point at resources.
REMOVED_TAGS = frozenset(
    """script iframe frame frameset object embed applet base link meta
    template portal""".split()
)
# Attributes that make the browser fetch or navigate.
URL_ATTRIBUTES = frozenset(
    """src srcset href action formaction poster data background ping lowsrc
    longdesc manifest codebase cite xlink:href""".split()
)
_CSS_URL = re.compile(r"url\([^)]*\)|@import[^;]*;?", re.IGNORECASE)
_SPACE = re.compile(r"\s+")


def highlighted_page(blocks: list[Block], titles: list[str]) -> str:
    """The page of ``blocks`` as HTML, each block outlined by its label, with
    ``titles[i]`` shown on hover over block i. Empty without blocks."""
    if not blocks:
        return ""
    root = blocks[0].element.getroottree().getroot()
    page = deepcopy(root)
    copies = dict(zip(root.iter(), page.iter()))
    by_element: dict[etree._Element, list[tuple[Block, str]]] = {}
    for block, title in zip(blocks, titles):
        by_element.setdefault(copies[block.element], []).append((block, title))
    containers = {ancestor for element in by_element for ancestor in element.iterancestors()}
    for element, owned in by_element.items():
        if len(owned) == 1 and element not in containers:
            _mark(element, *owned[0])
        else:
            _wrap_runs(element, owned, containers)
    _make_inert(page)
    return html.tostring(page, encoding="unicode", method="html", doctype="<!DOCTYPE html>")


def _mark(element: etree._Element, block: Block, title: str) -> None:
    state = "declutter-kept" if block.is_good else "declutter-removed"
    element.set("class", f"{element.get('class', '')} {state}".strip())
    element.set("title", title)


def _wrap_runs(
    container: etree._Element,
    owned: list[tuple[Block, str]],
    containers: set[etree._Element],
) -> None:
    """Wrap each run of the container's own text and inline children in a
    span outlined as the block whose text the run is (matched in order)."""
    children = list(container)
    run_text, run = container.text, []
    container.text = None
    for child in children:
        container.remove(child)  # its tail goes with it
    current = 0
    for child in [*children, None]:
        if child is not None and child.tag not in BLOCK_TAGS and child not in containers:
            run.append(child)
            continue
        current = _append_run(container, run_text, run, owned, current)
        if child is not None:
            run_text, run = child.tail, []
            child.tail = None
            container.append(child)


def _append_run(
    container: etree._Element,
    text: str | None,
    inline: list[etree._Element],
    owned: list[tuple[Block, str]],
    current: int,
) -> int:
    """Append one run to the container, wrapped if it has text; the index of
    the block it was matched to (the next run's search starts there)."""
    span = container.makeelement("span", {})
    span.text = text
    for element in inline:
        span.append(element)
    words = _SPACE.sub(" ", "".join(span.itertext())).strip()
    if not words:  # white space and images: not a block's text, left as it was
        if len(container):
            last = container[-1]
            last.tail = (last.tail or "") + (text or "")
        else:
            container.text = (container.text or "") + (text or "")
        container.extend(inline)
        return current
    probe = words[:40]
    match = next(
        (i for i in range(current, len(owned)) if probe in owned[i][0].text),
        current,
    )
    _mark(span, *owned[min(match, len(owned) - 1)])
    container.append(span)
    return match


def _drop(element: etree._Element) -> None:
    """Remove ``element`` and its subtree, keeping the text that follows it."""
    parent = element.getparent()
    if parent is None:
        return
    if element.tail:
        previous = element.getprevious()
        if previous is not None:
            previous.tail = (previous.tail or "") + element.tail
        else:
            parent.text = (parent.text or "") + element.tail
    parent.remove(element)


def _make_inert(page: etree._Element) -> None:
    """Remove what could run or fetch, then add the policy and the outlines' style."""
    for element in list(page.iter()):
        if not isinstance(element.tag, str):
            continue
        if element.tag in REMOVED_TAGS:
            _drop(element)
            continue
        for name in list(element.attrib):
            if name in URL_ATTRIBUTES or name.startswith("on"):
                del element.attrib[name]
            elif name == "style":
                element.set("style", _CSS_URL.sub("none", element.get("style", "")))
        if element.tag == "style":
            element.text = _CSS_URL.sub("", element.text or "")
    head = page.find("head")
    if head is None:
        head = page.makeelement("head", {})
        page.insert(0, head)
    policy = head.makeelement(
        "meta", {"http-equiv": "Content-Security-Policy", "content": CONTENT_SECURITY_POLICY}
    )
    charset = head.makeelement("meta", {"charset": "utf-8"})
    style = head.makeelement("style", {})
    style.text = STYLE
    head.insert(0, charset)
    head.insert(1, policy)
    head.append(style)
