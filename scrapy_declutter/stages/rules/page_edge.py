"""Prose at the page's edge is kept.

The content model reads a block beside its neighbours, and before the first
block there is only the page's edge, which on most pages is a menu's place:
a small page's first paragraph, with no headline above it, scores as if it
were one. What a reader sees there is the page's text.
"""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import GOOD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import evidence_of

NAME = "page-edge"
PAGE_EDGE = Reason(
    "prose at the page's edge",
    "the blocks from the page's first block to the first kept one, when each is jusText's "
    "good or near-good by itself, outside the navigation, and left out by its score, the "
    "guard or the region alone: the model reads a block beside its neighbours, and there "
    "are none before the page's edge (a small page's first paragraph with no headline above "
    "it). The whole page when nothing else is kept.",
    rule=NAME,
)


@dataclass(frozen=True)
class PageEdge:
    """Keeps (``PAGE_EDGE``) the blocks from the page's first block to the
    first kept one (the whole page when none is kept) when each is prose
    (``PageEvidence.prose``) left out by a rule of ``model`` (the model's
    verdicts alone: its score, the guard, the region). A run with anything
    else in it (a menu, a headline the model left out, a copyright line) is
    the page's furniture, not its edge, and stays out."""

    model: frozenset[str] = frozenset(("threshold", "guard", "region"))
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        first = next((i for i, b in enumerate(blocks) if b.is_good), len(blocks))
        prose = evidence_of(document).prose
        model = self.model
        for i in range(first):
            reason = blocks[i].reason
            if not (prose[i] and reason is not None and reason.rule in model):
                return
        for block in blocks[:first]:
            block.label, block.reason = GOOD, PAGE_EDGE
