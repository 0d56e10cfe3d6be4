"""The tree filter of Viveros-Jiménez et al. (2018), run after any base pipeline.

Its observation: the main content of an article sits in one subtree of the
page, while the other blocks a base extractor keeps (related links, teasers,
ads) sit in other subtrees. So:

1. Each block the base kept gets its *paragraph*: the nearest element, the
   block's own element or an ancestor of it, whose tag is one of
   ``PARAGRAPH_TAGS``. Nested paragraphs resolve to the innermost.
2. Paragraphs are grouped by their ``depth``-th ancestor (1 = parent,
   2 = grandparent, the paper's best).
3. The group with the most characters of kept text stays; every other kept
   block becomes ``bad``. On a tie the group that starts first wins.

Blocks the base did not keep are left as they are: the filter only removes.
"""

from dataclasses import dataclass

from lxml import etree

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.reasons import Reason

TREE_FILTER = Reason(
    "tree filter",
    "kept by the base pipeline, but not under the ancestor (depth {tree_depth}) whose "
    "blocks hold the most text.",
)

PARAGRAPH_TAGS = frozenset(
    "div table ul ol p section article h1 h2 h3 h4 h5 h6 header body".split()
)


def paragraph(element: etree._Element) -> etree._Element:
    """The nearest element from ``element`` up that is a paragraph (the root if none is)."""
    while element.tag not in PARAGRAPH_TAGS:
        parent = element.getparent()
        if parent is None:
            break
        element = parent
    return element


def ancestor(element: etree._Element, depth: int) -> etree._Element:
    """The ``depth``-th ancestor of ``element``, or the root if the tree is shallower."""
    for _ in range(depth):
        parent = element.getparent()
        if parent is None:
            break
        element = parent
    return element


@dataclass(frozen=True)
class TreeFilter:
    """Keeps the kept blocks of one subtree: those whose paragraphs share the
    ``depth``-th ancestor and hold the most text."""

    depth: int = Options.tree_depth

    def __call__(self, document: Document) -> None:
        groups: dict[etree._Element, list[Block]] = {}
        for block in document.blocks:
            if block.label is GOOD:
                key = ancestor(paragraph(block.element), self.depth)
                groups.setdefault(key, []).append(block)
        if len(groups) < 2:
            return
        # dicts keep insertion order, so max() picks the earliest group on a tie
        largest = max(groups.values(), key=lambda blocks: sum(len(b.text) for b in blocks))
        reason = TREE_FILTER.quoting(tree_depth=self.depth)
        for blocks in groups.values():
            if blocks is not largest:
                for block in blocks:
                    block.label, block.reason = BAD, reason
