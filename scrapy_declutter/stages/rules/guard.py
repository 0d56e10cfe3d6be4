"""The sure-boilerplate guard: on a small page every neighbour and ancestor
looks like content, and the context alone would lift a footer; a block whose
own features say boilerplate is never kept."""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import SURE_BOILERPLATE

NAME = "guard"
BOILERPLATE_GUARD = Reason(
    "sure-boilerplate guard",
    "the block's own features score {sure_boilerplate} or less (block score): it is never "
    "kept, whatever its neighbours.",
    rule=NAME,
).quoting(sure_boilerplate=SURE_BOILERPLATE)


@dataclass(frozen=True)
class Guard:
    """Labels bad (``BOILERPLATE_GUARD``) each undecided block whose first-stage
    score (``Block.block_score``) is at most ``SURE_BOILERPLATE``."""

    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        for block in document.blocks:
            score = block.block_score
            if block.reason is None and score is not None and score <= SURE_BOILERPLATE:
                block.label, block.reason = BAD, BOILERPLATE_GUARD
