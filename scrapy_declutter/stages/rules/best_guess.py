"""When neither the model nor the fallback keeps anything, the page's best
blocks are kept.

The region's rules run again (``again``, then ``then``) with the threshold
``BEST_GUESS_MARGIN`` below the page's best score, never down to
``SURE_BOILERPLATE``: a short post, whose few lines the model is unsure of,
keeps its best blocks rather than nothing. What the region keeps then is
this rule's (``BEST_GUESS``).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import SURE_BOILERPLATE, evidence_of

# Just below the page's best score: the page's best blocks, not the whole
# page; a wider margin changed nothing measurable (the figure: the best
# guess's paragraph in docs/algorithms/content-model.rst).
BEST_GUESS_MARGIN = 0.02
NAME = "best-guess"
BEST_GUESS = Reason(
    "the page's best blocks",
    "neither the content model nor the fallback kept anything: the content region is found "
    "again with the threshold {best_guess_margin} below the page's best score (never down to "
    "{sure_boilerplate}).",
    rule=NAME,
).quoting(best_guess_margin=BEST_GUESS_MARGIN, sure_boilerplate=SURE_BOILERPLATE)


class Stage(Protocol):
    def __call__(self, document: Document) -> None: ...


@dataclass(frozen=True)
class BestGuess:
    """When no block is kept, runs ``again`` (each at the lowered threshold
    when it has one: its ``at``) on the blocks no hard rule ruled out,
    labels ``BEST_GUESS`` what they keep, then runs ``then``."""

    again: Sequence[Stage] = ()
    then: Sequence[Stage] = ()
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        if any(b.is_good for b in blocks):
            return
        evidence = evidence_of(document)
        shown = [s for s, verdict in zip(evidence.scores, evidence.verdicts) if verdict is None]
        best = max(shown, default=0.0)
        if best <= SURE_BOILERPLATE:
            return
        lowered = max(best - BEST_GUESS_MARGIN, SURE_BOILERPLATE)
        for block, verdict in zip(blocks, evidence.verdicts):
            if verdict is None:
                block.label, block.reason = BAD, None
        for rule in self.again:
            at = getattr(rule, "at", None)
            (at(lowered) if at is not None else rule)(document)
        for block in blocks:
            if block.is_good:
                block.reason = BEST_GUESS
        for rule in self.then:
            rule(document)
