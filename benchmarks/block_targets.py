"""What the content models learn from: each block labelled content or not,
from the page's reference text (its ``main_content``).

A block is content when its words appear, in order, in the reference; a long
block (``LONG_BLOCK_WORDS`` or more) also when nine in ten of its words are
in the reference's vocabulary (a paragraph the annotator lightly edited).

A short block must also be where the reference has it. "News", "Sports" or
"Read more" occur in many an article's text, so a menu entry or a button
with those words would be content by the first test; the page's words are
aligned to the reference's (``difflib``: the longest common runs, in order),
and a short block counts only when most of its words are in those runs. On
300 pages of each corpus, this takes content from 65% of dragnet's short
blocks the first test calls content and 26% of wcxb-dev's.
"""

import difflib
import re

# Blocks of fewer words are labelled content only where they align.
LONG_BLOCK_WORDS = 8
_NON_WORD = re.compile(r"\W+")


def block_words(text: str) -> list[str]:
    """The text's lower-cased words, punctuation dropped."""
    return _NON_WORD.sub(" ", text.lower()).split()


def block_targets(texts: list[str], main_content: str) -> list[int]:
    """1 for each block that is content by the module's rules, else 0."""
    reference_words = block_words(main_content)
    reference = f" {' '.join(reference_words)} "
    vocabulary = set(reference_words)
    words = [block_words(text) for text in texts]
    aligned = _aligned_words(words, reference_words)
    targets = []
    for tokens, in_order in zip(words, aligned):
        if tokens and f" {' '.join(tokens)} " in reference:
            targets.append(int(len(tokens) >= LONG_BLOCK_WORDS or 2 * in_order >= len(tokens)))
        else:
            covered = sum(t in vocabulary for t in tokens) / len(tokens) if tokens else 0
            targets.append(int(len(tokens) >= LONG_BLOCK_WORDS and covered >= 0.9))
    return targets


def _aligned_words(words: list[list[str]], reference_words: list[str]) -> list[int]:
    """For each block, how many of its words are in the runs the page's words
    share with the reference's, in order."""
    page_words = [word for block in words for word in block]
    owners = [i for i, block in enumerate(words) for _ in block]
    aligned = [0] * len(words)
    matcher = difflib.SequenceMatcher(None, page_words, reference_words)
    for start, _, size in matcher.get_matching_blocks():
        for position in range(start, start + size):
            aligned[owners[position]] += 1
    return aligned
