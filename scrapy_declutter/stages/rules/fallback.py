"""When the model keeps nothing, jusText's good blocks are kept.

A page of one long paragraph in a language the model was not fitted on
still has its text. The blocks in the page's furniture (a footer,
navigation, a sidebar, a banner: ``page_marks.fallback``) stay out: a footer
of disclaimers that jusText likes is not handed back in the text's place;
so do the blocks a hard rule rules out.
"""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import GOOD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import evidence_of

NAME = "fallback"
FALLBACK = Reason(
    "fallback to jusText",
    "the content model kept nothing on this page, so jusText's good blocks are kept, save "
    "those in a footer, navigation, sidebar or banner.",
    rule=NAME,
)


@dataclass(frozen=True)
class Fallback:
    """When no block is kept, labels good (``FALLBACK``) jusText's good blocks
    outside the page's furniture that no hard rule rules out."""

    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        if any(b.is_good for b in blocks):
            return
        evidence = evidence_of(document)
        for block, keep, verdict in zip(blocks, evidence.fallback, evidence.verdicts):
            if keep and verdict is None:
                block.label, block.reason = GOOD, FALLBACK
