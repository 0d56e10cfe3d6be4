"""Short links need a high score: jusText's first observation is that short
blocks with links ("Home", "Sport"; see ``content_features.short_links``)
are almost always boilerplate, and the model, which weighs a block's
neighbours, lets menus beside an article through."""

from dataclasses import dataclass, field
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.content_features import SHORT_LINK_WORDS
from scrapy_declutter.stages.evidence import evidence_of

NAME = "short-links"
SHORT_LINK = Reason(
    "link rule",
    "a short link (at most {short_link_words} words, mostly link text) needs a score above "
    "{short_link_threshold}.",
    rule=NAME,
).quoting(short_link_words=SHORT_LINK_WORDS)


@dataclass(frozen=True)
class ShortLinks:
    """Labels bad (``SHORT_LINK``) each undecided short link scoring at most
    ``link_threshold``."""

    link_threshold: float = 0.9
    name: ClassVar[str] = NAME
    reason: Reason = field(init=False, repr=False, compare=False)  # quoting ``link_threshold``

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "reason", SHORT_LINK.quoting(short_link_threshold=self.link_threshold)
        )

    def __call__(self, document: Document) -> None:
        reason = self.reason
        evidence = evidence_of(document)
        for block, score, short_link in zip(document.blocks, evidence.scores, evidence.short_links):
            if block.reason is None and short_link and score <= self.link_threshold:
                block.label, block.reason = BAD, reason
