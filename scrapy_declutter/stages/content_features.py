"""What the content model knows of a block: features read off the block model.

A block is described by named features: its own size, link and stopword
densities and jusText classes, and its neighbours' classes; the tags around it
(``<nav>``, ``<article>``, ``<li>``, ...), their ARIA roles (``dialog``,
``navigation``, ...) and whether they are cards of a grid; the ``id``/``class``
tokens of its element and nearest ancestors (Dragnet's evidence, seed 004); a
match with the page title and end-of-text cues such as "Leave a comment"
(Boilerpipe's, seed 001). The weights live in the model (``content_model.py``);
these functions only describe.

The features of a page (``PageFeatures``) are kept in the shape that makes
scoring fast: what many blocks share (their classes and neighbours' classes,
their ancestors' tags and tokens) is one key shared by them,
and the tag and token keys sit on the tree's nodes, so the model sums an
ancestor's weights once for all the blocks under it.

The second stage sees a block through its first-stage score and its
neighbours' and ancestors' scores (``context_features``): jusText's
context-sensitive idea with learned weights, and the grandparent filter's
(seed 002) in how much of the page's text and score lie under each ancestor.
"""

import math
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from operator import mul, truediv
from typing import Any, TypeVar

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import BlockTree, Document

TOKEN = re.compile(r"[a-z]{3,20}")
DIGIT = re.compile(r"\d")
# Ancestors whose tag says something about the blocks inside them.
CONTEXT_TAGS = frozenset(
    """nav footer aside header main article form li table figure blockquote pre
    section dl address menu label h1 h2 h3 h4 h5 h6 a ul ol code time strong em
    span button small dialog""".split()
)
# ARIA roles that say what an element is for (landmarks, widgets, windows):
# an element with one of them is also ``in:role:<role>``, and
# ``aria-modal="true"`` is ``in:role:modal``.
CONTEXT_ROLES = frozenset(
    """main article navigation banner contentinfo complementary search dialog
    alertdialog menu menubar tablist tabpanel region form button listbox tooltip
    alert status note document feed modal""".split()
)
# An element among this many siblings or more of its tag and class is an item
# of a repeated group: a card of a product grid or a teaser list, a menu's
# entry. It is ``in:card`` when two blocks or more lie under it (a name and a
# price), else ``in:repeat``.
REPEATED_SIBLINGS = 4
OWN_TAGS = frozenset(
    """p li td th div h1 h2 h3 h4 h5 h6 pre blockquote dd dt body tr ul table form
    option caption center fieldset legend""".split()
)
# Boilerpipe's end-of-text idea, for the usual English cues.
END_CUE = re.compile(
    r"^(comments?|\d+ comments?|leave a (reply|comment)|related( posts| articles| stories)?"
    r"|you (may|might) also like|share this|more from|recommended|read more|latest (news|posts)"
    r"|popular)\b",
    re.IGNORECASE,
)
TOKEN_DEPTH = 5  # the elements whose id/class tokens count: the block's own and 4 ancestors
CONTEXT_LEVELS = (1, 2, 3, 4, 5)
# The ancestors a block's features read, from its parent up: its context
# levels, and the first beyond its TOKEN_DEPTH nodes.
LINE_LENGTH = max(TOKEN_DEPTH, len(CONTEXT_LEVELS))
# Tokens are read from the first TOKEN_TEXT_CHARS characters of a short
# block's text (a run of one word) or of a class and id: the corpora's longest
# class is 7,481 characters, and one regex call over megabytes of a hostile
# page would hold the interpreter, and a crawl's reactor, for 100 ms or more.
TOKEN_TEXT_CHARS = 20_000
SHORT_TEXT_WORDS = 6  # the words of shorter blocks are features ("Add to cart")
SHORT_LINK_WORDS = 3  # a block of this many words or fewer can be a short link ("Home")
_PAGE_ROOTS = frozenset(("html", "body"))

# The numeric features of a block.
BLOCK_NUMBERS = ("len", "words", "ld", "sd", "pos", "digits")


