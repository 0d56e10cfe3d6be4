"""A gallery in an article is not the article: its slides' counters and captions go.

A news page often shows a slideshow inside or beside the story: each slide
a counter ("3/31", "Image 3 of 5", "12 of 44"), a caption and a credit,
and the page's markup holds every slide, not just the one on screen. The
captions read like short paragraphs and sit inside the article's element,
so the content model keeps them with the story.

``KeepOutGalleries`` finds the counters: blocks of at most
``COUNTER_WORDS`` words that start with a slide number and the gallery's
total, counting up to one total in the page's order, ``MIN_SLIDES`` of them
or more. From the first of them to the last, on a page taken for an
article, every kept block is a slide's. What follows the last counter is
left alone: the last slide's caption has no mark to end it, and the
article may go on there.

A recipe's "1/3 cup" is no counter: its numbers do not count up to one
total. A product page's carousel of features is content there, and the
gate does not take such a page for an article.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import TAKEN_FOR_ARTICLE, evidence_of

MIN_SLIDES = 3
# A counter with a short title or a date beside it ("1/31 18 October
# 2017"); a longer block is a sentence that starts with a fraction.
COUNTER_WORDS = 6
# "3/31", "3 / 31", "3 of 31", "Image 3 of 5", "Photo 2/9", "1of/3"; "of"
# in the languages whose galleries say it in a word.
_COUNTER = re.compile(
    r"(?:(?:image|photo|picture|slide|foto|bild|imagen|imagem)\s*)?"
    r"(\d{1,4})\s*(?:/|of/?|de|di|von|van|sur|из)\s*(\d{1,4})(?!\S)",
    re.IGNORECASE,
)
NAME = "galleries"
GALLERY = Reason(
    "a gallery's slides",
    'on a page taken for an article: a slide counter ("3/31", "Image 3 of 5") and what '
    "lies between the first and the last of {min_slides} or more counters that count up to "
    "one total (each slide's caption and credit).",
    rule=NAME,
).quoting(min_slides=MIN_SLIDES)


@dataclass(frozen=True)
class KeepOutGalleries:
    """Labels ``GALLERY`` (bad) the kept blocks of each gallery's slides (see
    the module's docstring) on a page the article gate gives more than
    ``article``."""

    article: float = TAKEN_FOR_ARTICLE
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        if not evidence_of(document).taken_for_article(self.article):
            return
        blocks = document.blocks
        for first, last in gallery_spans([b.text for b in blocks]):
            for block in blocks[first : last + 1]:
                if block.is_good:
                    block.label, block.reason = BAD, GALLERY


def gallery_spans(texts: Sequence[str]) -> list[tuple[int, int]]:
    """Each gallery's first and last counter, as indices into ``texts``."""
    counters: dict[int, list[tuple[int, int]]] = {}  # a total: its counters, index and number
    for i, text in enumerate(texts):
        if text.count(" ") >= COUNTER_WORDS or not (found := _COUNTER.match(text)):
            continue
        number, total = int(found[1]), int(found[2])
        if not 1 <= number <= total or total < MIN_SLIDES:
            continue
        counted = counters.setdefault(total, [])
        if not counted or number > counted[-1][1]:
            counted.append((i, number))
    return [
        (counted[0][0], counted[-1][0])
        for counted in counters.values()
        if len(counted) >= MIN_SLIDES
    ]
