"""The ``declutter`` pipeline's own stages: a learned content score and a region.

After jusText's four stages, ``ScoreContent`` gives every block a probability
of being main content (``Block.score``) from two logistic models shipped in
``models/content.json``: the first reads the block's features
(``features.page_features``), the second re-reads each score beside its
neighbours' and ancestors' (``features.context_features``). Then
``KeepContentRegion`` finds the element holding the most content by score
(``features.content_region``) and keeps the blocks inside it that score above
the threshold: a tree filter that keeps several sibling groups.

The model was fitted by ``benchmarks/train_content_model.py`` on wcxb-dev with
folds by web site; the figures it prints for held-out sites are in README.rst.
"""

import json
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import repeat
from operator import add, mul
from typing import Any

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import BlockTree, Document
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.stages.content_features import (
    BLOCK_NUMBERS,
    CONTEXT_LEVELS,
    CONTEXT_NAMES,
    KINDS,
    LINE_LENGTH,
    TAGS,
    TOKEN_DEPTH,
    TOKENS,
    WORDS,
    ContextFeatures,
    PageFeatures,
    Part,
    content_region,
    context_features,
    page_features,
)

MODEL = "content.json"
# Each kind of key keeps the summed weights of this many keys; then it starts afresh.
PART_SUMS_KEPT = 50_000