@dataclass(frozen=True, eq=False)
class PageFeatures:
    """The first-stage features of a page's blocks, as keys.

    Block i has the numbers ``numbers[k][i]`` (named by ``BLOCK_NUMBERS[k]``), the
    features ``WORDS.features(short_texts[i])`` (the words of a short block)
    and ``KINDS.features(kinds[i])`` (its classes, neighbours' classes and
    cues), the ``in:<tag>``, ``in:role:<role>``, ``in:card`` and
    ``in:repeat`` features ``TAGS.features(tags[n])`` of its element's node n
    and every ancestor of n in ``tree`` (``tags[n]``: the node's tag, its ARIA
    role and whether it is an item of a repeated group, see
    ``_context_keys``), the ``tok:<token>`` features
    ``TOKENS.features(names[n])`` of the ``class`` and ``id`` of n and its
    ancestors up to ``TOKEN_DEPTH`` nodes. A feature two of these nodes have
    counts twice: a link in a nested menu is twice ``in:ul``.

    The keys are few and recur from block to block and page to page, so the
    model weighs each key's features once (``ContentModel.block_scores``).
    """

    tree: BlockTree
    numbers: list[list[float]]
    short_texts: list[str]
    kinds: list[tuple]
    tags: list[str]
    names: list[tuple[str | None, str | None] | None]

    def of_block(self, i: int) -> dict[str, float]:
        """Block i's features as one ``dict`` (what the model is fitted on)."""
        parents = self.tree.parents
        features = {name: column[i] for name, column in zip(BLOCK_NUMBERS, self.numbers)}
        parts = [WORDS.features(self.short_texts[i]), KINDS.features(self.kinds[i])]
        node, depth = self.tree.block_nodes[i], 0
        while node >= 0:
            parts.append(TAGS.features(self.tags[node]))
            if depth < TOKEN_DEPTH:
                parts.append(TOKENS.features(self.names[node]))
            node, depth = parents[node], depth + 1
        for part in parts:
            for name in part:
                features[name] = features.get(name, 0.0) + 1.0
        return features


def page_features(document: Document) -> PageFeatures:
    """The first-stage features of every block of ``document``."""
    blocks = document.blocks
    tree = document.tree()
    tags = tree.tags
    texts = [b.text for b in blocks]
    words = [b.words for b in blocks]
    lengths = list(map(len, texts))
    n = len(blocks)
    numbers = [  # one list per name of BLOCK_NUMBERS
        [math.log1p(b.reading_length) / 6 for b in blocks],
        [math.log1p(count) / 5 for count in words],
        [b.link_chars / length for b, length in zip(blocks, lengths)],
        [b.stopwords / count if count else 0.0 for b, count in zip(blocks, words)],
        [i / n for i in range(n)],
        list(map(truediv, _digit_counts(texts), lengths)),
    ]
    # the neighbours' classes, with the page's edges
    cf_labels = ["edge", *(b.cf_label for b in blocks), "edge"]
    labels = [None, *(b.label for b in blocks), None]
    short_texts = [
        text.lower() if count <= SHORT_TEXT_WORDS else "" for text, count in zip(texts, words)
    ]
    # a block that is the title or most of it ("Bridge to open" in "Bridge to open | The Times")
    title = (document.title or "").lower()
    title_chars = len(title)
    is_title = [
        (count <= SHORT_TEXT_WORDS or length <= title_chars)
        and 2 * length >= title_chars
        and (short_text or text.lower()) in title
        for text, short_text, count, length in zip(texts, short_texts, words, lengths)
    ]
    end_cues = [count < 8 and END_CUE.match(text) is not None for text, count in zip(texts, words)]
    first_cue = end_cues.index(True) if True in end_cues else n
    # built column by column, one comprehension each, and zipped
    kinds = list(
        zip(
            cf_labels[1:],
            labels[1:],
            [tags[node] for node in tree.block_nodes],
            [b.heading for b in blocks],
            cf_labels,
            labels,
            cf_labels[2:],
            labels[2:],  # the neighbours'
            [text[-1] in ".!?:;" for text in texts],
            is_title,
            end_cues,
            [i > first_cue for i in range(n)],  # after an end-of-text cue
        )
    )
    names = [None if tag in _PAGE_ROOTS else names for tag, names in zip(tags, tree.class_and_id)]
    return PageFeatures(tree, numbers, short_texts, kinds, _context_keys(tree), names)


