"""Boilerpipe's two classifiers: decision trees learnt with C4.8 on news pages.

Both classify every block from its own features and those of the blocks just
before and after it (a featureless block past either edge of the page), and
write only whether it is content. The trees are transcribed branch for branch
from Boilerpipe (its NumWordsRulesClassifier and DensityRulesClassifier).
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.boilerpipe import TextBlock, text_blocks

BOILERPIPE_CLASSIFIER = Reason(
    "Boilerpipe: classifier",
    "Boilerpipe's decision tree on the block's words, link density and text density and "
    "those of its neighbours.",
)


class _Edge(NamedTuple):
    """The block before the first and after the last: no words, no links."""

    words: int = 0
    link_density: float = 0.0
    text_density: float = 0.0


_EDGE = _Edge()
Neighbour = TextBlock | _Edge
Neighbourhood = tuple[Neighbour, TextBlock, Neighbour]


def _neighbourhoods(groups: list[TextBlock]) -> Iterator[Neighbourhood]:
    before: list[Neighbour] = [_EDGE, *groups]
    after: list[Neighbour] = [*groups[1:], _EDGE]
    return zip(before, groups, after)


def _classify(document: Document, rule: Callable[[Neighbour, TextBlock, Neighbour], bool]) -> None:
    # all decisions first: a block's decision reads its neighbours' features,
    # never their labels, so the order does not matter; this keeps it obvious
    groups = text_blocks(document)
    decisions = [rule(*neighbourhood) for neighbourhood in _neighbourhoods(groups)]
    for group, is_content in zip(groups, decisions):
        group.set_content(is_content, BOILERPIPE_CLASSIFIER)


def is_content_by_words(prev: Neighbour, curr: TextBlock, next_: Neighbour) -> bool:
    """The number-of-words tree (Algorithm 2 of the paper)."""
    if curr.link_density <= 0.333333:
        if prev.link_density <= 0.555556:
            if curr.words <= 16:
                if next_.words <= 15:
                    if prev.words <= 4:
                        return False
                    return True
                return True
            return True
        if curr.words <= 40:
            if next_.words <= 17:
                return False
            return True
        return True
    return False


def is_content_by_density(prev: Neighbour, curr: TextBlock, next_: Neighbour) -> bool:
    """The text-density tree (Algorithm 1 of the paper, the densitometric classifier)."""
    if curr.link_density <= 0.333333:
        if prev.link_density <= 0.555556:
            if curr.text_density <= 9:
                if next_.text_density <= 10:
                    if prev.text_density <= 4:
                        return False
                    return True
                return True
            if next_.text_density == 0:
                return False
            return True
        if next_.text_density <= 11:
            return False
        return True
    return False


@dataclass(frozen=True)
class NumWordsRulesClassifier:
    """Content or not by words and link density of a block and its neighbours."""

    def __call__(self, document: Document) -> None:
        _classify(document, is_content_by_words)


@dataclass(frozen=True)
class DensityRulesClassifier:
    """Content or not by text density and link density of a block and its neighbours."""

    def __call__(self, document: Document) -> None:
        _classify(document, is_content_by_density)
