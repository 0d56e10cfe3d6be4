"""The next story appended to an article goes.

Pages that scroll on to the next story append it to the page: another
``<article>`` element, with a headline (``<h1>``) and paragraphs of its own,
after the one the reader asked for. Both read as articles, and the content
model keeps both.

On a page the article gate takes for an article (above ``ARTICLE``),
``KeepOutNextStories`` finds the first kept ``<h1>`` inside an ``<article>``
element (the page's headline and its story) and then each later kept
``<h1>`` inside another ``<article>``, one neither inside the first nor
holding it, once the first story's prose has begun (a kept paragraph of
prose between the two headlines). The blocks kept inside that other
``<article>`` go: a later story. An ``<h1>`` inside the story's own
``<article>`` (a section's heading, a box of a related story) is no such
headline, and a page whose headline is in no ``<article>`` is left as it is.
"""

from dataclasses import dataclass
from typing import ClassVar

from lxml import etree

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import TAKEN_FOR_ARTICLE, evidence_of, kept_prose

ARTICLE = TAKEN_FOR_ARTICLE
NAME = "next-stories"
NEXT_STORY = Reason(
    "the next story",
    "on a page taken for an article, in another <article> element with its own <h1> "
    "headline after the story's prose has begun: the next story, appended to the page.",
    rule=NAME,
)


@dataclass(frozen=True)
class KeepOutNextStories:
    """Labels ``NEXT_STORY`` (bad) the kept blocks of each later story (see
    the module's docstring), on a page the article gate gives more than
    ``article``."""

    article: float = ARTICLE
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        # most pages keep one <h1> or none: nothing else to read
        headlines = [
            i for i, b in enumerate(blocks) if b.heading and b.is_good and b.element.tag == "h1"
        ]
        if len(headlines) < 2 or not evidence_of(document).taken_for_article(self.article):
            return
        stories = [_story_of(blocks[i].element) for i in headlines]
        first = next((n for n, story in enumerate(stories) if story is not None), None)
        if first is None:
            return
        story, start = stories[first], headlines[first]
        prose = kept_prose(blocks)
        later = set()
        for i, other in zip(headlines, stories):
            if (
                other is not None
                and not _nested(other, story)
                and any(start < j < i for j in prose)
            ):
                later.add(other)
        if not later:
            return
        for block in blocks:
            element = block.element
            if block.is_good and (
                element in later or any(e in later for e in element.iterancestors("article"))
            ):
                block.label, block.reason = BAD, NEXT_STORY


def _story_of(element: etree._Element) -> etree._Element | None:
    """The nearest ``<article>`` element that holds ``element``."""
    return next(element.iterancestors("article"), None)


def _nested(one: etree._Element, other: etree._Element) -> bool:
    """Whether one of the two elements holds the other (or they are one)."""
    return (
        one is other
        or any(e is other for e in one.iterancestors("article"))
        or any(e is one for e in other.iterancestors("article"))
    )