@dataclass(frozen=True)
class ContentModel:
    """Weights of the two logistic stages.

    ``block_weights`` are the first stage's, by feature name (see
    ``content_features``); ``context_weights`` the second stage's, in the
    order of ``CONTEXT_NAMES`` (the model file stores them by name);
    ``fitted`` records how the model was fitted (corpora, folds, C, the
    held-out figures, the commit), for people: scoring never reads it.
    """

    block_weights: dict[str, float]
    context_weights: tuple[float, ...]
    context_bias: float
    fitted: dict = field(default_factory=dict, compare=False)
    _part_sums_by_key: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _weights_by_prefix: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def block_scores(self, features: PageFeatures) -> list[float]:
        """The first stage's probability for every block of a page."""
        weights = self.block_weights
        tree = features.tree
        tags = tree.path_sums(self._part_sums(TAGS, features.tags))
        tokens = tree.path_sums(self._part_sums(TOKENS, features.names))
        number_weights = [weights.get(name, 0.0) for name in BLOCK_NUMBERS]
        parents = tree.parents
        # The tokens of the path beyond a block's TOKEN_DEPTH nearest nodes
        # do not count; siblings share what to take off.
        beyond = {
            parent: tokens[line[TOKEN_DEPTH - 1]] if line[TOKEN_DEPTH - 1] >= 0 else 0.0
            for parent, line in tree.lines_above_blocks(LINE_LENGTH).items()
        }
        numeric = [0.0] * len(tree.block_nodes)
        for weight, column in zip(number_weights, features.numbers):
            numeric = list(map(add, numeric, map(mul, column, repeat(weight))))
        totals = [
            number + tags[node] + tokens[node] - beyond[parents[node]] + words + kind
            for number, words, kind, node in zip(
                numeric,
                self._part_sums(WORDS, features.short_texts),
                self._part_sums(KINDS, features.kinds),
                tree.block_nodes,
            )
        ]
        return _sigmoids(totals)

    def _part_sums(self, part: Part, keys: Sequence) -> list[float]:
        """The summed weights of each key's features (see ``Part``),
        remembered by key from page to page (the keys of a site's pages are
        mostly the same: tags, class names, short texts such as "Home")."""
        sums = self._part_sums_by_key.get(part)
        if sums is None or len(sums) > PART_SUMS_KEPT:
            sums = self._part_sums_by_key[part] = {}
        found = list(map(sums.get, keys))
        weight = self._weights_after(part.prefix).get
        names = part.names
        for i in [i for i, value in enumerate(found) if value is None]:
            value = sums.get(keys[i])  # the same key earlier on this page
            if value is None:
                value = sums[keys[i]] = sum(map(weight, names(keys[i]), repeat(0.0)))
            found[i] = value
        return found

    def _weights_after(self, prefix: str) -> dict[str, float]:
        """The weights of the features named ``prefix...``, by the rest of their name."""
        weights = self._weights_by_prefix.get(prefix)
        if weights is None:
            weights = self._weights_by_prefix[prefix] = {
                name[len(prefix) :]: weight
                for name, weight in self.block_weights.items()
                if name.startswith(prefix)
            }
        return weights

    def context_scores(self, features: ContextFeatures) -> list[float]:
        """The second stage's probability for every block: the logistic of
        ``context_bias`` plus its row of ``features.rows()`` weighted by
        ``context_weights``, with each ancestor's part weighted once."""
        weights = self.context_weights
        own, before2, before1, after1, after2 = weights[:5]
        end = 5 + 2 * len(CONTEXT_LEVELS)
        pairs = list(zip(weights[5:end:2], weights[6:end:2]))  # (mean, share) per level
        page_weights = weights[end:]
        constant = self.context_bias + sum(map(mul, page_weights[:3], features.page))
        short_term = page_weights[3] + page_weights[4] * features.page[1]  # the link share
        parts = [
            {node: mean_weight * mean + share_weight * shares[node] for node, mean in means.items()}
            for (mean_weight, share_weight), means, shares in zip(
                pairs, features.means, features.shares
            )
        ]
        missing = [
            mean_weight * features.MISSING[0] + share_weight * features.MISSING[1]
            for mean_weight, share_weight in pairs
        ]
        by_parent = {  # siblings share their ancestors
            parent: constant
            + sum(
                part[node] if node >= 0 else absent
                for part, absent, node in zip(parts, missing, line)
            )
            for parent, line in features.lines.items()
        }
        logits = features.logits  # with two pads at each edge
        return _sigmoids(
            by_parent[parent]
            + (short_term if short else 0.0)
            + before2 * two_before
            + before1 * one_before
            + own * logit
            + after1 * one_after
            + after2 * two_after
            for parent, short, two_before, one_before, logit, one_after, two_after in zip(
                features.parents,
                features.short_links,
                logits,
                logits[1:],
                logits[2:],
                logits[3:],
                logits[4:],
            )
        )

    def to_json(self) -> dict:
        """The model file's content: every weight by name."""
        return {
            "fitted": self.fitted,
            "block_weights": self.block_weights,
            "context_weights": dict(zip(CONTEXT_NAMES, self.context_weights)),
            "context_bias": self.context_bias,
        }

    @classmethod
    def from_json(cls, data: dict) -> "ContentModel":
        """The model a file holds (``to_json``'s shape); a context feature the
        file does not name weighs 0, a name this code does not know is an error."""
        named = data["context_weights"]
        unknown = set(named) - set(CONTEXT_NAMES)
        if unknown:
            raise ValueError(f"unknown context features in the model: {sorted(unknown)}")
        return cls(
            data["block_weights"],
            tuple(named.get(name, 0.0) for name in CONTEXT_NAMES),
            data["context_bias"],
            data.get("fitted", {}),
        )


def _sigmoids(totals: Iterable[float]) -> list[float]:
    exp = math.exp
    return [1 / (1 + exp(-x)) if x > -500 else 0.0 for x in totals]


@cache
def load_model(name: str = MODEL) -> ContentModel:
    """The shipped model, read once per process."""
    data = json.loads((resources.files(__package__) / "models" / name).read_text("utf-8"))
    return ContentModel.from_json(data)


@dataclass(frozen=True)
class ScoreContent:
    """Sets ``Block.score``, the model's probability that a block is content,
    and ``Block.block_score``, the first stage's (the block's own features)."""

    model: str = MODEL

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        if not blocks:
            return
        model = load_model(self.model)
        first = model.block_scores(page_features(document))
        lengths = [len(b.text) for b in blocks]
        context = context_features(first, document.tree(), lengths, short_links(blocks))
        for block, block_score, score in zip(blocks, first, model.context_scores(context)):
            block.block_score = block_score
            block.score = score


