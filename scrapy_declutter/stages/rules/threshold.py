"""The content model's threshold: a block scoring at or below it is left out."""

from dataclasses import dataclass, field, replace
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import evidence_of

NAME = "threshold"
BELOW_THRESHOLD = Reason(
    "score below threshold",
    "the content score is at or below the threshold ({content_threshold}).",
    rule=NAME,
)


@dataclass(frozen=True)
class Threshold:
    """Labels bad (``BELOW_THRESHOLD``) each undecided block whose final score
    (``Block.score``) is at most ``threshold``."""

    threshold: float = Options.content_threshold
    name: ClassVar[str] = NAME
    reason: Reason = field(init=False, repr=False, compare=False)  # quoting ``threshold``

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "reason", BELOW_THRESHOLD.quoting(content_threshold=self.threshold)
        )

    def __call__(self, document: Document) -> None:
        scores = evidence_of(document).scores
        for block, score in zip(document.blocks, scores):
            if block.reason is None and score <= self.threshold:
                block.label, block.reason = BAD, self.reason

    def at(self, threshold: float) -> "Threshold":
        """The rule with another threshold (the best guess lowers it)."""
        return replace(self, threshold=threshold)