def _context_keys(tree: BlockTree) -> list[str]:
    """For every node, its tag and what more is known of its element, each
    after a space: ``role:<role>`` for an ARIA role among ``CONTEXT_ROLES``
    (``aria-modal="true"``: ``modal``), ``card`` or ``repeat`` for an item of
    a repeated group (see ``REPEATED_SIBLINGS``)."""
    signatures = list(zip(tree.parents, tree.tags, [names[0] for names in tree.class_and_id]))
    siblings = Counter(signatures)
    blocks_under = tree.subtree_sums([1.0] * len(tree.block_nodes))
    keys = []
    for element, role, signature, blocks in zip(
        tree.elements, tree.roles, signatures, blocks_under
    ):
        key = signature[1]
        if element.get("aria-modal") == "true":
            role = "modal"
        if role in CONTEXT_ROLES:  # of a list of roles, a browser takes the first it knows
            key += " role:" + role
        if siblings[signature] >= REPEATED_SIBLINGS:
            key += " card" if blocks >= 2 else " repeat"
        keys.append(key)
    return keys


# Every byte but the ASCII digits and the line feed; every ASCII byte.
_NOT_DIGITS = bytes(sorted(set(range(256)) - set(b"0123456789\n")))
_ASCII = bytes(range(128))


def _digit_counts(texts: Sequence[str]) -> list[int]:
    """How many decimal digits each text holds. The regex reads some ten
    nanoseconds a character: the ASCII digits of all the texts are counted
    in one ``bytes.translate`` of their UTF-8 (one line a text), and only
    when their other characters hold a digit ("\u0663", Arabic-Indic three)
    are the texts that are not ASCII searched with the regex."""
    joined = "\n".join(texts)
    if joined.count("\n") != len(texts) - 1:  # a text with a line break: never from ``segment``
        return [len(DIGIT.findall(text)) for text in texts]
    data = joined.encode("utf-8", "surrogatepass")
    counts = list(map(len, data.translate(None, _NOT_DIGITS).split(b"\n")))
    if DIGIT.search(data.translate(None, _ASCII).decode("utf-8", "surrogatepass")):
        for i, text in enumerate(texts):
            if not text.isascii():
                counts[i] = len(DIGIT.findall(text))
    return counts


@dataclass(frozen=True)
class Part:
    """A kind of key and the features it stands for: ``names(key)`` gives
    their names less the ``prefix`` all of them share, each feature worth 1,
    each name once and always in the same order (so that their weights sum to
    the same last bit in every process). The model looks the names up among
    its weights for that prefix, so a key met for the first time costs no
    string building."""

    prefix: str
    names: Callable[[Any], Collection[str]]

    def features(self, key: Any) -> list[str]:
        """The full names of ``key``'s features."""
        return [self.prefix + name for name in self.names(key)]


def _short_words(short_text: str) -> Collection[str]:
    return dict.fromkeys(TOKEN.findall(short_text, 0, TOKEN_TEXT_CHARS))


def _kind_names(kind: tuple) -> Collection[str]:
    (
        cf_label,
        label,
        tag,
        heading,
        cf_before,
        before,
        cf_after,
        after,
        end_punctuation,
        is_title,
        end_cue,
        after_end,
    ) = kind
    names = [
        "bias",
        f"cf:{cf_label}",
        f"jt:{label}",
        f"tag:{tag if tag in OWN_TAGS else 'other'}",
        f"prev:{cf_before}",
        f"next:{cf_after}",
    ]
    if before:
        names.append(f"prevjt:{before}")
    if after:
        names.append(f"nextjt:{after}")
    for name, present in (
        ("heading", heading),
        ("endpunct", end_punctuation),
        ("title", is_title),
        ("endcue", end_cue),
        ("after_end", after_end),
    ):
        if present:
            names.append(name)
    return names  # each prefix or flag once: no name twice


def _context_tag(key: str) -> Collection[str]:
    tag, *more = key.split(" ")
    return [tag, *more] if tag in CONTEXT_TAGS else more


def _class_tokens(names: tuple[str | None, str | None] | None) -> Collection[str]:
    text = " ".join(filter(None, names)) if names else ""
    return dict.fromkeys(TOKEN.findall(text[:TOKEN_TEXT_CHARS].lower()))


