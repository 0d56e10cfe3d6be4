"""What a test of the labels at an article's edges would take from the default's text.

Usage (from the repository root)::

    python benchmarks/edge_labels.py --from-scores FILE [CORPUS ...] [--save FILE] [--samples N]

On a page the article gate takes for an article (as ``article_end.py``), a
kept block outside the article's prose run (before its first kept
paragraph of prose, ``article_end.kept_prose``, or after its last) whose whole
text is a lone word (a section's label, a kicker) or a keyword list joined
by commas may not be the article's. For each variant (before, after or
both; lone words, keyword lists or bare ones; headings or not; linked or
not), the figures
``rule_tests.compare`` prints. With ``--samples N``, N blocks each variant
takes are printed per corpus, each marked + (content by the reference,
``block_targets``) or - (not content).

The split byline ("By" / the name in two blocks) is measured apart, in
``split_bylines.py``: its decision may keep a block, which ``compare`` does
not measure.
"""

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
from benchmarks.rule_tests import compare  # noqa: E402
from scrapy_declutter.core.document import Document  # noqa: E402
from scrapy_declutter.core.reasons import DATA_TABLE  # noqa: E402
from scrapy_declutter.stages.article_end import (  # noqa: E402
    MOSTLY_LINKS,
    kept_prose,
    taken_for_article,
)
from scrapy_declutter.stages.content_region import KEEPING  # noqa: E402

_PUNCTUATION = "()[]{}:;,.!?|/\"'“”\u2018\u2019·•-\u2013—»«#*"
# A word of letters (a hyphen or an apostrophe inside): no number, no code.
_WORD = re.compile("[^\\W\\d_]+(?:[-'\u2019&][^\\W\\d_]+)*")
# A list's label ("Tags:", "Keywords:") before its items.
LABEL_WORDS = 2
ITEM_WORDS = 3
MIN_ITEMS = 3
CONJUNCTIONS = frozenset(("and", "or", "&"))


class Candidate(NamedTuple):
    """What the tests read of a kept block."""

    article: bool
    where: str  # "before" or "after" the article's prose run, "inside", or "" (no prose)
    text: str
    words: int
    heading: bool
    h1: bool
    linked: bool
    in_table: bool
    item: bool  # in a list's item (<li>)


def is_lone_word(text: str, words: int) -> bool:
    """Whether the whole text is one word of letters (punctuation around it aside)."""
    tokens = text.split()
    return (
        words == 1
        and len(tokens) == 1
        and _WORD.fullmatch(tokens[0].strip(_PUNCTUATION)) is not None
    )


def is_keyword_list(text: str, label: bool = True) -> bool:
    """Whether the whole text is ``MIN_ITEMS`` or more items of at most
    ``ITEM_WORDS`` words of letters joined by commas (with ``label``, after a
    label of ``LABEL_WORDS`` words and a colon)."""
    if label and ":" in text:
        head, text = text.split(":", 1)
        if len(head.split()) > LABEL_WORDS:
            return False
    items = [item.split() for item in text.split(",")]
    return len(items) >= MIN_ITEMS and all(
        0 < len(item) <= ITEM_WORDS and all(_WORD.fullmatch(w.strip("&")) or w == "&" for w in item)
        for item in items
    )


def candidates(document: Document) -> list[tuple[str, Candidate]]:
    """Each kept block's text, and what the tests read of it."""
    article = taken_for_article(document)
    blocks = document.blocks
    kept = [b.reason in KEEPING for b in blocks]
    prose = kept_prose(document)
    result = []
    for i, b in enumerate(blocks):
        if not kept[i]:
            continue
        if not prose:
            where = ""
        else:
            where = "before" if i < prose[0] else "after" if i > prose[-1] else "inside"
        candidate = Candidate(
            article,
            where,
            b.text,
            b.words,
            b.heading,
            b.element.tag == "h1",
            b.link_density >= MOSTLY_LINKS,
            b.reason == DATA_TABLE,
            b.element.tag == "li" or any(a.tag == "li" for a in b.element.iterancestors()),
        )
        result.append((b.text, candidate))
    return result


def at_edge(
    wheres: tuple[str, ...], test: Callable[[Candidate], bool]
) -> Callable[[Candidate], bool]:
    """The test on an article page's kept blocks at ``wheres``, never a table's cell or an h1."""
    return lambda c: c.article and c.where in wheres and not c.in_table and not c.h1 and test(c)


def lone(c: Candidate) -> bool:
    return is_lone_word(c.text, c.words)


def keywords(c: Candidate) -> bool:
    return is_keyword_list(c.text)


def bare_keywords(c: Candidate) -> bool:
    """A keyword list with no conjunction ("A, B, and C" is a sentence's
    list), not a list's item nor a heading."""
    words = {w.strip(",").lower() for w in c.text.split()}
    return keywords(c) and not c.heading and not c.item and not words & CONJUNCTIONS


EDGES = {"before": ("before",), "after": ("after",), "both": ("before", "after")}
TESTS: dict[str, Callable[[Candidate], bool]] = {}
for edge, wheres in EDGES.items():
    TESTS[f"lone word {edge}"] = at_edge(wheres, lone)
    TESTS[f"lone word {edge}, no heading"] = at_edge(wheres, lambda c: lone(c) and not c.heading)
for edge, wheres in EDGES.items():
    TESTS[f"keyword list {edge}"] = at_edge(wheres, keywords)
    TESTS[f"bare keyword list {edge}"] = at_edge(wheres, bare_keywords)
# A short link is out already (the region's link rule): linked lone words are few.
TESTS["lone word both, linked"] = at_edge(EDGES["both"], lambda c: lone(c) and c.linked)
TESTS["keyword list both, linked"] = at_edge(EDGES["both"], lambda c: keywords(c) and c.linked)
TESTS["keyword list both, no label"] = at_edge(
    EDGES["both"], lambda c: is_keyword_list(c.text, label=False) and not c.heading
)
TESTS["both kinds both, no heading"] = at_edge(
    EDGES["both"], lambda c: (lone(c) or keywords(c)) and not c.heading
)
TESTS["any page: lone word both, no heading"] = lambda c: (
    c.where in EDGES["both"] and not c.in_table and not c.heading and lone(c)
)


class NoStage:
    """No stage of the default is left out: the tests are not in it."""


if __name__ == "__main__":
    compare(__doc__.split("\n\n")[0], NoStage, TESTS, candidates)
