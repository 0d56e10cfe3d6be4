"""The ``declutter`` pipeline's last stage: keep the content region.

``ScoreContent`` (``content_model.py``) gives every block a probability of
being main content; ``KeepContentRegion`` then finds the element holding the
most content by score (``content_region``) and keeps the blocks inside it that
score above the threshold: a tree filter that keeps several sibling groups.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat

from scrapy_declutter.core.document import BlockTree, Document
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.reasons import (
    BELOW_THRESHOLD,
    BOILERPLATE_GUARD,
    CONTENT_REGION,
    FALLBACK,
    OUTSIDE_REGION,
    SHORT_LINK,
)
from scrapy_declutter.stages.content_features import short_links

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


@dataclass(frozen=True)
class KeepContentRegion:
    """Labels good the blocks scoring above ``threshold`` inside the content
    region (see ``content_region``), and every other block bad.

    The region is found with a lower bar, ``threshold - REGION_MARGIN``: it
    should take in every sibling group of content, also those the model is
    less sure of; then it narrows to a child holding all but
    ``REGION_TIGHTNESS`` of its content; within it, the threshold decides
    block by block.

    A short link ("Home", "Sport"; see ``content_features.short_links``) needs
    ``short_link_threshold``: jusText's first observation is that short blocks
    with links are almost always boilerplate, and the model, which weighs a
    block's neighbours, lets menus beside an article through.
    A block whose first-stage score (``Block.block_score``) is at most
    ``SURE_BOILERPLATE`` is never kept: on a small page every neighbour and
    ancestor looks like content, and the context alone would lift a footer.
    When that keeps nothing, jusText's labels stand (the blocks' labels when
    the stage runs): a page of one long paragraph in a language the model
    was not fitted on still has its text.
    """

    threshold: float = Options.content_threshold
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


def content_region(
    scores: Sequence[float],
    tree: BlockTree,
    lengths: Sequence[int],
    threshold: float,
    tightness: float = 0.0,
) -> int | None:
    """The node whose subtree holds the most content by score: each block
    adds ``(score - threshold) * length`` to its element and every ancestor,
    and the largest sum wins. Unlike the grandparent filter's single group, it
    can span many sibling groups when the content is spread over them.

    Then, while a child of the winner holds all but ``tightness`` of its sum,
    that child wins: a wrapper that adds little content to the article it
    holds mostly adds boilerplate (a promo, the comments' heading). A region
    holds blocks: a child with one block under it (a long paragraph of a flat
    page) never wins."""
    sums = tree.subtree_sums((s - threshold) * n for s, n in zip(scores, lengths))
    if not sums:
        return None
    blocks = tree.subtree_sums(repeat(1, len(lengths)))
    region = max(range(len(sums)), key=sums.__getitem__)
    bar = sums[region] - tightness * abs(sums[region])
    while candidates := [
        child for child in tree.children(region) if sums[child] >= bar and blocks[child] > 1
    ]:
        region = max(candidates, key=sums.__getitem__)
    return region
