"""Boilerpipe's filters as stages over the block model (Kohlschütter et al., WSDM 2010).

Boilerpipe deletes blocks from its text document and merges ("fuses") blocks
into one; we keep every block and write what happened to it:

* A Boilerpipe text block is a **fusion group**: a run of our blocks in
  document order. Its first block is the group's head; every other member
  points to the head through ``fused_into`` (the head and unfused blocks have
  ``None``). All the blocks of a group carry the same ``label`` and the same
  ``boilerpipe_labels``, so the label of every block says whether its text is
  in the extracted content.
* "Content" is ``label == GOOD``; anything else (``BAD``, or no label yet) is
  not content.
* A **removed** block (``BoilerplateBlockFilter``) is labelled ``BAD`` and
  flagged ``BoilerpipeLabel.REMOVED``; later filters do not see it, as in
  Boilerpipe. Removed blocks may sit between the members of a group: Boilerpipe
  fuses across them without taking their text, and so do we.

Each stage rebuilds Boilerpipe's view of the document with ``text_blocks``:
the groups that are not removed, with their features summed over the members
(words, words in anchor text, wrapped lines). The stages keep nothing between
calls. The two decision trees are in ``boilerpipe_classifiers.py``.
"""

import re
from dataclasses import dataclass

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BoilerpipeLabel, Label
from scrapy_declutter.core.reasons import Reason

BOILERPIPE_END = Reason(
    "Boilerpipe: after the end of the text",
    'after a block that ends the text ("Comments", "Related", ...).',
)
BOILERPIPE_LARGEST = Reason(
    "Boilerpipe: not the largest block", "not the content block with the most full-text words."
)
BOILERPIPE_TITLE = Reason(
    "Boilerpipe: between title and content",
    "between the title and the content (a headline, a lead).",
)
BOILERPIPE_FUSED = Reason(
    "Boilerpipe: fused with content", "fused with the content block next to it."
)

TITLE = BoilerpipeLabel.TITLE
END_OF_TEXT = BoilerpipeLabel.INDICATES_END_OF_TEXT
MIGHT_BE_CONTENT = BoilerpipeLabel.MIGHT_BE_CONTENT
REMOVED = BoilerpipeLabel.REMOVED
_REMOVED = REMOVED.value


class TextBlock:
    """A block of Boilerpipe's text document: one fusion group of our blocks."""

    __slots__ = ("blocks", "link_words", "words", "words_in_wrapped_lines", "wrapped_lines")

    def __init__(self, block: Block) -> None:
        self.blocks: list[Block] = []
        self.words = self.link_words = self.words_in_wrapped_lines = self.wrapped_lines = 0
        self.add(block)

    def add(self, block: Block) -> None:
        """Count ``block`` in (it must follow the group's blocks)."""
        wrap = block.word_wrap
        self.blocks.append(block)
        self.words += wrap.words
        self.link_words += block.link_words
        self.words_in_wrapped_lines += wrap.words_in_wrapped_lines
        self.wrapped_lines += wrap.wrapped_lines

    @property
    def text(self) -> str:
        return "\n".join(block.text for block in self.blocks)

    @property
    def first_offset(self) -> int:
        return self.blocks[0].offset

    @property
    def last_offset(self) -> int:
        return self.blocks[-1].offset

    @property
    def link_density(self) -> float:
        """Share of the words that are anchor text."""
        return self.link_words / self.words if self.words else 0.0

    @property
    def text_density(self) -> float:
        """Words per line, the text wrapped at 80 characters."""
        return self.words_in_wrapped_lines / self.wrapped_lines

    def full_text_words(self, min_text_density: float = 9) -> int:
        """The words, counted only when the block is dense enough to be running text."""
        return self.words if self.text_density >= min_text_density else 0

    @property
    def is_content(self) -> bool:
        return self.blocks[0].label is Label.GOOD

    @property
    def labels(self) -> BoilerpipeLabel:
        return self.blocks[0].boilerpipe_labels

    def set_content(self, is_content: bool, reason: Reason | None = None) -> None:
        """Label the group; ``reason`` replaces the last one if given."""
        label = Label.GOOD if is_content else Label.BAD
        for block in self.blocks:
            block.label = label
            block.reason = reason or block.reason

    def add_label(self, label: BoilerpipeLabel) -> None:
        for block in self.blocks:
            block.boilerpipe_labels |= label

    def fuse(self, other: "TextBlock") -> None:
        """Take ``other`` (the next group) into this one: content if either
        was, with the labels of both."""
        is_content = self.is_content or other.is_content
        labels = self.labels | other.labels
        # Only the new members need the group's values, unless they changed:
        # long runs of fusions stay linear (labels only grow, content only
        # turns on: a group changes a bounded number of times).
        label = Label.GOOD if is_content else Label.BAD
        head = self.blocks[0]
        changed = labels != head.boilerpipe_labels or label is not head.label
        members = other.blocks
        for block in members:
            block.fused_into = head
            self.add(block)
        for block in self.blocks if changed else members:
            block.boilerpipe_labels = labels
            if block.label is not label:  # the fusion decides this block
                block.label, block.reason = label, BOILERPIPE_FUSED


def text_blocks(document: Document) -> list[TextBlock]:
    """The groups that are not removed, in document order.

    A group's members follow its head with only removed blocks in between,
    so a member always belongs to the last group started.
    """
    groups: list[TextBlock] = []
    for block in document.blocks:
        if block.boilerpipe_labels.value & _REMOVED:  # an int test: Flag operators are slow
            continue
        if block.fused_into is None:
            groups.append(TextBlock(block))
        else:
            groups[-1].add(block)
    return groups