# The words of a short block's lower-cased text.
WORDS = Part("tok:w:", _short_words)
# What many blocks share: the block's jusText classes and tag, its
# neighbours' classes, and the title and end-of-text cues.
KINDS = Part("", _kind_names)
# The tag, ARIA role and repeats of an element around a block.
TAGS = Part("in:", _context_tag)
# The tokens of an element's ``class`` and ``id`` (``None`` for ``<html>``
# and ``<body>``, which hold every block). A class token never holds a
# colon, so the words' names ("tok:w:...") are never mistaken for one.
TOKENS = Part("tok:", _class_tokens)


# The second stage's features, by name, in the order of a row of
# ``ContextFeatures.rows()``: the block's own logit, its neighbours' (two
# before, two after), the mean logit and text share of its ancestors at each
# of ``CONTEXT_LEVELS``, the page's mean logit, short-link text share and
# size, and whether the block is a short link, alone and times that share.
CONTEXT_NAMES = (
    "own",
    "before2",
    "before1",
    "after1",
    "after2",
    *(f"{part}{level}" for level in CONTEXT_LEVELS for part in ("mean", "share")),
    "page_mean",
    "page_link_share",
    "page_size",
    "short_link",
    "short_link_x_link_share",
)

# Probabilities are clipped to [1e-4, 1 - 1e-4] before they become log-odds.
_LOWEST, _HIGHEST = 1e-4, 1 - 1e-4
_LOGIT_BOUND = math.log(_HIGHEST / _LOWEST)
# The score of a neighbour beyond the page's edge, as a logit: the edge counts
# as boilerplate, as jusText's edges count as bad (a probability of 0.007), but
# inside the clipped range (+-9.2), so it weighs less than a block the first
# stage is sure of. The shipped weights were fitted with it.
EDGE_LOGIT = -5.0


def logits(probabilities: Iterable[float]) -> list[float]:
    """The log-odds of each probability, clipped to +-``_LOGIT_BOUND``."""
    log = math.log
    return [
        log(p / (1 - p))
        if _LOWEST < p < _HIGHEST
        else _LOGIT_BOUND
        if p >= _HIGHEST
        else -_LOGIT_BOUND
        for p in probabilities
    ]


@dataclass(frozen=True, eq=False)
class ContextFeatures:
    """The second-stage features of a page's blocks, in shared parts.

    Block i has its own first-stage logit and its two neighbours' on each
    side (``logits[i + 2]``, and ``logits[i]``, ``[i + 1]``, ``[i + 3]``,
    ``[i + 4]``: two ``EDGE_LOGIT`` pads at each edge); for its ancestor at each of
    ``CONTEXT_LEVELS`` (``lines[parents[i]]``, -1 above the root, shared by
    siblings) the mean score (a logit) ``means[k][node]`` and the text share
    ``shares[k][node]`` of the blocks as far below it; the page's ``page`` numbers; and
    ``short_links[i]``. ``rows()`` lays them out as one list per block (what
    the model is fitted on); ``ContentModel.context_scores`` sums them
    without building the rows.
    """

    logits: list[float]
    parents: list[int]
    lines: dict[int, list[int]]
    means: list[dict[int, float]]
    shares: list[dict[int, float]]
    page: tuple[float, float, float]  # mean score (logit), short-link text share, size
    short_links: Sequence[bool]

    MISSING = (0.0, 1.0)  # the pair of an ancestor above the root

    def rows(self) -> list[list[float]]:
        logits, missing = self.logits, self.MISSING
        link_share = self.page[1]
        rows = []
        for i, (parent, short) in enumerate(zip(self.parents, self.short_links)):
            features = logits[i + 2 : i + 3] + logits[i : i + 2] + logits[i + 3 : i + 5]
            for means, shares, node in zip(self.means, self.shares, self.lines[parent]):
                features += (means[node], shares[node]) if node >= 0 else missing
            features += (*self.page, float(short), link_share * short)
            rows.append(features)
        return rows


