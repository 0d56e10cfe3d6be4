"""What the ``declutter`` pipeline's rules know of a page, computed once.

The rules of the decision (``rules/``, listed in ``extraction/presets.py``)
read the blocks, what the rules before them wrote on the blocks, and this:
the page's evidence, the same for every rule. Each part is computed the
first time a rule asks (most pages need few of them) and kept for the page:
the hard rules' verdicts (``page_marks.ruled_out``, the comment section of
``comment_section.py``), the navigation and the furniture, the entries of a
dated listing (``listings.py``), the data tables
(``stages.tables``), the short links, the article gate's probability (set by
the content model's stage, ``content_model.ScoreContent``) and the content
region at a threshold (``region``), which the region rule and the best guess
both read.

``StartDecision``, the chain's first step, makes the evidence before any
rule writes a label (jusText's labels, which the fallback reads, are kept
then), and leaves every block undecided (``BAD``, no reason): a rule of the
region's family decides only the blocks no rule before it decided.
"""

import operator
import re
import weakref
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

from scrapy_declutter.core.blocks import Block, is_prose
from scrapy_declutter.core.document import BlockTree, Document
from scrapy_declutter.core.labels import BAD, GOOD, NEAR_GOOD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.comment_section import comment_section
from scrapy_declutter.stages.content_features import short_links
from scrapy_declutter.stages.listings import dated_entries
from scrapy_declutter.stages.page_marks import COMMENTS as COMMENTS_VERDICT
from scrapy_declutter.stages.page_marks import fallback, in_navigation, ruled_out
from scrapy_declutter.stages.tables import DataTables, data_tables

__all__ = [
    "COMMENTS_VERDICT",
    "PageEvidence",
    "StartDecision",
    "article_probability",
    "evidence_of",
]

# The region is found a little below the threshold, so that it takes in the
# sibling groups of content the model is less sure of (the figure: the
# content region's paragraph in docs/algorithms/content-model.rst).
REGION_MARGIN = 0.08
# The region narrows to a child holding all but this share of its sum: a
# wrapper that adds little to the article it holds mostly adds a promo or a
# related-links heading (never to a child of one block: a flat page's
# paragraph). The figure: the content region's paragraph in
# docs/algorithms/content-model.rst.
REGION_TIGHTNESS = 0.15
# A block whose own features score this or less is boilerplate whatever its
# neighbours say (a footer on a small page looks like content beside it):
# the guard's bar, and the best guess's lowest threshold. The figure: the
# guard's paragraph in docs/algorithms/content-model.rst.
SURE_BOILERPLATE = 0.2
# The article gate's probability above which the teasers' rule takes a page
# for an article (why 0.7: ``rules/article_end.py``); the controls' and the tag
# lines' rules test the same pages. The headline's bar is its own, 0.5.
TAKEN_FOR_ARTICLE = 0.7