@dataclass(frozen=True)
class TerminatingBlocksFinder:
    """Flags short blocks (fewer than ``word_limit`` words) that usually end an
    article's text ("Comments", "Add your comment", "© Reuters", ...) as
    ``INDICATES_END_OF_TEXT``.

    Phrases are matched in lower case, which covers the case variants
    Boilerpipe lists one by one. (The seed's copy of the list lost the "©" of
    "© Reuters".)
    """

    word_limit: int = 20
    starts: tuple[str, ...] = ("comments", "© reuters", "please rate this")
    contains: tuple[str, ...] = (
        "what you think...",
        "add your comment",
        "add comment",
        "reader views",
        "have your say",
        "reader comments",
    )
    equals: tuple[str, ...] = ("thanks for your comments - this feedback is now closed",)

    _COMMENT_COUNT = re.compile(r"^[0-9]+ (comments|users responded in)", re.MULTILINE)

    def __call__(self, document: Document) -> None:
        for group in text_blocks(document):
            if group.words < self.word_limit and self.ends_text(group.text.lower()):
                group.add_label(END_OF_TEXT)

    def ends_text(self, text: str) -> bool:
        return (
            text.startswith(self.starts)
            or any(phrase in text for phrase in self.contains)
            or text in self.equals
            or self._COMMENT_COUNT.search(text) is not None
        )


@dataclass(frozen=True)
class DocumentTitleMatchClassifier:
    """Flags the blocks whose text is the page's ``<title>``, or the longest
    part of it between separators (``Headline | Site``), as ``TITLE``."""

    separators: tuple[str, ...] = ("|:", "|:()", "|:()-", "|,:()-")

    def __call__(self, document: Document) -> None:
        titles = self.potential_titles(document.title)
        if not titles:
            return
        for group in text_blocks(document):
            if group.text.strip().lower() in titles:
                group.add_label(TITLE)

    def potential_titles(self, title: str | None) -> frozenset[str]:
        """The title and its longest parts, in lower case."""
        title = (title or "").strip().lower()
        if not title:
            return frozenset()
        titles = {title}
        for chars in self.separators:
            parts = re.split(f" *[{re.escape(chars)}] *", title)
            parts = [part.strip() for part in parts if ".com" not in part] if len(parts) > 1 else []
            longest = max(parts, key=lambda part: (len(part.split()), len(part)), default="")
            if longest:
                titles.add(longest)
        return frozenset(titles)


@dataclass(frozen=True)
class IgnoreBlocksAfterContentFilter:
    """Marks every block from an ``INDICATES_END_OF_TEXT`` block on as not
    content, once ``min_words`` full-text words of content came before it."""

    min_words: int = 60

    def __call__(self, document: Document) -> None:
        words = 0
        ended = False
        for group in text_blocks(document):
            if group.is_content:
                words += group.full_text_words()
            if group.labels & END_OF_TEXT and words >= self.min_words:
                ended = True
            if ended:
                group.set_content(False, BOILERPIPE_END)


@dataclass(frozen=True)
class BlockProximityFusion:
    """Fuses each content block into the block before it when at most
    ``max_distance`` blocks lie between the two (only removed blocks can).

    Without ``content_only``, the block before may be non-content: it becomes
    content, as in Boilerpipe. With ``content_only``, both must be content.
    """

    max_distance: int = 1
    content_only: bool = False

    def __call__(self, document: Document) -> None:
        groups = text_blocks(document)
        if self.content_only:
            groups = groups[next((i for i, g in enumerate(groups) if g.is_content), len(groups)) :]
        if len(groups) < 2:
            return
        previous = groups[0]
        for group in groups[1:]:
            if (
                group.is_content
                and group.first_offset - previous.last_offset - 1 <= self.max_distance
                and (previous.is_content or not self.content_only)
            ):
                previous.fuse(group)
            else:
                previous = group


@dataclass(frozen=True)
class BoilerplateBlockFilter:
    """Removes the blocks that are not content."""

    def __call__(self, document: Document) -> None:
        for group in text_blocks(document):
            if not group.is_content:
                group.set_content(False)
                group.add_label(REMOVED)


@dataclass(frozen=True)
class KeepLargestFullTextBlockFilter:
    """Keeps only the content block with the most full-text words (words of
    blocks with a text density of at least ``min_text_density``; the first
    one on a tie). Every other block becomes non-content and ``MIGHT_BE_CONTENT``."""

    min_text_density: float = 9

    def __call__(self, document: Document) -> None:
        groups = text_blocks(document)
        content = [group for group in groups if group.is_content]
        if len(groups) < 2 or not content:
            return
        largest = max(content, key=lambda group: group.full_text_words(self.min_text_density))
        for group in groups:
            if group is not largest:
                group.set_content(False, BOILERPIPE_LARGEST)
                group.add_label(MIGHT_BE_CONTENT)


@dataclass(frozen=True)
class ExpandTitleToContentFilter:
    """Makes content the ``MIGHT_BE_CONTENT`` blocks from the title down to
    where the content starts: the headline and the lead of a news article."""

    def __call__(self, document: Document) -> None:
        groups = text_blocks(document)
        title = None
        for content_start, group in enumerate(groups):
            if group.labels & TITLE:
                title = content_start
            if group.is_content:
                break
        else:
            return
        if title is None or title >= content_start:
            return
        for group in groups[title:content_start]:
            if group.labels & MIGHT_BE_CONTENT:
                group.set_content(True, BOILERPIPE_TITLE)


@dataclass(frozen=True)
class SimpleBlockFusionProcessor:
    """Fuses neighbouring blocks of equal text density (one run after another)."""

    def __call__(self, document: Document) -> None:
        groups = text_blocks(document)
        if len(groups) < 2:
            return
        previous = groups[0]
        for group in groups[1:]:
            if group.text_density == previous.text_density:
                previous.fuse(group)
            else:
                previous = group