# Why ``KeepContentRegion`` kept a block or did not (``KeepContentRegion.decide``).
KEPT = "kept: above the threshold in the content region"
KEPT_BY_FALLBACK = "kept by the fallback: the model kept nothing"
BELOW_THRESHOLD = "dropped: below the threshold"
SHORT_LINK = "dropped: a short link below its own threshold"
SURE_BOILERPLATE_REASON = "dropped: its own features say boilerplate"
OUTSIDE_REGION = "dropped: outside the content region"
COPYRIGHT = "dropped: a copyright notice (©)"
HIDDEN = "dropped: a browser does not show it"
KEEPING = frozenset((KEPT, KEPT_BY_FALLBACK))


@dataclass(frozen=True)
class KeepContentRegion:
    """Labels good the blocks scoring above ``threshold`` inside the content
    region (see ``features.content_region``), and every other block bad.

    The region is found with a lower bar, ``threshold - REGION_MARGIN``: it
    should take in every sibling group of content, also those the model is
    less sure of; then it narrows to a child holding all but
    ``REGION_TIGHTNESS`` of its content; within it, the threshold decides
    block by block.

    A short link ("Home", "Sport"; at most ``SHORT_LINK_WORDS`` words, mostly
    link text) needs ``short_link_threshold``: jusText's first observation is
    that short blocks with links are almost always boilerplate, and the model,
    which weighs a block's neighbours, lets menus beside an article through.
    A block whose first-stage score (``Block.block_score``) is at most
    ``SURE_BOILERPLATE`` is never kept: on a small page every neighbour and
    ancestor looks like content, and the context alone would lift a footer.

    Two of jusText's hard rules hold whatever the scores (``ruled_out``): a
    block with a © sign is a copyright line or a photo credit, and a block a
    browser does not show (see ``hidden_nodes``) is no content.

    When that keeps nothing, the fallback keeps jusText's good blocks (the
    labels when the stage runs) that the hard rules let through, save those
    in the page's furniture (``furniture_nodes``): a page of one long
    paragraph in a language the model was not fitted on still has its text,
    and a footer of disclaimers that jusText likes is not handed back in its
    place.
    """

    threshold: float = 0.43
    short_link_threshold: float = 0.9

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        tree = document.tree()
        reasons = self.decide(
            [b.score or 0.0 for b in blocks],
            [b.block_score for b in blocks],
            tree,
            [len(b.text) for b in blocks],
            short_links(blocks),
            fallback(blocks, tree),
            ruled_out(blocks, tree),
        )
        for block, reason in zip(blocks, reasons):
            block.label = GOOD if reason in KEEPING else BAD

    def decide(
        self,
        scores: Sequence[float],
        block_scores: Sequence[float | None],
        tree: BlockTree,
        lengths: Sequence[int],
        short_links: Sequence[bool],
        fallback: Sequence[bool],
        ruled_out: Sequence[str | None],
    ) -> list[str]:
        """Why each block is kept or not (one of the reasons above), from the
        final and first-stage scores (``None``: not known), lengths,
        short-link flags, what the fallback would keep (see ``fallback``) and
        the hard rules' verdicts."""
        region = content_region(
            scores, tree, lengths, self.threshold - REGION_MARGIN, REGION_TIGHTNESS
        )
        start, end = (region, tree.subtree_ends[region]) if region is not None else (0, 0)
        reasons = [
            rule
            or (
                SURE_BOILERPLATE_REASON
                if block_score is not None and block_score <= SURE_BOILERPLATE
                else SHORT_LINK
                if short_link and score <= self.short_link_threshold
                else BELOW_THRESHOLD
                if score <= self.threshold
                else KEPT
                if start <= node < end
                else OUTSIDE_REGION
            )
            for score, block_score, node, short_link, rule in zip(
                scores, block_scores, tree.block_nodes, short_links, ruled_out
            )
        ]
        if KEPT in reasons:
            return reasons
        return [
            KEPT_BY_FALLBACK if keep and rule is None else reason
            for keep, rule, reason in zip(fallback, ruled_out, reasons)
        ]

    def keep(self, *args, **kwargs) -> list[bool]:
        """Which blocks to keep (``decide``'s arguments)."""
        return [reason in KEEPING for reason in self.decide(*args, **kwargs)]