class PageEvidence:
    """A page's shared evidence (see the module's docstring). ``good`` is
    jusText's verdict on each block when the evidence was made; the
    ``article_probability`` is the article gate's (``None``: not known);
    ``kept_whole`` the data tables the table rule keeps whole (its last
    run's), for the repeats rule."""

    def __init__(self, document: Document) -> None:
        # the document holds its evidence: a weak way back makes no cycle
        # for the garbage collector, which the extraction pauses (gc_pause.py)
        self._document = weakref.ref(document)
        self.blocks = document.blocks
        self.title = document.title
        self.good = [b.is_good for b in document.blocks]
        self.article_probability: float | None = None
        self.kept_whole: set[int] = set()
        self._regions: dict[float, tuple[int, int]] = {}

    @classmethod
    def given(cls, document: Document, **values: object) -> "PageEvidence":
        """The page's evidence with some of its parts ``values`` given rather
        than computed (a test's hand-made page; the training script, which
        replays its models' scores on pages it keeps without their trees),
        kept for the page. A part is named as its attribute."""
        evidence = cls(document)
        for name, value in values.items():
            if not hasattr(cls, name) and name not in vars(evidence):
                raise TypeError(f"no part of the page's evidence is named {name!r}")
            vars(evidence)[name] = value
        document.shared[PageEvidence] = evidence
        return evidence

    @property
    def document(self) -> Document:
        document = self._document()
        assert document is not None, "the page's evidence outlived its page"
        return document

    @cached_property
    def tree(self) -> BlockTree:
        return self.document.tree()

    @cached_property
    def texts(self) -> list[str]:
        return [b.text for b in self.blocks]

    @cached_property
    def lengths(self) -> list[int]:
        return [len(text) for text in self.texts]

    @cached_property
    def scores(self) -> list[float]:
        """The content model's final scores (0 where there is none)."""
        return [b.score or 0.0 for b in self.blocks]

    @cached_property
    def short_links(self) -> list[bool]:
        return short_links(self.blocks)

    @cached_property
    def verdicts(self) -> list[str | None]:
        """The hard rules' verdicts (``page_marks.ruled_out``)."""
        return ruled_out(self.document, comment_section(self.document))

    @cached_property
    def navigation(self) -> list[bool]:
        return in_navigation(self.blocks, self.tree)

    @cached_property
    def dated_entries(self) -> list[bool]:
        """Which blocks are the entries of a dated listing (``listings.dated_entries``)."""
        return dated_entries(self.blocks)

    @cached_property
    def fallback(self) -> list[bool]:
        """What the fallback may keep: jusText's good blocks outside the
        page's furniture (``page_marks.fallback``)."""
        return fallback(self.blocks, self.tree, self.good)

    @cached_property
    def prose(self) -> list[bool]:
        """Which blocks are prose outside the navigation: jusText's good or
        near-good by themselves (long enough, rich in stopwords, few links)."""
        return prose_outside(self.blocks, self.navigation)

    @cached_property
    def tables(self) -> DataTables:
        return data_tables(self.blocks, self.tree)

    @cached_property
    def parents(self) -> list[int]:
        """Each block's element's parent node."""
        return [self.tree.parents[node] for node in self.tree.block_nodes]

    def taken_for_article(self, above: float = TAKEN_FOR_ARTICLE) -> bool:
        """Whether the article gate gives the page more than ``above``."""
        return self.article_probability is not None and self.article_probability > above

    def region(self, threshold: float) -> tuple[int, int]:
        """The nodes of the content region (``content_region``) found with
        ``threshold - REGION_MARGIN``, first and past the last (``(0, 0)``:
        none). The comment section adds nothing to the region's sums, the
        navigation and a dated listing's entries nothing for it (what scores
        below the bar, against it)."""
        if threshold not in self._regions:
            bar = threshold - REGION_MARGIN
            dated = self.dated_entries
            only_against = (
                list(map(operator.or_, self.navigation, dated)) if any(dated) else self.navigation
            )
            scores = _region_scores(self.scores, self.verdicts, only_against, bar)
            tree = self.tree
            node = content_region(scores, tree, self.lengths, bar, REGION_TIGHTNESS)
            self._regions[threshold] = (
                (node, tree.subtree_ends[node]) if node is not None else (0, 0)
            )
        return self._regions[threshold]


def _region_scores(
    scores: list[float], verdicts: list[str | None], only_against: list[bool], bar: float
) -> list[float]:
    """The scores the content region sums, at ``bar``: the comment section's
    at the bar (nothing either way), and those of ``only_against`` (the
    navigation, a dated listing's entries) no higher (nothing for it)."""
    if COMMENTS_VERDICT not in verdicts and not any(only_against):
        return scores
    return [
        bar if verdict == COMMENTS_VERDICT else min(score, bar) if against else score
        for score, verdict, against in zip(scores, verdicts, only_against)
    ]


def article_probability(document: Document) -> float | None:
    """The article gate's probability for the page, once a stage set it
    (``None``: no gate ran, as in the pipelines other than ``declutter``)."""
    evidence = document.shared.get(PageEvidence)
    return evidence.article_probability if isinstance(evidence, PageEvidence) else None


