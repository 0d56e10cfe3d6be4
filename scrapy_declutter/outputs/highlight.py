"""The page itself with its blocks outlined, kept ones green and removed ones red.

As Boilerpipe's HTMLHighlighter does, the page keeps its own layout: the
markup and its inline styles. Nothing in it can run or load: ``sanitise.py``
keeps only markup and CSS on its allow-lists, and a Content-Security-Policy
that allows no network load is added on top. The report shows the result in
a sandboxed ``<iframe srcdoc>``; neither the policy nor the sandbox is needed
to keep the page inert (``tests/test_report_payloads.py`` checks that in a
browser without them).

A run is the text and inline elements between two block-level tags (or
``<br>`` tags): a block's text, or part of it. Which block each text node is
in is known by identity, not by its text: the page is walked with
``segment``'s own boundaries (block-level tags, a second ``<br>`` in a row,
skipped subtrees), which cut it into the same stretches, in the same order,
as the blocks: the n-th stretch with text is the n-th block (its element is
checked to be the block's). A run is outlined as the block of its first text
node; a block-level element that is one run is outlined itself, any other run
is wrapped in an outlined ``<span>``. Text in no block (a button's, a form
control's) is left as it is. The page is copied first: the result's own tree
is left as it was. Each element is visited a bounded number of times: the
time grows linearly with the page.
"""

from collections.abc import Iterable, Iterator
from copy import deepcopy

from lxml import etree, html

# segment's own tables, so that the walk cuts the page where segment does
from scrapy_declutter.core.blocks import (
    _BLOCK,
    _BR,
    _INLINE,
    _KINDS,
    _LINK,
    BLOCK_TAGS,
    SKIPPED_TAGS,
    Block,
    _swallows_page,
)
from scrapy_declutter.outputs.sanitise import drop_characters_xml_forbids, make_inert

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
# A text node: its element, and whether it is the element's tail.
_TextNode = tuple[etree._Element, bool]


def highlighted_page(blocks: list[Block], titles: list[str], all_buttons: bool = False) -> str:
    """The page of ``blocks`` as HTML, each block outlined by its label, with
    ``titles[i]`` shown on hover over block i; ``all_buttons`` as ``segment``
    was called for ``blocks``. Empty without blocks."""
    if not blocks:
        return ""
    root = blocks[0].element.getroottree().getroot()
    page = deepcopy(root)
    copies = dict(zip(root.iter(), page.iter()))
    owners, walked = _owners(root, blocks, all_buttons)
    del root
    drop_characters_xml_forbids(page)
    body = page.find("body")
    outliner = _Outliner(
        blocks,
        titles,
        {(copies[element], tail): block for (element, tail), block in owners.items()},
        _holders(page.iter(*_BOUNDARIES)),
        {copies[element] for element in walked},
    )
    del copies, owners
    outliner.outline(page if body is None else body)
    make_inert(page)
    _add_policy_and_style(page)
    return html.tostring(page, encoding="unicode", method="html", doctype="<!DOCTYPE html>")


def _owners(
    root: etree._Element, blocks: list[Block], all_buttons: bool
) -> tuple[dict[_TextNode, int], list[etree._Element]]:
    """The block each text node of ``root`` is in, by its index, as
    ``segment`` cut them (a stretch whose element is not its block's is in
    none); and the skipped elements (``<button>``) segment walked."""
    owners: dict[_TextNode, int] = {}
    walked: list[etree._Element] = []
    pending: list[_TextNode] = []  # the text nodes of the current stretch
    index = 0
    start = root
    open_kinds: list[int] = []
    after_br = False

    def close(next_start: etree._Element) -> None:
        nonlocal index, start
        if pending:
            if index < len(blocks) and blocks[index].element is start:
                owners.update(dict.fromkeys(pending, index))
            index += 1
            pending.clear()
        start = next_start

    walker = etree.iterwalk(root, events=("start", "end"))
    for event, el in walker:
        if event == "start":
            kind = _KINDS.get(el.tag, _INLINE)
            open_kinds.append(kind)
            if kind == _INLINE or kind == _LINK:
                after_br = False
            elif kind >= _BLOCK or (kind == _BR and after_br):
                close(el if kind != _BR else el.getparent())
            elif kind == _BR:
                after_br = True
            elif el.tag == "button" and (all_buttons or _swallows_page(el)):
                walked.append(el)
            else:
                walker.skip_subtree()  # its tail is read at its "end" event
                continue
            node = (el, False)
            text = el.text
        else:
            if open_kinds.pop() >= _BLOCK:
                close(el.getparent() if el is not root else el)
            node = (el, True)
            text = el.tail
        if text and not text.isspace():
            pending.append(node)
            after_br = False
    close(root)
    return owners, walked


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
    """Outlines the page's runs, each as the block its text nodes are in."""

    def __init__(
        self,
        blocks: list[Block],
        titles: list[str],
        owners: dict[_TextNode, int],
        around: set[etree._Element],
        walked: set[etree._Element],
    ):
        """``owners``: the block each text node is in (``_owners``);
        ``around``: the elements a run never crosses (they hold a boundary);
        ``walked``: skipped elements the walk read anyway."""
        self.blocks, self.titles = blocks, titles
        self.owners, self.around, self.walked = owners, around, walked

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
        if element.tag in BLOCK_TAGS and element not in self.around:
            match = self._owner_within([element], tails=False)
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
        match = self.owners.get((parent, False) if after is None else (after, True))
        if match is None:
            match = self._owner_within(inline, tails=True)
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

    def _owner_within(self, elements: list[etree._Element], tails: bool) -> int | None:
        """The block of the first text node in ``elements`` that is in one:
        their text and their descendants', and their own tails if ``tails``."""
        owners = self.owners
        for element in elements:
            for node in element.iter():
                found = owners.get((node, False))
                if found is None and node is not element:
                    found = owners.get((node, True))
                if found is not None:
                    return found
            if tails and (found := owners.get((element, True))) is not None:
                return found
        return None

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
