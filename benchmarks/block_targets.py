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
the first 300 pages of each corpus, this takes the label from 26% of
wcxb-dev's short blocks the first test calls content, 65% of dragnet's and
45% of l3s-gn1's (``benchmarks/results/block-targets.txt``).

Usage (from the repository root)::

    python -m benchmarks.block_targets [CORPUS ...] [--limit 300] [--save FILE]

prints, for each corpus, how many short blocks the first test calls content
and how many of them the alignment keeps as content.
"""

import argparse
import difflib
import re
from pathlib import Path

# Blocks of fewer words are labelled content only where they align.
LONG_BLOCK_WORDS = 8
_NON_WORD = re.compile(r"\W+")


def block_words(text: str) -> list[str]:
    """The text's lower-cased words, punctuation dropped."""
    return _NON_WORD.sub(" ", text.lower()).split()


def block_targets(texts: list[str], main_content: str) -> list[int]:
    """1 for each block that is content by the module's rules, else 0."""
    return [target for _, _, target in _labels(texts, main_content)]


def short_block_counts(texts: list[str], main_content: str) -> tuple[int, int]:
    """Of the page's short blocks, how many the first test calls content, and
    how many of those are content once aligned."""
    short = [
        (in_reference, target)
        for words, in_reference, target in _labels(texts, main_content)
        if 0 < words < LONG_BLOCK_WORDS
    ]
    return sum(in_reference for in_reference, _ in short), sum(target for _, target in short)


def _labels(texts: list[str], main_content: str) -> list[tuple[int, bool, int]]:
    """For each block: its number of words, whether the reference holds them
    in order (the first test), and its label."""
    reference_words = block_words(main_content)
    reference = f" {' '.join(reference_words)} "
    vocabulary = set(reference_words)
    words = [block_words(text) for text in texts]
    aligned = _aligned_words(words, reference_words)
    labels = []
    for tokens, in_order in zip(words, aligned):
        in_reference = bool(tokens) and f" {' '.join(tokens)} " in reference
        if in_reference:
            target = len(tokens) >= LONG_BLOCK_WORDS or 2 * in_order >= len(tokens)
        else:
            covered = sum(t in vocabulary for t in tokens) / len(tokens) if tokens else 0
            target = len(tokens) >= LONG_BLOCK_WORDS and covered >= 0.9
        labels.append((len(tokens), in_reference, int(target)))
    return labels


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


def main() -> None:
    from benchmarks.corpus import SAVE_HELP, default_corpora, load_pages, save_output
    from scrapy_declutter.core.document import build_document

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--limit", type=int, default=300)
    parser.add_argument("--save", type=Path, help=SAVE_HELP)
    args = parser.parse_args()
    save_output(args.save)
    corpora = args.corpora or default_corpora()
    for corpus in corpora:
        found = kept = 0
        for page in load_pages(corpus, limit=args.limit):
            texts = [block.text for block in build_document(page.html, language="auto").blocks]
            page_found, page_kept = short_block_counts(texts, page.main_content or "")
            found, kept = found + page_found, kept + page_kept
        print(
            f"{corpus.name}: {args.limit} pages; short blocks in the reference {found}, "
            f"of them aligned {kept}; {1 - kept / (found or 1):.0%} lose the label",
            flush=True,
        )


if __name__ == "__main__":
    main()
