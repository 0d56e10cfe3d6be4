"""A text kept twice is kept once: a teaser list twice over, a headline
repeated in the page's template."""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import evidence_of

# Four words or more: a text long enough that its repeat is a copy, not
# words an article uses twice. The first copy stays, since dropping every
# copy loses the one the reader needs (the figures: the repeat rule's
# paragraph in docs/algorithms/content-model.rst).
REPEATED_WORDS = 4
# A paragraph this long said twice in its first copy's element is the
# article saying a thing twice; in another element it is a template's copy
# (a description shown twice, which the references have once).
SAID_TWICE_WORDS = 15
NAME = "repeats"
REPEATED = Reason(
    "repeated text",
    "a block of four words or more whose text an earlier kept block has (a teaser list "
    "twice over, a repeated headline): the first copy stays. A paragraph of 15 words or "
    "more said twice in one element, whose kept neighbours repeat nothing, stays too (an "
    "article that says a thing twice).",
    rule=NAME,
)


@dataclass(frozen=True)
class Repeats:
    """Labels bad (``REPEATED``) each kept block of ``REPEATED_WORDS`` words
    or more whose text a kept block before it has: the first stays. A
    paragraph said twice is not: a repeat of ``SAID_TWICE_WORDS`` words or
    more in the element of its first copy, whose kept neighbours repeat
    nothing (an article that says a thing twice; a template's copy lies in
    another element, a copied list or section repeats block after block).
    The cells of a data table kept whole (``PageEvidence.kept_whole``) are
    neither: values repeat in a table."""

    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        evidence = evidence_of(document)
        whole, tables, parents = evidence.kept_whole, evidence.tables.tables, evidence.parents
        first_of: dict[str, int] = {}
        kept: list[int] = []
        repeats: dict[int, int] = {}  # a repeat's index: its first copy's
        for i, block in enumerate(blocks):
            if not block.is_good or (whole and tables[i] in whole):
                continue
            kept.append(i)
            text = block.text
            if text.count(" ") >= REPEATED_WORDS - 1:
                first = first_of.setdefault(text.lower(), i)
                if first != i:
                    repeats[i] = first
        for before, i, after in zip([-1, *kept], kept, [*kept[1:], -1]):
            if i in repeats and (
                before in repeats
                or after in repeats
                or parents[i] != parents[repeats[i]]
                or blocks[i].text.count(" ") < SAID_TWICE_WORDS - 1
            ):
                blocks[i].label, blocks[i].reason = BAD, REPEATED
