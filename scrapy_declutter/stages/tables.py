"""Data tables: what tells a table of data from a table that lays out a page.

A data table holds text in a grid: two or more rows, a row of two or more
cells with words, nothing in its cells but text, and below its first row a
cell with words outside links (a value, not only links to elsewhere). A nested table, a
list, a quote or a code block in a cell, a heading beside other text in it, or
a form control are the marks of a table that lays out a page, a menu or a form
(a heading alone in its cell is a header cell's text). The content decision
keeps a data table whole when it keeps its head (``rules/data_tables.py``); the
Markdown writes tables as pipe tables by the same layout marks
(``outputs/markdown.py``). Evidence the stages share: the page's evidence reads
it (``evidence.py``).
"""

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace

from lxml import etree

from scrapy_declutter.core.blocks import HEADING_TAGS, Block
from scrapy_declutter.core.document import BlockTree

# Starting one of these inside a table cell makes the table a layout table (a
# heading only when its cell holds more than the heading).
LAYOUT_MARKS = frozenset("table ul ol dl pre blockquote".split()) | HEADING_TAGS
_FORM_CONTROLS = frozenset("form input select textarea button".split())
_NOT_DATA = LAYOUT_MARKS | _FORM_CONTROLS
_SECTIONS = frozenset(("thead", "tbody", "tfoot"))
_CELLS = frozenset(("td", "th"))
_WORD_CHARACTER = re.compile(r"[^\W_]")
_LETTER = re.compile(r"[^\W\d_]")


def is_data_table(table: etree._Element) -> bool:
    """Whether ``table`` is a data table (see the module docstring). Its rows
    are its own ``<tr>``, or those of its ``<thead>``, ``<tbody>`` and
    ``<tfoot>``; each cell is read once, up to the first mark."""
    rows = list(_rows(table))
    if len(rows) < 2:  # not a grid: reading the 150,000 cells of one row cost a seventh of its page
        return False
    widest = 0
    values = False  # a cell below the first row with words outside links
    for index, row in enumerate(rows):
        cells = 0  # with words
        for cell in row:
            if cell.tag in _CELLS:
                if not _holds_text_only(cell):
                    return False
                if widest >= 2 and values:
                    continue  # the words can change nothing: only marks are looked for
                words, in_links = _word_characters(cell)
                cells += words > 0
                values = values or (index > 0 and words > in_links)
        widest = max(widest, cells)
    return widest >= 2 and values


def first_row(table: etree._Element) -> etree._Element | None:
    return next(_rows(table), None)


def _rows(table: etree._Element) -> Iterator[etree._Element]:
    for child in table:
        if child.tag == "tr":
            yield child
        elif child.tag in _SECTIONS:
            yield from (row for row in child if row.tag == "tr")


def _holds_text_only(cell: etree._Element) -> bool:
    """No layout mark or form control in the cell, save one heading that is
    all its text."""
    heading = None
    for element in cell.iterdescendants():
        tag = element.tag
        if tag in _NOT_DATA:
            if heading is not None or tag not in HEADING_TAGS:
                return False
            heading = element
    return heading is None or "".join(heading.itertext()).split() == (
        "".join(cell.itertext()).split()
    )


def _word_characters(cell: etree._Element) -> tuple[int, int]:
    """The letters and digits of the cell's text, and of its links' text."""
    count = _WORD_CHARACTER.findall
    in_links = sum(len(count(text)) for link in cell.iter("a") for text in link.itertext())
    return sum(len(count(text)) for text in cell.itertext()), in_links


@dataclass(frozen=True, eq=False)
class DataTables:
    """The tables of a page's blocks: ``tables[i]`` is the node of the table
    nearest above block i (-1: none), ``names[i]`` whether the block would
    name a column or that table (see ``data_tables``). Whether a table is a
    data table (``is_data``) is tested when first asked, from its element in
    ``elements`` (the blocks' tree's): the content decision asks only about
    the tables whose head it keeps, and a test reads every cell."""

    tables: list[int]
    names: list[bool]
    elements: list = field(default_factory=list, repr=False)  # [] once ``settled``
    tested: dict[int, bool] = field(default_factory=dict, repr=False)  # by table node

    @classmethod
    def none(cls, blocks: int) -> "DataTables":
        """A page of ``blocks`` blocks, none of them in a table."""
        return cls([-1] * blocks, [False] * blocks)

    def is_data(self, table: int) -> bool:
        """Whether the table of this node is a data table (``is_data_table``)."""
        data = self.tested.get(table)
        if data is None:
            data = self.tested[table] = is_data_table(self.elements[table])
        return data

    def cells(self) -> list[tuple[int, bool]]:
        """For every block: ``(table, names)`` when its nearest table is a
        data table, else ``NONE``."""
        return [
            (table, names) if table >= 0 and self.is_data(table) else NONE
            for table, names in zip(self.tables, self.names)
        ]

    def settled(self) -> "DataTables":
        """The same, every table tested and no element kept (the training
        script keeps the tables of thousands of pages, not their trees)."""
        for table in set(self.tables) - {-1}:
            self.is_data(table)
        return replace(self, elements=[], tested=dict(self.tested))


def data_tables(blocks: Sequence[Block], tree: BlockTree) -> DataTables:
    """For every block (``tree`` is theirs): the table nearest above it, and
    whether the block names a column or the table: it is in the table's head
    (its first row or its caption), has letters, and its text is mostly not
    a link's (a number or a sign alone, "17:13", "»", or a headline's link
    make a list's first row as well). Which tables are data tables is found
    when asked (``DataTables.is_data``)."""
    if "table" not in tree.tags:  # most pages: no block is in a table
        return DataTables.none(len(blocks))
    elements, parents = tree.elements, tree.parents
    nearest: list[int] = []  # every node's nearest table node, itself included, or -1
    head: list[bool] = []  # every node: in the head of its nearest table
    first_rows: dict[int, etree._Element | None] = {}
    for node, (tag, parent) in enumerate(zip(tree.tags, parents)):
        table = node if tag == "table" else nearest[parent] if parent >= 0 else -1
        nearest.append(table)
        if tag == "caption" or tag == "tr":
            if table not in first_rows:
                first_rows[table] = first_row(elements[table]) if table >= 0 else None
            head.append(tag == "caption" or elements[node] is first_rows[table])
        else:
            head.append(tag != "table" and parent >= 0 and head[parent])
    tables = [nearest[node] for node in tree.block_nodes]
    names = [
        table >= 0 and head[node] and _names(block)
        for block, table, node in zip(blocks, tables, tree.block_nodes)
    ]
    return DataTables(tables, names, elements)


NONE = (-1, False)  # a block in no data table


def _names(block: Block) -> bool:
    return block.link_density < 0.5 and _LETTER.search(block.text) is not None
