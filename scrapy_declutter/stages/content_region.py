"""The ``declutter`` pipeline's last stage: keep the content region.

``ScoreContent`` (``content_model.py``) gives every block a probability of
being main content; ``KeepContentRegion`` then finds the element holding the
most content by score (``content_region``) and keeps the blocks inside it that
score above the threshold: a tree filter that keeps several sibling groups;
jusText's hard rules (a © sign, text a browser does not show) hold whatever
the scores. What the page says about its blocks, whatever their scores (the
hard rules' verdicts, its furniture, its navigation), is read in
``page_marks.py``.
"""

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import BlockTree, Document
from scrapy_declutter.core.labels import BAD, GOOD, NEAR_GOOD
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.reasons import (
    BELOW_THRESHOLD,
    BEST_GUESS,
    BOILERPLATE_GUARD,
    COMMENTS,
    CONTENT_REGION,
    DATA_TABLE,
    FALLBACK,
    HEADLINE,
    OUTSIDE_REGION,
    PAGE_EDGE,
    REPEATED,
    SHORT_LINK,
)
from scrapy_declutter.core.tables import DataTables, data_tables
from scrapy_declutter.stages.content_features import short_links
from scrapy_declutter.stages.page_edge import prose_at_edge
from scrapy_declutter.stages.page_marks import fallback, in_navigation, ruled_out

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
# Held out by site at 0.43, when nothing clears the threshold, finding the
# region again with the threshold 0.02 below the page's best score gave F1
# 0.837 / 0.912 / 0.935 on wcxb-dev / dragnet / l3s-gn1 against 0.837 / 0.909
# / 0.935, and 20 / 5 / 4 empty pages against 25 / 15 / 4 (0.05 and 0.1 below
# gave the same to 0.0006).
BEST_GUESS_MARGIN = 0.02


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

    A data table (``core.tables``) whose header or caption the region keeps
    is kept whole, save what a hard rule removes: its cells are short, often
    numbers or links ("$26", "Yes"), that the model, block by block, leaves
    out, and a table with holes loses its rows.

    Two of jusText's hard rules hold whatever the scores
    (``page_marks.ruled_out``): a block with a © sign is a copyright line or
    a photo credit, and a block a browser does not show (see
    ``page_marks.hidden_nodes``) is no content. The page's comment section
    (see ``comments.comment_section``) is ruled out too, and the region is
    found as if it were not there: a long thread would otherwise win it from
    the article above. The page's navigation and footers (see
    ``page_marks.in_navigation``) add nothing for a region, only against it,
    though what of them lies inside it may be kept: a shop's menu of every
    department would win it from the product.

    When that keeps nothing, the fallback keeps jusText's good blocks (the
    labels when the stage runs) that the hard rules let through, save those
    in the page's furniture (see ``page_marks.fallback``): a page of one long
    paragraph in a language the model was not fitted on still has its text,
    and a footer of disclaimers that jusText likes is not handed back in its
    place.
    When that keeps nothing too, the region is found again with the threshold
    ``BEST_GUESS_MARGIN`` below the page's best score (never down to
    ``SURE_BOILERPLATE``): a short post, whose few lines the model is unsure
    of, keeps its best blocks rather than nothing.
    Prose at the page's edge, which the model, reading a block beside
    neighbours it has not got, left out, is kept (see
    ``page_edge.prose_at_edge``).

    On a page the article gate takes for an article, the headline is kept
    when what is kept has none (see ``title_test``): the nearest
    block above the content that repeats the page's ``<title>``, when the
    region or the threshold alone left it out (the headline often sits
    outside the element that holds the article's body).
    """

    threshold: float = Options.content_threshold
    short_link_threshold: float = 0.9

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        decided = self.reasons(
            document,
            [b.score or 0.0 for b in blocks],
            [b.block_score for b in blocks],
            document.article_probability,
        )
        for block, reason in zip(blocks, decided):
            block.label = GOOD if reason in KEEPING else BAD
            block.reason = reason

    def reasons(
        self,
        document: Document,
        scores: Sequence[float],
        block_scores: Sequence[float | None],
        article_probability: float | None,
    ) -> list[str]:
        """``decide`` on a page's blocks with these scores and the article
        gate's probability (``None``: not known)."""
        blocks = document.blocks
        tree = document.tree()
        texts = [b.text for b in blocks]
        navigation = in_navigation(blocks, tree)
        return self.decide(
            scores,
            block_scores,
            tree,
            [len(text) for text in texts],
            short_links(blocks),
            ruled_out(document),
            lambda: fallback(blocks, tree),
            texts,
            data_tables(blocks, tree),
            title_test(texts, document.title, article_probability),
            navigation,
            prose_outside(blocks, navigation),
        )

    def keep(self, *args: Any, **kwargs: Any) -> list[bool]:
        """Which blocks the stage keeps (``decide``'s arguments; for the training script)."""
        return [reason in KEEPING for reason in self.decide(*args, **kwargs)]

    def decide(
        self,
        scores: Sequence[float],
        block_scores: Sequence[float | None],
        tree: BlockTree,
        lengths: Sequence[int],
        short_links: Sequence[bool],
        ruled_out: Sequence[str | None],
        fallback: Callable[[], Sequence[bool]],
        texts: Sequence[str],
        tables: DataTables,
        repeats_title: Callable[[int], bool] | None = None,
        navigation: Sequence[bool] | None = None,
        prose: Sequence[bool] | None = None,
    ) -> list[str]:
        """The rule that decides each block (see ``reasons.py``): the blocks to
        keep are ``CONTENT_REGION``'s and ``DATA_TABLE``'s; when there is
        none, ``FALLBACK``'s; when there is none either, ``BEST_GUESS``'s.
        From their final and first-stage scores (``None``: not known),
        lengths, short-link flags, the hard rules' verdicts (``ruled_out``),
        what the fallback would keep (a function, called only when the model
        keeps nothing), their texts, their tables (``tables``: see
        ``core.tables.data_tables``), which may be the page's headline
        (``repeats_title``: see ``title_test``; ``None``: none) and which
        are in its navigation (see ``in_navigation``; ``None``: none) and
        which are prose outside it (jusText's good or near-good by
        themselves; ``None``: none), for ``page_edge.prose_at_edge``. A block
        that its score, the link rule or the guard removes from a data table
        whose head (a header, the caption) the region keeps is
        ``DATA_TABLE``. A removed block is named by the first rule that
        removes it: a hard rule, its score, the link rule, the guard, the
        region, then a repeat of a kept text; the prose at the page's edge
        (``PAGE_EDGE``) and the headline rule (``HEADLINE``) may keep some of
        them."""
        navigation = navigation or [False] * len(scores)
        regional = scores, block_scores, tree, lengths, short_links, ruled_out, tables, navigation
        decided, whole = self._by_region(self.threshold, *regional)
        if CONTENT_REGION not in decided:
            decided = [
                FALLBACK if keep and rule is None else reason
                for keep, rule, reason in zip(fallback(), ruled_out, decided)
            ]
        if KEEPING.isdisjoint(decided):
            shown = [score for score, rule in zip(scores, ruled_out) if rule is None]
            best = max(shown, default=0.0)
            if best > SURE_BOILERPLATE:
                lowered = max(best - BEST_GUESS_MARGIN, SURE_BOILERPLATE)
                guessed, whole = self._by_region(lowered, *regional)
                decided = [BEST_GUESS if r == CONTENT_REGION else r for r in guessed]
        if prose is not None:
            decided = prose_at_edge(decided, prose, KEEPING)
        in_whole = [table in whole for table in tables.tables] if whole else None
        parents = [tree.parents[node] for node in tree.block_nodes]
        decided = _first_of_repeats(decided, texts, parents, in_whole)
        if repeats_title is not None:
            _keep_headline(decided, scores, repeats_title)
        return decided

    def _by_region(
        self,
        threshold: float,
        scores: Sequence[float],
        block_scores: Sequence[float | None],
        tree: BlockTree,
        lengths: Sequence[int],
        short_links: Sequence[bool],
        ruled_out: Sequence[str | None],
        tables: DataTables,
        navigation: Sequence[bool],
    ) -> tuple[list[str], set[int]]:
        """Each block's rule with the region and ``threshold``, before the
        fallback and the repeats, and the data tables kept whole."""
        bar = threshold - REGION_MARGIN
        scores_in_region = scores
        # the comment section adds nothing to the region's sums, the
        # navigation nothing for it (what scores below the bar, against it)
        if COMMENTS in ruled_out or any(navigation):
            scores_in_region = [
                bar if rule == COMMENTS else min(score, bar) if in_it else score
                for score, rule, in_it in zip(scores, ruled_out, navigation)
            ]
        region = content_region(scores_in_region, tree, lengths, bar, REGION_TIGHTNESS)
        start, end = (region, tree.subtree_ends[region]) if region is not None else (0, 0)
        link_threshold = self.short_link_threshold
        decided = [
            rule
            or (
                BELOW_THRESHOLD
                if score <= threshold
                else SHORT_LINK
                if short_link and score <= link_threshold
                else BOILERPLATE_GUARD
                if block_score is not None and block_score <= SURE_BOILERPLATE
                else CONTENT_REGION
                if start <= node < end
                else OUTSIDE_REGION
            )
            for score, block_score, node, short_link, rule in zip(
                scores, block_scores, tree.block_nodes, short_links, ruled_out
            )
        ]
        whole = _kept_whole(tables, decided)
        if whole:
            decided = [
                DATA_TABLE if table in whole and reason in _CELL_RULES else reason
                for table, reason in zip(tables.tables, decided)
            ]
        return decided, whole


def _keep_headline(
    decided: list[str], scores: Sequence[float], repeats_title: Callable[[int], bool]
) -> None:
    """Keeps the page's headline (``HEADLINE``): the nearest block above the
    first kept one that the region or the threshold alone removed, that
    scores above ``HEADLINE_FLOOR`` and repeats the title (``repeats_title``
    of its index), unless a kept block repeats it too. The title is tested
    last: it costs the most."""
    kept = [i for i, reason in enumerate(decided) if reason in KEEPING]
    for i in range(kept[0] - 1 if kept else -1, -1, -1):
        if decided[i] in _REGIONAL and scores[i] > HEADLINE_FLOOR and repeats_title(i):
            if not any(map(repeats_title, kept)):
                decided[i] = HEADLINE
            return


_REGIONAL = frozenset((OUTSIDE_REGION, BELOW_THRESHOLD))


def title_test(
    texts: Sequence[str], title: str | None, article_probability: float | None
) -> Callable[[int], bool] | None:
    """Whether the block of an index may be the headline of a page the
    article gate takes for an article (``article_probability`` above
    ``ARTICLE``): three words or more, no longer than twice the page's
    ``<title>``, at least ``HEADLINE_OVERLAP`` of its words in it. ``None``
    on another page."""
    if not title or article_probability is None or article_probability <= ARTICLE:
        return None
    in_title = set(_WORD.findall(title.lower()))
    longest = 2 * len(title)

    def repeats_title(i: int) -> bool:
        text = texts[i]
        if len(text) > longest:
            return False
        words = _WORD.findall(text.lower())
        in_it = sum(word in in_title for word in words)
        return len(words) >= 3 and in_it >= HEADLINE_OVERLAP * len(words)

    return repeats_title


_WORD = re.compile(r"\w+")
# Held out by site at 0.43 (the models' out-of-fold scores), keeping the
# headline so raised F1 from 0.8371 / 0.9123 / 0.9346 to 0.8365 / 0.9210 /
# 0.9395 on wcxb-dev / dragnet / l3s-gn1, the without-snippet rate from 4.26%
# to 4.29% (wcxb-dev's reference leaves the title out, the others' keep it).
# On every page, not only articles: 0.8368 / 0.9225 / 0.9400, 4.31%; with a
# floor of 0.1, 0.2 or 0.4 instead of 0.3, within 0.001 of that.
ARTICLE = 0.5
HEADLINE_FLOOR = 0.3
HEADLINE_OVERLAP = 0.8


# The rules that weigh a block alone: a cell of a kept data table needs no
# more than its place in it ("Yes", "$26", a product's name as a link).
_CELL_RULES = frozenset((BELOW_THRESHOLD, SHORT_LINK, BOILERPLATE_GUARD))


def _kept_whole(tables: DataTables, decided: Sequence[str]) -> set[int]:
    """The data tables (see ``core.tables.data_tables``) with a block naming
    a column or the table that the region keeps; only their tables are
    tested as data tables."""
    kept = zip(tables.tables, tables.names, decided)
    return {
        table
        for table, names, reason in kept
        if names and reason == CONTENT_REGION and tables.is_data(table)
    }


def _first_of_repeats(
    decided: list[str],
    texts: Sequence[str],
    parents: Sequence[int],
    in_tables: Sequence[bool] | None = None,
) -> list[str]:
    """A kept block of ``REPEATED_WORDS`` words or more whose text a kept block
    before it has (a teaser list twice over, a headline repeated) is
    ``REPEATED``: the first stays. A paragraph said twice is not: a repeat
    of ``SAID_TWICE_WORDS`` words or more in the element of its first copy
    (``parents``: each block's element's parent), whose kept neighbours
    repeat nothing (an article that says a thing twice; a template's copy
    lies in another element, a copied list or section repeats block after
    block). The cells of a data table kept whole (``in_tables``) are
    neither: values repeat in a table."""
    first_of: dict[str, int] = {}
    kept: list[int] = []
    repeats: dict[int, int] = {}  # a repeat's index: its first copy's
    for i, (reason, text) in enumerate(zip(decided, texts)):
        if reason not in KEEPING or (in_tables is not None and in_tables[i]):
            continue
        kept.append(i)
        if text.count(" ") >= REPEATED_WORDS - 1:
            first = first_of.setdefault(text.lower(), i)
            if first != i:
                repeats[i] = first
    for before, i, after in zip([-1, *kept], kept, [*kept[1:], -1]):
        if i in repeats and (
            before in repeats
            or after in repeats
            or parents[i] != parents[repeats[i]]
            or texts[i].count(" ") < SAID_TWICE_WORDS - 1
        ):
            decided[i] = REPEATED
    return decided


# Held out (fitted on the three corpora alike, threshold 0.43), dropping the
# later copies of a kept text of four words or more gave F1 0.792 against
# 0.790 on wcxb-dev, 0.903 against 0.901 on dragnet, 0.939 against 0.941 on
# l3s-gn1, with precision up on all three (0.863, 0.947, 0.966 against 0.852,
# 0.944, 0.965); dropping every copy gave 0.782, 0.898, 0.934.
REPEATED_WORDS = 4
# Held out (the four-corpus fit's scores, threshold 0.4), keeping a lone
# repeat of 15 words or more in its first copy's element changed 15 wcxb-dev
# pages, F1 0.8508 to 0.8509 by site and 0.6953 to 0.6954 left out, the other
# corpora unchanged; in any element, 0.8498 and 0.6947 (a template's copy).
SAID_TWICE_WORDS = 15


KEEPING = frozenset((CONTENT_REGION, FALLBACK, DATA_TABLE, BEST_GUESS, HEADLINE, PAGE_EDGE))


def prose_outside(blocks: Sequence[Block], navigation: Sequence[bool]) -> list[bool]:
    """Which blocks are prose outside the ``navigation``: jusText's good or
    near-good by themselves (long enough, rich in stopwords, few links)."""
    return [b.cf_label in _PROSE and not nav for b, nav in zip(blocks, navigation)]


_PROSE = frozenset((GOOD, NEAR_GOOD))


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
    region = max(range(len(sums)), key=sums.__getitem__)
    bar = sums[region] - tightness * abs(sums[region])
    block_nodes, ends = sorted(tree.block_nodes), tree.subtree_ends

    def holds_blocks(node: int) -> bool:  # a subtree's nodes are node to ends[node] - 1
        second = bisect_left(block_nodes, node) + 1
        return second < len(block_nodes) and block_nodes[second] < ends[node]

    while candidates := [
        child for child in tree.children(region) if sums[child] >= bar and holds_blocks(child)
    ]:
        region = max(candidates, key=sums.__getitem__)
    return region
