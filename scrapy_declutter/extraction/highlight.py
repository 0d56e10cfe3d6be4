"""The page itself with its blocks outlined, kept ones green and removed ones red.

As Boilerpipe's HTMLHighlighter does, the page keeps its own layout: the
markup and its inline styles. Nothing in it can run or load: scripts, frames,
plug-ins, links to other documents and ``<base>`` are removed, and so are
event handlers, ``javascript:`` and every URL an element or a style would
fetch; a Content-Security-Policy that allows no network load is added on top.
The report shows the result in a sandboxed ``<iframe srcdoc>``.

The page is cut into runs as the blocks were: a run is the text and inline
elements between two block-level tags (or ``<br>`` tags). Runs and blocks
are both in page order, so each run is matched to the next block whose text
holds the run's text. A block-level element that is one run is outlined
itself; any other run is wrapped in an outlined ``<span>``. Text in no block
(a button's, a form control's) is left as it is. The page is copied first:
the result's own tree is left as it was.
"""

import re
from collections.abc import Iterator
from copy import deepcopy

from lxml import etree, html

from scrapy_declutter.core.blocks import BLOCK_TAGS, SKIPPED_TAGS, Block

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
# Where a run ends: where blocks end (and at single ``<br>`` tags too: a block
# split over several runs gets them all).
_BOUNDARIES = BLOCK_TAGS | {"br"}
_SKIPPED_ELEMENTS = [tag for tag in SKIPPED_TAGS if isinstance(tag, str)]
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
    # a skipped element (a <button>) the walk read because it swallowed the page
    walked = {
        copies[ancestor]
        for block in blocks
        for ancestor in block.element.iterancestors(*_SKIPPED_ELEMENTS)
    }
    body = page.find("body")
    outliner = _Outliner(
        blocks, titles, _ancestors(page, *_BOUNDARIES), _ancestors(page, *BLOCK_TAGS), walked
    )
    outliner.outline(page if body is None else body)
    _make_inert(page)
    return html.tostring(page, encoding="unicode", method="html", doctype="<!DOCTYPE html>")


def _ancestors(page: etree._Element, *tags: str) -> set[etree._Element]:
    """The elements that hold an element with one of ``tags``."""
    return {ancestor for element in page.iter(*tags) for ancestor in element.iterancestors()}


class _Outliner:
    """Matches the page's runs to the blocks in order and outlines them."""

    # How many blocks a run may skip to find the block it starts, and the one
    # it is part of: text in no block is left alone rather than matched far
    # ahead, which would leave every block in between without its outline.
    LOOKAHEAD = 50
    NEAR = 3

    def __init__(
        self,
        blocks: list[Block],
        titles: list[str],
        around: set[etree._Element],
        holding: set[etree._Element],
        walked: set[etree._Element],
    ):
        """``around``: the elements a run never crosses (they hold a boundary);
        ``holding``: those that hold a block-level element (a block ends
        there); ``walked``: skipped elements the walk read anyway."""
        self.blocks, self.titles = blocks, titles
        self.keys = [_SPACE.sub("", block.text) for block in blocks]  # runs join text unlike blocks
        self.around, self.holding, self.walked = around, holding, walked
        self.next = self.offset = 0  # the block to match next, and where in its text
        self.matched = False  # has a run been matched yet
        self.block_ended = False  # has a block-level tag been passed since the last match

    def outline(self, root: etree._Element) -> None:
        """Outline the runs of ``root``'s content and of every block inside it, in
        page order (a stack, not recursion: pages nest deeper than Python's limit)."""
        stack = [self._runs(root)]
        while stack:
            inner = next(stack[-1], None)
            if inner is None:
                stack.pop()
            else:
                stack.append(self._runs(inner))

    def _runs(self, element: etree._Element) -> Iterator[etree._Element]:
        """Outline ``element``'s runs; yield each element with blocks inside it,
        where its turn comes, for the caller to outline before the next run."""
        if element.tag in SKIPPED_TAGS and element not in self.walked:
            return
        self.block_ended |= element.tag in BLOCK_TAGS
        if element.tag in BLOCK_TAGS and element not in self.around:
            self._outline_run(element, self._words(element))
            return
        children = list(element)
        run_text, run = element.text, []
        element.text = None
        for child in children:
            element.remove(child)  # its tail goes with it
        for child in [*children, None]:
            if child is not None and child.tag not in _BOUNDARIES and child not in self.around:
                run.append(child)
                continue
            self._append_run(element, run_text, run)
            if child is None:
                break
            run_text, run = child.tail, []
            child.tail = None
            element.append(child)
            yield child
            self.block_ended |= child.tag in BLOCK_TAGS or child in self.holding

    def _append_run(
        self, parent: etree._Element, text: str | None, inline: list[etree._Element]
    ) -> None:
        span = parent.makeelement("span", {})
        span.text = text
        span.extend(inline)
        if self._outline_run(span, self._words(span)):
            parent.append(span)
            return
        if len(parent):  # not a block's text: put it back as it was
            parent[-1].tail = (parent[-1].tail or "") + (text or "")
        else:
            parent.text = (parent.text or "") + (text or "")
        parent.extend(inline)

    def _words(self, element: etree._Element) -> str:
        """The text a run shows, white space collapsed, without skipped elements' text."""
        parts = []
        walker = etree.iterwalk(element, events=("start", "end", "comment", "pi"))
        for event, node in walker:
            if event == "start":
                if node is not element and node.tag in SKIPPED_TAGS and node not in self.walked:
                    walker.skip_subtree()
                else:
                    parts.append(node.text or "")
            elif node is not element:  # the end of an element, a comment, a PI: its tail
                parts.append(node.tail or "")
        return _SPACE.sub(" ", "".join(parts)).strip()

    def _outline_run(self, element: etree._Element, words: str) -> bool:
        """Outline ``element`` as the block holding ``words`` next; False if none does.

        After a block-level tag a new block starts: the first block after the
        current one that starts with the words (else holds them) is it.
        Otherwise the run goes on the current block: it is searched after the
        text earlier runs matched in it, then the blocks after it. So
        repeated texts ("Reply", "Share") go to blocks in turn, and a block
        split over several runs gets them all.
        """
        probe = _SPACE.sub("", words)[:40]
        if not probe:
            return False
        keys = self.keys
        first = self.next + 1 if self.matched else 0
        match, found = None, -1
        if self.matched and not self.block_ended:
            found = keys[self.next].find(probe, self.offset)
            match = self.next if found >= 0 else None
        if match is None and self.block_ended:
            ahead = range(first, min(first + self.LOOKAHEAD, len(keys)))
            match = next((i for i in ahead if keys[i].startswith(probe)), None)
        if match is None:
            near = range(first, min(first + self.NEAR, len(keys)))
            match = next((i for i in near if probe in keys[i]), None)
        if match is None:
            return False
        if found < 0:
            found = keys[match].find(probe)
        self.block_ended, self.matched = False, True
        self.next, self.offset = match, found + len(probe)
        state = "declutter-kept" if self.blocks[match].is_good else "declutter-removed"
        element.set("class", f"{element.get('class', '')} {state}".strip())
        element.set("title", self.titles[match])
        return True


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