SHORT_LINK_WORDS = 3
# Held out, finding the region 0.08 below the threshold raised the best F1
# from 0.823 (one threshold for both, 0.43) to 0.828 (0.46).
REGION_MARGIN = 0.08
# Held out at 0.43, a region narrowed to the child holding 85% of its sum
# gave F1 0.838 against 0.828 at 0.47 without it, and a without-snippet
# rate of 4.4% against 6.3%; not narrowing to a child that holds one block
# (a flat page's long paragraph) gave 0.839 (0.841 at 0.40, 0.830 at 0.47).
REGION_TIGHTNESS = 0.15
# Held out at 0.43, never keeping blocks the first stage scores 0.2 or less
# gave F1 0.840 (precision 0.859), against 0.839 (0.856) at 0.1 and 0.840 at
# 0.15; flooring their final score instead cost 0.0036 F1 (the region moves).
SURE_BOILERPLATE = 0.2


def short_links(blocks: Sequence[Block]) -> list[bool]:
    """Which blocks are short links: at most ``SHORT_LINK_WORDS`` words, more
    than half of their text in links."""
    return [b.words <= SHORT_LINK_WORDS and 2 * b.link_chars > len(b.text) for b in blocks]


def ruled_out(blocks: Sequence[Block], tree: BlockTree) -> list[str | None]:
    """The hard rules' verdict on each block: ``COPYRIGHT``, ``HIDDEN`` or ``None``."""
    hidden = marked_nodes(tree, _is_hidden)
    return [
        HIDDEN if hidden[node] else COPYRIGHT if "\xa9" in block.text else None
        for block, node in zip(blocks, tree.block_nodes)
    ]


def fallback(blocks: Sequence[Block], tree: BlockTree) -> list[bool]:
    """What the fallback may keep: jusText's good blocks outside the page's
    furniture (an element whose tag or ARIA role says footer, navigation,
    sidebar or banner, or one inside it)."""
    furniture = marked_nodes(tree, _is_furniture)
    return [b.is_good and not furniture[node] for b, node in zip(blocks, tree.block_nodes)]


def marked_nodes(tree: BlockTree, mark: Callable[[Any], bool]) -> list[bool]:
    """For every node of ``tree``: whether ``mark`` holds for its element or
    an ancestor's. One look at each node."""
    marked: list[bool] = []
    for element, parent in zip(tree.elements, tree.parents):
        marked.append((parent >= 0 and marked[parent]) or mark(element))
    return marked


_HIDING_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def _is_hidden(element) -> bool:
    """Hidden from a reader by the ``hidden`` attribute, ``aria-hidden="true"``
    or an inline ``display: none`` or ``visibility: hidden`` style
    (``<template>`` is never a block: see ``core.blocks.SKIPPED_TAGS``)."""
    get = element.get
    style = get("style")
    return (
        get("hidden") is not None
        or get("aria-hidden") == "true"
        or (style is not None and _HIDING_STYLE.search(style) is not None)
    )


FURNITURE_TAGS = frozenset(("footer", "nav", "aside", "header"))
FURNITURE_ROLES = frozenset(("contentinfo", "navigation", "complementary", "banner"))


def _is_furniture(element) -> bool:
    return element.tag in FURNITURE_TAGS or element.get("role") in FURNITURE_ROLES
