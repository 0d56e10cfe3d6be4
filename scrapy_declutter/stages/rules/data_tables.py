"""A data table whose head the region keeps is kept whole.

A data table's cells (see ``stages.tables``) are short, often numbers or links
("$26", "Yes", a product's name as a link), that the model, block by block,
leaves out, and a table with holes loses its rows. When the rules before
keep a block naming a column or the table (a header, the caption), the
cells that a rule weighing the block alone left out (``alone``: the
threshold, the short links, the guard) are kept: a cell needs no more than
its place in the table. What a hard rule removes stays out.
"""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import GOOD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import evidence_of

NAME = "data-tables"
DATA_TABLE = Reason(
    "in a kept data table",
    "a cell of a data table (rows of text cells, no lists or nested tables) in which the "
    "content region keeps a block: the table is kept whole.",
    rule=NAME,
)


@dataclass(frozen=True)
class KeepDataTables:
    """Labels good (``DATA_TABLE``) the cells of the data tables kept whole
    that a rule of ``alone`` left out, and records those tables
    (``PageEvidence.kept_whole``)."""

    alone: frozenset[str] = frozenset(("threshold", "short-links", "guard"))
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        evidence = evidence_of(document)
        blocks, tables = document.blocks, evidence.tables
        whole = {
            table
            for table, names, block in zip(tables.tables, tables.names, blocks)
            if names and block.is_good and tables.is_data(table)
        }
        evidence.kept_whole = whole
        if not whole:
            return
        for table, block in zip(tables.tables, blocks):
            reason = block.reason
            if table in whole and reason is not None and reason.rule in self.alone:
                block.label, block.reason = GOOD, DATA_TABLE
