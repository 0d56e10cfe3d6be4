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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from itertools import repeat
from operator import add, mul

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import BlockTree, Document
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.core.reasons import (
    BELOW_THRESHOLD,
    BOILERPLATE_GUARD,
    CONTENT_REGION,
    FALLBACK,
    OUTSIDE_REGION,
    SHORT_LINK,
)
from scrapy_declutter.stages.content_features import (
    BLOCK_NUMBERS,
    CONTEXT_LEVELS,
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
    """Weights of the two logistic stages."""

    block_weights: dict[str, float]
    context_weights: tuple[float, ...]
    context_bias: float
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
        return {
            "block_weights": self.block_weights,
            "context_weights": list(self.context_weights),
            "context_bias": self.context_bias,
        }


def _sigmoids(totals: Iterable[float]) -> list[float]:
    exp = math.exp
    return [1 / (1 + exp(-x)) if x > -500 else 0.0 for x in totals]


@cache
def load_model(name: str = MODEL) -> ContentModel:
    """The shipped model, read once per process."""
    data = json.loads((resources.files(__package__) / "models" / name).read_text("utf-8"))
    return ContentModel(data["block_weights"], tuple(data["context_weights"]), data["context_bias"])


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
    When that keeps nothing, jusText's labels stand (the blocks' labels when
    the stage runs): a page of one long paragraph in a language the model
    was not fitted on still has its text.
    """

    threshold: float = 0.43
    short_link_threshold: float = 0.9

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        decided = self.decide(
            [b.score or 0.0 for b in blocks],
            [b.block_score for b in blocks],
            document.tree(),
            [len(b.text) for b in blocks],
            short_links(blocks),
        )
        for block, reason in zip(blocks, decided):
            if reason is not FALLBACK:  # else jusText's label stands
                block.label = GOOD if reason is CONTENT_REGION else BAD
            block.reason = reason

    def keep(
        self,
        scores: Sequence[float],
        block_scores: Sequence[float | None],
        tree: BlockTree,
        lengths: Sequence[int],
        short_links: Sequence[bool],
        justext_good: Sequence[bool],
    ) -> list[bool]:
        """Which blocks the stage keeps, given jusText's labels (for the training script)."""
        decided = self.decide(scores, block_scores, tree, lengths, short_links)
        if decided and decided[0] is FALLBACK:
            return list(justext_good)
        return [reason is CONTENT_REGION for reason in decided]

    def decide(
        self,
        scores: Sequence[float],
        block_scores: Sequence[float | None],
        tree: BlockTree,
        lengths: Sequence[int],
        short_links: Sequence[bool],
    ) -> list[str]:
        """The rule that decides each block (see ``reasons.py``): the blocks to
        keep are ``CONTENT_REGION``'s; when none is, every block is ``FALLBACK``.
        From their final and first-stage scores (``None``: not known), lengths
        and short-link flags. A removed block is named by the first rule that
        removes it: its score, the link rule, the guard, then the region."""
        region = content_region(
            scores, tree, lengths, self.threshold - REGION_MARGIN, REGION_TIGHTNESS
        )
        start, end = (region, tree.subtree_ends[region]) if region is not None else (0, 0)
        threshold, link_threshold = self.threshold, self.short_link_threshold
        decided = [
            BELOW_THRESHOLD
            if score <= threshold
            else SHORT_LINK
            if short_link and score <= link_threshold
            else BOILERPLATE_GUARD
            if block_score is not None and block_score <= SURE_BOILERPLATE
            else CONTENT_REGION
            if start <= node < end
            else OUTSIDE_REGION
            for score, block_score, node, short_link in zip(
                scores, block_scores, tree.block_nodes, short_links
            )
        ]
        return decided if CONTENT_REGION in decided else [FALLBACK] * len(decided)


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
