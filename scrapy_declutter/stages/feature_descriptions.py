"""What each of the content model's features means, in words, for ``explain`` and the report.

A feature's name is either whole (``ld``, ``own``, ``share3``) or a prefix
and a value (``in:nav``, ``tok:menu``, ``cf:good``). ``describe(name)`` gives
the sentence for either; ``FEATURES`` and ``PREFIXES`` are the one table of
them, which docs/algorithms/content-model.rst quotes (``tests/test_docs.py``
checks it). The features themselves are made in ``content_features.py``.
"""

from scrapy_declutter.stages.content_features import (
    CONTEXT_LEVELS,
    REPEATED_SIBLINGS,
    SHORT_LINK_WORDS,
    SHORT_TEXT_WORDS,
    TOKEN_DEPTH,
)

_ANCESTORS = {1: "parent", 2: "grandparent", 3: "great-grandparent"}


def _ancestor(level: int) -> str:
    return _ANCESTORS.get(level, f"ancestor {level} levels up")


# Whole names: the first stage's numbers and flags, then the second stage's.
FEATURES: dict[str, str] = {
    "len": "the block's length in characters (log)",
    "words": "the block's number of words (log)",
    "ld": "link density: the share of the block's characters inside links",
    "sd": "stopword density: the share of the block's words in the page's stoplist",
    "pos": "where the block is in the page: 0 at the top, 1 at the bottom",
    "digits": "the share of the block's characters that are digits",
    "bias": "every block has it: the model's starting point",
    "heading": "the block is a heading (h1 to h6)",
    "endpunct": "the block's text ends with . ! ? : or ;",
    "title": "the block is the page's title, or most of it",
    "endcue": "the block is an end-of-article cue ('Comments', 'Related posts', 'Share this', ...)",
    "after_end": "the block comes after an end-of-article cue",
    "in:card": f"inside a card of a grid: an element among {REPEATED_SIBLINGS} or more siblings "
    "of its tag and class, with two blocks or more",
    "in:repeat": f"inside an element among {REPEATED_SIBLINGS} or more siblings of its tag and "
    "class, with one block (a menu's entry, a teaser)",
    "own": "the block's own score, from the first stage (log-odds)",
    "before1": "the first-stage score of the block before",
    "before2": "the first-stage score of the block two before",
    "after1": "the first-stage score of the block after",
    "after2": "the first-stage score of the block two after",
    **{
        f"mean{level}": f"the mean first-stage score (by length) of the blocks under the "
        f"block's {_ancestor(level)}"
        for level in CONTEXT_LEVELS
    },
    **{
        f"share{level}": f"the share of the page's text under the block's {_ancestor(level)}"
        for level in CONTEXT_LEVELS
    },
    "page_mean": "the page's mean first-stage score (by length)",
    "page_link_share": "the share of the page's text in short links",
    "page_size": "the page's number of blocks (log)",
    "short_link": f"the block is a short link: {SHORT_LINK_WORDS} words or fewer, "
    "more than half of its text in a link",
    "short_link_x_link_share": "a short link, times the page's share of text in short links",
}

# Prefixes of a name and a value, ``{}`` standing for the value (``good``,
# ``nav``, ``menu``); the neighbour of the first or last block is the edge.
PREFIXES: dict[str, str] = {
    "cf:": "jusText's first class of the block, from its own counts: {}",
    "jt:": "jusText's final class of the block, after its neighbours: {}",
    "tag:": "the block's own tag: <{}> ('other' for tags not listed)",
    "prev:": "jusText's first class of the block before: {}",
    "next:": "jusText's first class of the block after: {}",
    "prevjt:": "jusText's final class of the block before: {}",
    "nextjt:": "jusText's final class of the block after: {}",
    "tok:w:": f"the word '{{}}' in a short block's text ({SHORT_TEXT_WORDS} words or fewer)",
    "in:role:": "inside an element whose ARIA role is {} ('modal': aria-modal=\"true\")",
    "in:": "inside a <{}> element",
    "tok:": f"'{{}}' in the class or id of the block's element or of its {TOKEN_DEPTH - 1} "
    "nearest ancestors",
}
# Longest first: "tok:w:home" is a word, not the class token "w:home".
_BY_LENGTH = sorted(PREFIXES, key=len, reverse=True)


def describe(name: str) -> str:
    """What the feature ``name`` says of a block, in words (the name itself
    for one this module does not know)."""
    if name in FEATURES:
        return FEATURES[name]
    for prefix in _BY_LENGTH:
        if name.startswith(prefix):
            value = name[len(prefix) :]
            return PREFIXES[prefix].format("none, the page's edge" if value == "edge" else value)
    return name
