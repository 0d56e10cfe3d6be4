"""The page itself with its blocks outlined, kept ones green and removed ones red.

As Boilerpipe's HTMLHighlighter does, the page keeps its own layout: the
markup and its inline styles. Nothing in it can run or load: ``sanitise.py``
keeps only markup and CSS on its allow-lists, and a Content-Security-Policy
that allows no network load is added on top. The report shows the result in
a sandboxed ``<iframe srcdoc>``; neither the policy nor the sandbox is needed
to keep the page inert (``tests/test_report_payloads.py`` checks that in a
browser without them).

The page is cut into runs as the blocks were: a run is the text and inline
elements between two block-level tags (or ``<br>`` tags). Runs and blocks
are both in page order, so each run is matched to the next block whose text
holds the run's text. A block-level element that is one run is outlined
itself; any other run is wrapped in an outlined ``<span>``. Text in no block
(a button's, a form control's) is left as it is. The page is copied first:
the result's own tree is left as it was. Each element is visited a bounded
number of times: the time grows linearly with the page.
"""

import re
from collections.abc import Iterable, Iterator
from copy import deepcopy

from lxml import etree, html

from scrapy_declutter.core.blocks import BLOCK_TAGS, SKIPPED_TAGS, Block
from scrapy_declutter.extraction.sanitise import drop_characters_xml_forbids, make_inert

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
# Where a run ends: where blocks end (and at single ``<br>`` tags too: a block
# split over several runs gets them all).
_BOUNDARIES = BLOCK_TAGS | {"br"}
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
        for ancestor in _holders(block.element for block in blocks)
        if ancestor.tag in SKIPPED_TAGS
    }
    drop_characters_xml_forbids(page)
    body = page.find("body")
    outliner = _Outliner(
        blocks,
        titles,
        _holders(page.iter(*_BOUNDARIES)),
        _holders(page.iter(*BLOCK_TAGS)),
        walked,
    )
    outliner.outline(page if body is None else body)
    make_inert(page)
    _add_policy_and_style(page)
    return html.tostring(page, encoding="unicode", method="html", doctype="<!DOCTYPE html>")


def _holders(elements: Iterable[etree._Element]) -> set[etree._Element]:
    """The elements that hold one of ``elements``: each is walked up only to
    the first ancestor already found, whose own ancestors are found too."""
    found: set[etree._Element] = set()
    for element in elements:
        for ancestor in element.iterancestors():
            if ancestor in found:
                break
            found.add(ancestor)
    return found


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
            parts: list[str] = []
            self._text_of(element, parts)
            match = self._match(_SPACE.sub("", "".join(parts)))
            if match is not None:
                self._mark(element, match)
            return
        after: etree._Element | None = None  # the run starts after it (None: at the start)
        inline: list[etree._Element] = []
        for child in list(element):
            if child.tag not in _BOUNDARIES and child not in self.around:
                inline.append(child)
                continue
            self._wrap_run(element, after, inline, child)
            after, inline = child, []
            yield child
            self.block_ended |= child.tag in BLOCK_TAGS or child in self.holding
        self._wrap_run(element, after, inline, None)

    def _wrap_run(
        self,
        parent: etree._Element,
        after: etree._Element | None,
        inline: list[etree._Element],
        before: etree._Element | None,
    ) -> None:
        """Wrap the run of ``parent`` between ``after`` and ``before`` (its text,
        then ``inline``) in an outlined ``<span>``, if a block holds it. Only
        the run's own nodes move: the time is the run's."""
        text = parent.text if after is None else after.tail
        match = self._match(self._words(inline, text))
        if match is None:
            return
        span = parent.makeelement("span", {})
        if after is None:
            parent.text = None
        else:
            after.tail = None
        span.text = text
        if before is None:
            parent.append(span)
        else:
            before.addprevious(span)
        span.extend(inline)  # moved, their tails with them
        self._mark(span, match)

    def _words(self, inline: list[etree._Element], text: str | None = None) -> str:
        """The words of a run: ``text``, then each of ``inline`` with its tail;
        white space removed, as in the blocks' keys."""
        parts = [text or ""]
        for element in inline:
            self._text_of(element, parts)
            parts.append(element.tail or "")
        return _SPACE.sub("", "".join(parts))

    def _text_of(self, element: etree._Element, parts: list[str]) -> None:
        """Append the text ``element`` shows (not its tail), without skipped elements'."""
        walker = etree.iterwalk(element, events=("start", "end", "comment", "pi"))
        for event, node in walker:
            if event == "start":
                if node.tag in SKIPPED_TAGS and node not in self.walked:
                    walker.skip_subtree()
                else:
                    parts.append(node.text or "")
            elif node is not element:  # the end of an element, a comment, a PI: its tail
                parts.append(node.tail or "")

    def _match(self, words: str) -> int | None:
        """The block that holds ``words`` (white space removed) next; None if none does.

        After a block-level tag a new block starts: the first block after the
        current one that starts with the words (else holds them) is it.
        Otherwise the run goes on the current block: it is searched after the
        text earlier runs matched in it, then the blocks after it. So
        repeated texts ("Reply", "Share") go to blocks in turn, and a block
        split over several runs gets them all.
        """
        probe = words[:40]
        if not probe:
            return None
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
            return None
        if found < 0:
            found = keys[match].find(probe)
        self.block_ended, self.matched = False, True
        self.next, self.offset = match, found + len(probe)
        return match

    def _mark(self, element: etree._Element, block: int) -> None:
        state = "declutter-kept" if self.blocks[block].is_good else "declutter-removed"
        element.set("class", f"{element.get('class', '')} {state}".strip())
        element.set("title", self.titles[block])


def _add_policy_and_style(page: etree._Element) -> None:
    """Add the charset, the policy and the outlines' style to the page's head."""
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
