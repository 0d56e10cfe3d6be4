"""What a page says about its blocks whatever their scores, for the page's
evidence (``evidence.py``): the hard rules' verdicts (``ruled_out``: a
block a browser does not show, the comment section, a © sign), the page's
furniture (``fallback``) and its navigation (``in_navigation``), read off
the tags, roles and attributes of the block tree's nodes.
"""

import re
from collections.abc import Sequence

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import BlockTree, Document

# The hard rules' verdicts (``rules/hard_rules.py`` writes each one's reason).
HIDDEN = "hidden"
COMMENTS = "comments"
COPYRIGHT = "copyright"


def ruled_out(document: Document, in_comments: Sequence[bool] | None) -> list[str | None]:
    """The hard rules' verdict on each block: ``HIDDEN``, ``COMMENTS`` (in
    the comment section, ``in_comments``: see
    ``comment_section.comment_section``; ``None``: none), ``COPYRIGHT`` or
    ``None``.

    A page that hides more than ``MOST_HIDDEN`` of its text is shown by its
    scripts once loaded (a wrapper hidden until then, against flicker): its
    hiding says nothing of what a reader sees."""
    blocks, tree = document.blocks, document.tree()
    hidden = _blocks_of(hidden_nodes(tree), blocks, tree, MOST_HIDDEN)
    in_comments = in_comments or [False] * len(blocks)
    return [
        HIDDEN
        if is_hidden
        else COMMENTS
        if is_comment
        else COPYRIGHT
        if has_copyright_sign(block.text)
        else None
        for block, is_hidden, is_comment in zip(blocks, hidden, in_comments)
    ]


# "Ã©" is "é" written in UTF-8 and read as Latin-1 or Windows-1252 (a page
# encoded twice): its "©" is half of a letter, not a copyright sign.
_COPYRIGHT_SIGN = re.compile("(?<!\xc3)\xa9")


def has_copyright_sign(text: str) -> bool:
    """Whether ``text`` holds a © sign (jusText's rule), not counting the
    half of an "é" encoded twice."""
    return "\xa9" in text and _COPYRIGHT_SIGN.search(text) is not None


# A page that hides this much of its text is one its scripts show once loaded
# (a wrapper hidden against flicker): its hiding is ignored (the figure: the
# hard rules' paragraph in docs/algorithms/content-model.rst).
MOST_HIDDEN = 1 / 3


def fallback(blocks: Sequence[Block], tree: BlockTree, good: Sequence[bool]) -> list[bool]:
    """What the fallback may keep: jusText's ``good`` blocks outside the
    page's furniture (an element whose tag or ARIA role says footer,
    navigation, sidebar or banner, or one inside it)."""
    furniture = marked_nodes(tree, FURNITURE_TAGS, FURNITURE_ROLES)
    return [is_good and not furniture[node] for is_good, node in zip(good, tree.block_nodes)]


def in_navigation(blocks: Sequence[Block], tree: BlockTree) -> list[bool]:
    """For every block: whether it is in the page's navigation or a footer
    (an element whose tag or ARIA role says so, or one inside it); no block
    is when they hold more than ``MOST_NAVIGATION`` of the page's text: then
    they hold the page itself (a site that wraps it in one, or markup the
    parser nests in one)."""
    marked = marked_nodes(tree, NAVIGATION_TAGS, NAVIGATION_ROLES)
    return _blocks_of(marked, blocks, tree, MOST_NAVIGATION)


# Navigation adds nothing for a region, so that a shop's menu of every
# department cannot win it from the product; but navigation holding most of
# the page's text holds the page itself (a site that wraps it in a <nav>),
# and then is not navigation. Any bound from 0.6 to 0.9 did as well (the
# figures: the content region's paragraph in
# docs/algorithms/content-model.rst).
MOST_NAVIGATION = 3 / 4


def _blocks_of(
    marked: list[bool], blocks: Sequence[Block], tree: BlockTree, most: float
) -> list[bool]:
    """For every block: whether its node is ``marked``; for none when the
    marked blocks hold more than ``most`` of the page's text."""
    in_marked = [marked[node] for node in tree.block_nodes]
    if any(in_marked):
        chars = sum(len(b.text) for b, is_in in zip(blocks, in_marked) if is_in)
        if chars > most * sum(len(b.text) for b in blocks):
            return [False] * len(blocks)
    return in_marked


def marked_nodes(tree: BlockTree, tags: frozenset[str], roles: frozenset[str]) -> list[bool]:
    """For every node of ``tree``: whether its element or an ancestor has
    one of ``tags`` or of ARIA ``roles`` (``BlockTree.roles``)."""
    marked: list[bool] = []
    for tag, role, parent in zip(tree.tags, tree.roles, tree.parents):
        marked.append((parent >= 0 and marked[parent]) or tag in tags or role in roles)
    return marked


_HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def hidden_nodes(tree: BlockTree) -> list[bool]:
    """For every node of ``tree``: whether its element or an ancestor is
    hidden from a reader by the ``hidden`` attribute, ``aria-hidden="true"``,
    an inline ``display: none`` or ``visibility: hidden`` style, or is a
    ``<dialog>`` that is not ``open`` (a browser shows none until a script
    opens it; ``<template>`` is never a block: see
    ``core.blocks.SKIPPED_TAGS``). ``marked_nodes`` inlined: it runs on
    every page, and most elements have no attribute or only a class."""
    hidden: list[bool] = []
    append = hidden.append
    search = _HIDING_STYLE.search
    for element, tag, parent in zip(tree.elements, tree.tags, tree.parents):
        if parent >= 0 and hidden[parent]:
            append(True)
            continue
        names = element.keys()
        if not names:
            append(tag == "dialog")
            continue
        append(
            "hidden" in names
            or ("aria-hidden" in names and element.get("aria-hidden") == "true")
            or ("style" in names and search(element.get("style")) is not None)
            or (tag == "dialog" and "open" not in names)
        )
    return hidden


NAVIGATION_TAGS = frozenset(("nav", "footer"))
NAVIGATION_ROLES = frozenset(("navigation", "contentinfo"))
FURNITURE_TAGS = NAVIGATION_TAGS | {"aside", "header"}
FURNITURE_ROLES = NAVIGATION_ROLES | {"complementary", "banner"}
