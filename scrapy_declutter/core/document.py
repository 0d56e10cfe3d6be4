"""A page as the stages see it: its blocks, plus what the page says of itself."""

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from lxml import etree

from scrapy_declutter.core.blocks import Block, segment
from scrapy_declutter.core.deadline import Deadline
from scrapy_declutter.core.languages import AUTO, resolve_language, stoplist
from scrapy_declutter.core.parse import parse
from scrapy_declutter.core.scripts import (
    cjk_language,
    count_words,
    han_and_kana,
    has_unspaced,
    tokens,
)


@dataclass(frozen=True, eq=False)
class BlockTree:
    """The blocks' elements and their ancestors, as numbered nodes.

    A parent is numbered before its children (nodes are numbered as a walk
    over the blocks in document order first meets them, ancestors first).
    ``parents[node]`` is the node's parent, -1 for the root; ``block_nodes[i]``
    is the node of block i's element; ``elements[node]`` is the lxml element.
    The numbers alone describe the tree, so stages can work on lists of
    numbers instead of walking elements.
    """

    parents: list[int]
    block_nodes: list[int]
    elements: list = field(default_factory=list, repr=False)
    _lines: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    @classmethod
    def of_blocks(cls, blocks: Sequence[Block]) -> "BlockTree":
        node_of: dict = {}
        parents: list[int] = []
        elements: list = []
        block_nodes = []
        get_node = node_of.get
        for block in blocks:
            element = block.element
            node = get_node(element)
            if node is None:
                pending = [element]
                while (element := element.getparent()) is not None:
                    node = get_node(element)
                    if node is not None:
                        break
                    pending.append(element)
                else:
                    node = -1
                for element in reversed(pending):  # from the top down
                    parents.append(node)
                    node = node_of[element] = len(elements)
                    elements.append(element)
            block_nodes.append(node)
        return cls(parents, block_nodes, elements)

    def subtree_sums(self, values: Iterable[float]) -> list[float]:
        """For every node, the sum of the values of the blocks under it (one
        value per block, in block order)."""
        sums = [0.0] * len(self.parents)
        for node, value in zip(self.block_nodes, values):
            sums[node] += value
        parents = self.parents
        for node in range(len(sums) - 1, -1, -1):  # children before parents
            if parents[node] >= 0:
                sums[parents[node]] += sums[node]
        return sums

    def path_sums(self, values: Iterable[float]) -> list[float]:
        """For every node, the sum of its value and its ancestors' (one value
        per node)."""
        sums = list(values)
        for node, parent in enumerate(self.parents):  # parents before children
            if parent >= 0:
                sums[node] += sums[parent]
        return sums

    def lines_above_blocks(self, length: int) -> dict[int, list[int]]:
        """For the parent of each block's node (-1 for a block at the root):
        that parent and its nearest ancestors, ``length`` nodes from the
        parent up, -1 above the root. Siblings share their line, and the
        stages that read the lines share them too (kept by ``length``)."""
        lines = self._lines.get(length)
        if lines is None:
            parents = self.parents
            lines = self._lines[length] = {}
            for parent in map(parents.__getitem__, self.block_nodes):
                if parent not in lines:
                    line = [parent]
                    while len(line) < length:
                        line.append(parents[line[-1]] if line[-1] >= 0 else -1)
                    lines[parent] = line
        return lines

    @cached_property
    def tags(self) -> list[str]:
        """For every node, its element's tag, read once for the stages that
        look at them (the content features, the data tables): lxml makes a
        new string at each read."""
        return [element.tag for element in self.elements]

    @cached_property
    def class_and_id(self) -> list[tuple[str | None, str | None]]:
        """For every node, its element's ``class`` and ``id`` (``None`` when
        missing), read once for the stages that look at them (the content
        features, the comment sections): lxml makes a new string at each read."""
        return [(element.get("class"), element.get("id")) for element in self.elements]

    @cached_property
    def roles(self) -> list[str | None]:
        """For every node, its element's ARIA ``role``: the first of a list,
        lower-cased (``None`` when missing or empty), read once for the
        content features and the content region."""
        roles: list[str | None] = []
        for element in self.elements:
            role = element.get("role")
            roles.append(role.split(None, 1)[0].lower() if role and not role.isspace() else None)
        return roles

    @cached_property
    def item_types(self) -> list[str | None]:
        """For every node, its element's microdata ``itemtype`` (``None`` when
        missing), read once for the article gate and the comment sections."""
        return [element.get("itemtype") for element in self.elements]

    @cached_property
    def subtree_ends(self) -> list[int]:
        """For every node, the first node after its subtree: a subtree's
        nodes are numbered from its root on, with no other node among them."""
        parents = self.parents
        ends = list(range(1, len(parents) + 1))
        for node in range(len(parents) - 1, -1, -1):  # children before parents
            parent = parents[node]
            if parent >= 0 and ends[node] > ends[parent]:
                ends[parent] = ends[node]
        return ends

    def children(self, node: int) -> Iterator[int]:
        """The node's children, in order (each child's subtree is skipped)."""
        ends = self.subtree_ends
        child = node + 1
        while child < ends[node]:
            yield child
            child = ends[child]


