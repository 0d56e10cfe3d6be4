"""A text kept twice is kept once: a teaser list twice over, a headline
repeated in the page's template."""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import evidence_of

# Held out (fitted on the three corpora alike, threshold 0.43), dropping the
# later copies of a kept text of four words or more gave F1 0.792 against
# 0.790 on wcxb-dev, 0.903 against 0.901 on dragnet, 0.939 against 0.941 on
# l3s-gn1, with precision up on all three (0.863, 0.947, 0.966 against 0.852,
# 0.944, 0.965); dropping every copy gave 0.782, 0.898, 0.934.
REPEATED_WORDS = 4
# Held out (the four-corpus fit's scores, threshold 0.4), keeping a lone
# repeat of 15 words or more in its first copy's element changed 15 wcxb-dev
# pages, F1 0.8508 to 0.8509 by site and 0.6953 to 0.6954 left out, the other
# corpora unchanged; in any element, 0.8498 and 0.6947 (a template's copy).
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
