"""On a page taken for an article, the headline is kept when what is kept
has none: the headline often sits outside the element that holds the
article's body, where the region leaves it."""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import GOOD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import evidence_of, title_test

# An article's headline often sits outside the element holding its body,
# so the region leaves it out; other pages' references leave the title out
# (it is metadata), hence articles only. The floor asks the model for some
# confidence in the block; floors from 0.1 to 0.4 did as well. The
# figures: the headline's paragraph in docs/algorithms/content-model.rst.
ARTICLE = 0.5
HEADLINE_FLOOR = 0.3
HEADLINE_OVERLAP = 0.8
NAME = "headline"
HEADLINE = Reason(
    "headline",
    "on a page taken for an article, the nearest block above the content that repeats the "
    "page's title (three words or more, {headline_overlap:.0%} of them in the title) and "
    "scores above {headline_floor}, when nothing kept repeats it.",
    rule=NAME,
).quoting(headline_overlap=HEADLINE_OVERLAP, headline_floor=HEADLINE_FLOOR)


@dataclass(frozen=True)
class Headline:
    """On a page the article gate gives more than ``article``, keeps
    (``HEADLINE``) the nearest block above the first kept one that a rule of
    ``regional`` (the region or the threshold alone) left out, that scores
    above ``HEADLINE_FLOOR`` and repeats the page's ``<title>``
    (``evidence.title_test``), unless a kept block repeats it too. The title
    is tested last: it costs the most."""

    article: float = ARTICLE
    regional: frozenset[str] = frozenset(("region", "threshold"))
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        evidence = evidence_of(document)
        if not evidence.taken_for_article(self.article):
            return
        repeats_title = title_test(evidence.texts, evidence.title, HEADLINE_OVERLAP)
        if repeats_title is None:
            return
        blocks, scores = document.blocks, evidence.scores
        kept = [i for i, b in enumerate(blocks) if b.is_good]
        for i in range(kept[0] - 1 if kept else -1, -1, -1):
            reason = blocks[i].reason
            if (
                reason is not None
                and reason.rule in self.regional
                and scores[i] > HEADLINE_FLOOR
                and repeats_title(i)
            ):
                if not any(map(repeats_title, kept)):
                    blocks[i].label, blocks[i].reason = GOOD, HEADLINE
                return
