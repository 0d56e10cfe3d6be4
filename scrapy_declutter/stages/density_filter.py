"""The text-density filter ("The Easy Way to Extract Useful Text from Arbitrary
HTML", as Sujit Pal's DensityFilter implements it), over our blocks.

The original reads the raw HTML line by line. For each line it counts the
characters of text and of markup (inside ``<...>``), drops lines with fewer
than 60 characters of text, and keeps a line when its density
``(text + 1) / (text + markup + 1)`` is above ``0.5 - stddev`` of the
densities of the lines it did not drop.

Here a block stands for a line. Its text characters are those of its text;
its markup characters are those of the tags that start in its stretch of the
page (start and end tag with their attributes, as ``tag_markup`` counts them,
which ``segment`` numbered during its walk). Script, style and the other
skipped elements count neither as text nor as markup: on a line they would
be text to the original, which is one of its known flaws. The standard
deviation is the sample one, as the original's commons-math computes it (0
for a single line).
"""

import statistics
from dataclasses import dataclass

from scrapy_declutter.core.blocks import tag_markup
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import Label
from scrapy_declutter.core.reasons import Reason

DENSITY = Reason(
    "text density",
    "text density (text characters over text and markup characters) against 0.5 minus "
    "the page's standard deviation.",
)
TOO_SHORT = Reason(
    "density filter: too short", "under {min_chars} characters: the density filter drops it."
)


@dataclass(frozen=True)
class TextDensityFilter:
    """Keeps the blocks of at least ``min_chars`` characters whose text
    density is above ``0.5`` minus the standard deviation of those densities."""

    min_chars: int = 60

    def __call__(self, document: Document) -> None:
        markup = (
            tag_markup(document.root, document.all_buttons) if document.root is not None else []
        )
        candidates = []
        too_short = TOO_SHORT.quoting(min_chars=self.min_chars)
        for block in document.blocks:
            chars = len(block.text)
            if chars < self.min_chars:
                block.label, block.reason = Label.BAD, too_short
                continue
            markup_chars = sum(markup[block.first_tag : block.first_tag + block.tags])
            candidates.append((block, (chars + 1) / (chars + markup_chars + 1)))
        densities = [density for _, density in candidates]
        threshold = 0.5 - (statistics.stdev(densities) if len(densities) > 1 else 0.0)
        for block, density in candidates:
            block.label = Label.GOOD if density > threshold else Label.BAD
            block.reason = DENSITY