# The elements the stages and the metadata look for anywhere in the page, by
# tag: the gate's (``<article>``, headings, JSON-LD), the comment sections'
# (JSON-LD, the anchors that name them) and the metadata's (``<meta>``,
# ``<link>``, ``<time>``, ``<h1>``). One walk finds them all for little more
# than the cost of one (an eighth of a parse).
FOUND_TAGS = (
    *("article", "script", "meta", "link", "time", "a"),
    *("h1", "h2", "h3", "h4", "h5", "h6"),
)


@dataclass(eq=False)
class Document:
    """The blocks of one page in document order, and page-level facts.

    ``root`` is the parsed tree the blocks' elements belong to (``None`` for a
    page with nothing in it); ``language`` is the stoplist used, ``None`` in
    language-independent mode; ``all_buttons`` says that ``segment`` walked
    every button (the page has no text outside them); ``shared`` holds what
    the stages compute once for the page and share (keyed by its type; the
    core reads none of it).
    """

    blocks: list[Block] = field(default_factory=list)
    root: etree._Element | None = None
    title: str | None = None
    language: str | None = None
    all_buttons: bool = False
    shared: dict[type, object] = field(default_factory=dict, repr=False)
    _tree: BlockTree | None = field(default=None, repr=False)
    _found: dict[str, list[etree._Element]] | None = field(default=None, repr=False)

    def tree(self) -> BlockTree:
        """The blocks' elements and ancestors (see ``BlockTree``), built once
        per document: several stages read it."""
        if self._tree is None:
            self._tree = BlockTree.of_blocks(self.blocks)
        return self._tree

    @property
    def built_tree(self) -> BlockTree | None:
        """The blocks' tree if a stage has built it, else ``None``: a reader
        that needs it later takes it from here instead of building it again."""
        return self._tree

    def found_elements(self) -> dict[str, list[etree._Element]]:
        """The page's elements of each of ``FOUND_TAGS``, in document order,
        found in one walk the first time a stage asks."""
        if self._found is None:
            self._found = find_elements(self.root)
        return self._found

    @property
    def found(self) -> dict[str, list[etree._Element]] | None:
        """``found_elements()`` if a stage has asked for them, else ``None``
        (as ``built_tree``)."""
        return self._found


def find_elements(root: etree._Element | None) -> dict[str, list[etree._Element]]:
    """``root``'s elements of each of ``FOUND_TAGS``, in document order."""
    found: dict[str, list[etree._Element]] = {tag: [] for tag in FOUND_TAGS}
    for element in root.iter(*FOUND_TAGS) if root is not None else ():
        found[element.tag].append(element)
    return found


_LD_TYPE = re.compile(r'"@type"\s*:\s*\[?\s*"([^"]+)"')


def ld_types(scripts: Iterable[etree._Element]) -> list[str]:
    """The schema.org types the JSON-LD of a page's ``<script>`` elements
    names (every ``"@type"``, nested ones too; of a list of types, the first)."""
    return [
        ld_type
        for script in scripts
        if (script.get("type") or "").lower() == "application/ld+json" and script.text
        for ld_type in _LD_TYPE.findall(script.text)
    ]


def build_document(
    html: str | bytes,
    *,
    language: str | None,
    encoding: str | None = None,
    content_language: str | None = None,
    memory_limit_mb: int = 0,
    deadline: Deadline | None = None,
) -> Document:
    """Parse, segment and count stopwords: everything before the first stage.
    ``memory_limit_mb`` is the ``page_memory_limit_mb`` option (see ``parse``);
    ``deadline`` is checked after the parse and in the block walk."""
    root = parse(html, encoding, memory_limit_mb)
    if root is None:
        return Document()
    if deadline is not None:
        deadline.check("the parse")
    blocks = segment(root, deadline=deadline)
    all_buttons = not blocks
    if all_buttons:
        blocks = segment(root, all_buttons=True, deadline=deadline)
    # Lower-cased in one call: a block's text holds no line break (``segment``
    # collapses white space), and the one context lower-casing reads (Greek
    # final sigma) ends at a line break as at the end of a string.
    lowered_page = "\n".join([block.text for block in blocks]).lower()
    lowered = lowered_page.split("\n")
    # a page in Chinese, Japanese, Thai, ...: its Han and kana characters, block by block
    han = han_and_kana(lowered) if has_unspaced(lowered_page) else None
    if language == AUTO:
        language = resolve_language(
            (root.get("lang"), content_language),
            lambda: Counter(tokens(lowered_page) if han else lowered_page.split()),
            lambda: cjk_language(lowered_page, sum(filter(None, han))) if han else None,
        )
    stopwords = stoplist(language) if language else frozenset()
    if han:
        counts = count_words(lowered, han, stopwords)
        for block, block_han, (words_in_block, stopwords_in_block) in zip(blocks, han, counts):
            block.words, block.stopwords = words_in_block, stopwords_in_block
            block.han_and_kana = block_han or 0
    else:
        is_stopword = stopwords.__contains__
        for block, text in zip(blocks, lowered):  # one block's words at a time, not a page's
            words = text.split()
            block.words = len(words)
            block.stopwords = sum(map(is_stopword, words))
    title = root.findtext("head/title")
    title = " ".join(title.split()) if title else None
    return Document(
        blocks=blocks, root=root, title=title, language=language, all_buttons=all_buttons
    )
