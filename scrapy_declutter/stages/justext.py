"""jusText as four stages over the block model (its algorithm.rst, step by step).

1. ``ClassifyContextFree``: each block alone is ``bad``, ``good``, ``short``
   or ``near-good`` by its length, link density and stopword density.
2. ``PreprocessHeadings``: a short heading shortly before a good block is
   promoted to near-good, so it is not lost in step 3.
3. ``ClassifyContextSensitive``: short and near-good blocks take the class of
   the good or bad blocks around them; the document edges count as bad.
4. ``PostprocessHeadings``: a heading that was not bad by itself and comes
   shortly before a good block is kept.

Each stage writes ``cf_label`` (step 1) or ``label`` and keeps no state.
"""

from collections.abc import Iterator
from dataclasses import dataclass

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD, GOOD, NEAR_GOOD, SHORT, Label
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.reasons import Reason

CONTEXT_FREE = Reason(
    "jusText: context-free class",
    "jusText's class for the block alone stands: long text rich in stopwords is good; "
    "link-heavy text (link density above {max_link_density}), a copyright sign, or short "
    "text with a link is bad.",
)
NEIGHBOURS = Reason(
    "jusText: neighbours",
    "a short or near-good block takes the class of the good or bad blocks around it "
    "(jusText's context-sensitive stage).",
)
HEADING = Reason(
    "jusText: heading",
    "a heading followed by good text within {max_heading_distance} characters is kept "
    "(jusText's heading stage).",
)


@dataclass(frozen=True)
class ClassifyContextFree:
    """Sets ``cf_label`` (and ``label``, its starting value) on every block.

    Links and copyright notices are bad whatever their size. Stopword
    thresholds compare with ``>=``, as jusText's code does: its
    language-independent mode, used for a document with no stoplist, sets
    both thresholds to 0 and depends on it.
    """

    length_low: int = Options.length_low
    length_high: int = Options.length_high
    stopwords_low: float = Options.stopwords_low
    stopwords_high: float = Options.stopwords_high
    max_link_density: float = Options.max_link_density

    def __call__(self, document: Document) -> None:
        language_independent = document.language is None
        reason = CONTEXT_FREE.quoting(max_link_density=self.max_link_density)
        for block in document.blocks:
            block.cf_label = block.label = self.classify(block, language_independent)
            block.reason = reason

    def classify(self, block: Block, language_independent: bool = False) -> Label:
        text = block.text
        if block.link_density > self.max_link_density:
            return BAD
        if "\xa9" in text or "&copy" in text:
            return BAD
        length = block.reading_length
        if length < self.length_low:
            return BAD if block.link_chars else SHORT
        low, high = (0, 0) if language_independent else (self.stopwords_low, self.stopwords_high)
        stopword_density = block.stopword_density
        if stopword_density >= high:
            return GOOD if length > self.length_high else NEAR_GOOD
        if stopword_density >= low:
            return NEAR_GOOD
        return BAD


def _headings_before_good(blocks: list[Block], label: Label, max_distance: int) -> Iterator[Block]:
    """The headings labelled ``label`` that a good block follows within
    ``max_distance`` characters of other blocks, in document order. The
    nearest good block after each position and the characters before each,
    found in one pass, answer every heading: a page whose every block is in a
    heading (headings nested a thousand deep) costs no more than any other.
    What the caller relabels is at or before the heading it was handed, and
    the answers look after it."""
    starts = [0]  # characters before each block
    for block in blocks:
        starts.append(starts[-1] + block.length)
    next_good = [len(blocks)] * (len(blocks) + 1)  # the first good block from each on
    for i in range(len(blocks) - 1, -1, -1):
        next_good[i] = i if blocks[i].label is GOOD else next_good[i + 1]
    for i, block in enumerate(blocks):
        if block.heading and block.label is label:
            good = next_good[i + 1]
            if good < len(blocks) and starts[good] - starts[i + 1] <= max_distance:
                yield block


@dataclass(frozen=True)
class PreprocessHeadings:
    """Short headings within ``max_heading_distance`` characters before a good
    block become near-good."""

    max_heading_distance: int = Options.max_heading_distance

    def __call__(self, document: Document) -> None:
        for heading in _headings_before_good(document.blocks, SHORT, self.max_heading_distance):
            heading.label = NEAR_GOOD


@dataclass(frozen=True)
class PostprocessHeadings:
    """Headings labelled bad by context, but not bad by themselves, become good
    when a good block follows within ``max_heading_distance`` characters. One
    pass: a heading this promotes does not count for the headings before it."""

    max_heading_distance: int = Options.max_heading_distance

    def __call__(self, document: Document) -> None:
        reason = HEADING.quoting(max_heading_distance=self.max_heading_distance)
        for heading in _headings_before_good(document.blocks, BAD, self.max_heading_distance):
            if heading.cf_label is not BAD:
                heading.label, heading.reason = GOOD, reason


def _nearest(labels: list[Label | None], wanted: frozenset[Label], before: bool) -> list[Label]:
    """For each position, the nearest label in ``wanted`` strictly before it
    (or after it), ``bad`` past the document's edge. One linear scan, so long
    runs of short blocks cost no more than short runs."""
    order = range(len(labels)) if before else range(len(labels) - 1, -1, -1)
    nearest = [BAD] * len(labels)
    seen = BAD
    for i in order:
        nearest[i] = seen
        label = labels[i]
        if label in wanted:
            seen = label
    return nearest


_CERTAIN = frozenset({GOOD, BAD})
_NOT_SHORT = frozenset({GOOD, BAD, NEAR_GOOD})


@dataclass(frozen=True)
class ClassifyContextSensitive:
    """Gives every short and near-good block a final ``good`` or ``bad``.

    A run of short/near-good blocks between two good blocks is good, between
    two bad blocks bad. Between a bad and a good block, the near-good block
    nearest the bad side divides the run: blocks from the bad block to it are
    bad, the rest good; with no near-good block in the run, its short blocks
    are bad. Good and bad blocks never change.
    """

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        labels = [block.label for block in blocks]
        prev = _nearest(labels, _CERTAIN, before=True)
        next_ = _nearest(labels, _CERTAIN, before=False)
        prev_any = _nearest(labels, _NOT_SHORT, before=True)
        next_any = _nearest(labels, _NOT_SHORT, before=False)
        for i, block in enumerate(blocks):
            if block.label is not SHORT:
                continue
            block.reason = NEIGHBOURS
            if prev[i] is next_[i]:
                block.label = prev[i]
            elif (prev[i] is BAD and prev_any[i] is NEAR_GOOD) or (
                next_[i] is BAD and next_any[i] is NEAR_GOOD
            ):
                block.label = GOOD
            else:
                block.label = BAD

        labels = [block.label for block in blocks]
        prev = _nearest(labels, _CERTAIN, before=True)
        next_ = _nearest(labels, _CERTAIN, before=False)
        for i, block in enumerate(blocks):
            if block.label is NEAR_GOOD:
                block.label = BAD if prev[i] is BAD and next_[i] is BAD else GOOD
                block.reason = NEIGHBOURS