def evidence_of(document: Document) -> PageEvidence:
    """The page's evidence, made the first time a stage asks."""
    evidence = document.shared.get(PageEvidence)
    if not isinstance(evidence, PageEvidence):
        evidence = document.shared[PageEvidence] = PageEvidence(document)
    return evidence


@dataclass(frozen=True)
class StartDecision:
    """The chain's first step: makes the page's evidence (unless a stage
    before made it), then leaves every block undecided (``BAD``, no reason)
    and no table kept whole, for the rules."""

    def __call__(self, document: Document) -> None:
        evidence_of(document).kept_whole = set()
        for block in document.blocks:
            block.label, block.reason = BAD, None


def take_back_on_articles(
    document: Document, above: float, test: Callable[[Block], bool], reason: Reason
) -> None:
    """On a page the article gate gives more than ``above``, label ``reason``
    (bad) each kept block that ``test`` picks: the shape of the rules that
    take back what an article page keeps beside its article."""
    if evidence_of(document).taken_for_article(above):
        for block in document.blocks:
            if block.is_good and test(block):
                block.label, block.reason = BAD, reason


def prose_outside(blocks: Sequence[Block], navigation: Sequence[bool]) -> list[bool]:
    """Which blocks are prose outside the ``navigation``: jusText's good or
    near-good by themselves (long enough, rich in stopwords, few links)."""
    return [b.cf_label in _PROSE and not nav for b, nav in zip(blocks, navigation)]


_PROSE = frozenset((GOOD, NEAR_GOOD))


def kept_prose(blocks: Sequence[Block]) -> list[int]:
    """The indexes of the blocks kept so far that are prose (``is_prose``),
    in page order: an article's prose run spans them."""
    return [i for i, b in enumerate(blocks) if b.is_good and is_prose(b.words, b.link_density)]


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
    page) never wins, and one block that wins alone gives way to its parent
    when the parent holds other blocks scoring above ``threshold``."""
    sums = tree.subtree_sums((s - threshold) * n for s, n in zip(scores, lengths))
    if not sums:
        return None
    region = max(range(len(sums)), key=sums.__getitem__)
    bar = sums[region] - tightness * abs(sums[region])
    block_nodes, ends = sorted(tree.block_nodes), tree.subtree_ends

    def holds_blocks(node: int) -> bool:  # a subtree's nodes are node to ends[node] - 1
        second = bisect_left(block_nodes, node) + 1
        return second < len(block_nodes) and block_nodes[second] < ends[node]

    parent = tree.parents[region]
    if not holds_blocks(region) and parent >= 0:
        # One block alone is no region when its parent holds other blocks
        # that score as content: the article's paragraphs, between which
        # what scores against them (ads, links) pulled the parent's sum
        # below one paragraph's.
        beside = [
            score
            for node, score in zip(tree.block_nodes, scores)
            if parent <= node < ends[parent] and not region <= node < ends[region]
        ]
        if any(score > threshold for score in beside):
            return parent
    while candidates := [
        child for child in tree.children(region) if sums[child] >= bar and holds_blocks(child)
    ]:
        region = max(candidates, key=sums.__getitem__)
    return region


_WORD = re.compile(r"\w+")


def title_test(
    texts: Sequence[str], title: str | None, overlap: float
) -> Callable[[int], bool] | None:
    """Whether the block of an index may repeat the page's ``<title>``: three
    words or more, no longer than twice the title, at least ``overlap`` of
    its words in it. ``None`` when the page has no title."""
    if not title:
        return None
    in_title = set(_WORD.findall(title.lower()))
    longest = 2 * len(title)

    def repeats_title(i: int) -> bool:
        text = texts[i]
        if len(text) > longest:
            return False
        words = _WORD.findall(text.lower())
        in_it = sum(word in in_title for word in words)
        return len(words) >= 3 and in_it >= overlap * len(words)

    return repeats_title