@dataclass(frozen=True, eq=False)
class ContextShape:
    """What a page's second-stage features take from its tree and text
    whatever the scores (``context_shape``), so that the models that score
    the same page read it once: each block's parent (``block_parents``); for
    each of ``CONTEXT_LEVELS``, the nodes as far above the blocks, in the
    order their first block comes, with the length of the text below each
    (``sizes``) and its share of the page's (``shares``); the page's text
    length (``total``, at least 1), its short-link share and size, and the
    lines above the blocks (``BlockTree.lines_above_blocks``)."""

    block_parents: list[int]
    sizes: list[dict[int, int]]
    shares: list[dict[int, float]]
    total: int
    link_share: float
    size: float
    lines: dict[int, list[int]]
    short_links: Sequence[bool]


def context_shape(
    tree: BlockTree, lengths: Sequence[int], short_links: Sequence[bool]
) -> ContextShape:
    """The score-free part of ``context_features`` (see ``ContextShape``)."""
    total = sum(lengths) or 1
    parents = tree.parents
    block_parents = [parents[node] for node in tree.block_nodes]
    sizes: dict[int, int] = {}  # by parent: the blocks' length
    for parent, length in zip(block_parents, lengths):
        sizes[parent] = sizes[parent] + length if parent in sizes else length
    levels, shares = [], []
    for _ in CONTEXT_LEVELS:
        levels.append(sizes)
        shares.append({node: size / total for node, size in sizes.items()})
        # the next level's blocks are those of this level's nodes, by their parent
        sizes = _by_parent(sizes, parents)
    return ContextShape(
        block_parents,
        levels,
        shares,
        total,
        sum(n for n, short in zip(lengths, short_links) if short) / total,
        math.log1p(len(lengths)) / 6,
        tree.lines_above_blocks(LINE_LENGTH),
        short_links,
    )


N = TypeVar("N", int, float)


def _by_parent(values: dict[int, N], parents: Sequence[int]) -> dict[int, N]:
    """Each node's value added up by its parent (the root, ``-1``, has none),
    in the order the nodes come."""
    above: dict[int, N] = {}
    for node, value in values.items():
        if node >= 0:
            parent = parents[node]
            above[parent] = above[parent] + value if parent in above else value
    return above


def context_features(
    scores: Sequence[float],
    tree: BlockTree,
    lengths: Sequence[int],
    short_links: Sequence[bool],
    shape: ContextShape | None = None,
) -> ContextFeatures:
    """Second-stage features: each block's first-stage score, its two
    neighbours' on each side, and for its parent and further ancestors
    (``CONTEXT_LEVELS``) the length-weighted mean score of the blocks as far
    below that ancestor as this one (its siblings, its cousins, ...) and
    their share of the page's text; then the page's mean score, the share of
    its text in short links and its number of blocks, which tell a listing
    from an article, and whether the block is a short link, alone and with
    that share. Scores enter as logits. ``shape`` is the page's
    ``context_shape``, when the caller has it."""
    if shape is None:
        shape = context_shape(tree, lengths, short_links)
    parents = tree.parents
    weighted: dict[int, float] = {}  # by parent: the blocks' length-weighted score
    for parent, score, length in zip(shape.block_parents, scores, lengths):
        if parent in weighted:
            weighted[parent] += score * length
        else:
            weighted[parent] = score * length
    means = []
    for level, sizes in enumerate(shape.sizes, 1):
        # weighted has the keys of sizes, in the same order
        means.append(dict(zip(sizes, logits(map(truediv, weighted.values(), sizes.values())))))
        if level < len(shape.sizes):
            weighted = _by_parent(weighted, parents)
    page = (
        logits((sum(map(mul, scores, lengths)) / shape.total,))[0],
        shape.link_share,
        shape.size,
    )
    return ContextFeatures(
        [EDGE_LOGIT, EDGE_LOGIT, *logits(scores), EDGE_LOGIT, EDGE_LOGIT],
        shape.block_parents,
        shape.lines,
        means,
        shape.shares,
        page,
        shape.short_links,
    )


def short_links(blocks: Sequence[Block]) -> list[bool]:
    """Which blocks are short links: at most ``SHORT_LINK_WORDS`` words, more
    than half of their text in links."""
    return [b.words <= SHORT_LINK_WORDS and 2 * b.link_chars > len(b.text) for b in blocks]
