"""The content region: the element holding the most content by score.

The region (``evidence.content_region``, read through
``PageEvidence.region``) is found with a lower bar, ``threshold -
REGION_MARGIN``: it should take in every sibling group of content, also
those the model is less sure of; then it narrows to a child holding all but
``REGION_TIGHTNESS`` of its content. The rules before this one (threshold,
short links, guard) decide block by block; what they leave is kept inside
the region and left out outside it: a tree filter that keeps several
sibling groups. The page's navigation and footers add nothing for a region,
only against it, though what of them lies inside it may be kept: a shop's
menu of every department would win it from the product.
"""

from dataclasses import dataclass, field, replace
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import evidence_of

NAME = "region"
CONTENT_REGION = Reason(
    "content region",
    "inside the content region and the content score is above the threshold ({content_threshold}).",
    rule=NAME,
)
OUTSIDE_REGION = Reason(
    "outside the content region",
    "outside the element that holds the most content (the content region).",
    rule=NAME,
)


@dataclass(frozen=True)
class Region:
    """Labels good (``CONTENT_REGION``) each undecided block inside the
    region found at ``threshold``, and bad (``OUTSIDE_REGION``) the others."""

    threshold: float = Options.content_threshold
    name: ClassVar[str] = NAME
    inside: Reason = field(init=False, repr=False, compare=False)  # quoting ``threshold``

    def __post_init__(self) -> None:
        object.__setattr__(self, "inside", CONTENT_REGION.quoting(content_threshold=self.threshold))

    def __call__(self, document: Document) -> None:
        evidence = evidence_of(document)
        start, end = evidence.region(self.threshold)
        inside = self.inside
        for block, node in zip(document.blocks, evidence.tree.block_nodes):
            if block.reason is None:
                if start <= node < end:
                    block.label, block.reason = GOOD, inside
                else:
                    block.label, block.reason = BAD, OUTSIDE_REGION

    def at(self, threshold: float) -> "Region":
        """The rule with another threshold (the best guess lowers it)."""
        return replace(self, threshold=threshold)
