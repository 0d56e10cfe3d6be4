"""The article twice: one block that holds the kept paragraphs again.

Some pages hold their article twice: once in paragraphs and once more in
one block (a copy for print, for speech, for a script), which the content
model keeps too, so the text would hold the article two times. When the
longest kept block, of ``HOLDER_WORDS`` words or more, holds the text of
``MIN_PARTS`` other kept blocks or more, each of ``PART_WORDS`` words or
more and together half its text or more, those blocks are its copies: they
go, and the longest, which holds the article whole, stays. One paragraph
quoted in a longer one (a reply quoting a post) is no such copy.
"""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason

HOLDER_WORDS = 100
PART_WORDS = 15
MIN_PARTS = 2

NAME = "copies"
COPY = Reason(
    "a copy",
    "a kept block whose text the page's longest kept block holds again, with other such "
    "blocks that make half of it or more: the article twice, in paragraphs and in one block.",
    rule=NAME,
)


@dataclass(frozen=True)
class KeepOutCopies:
    """Labels ``COPY`` (bad) the kept blocks of ``PART_WORDS`` words or more
    whose text the longest kept block holds, when there are ``MIN_PARTS`` or
    more of them and they make half its text or more."""

    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        kept = [block for block in document.blocks if block.is_good]
        holder = max(kept, key=_length, default=None)
        if holder is None or holder.words < HOLDER_WORDS:
            return
        whole = holder.text
        parts = [
            block
            for block in kept
            if block.words >= PART_WORDS and block is not holder and block.text in whole
        ]
        if len(parts) >= MIN_PARTS and 2 * sum(map(_length, parts)) >= len(whole):
            for block in parts:
                block.label, block.reason = BAD, COPY


def _length(block: Block) -> int:
    return len(block.text)
