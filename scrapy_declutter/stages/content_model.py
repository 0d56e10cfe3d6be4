"""The content model: a learned probability that a block is main content.

``ScoreContent`` gives every block of the ``declutter`` pipeline, after
jusText's four stages, a probability of being main content (``Block.score``)
from a ``ContentModel`` of two logistic stages: the first reads
the block's features (``content_features.page_features``), the second re-reads
each score beside its neighbours' and ancestors'
(``content_features.context_features``). Two such models are shipped in
``models/``, a general one and one for articles, mixed page by page
(``article_gate``).
The decision's rules (``rules/``, listed in ``extraction/presets.py``) then
decide from the scores.

The models were fitted by ``benchmarks/train_content_model.py`` with folds by
web site; each file records its fit and held-out figures.
"""

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from operator import mul

from scrapy_declutter.core.document import Document
from scrapy_declutter.stages.article_gate import (
    GATE,
    Mix,
    PageShape,
    guarded_first,
    load_gate,
    page_evidence,
)
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
    context_features,
    context_shape,
    page_features,
    short_links,
)
from scrapy_declutter.stages.evidence import evidence_of

MODEL = "content.json"
ARTICLE_MODEL = "content-articles.json"
# Each kind of key keeps the summed weights of at most this many keys, holding
# at most KEY_CHARS_KEPT characters in all; then it starts afresh. A key
# longer than KEY_CHARS_MAX (a long class string, a long word) is not kept:
# such keys rarely recur, and the cache must stay small in bytes whatever
# the pages: measured, at most 25 MB a kind of key (14 MB for ASCII keys;
# docs/robustness.rst). 300 wcxb-dev pages have 35,000 class and id keys of
# 2,000,000 characters: a smaller budget starts afresh too often (13 % slower).
PART_SUMS_KEPT = 50_000
KEY_CHARS_KEPT = 3_000_000
KEY_CHARS_MAX = 200


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
    alone: "ContentModels" = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "alone", ContentModels((self,)))

    def scores(
        self,
        features: PageFeatures,
        lengths: Sequence[int],
        short_links: Sequence[bool],
    ) -> tuple[list[float], list[float]]:
        """Both stages' probabilities for every block of a page: the first's
        (``block_scores``) and the second's (``context_scores``)."""
        first = self.block_scores(features)
        context = context_features(first, features.tree, lengths, short_links)
        return first, self.context_scores(context)

    def block_scores(self, features: PageFeatures) -> list[float]:
        """The first stage's probability for every block of a page."""
        return self.alone.block_scores(features)[0]

    def block_scores_from(
        self,
        features: PageFeatures,
        tags: Sequence[float],
        tokens: Sequence[float],
        words: Sequence[float],
        kinds: Sequence[float],
    ) -> list[float]:
        """The first stage's probabilities from the summed weights of each
        node's tag and tokens and each block's words and kind."""
        return _sigmoids(_block_totals(self.block_weights, features, tags, tokens, words, kinds))

    def cached_keys(self) -> dict[str, tuple[int, int]]:
        """What ``block_scores`` keeps (see ``ContentModels.cached_keys``)."""
        return self.alone.cached_keys()

    def context_scores(self, features: ContextFeatures) -> list[float]:
        """The second stage's probability for every block: the logistic of
        ``context_bias`` plus its row of ``features.rows()`` weighted by
        ``context_weights``, with each ancestor's part weighted once."""
        return _sigmoids(_context_totals(self.context_weights, self.context_bias, features))

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


def _block_totals(
    weights: dict[str, float],
    features: PageFeatures,
    tags: Sequence[float],
    tokens: Sequence[float],
    words: Sequence[float],
    kinds: Sequence[float],
) -> list[float]:
    """The first stage's log-odds for every block (``ContentModel.block_scores_from``)."""
    tree = features.tree
    tags = tree.path_sums(tags)
    tokens = tree.path_sums(tokens)
    # the weights of BLOCK_NUMBERS, by name
    length_w, words_w, link_w, stop_w, position_w, digits_w = [
        weights.get(name, 0.0) for name in BLOCK_NUMBERS
    ]
    parents = tree.parents
    # The tokens of the path beyond a block's TOKEN_DEPTH nearest nodes
    # do not count; siblings share what to take off.
    beyond = {
        parent: tokens[line[TOKEN_DEPTH - 1]] if line[TOKEN_DEPTH - 1] >= 0 else 0.0
        for parent, line in tree.lines_above_blocks(LINE_LENGTH).items()
    }
    # One sum a block, its terms in a fixed order (the last bits follow
    # it), from 0.0 as a sum of the numbers column by column began.
    numbers = zip(*features.numbers)  # a block's, in the order of BLOCK_NUMBERS
    totals = [
        0.0
        + length * length_w
        + count * words_w
        + link_density * link_w
        + stop_density * stop_w
        + position * position_w
        + digits * digits_w
        + tags[node]
        + tokens[node]
        - beyond[parents[node]]
        + word
        + kind
        for (
            length,
            count,
            link_density,
            stop_density,
            position,
            digits,
        ), word, kind, node in zip(numbers, words, kinds, tree.block_nodes)
    ]
    return totals


def _context_totals(
    weights: tuple[float, ...], bias: float, features: ContextFeatures
) -> Iterable[float]:
    """The second stage's log-odds for every block (``ContentModel.context_scores``)."""
    own, before2, before1, after1, after2 = weights[:5]
    end = 5 + 2 * len(CONTEXT_LEVELS)
    pairs = list(zip(weights[5:end:2], weights[6:end:2]))  # (mean, share) per level
    page_weights = weights[end:]
    constant = bias + sum(map(mul, page_weights[:3], features.page))
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
    # siblings share their ancestors: a sum for each parent, its line's
    # parts gathered level by level (one comprehension a level)
    lines = features.lines
    levels = zip(*lines.values())
    columns = [
        [part[node] if node >= 0 else absent for node in nodes]
        for part, absent, nodes in zip(parts, missing, levels)
    ]
    by_parent = dict(zip(lines, [constant + total for total in map(sum, zip(*columns))]))
    logits = features.logits  # with two pads at each edge
    return (
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


@dataclass(frozen=True)
class ContentModels:
    """Content models that score the same pages: the first stage of each
    (``ContentModel.block_scores_from``) from one pass over a page's keys,
    each new key's feature names built once for all of them."""

    models: tuple[ContentModel, ...]
    _part_sums_by_key: dict = field(default_factory=dict, init=False, repr=False, compare=False)
    _weights_by_prefix: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def block_scores(self, features: PageFeatures) -> list[list[float]]:
        """Each model's first-stage probability for every block of a page."""
        parts = [
            _columns(self._part_sums(part, keys), len(self.models))
            for part, keys in (
                (TAGS, features.tags),
                (TOKENS, features.names),
                (WORDS, features.short_texts),
                (KINDS, features.kinds),
            )
        ]
        return [
            model.block_scores_from(features, *sums)
            for model, sums in zip(self.models, zip(*parts))
        ]

    def _part_sums(self, part: Part, keys: Sequence) -> list[tuple[float, ...]]:
        """The summed weights of each key's features (see ``Part``), one a
        model, remembered by key from page to page (the keys of a site's pages
        are mostly the same: tags, class names, short texts such as "Home")."""
        cache = self._part_sums_by_key.get(part)
        if cache is None:
            cache = self._part_sums_by_key[part] = KeyCache()
        found = list(map(cache.sums.get, keys))
        if None not in found:  # no sum is None: every key was kept
            return found
        weighed = self._weights_of(part.prefix).get
        zeros = (0.0,) * len(self.models)
        names = part.names
        new: dict = {}  # the page's keys the cache did not have, each once, with their sums
        for key in dict.fromkeys([key for key, sums in zip(keys, found) if sums is None]):
            # a name no model weighs (a class token of one site) is
            # skipped: adding 0.0 changes no sum
            hits = [w for w in map(weighed, names(key)) if w is not None]
            new[key] = tuple(map(sum, zip(*hits))) if hits else zeros
        cache.keep(new)
        return [new[key] if sums is None else sums for key, sums in zip(keys, found)]

    def _weights_of(self, prefix: str) -> dict[str, tuple[float, ...]]:
        """Each model's weight of every feature named ``prefix...`` that some
        model weighs, by the rest of its name (0.0 where a model does not)."""
        weights = self._weights_by_prefix.get(prefix)
        if weights is None:
            each = [
                {
                    name[len(prefix) :]: weight
                    for name, weight in model.block_weights.items()
                    if name.startswith(prefix)
                }
                for model in self.models
            ]
            names = dict.fromkeys(name for model_weights in each for name in model_weights)
            weights = self._weights_by_prefix[prefix] = {
                name: tuple(model_weights.get(name, 0.0) for model_weights in each)
                for name in names
            }
        return weights

    def cached_keys(self) -> dict[str, tuple[int, int]]:
        """For each kind of key (its prefix), how many keys the process keeps
        and their characters (see ``KeyCache``)."""
        return {
            part.prefix: (len(cache.sums), cache.chars)
            for part, cache in self._part_sums_by_key.items()
        }


def _columns(rows: list[tuple[float, ...]], width: int) -> list[tuple[float, ...]]:
    """The columns of rows of ``width`` values (``width`` empty ones for no rows)."""
    return list(zip(*rows)) if rows else [()] * width


class KeyCache:
    """Each model's summed weights by key, bounded: at most ``PART_SUMS_KEPT`` keys of
    ``KEY_CHARS_KEPT`` characters in all, none longer than ``KEY_CHARS_MAX``.
    Shared by the threads of a process: a lost update only costs a recount."""

    def __init__(self) -> None:
        self.sums: dict = {}
        self.chars = 0

    def keep(self, new: dict[str | tuple | None, tuple[float, ...]]) -> None:
        """Keep these keys' sums: a page's new keys in one call (a call for
        each key cost half as much as its sums)."""
        sums = self.sums
        for key, value in new.items():
            chars = len(key) if type(key) is str else _key_chars(key)
            if chars > KEY_CHARS_MAX:
                continue
            if len(sums) >= PART_SUMS_KEPT or self.chars + chars > KEY_CHARS_KEPT:
                sums.clear()
                self.chars = 0
            sums[key] = value
            self.chars += chars


def _key_chars(key: str | tuple | None) -> int:
    """The characters of a key: a string, or a tuple of strings and flags."""
    if isinstance(key, str):
        return len(key)
    return sum([len(item) for item in key if isinstance(item, str)]) if key else 0


def _sigmoids(totals: Iterable[float]) -> list[float]:
    # exp(-x) overflows below x = -709; below -500 the probability is under 1e-217: 0
    exp = math.exp
    return [1 / (1 + exp(-x)) if x > -500 else 0.0 for x in totals]


@cache
def load_model(name: str = MODEL) -> ContentModel:
    """The shipped model, read once per process."""
    data = json.loads((resources.files(__package__) / "models" / name).read_text("utf-8"))
    return ContentModel.from_json(data)


@cache
def load_models(names: tuple[str, ...]) -> ContentModels:
    """The shipped models that score pages together, once per process."""
    return ContentModels(tuple(map(load_model, names)))


@dataclass(frozen=True)
class PageScores:
    """A page's scores: both stages' probabilities for every block (``first``
    as the guard reads it, ``article_gate.guarded_first``; ``final``), the
    page's mix of the two models (``mix``), and each model with its weight in
    the mix and its first-stage probabilities (``parts``; for
    ``content_explain``)."""

    first: list[float]
    final: list[float]
    mix: Mix
    parts: tuple[tuple[float, ContentModel, list[float]], ...]


@dataclass(frozen=True)
class ScoreContent:
    """Sets ``Block.score``, the models' probability that a block is content,
    and ``Block.block_score``, the first stage's (the block's own features).

    Both the general model (``model``) and the article model
    (``article_model``) score every page; the gate (``gate``, see
    ``article_gate``) mixes them, by how much the page reads as an article."""

    model: str = MODEL
    article_model: str = ARTICLE_MODEL
    gate: str = GATE

    def __call__(self, document: Document) -> None:
        if document.blocks:
            self.write(document, self.scores(document))

    @staticmethod
    def write(document: Document, scores: PageScores) -> None:
        """Set the page's blocks' scores and its article probability (in the
        page's evidence, ``evidence.PageEvidence``)."""
        for block, block_score, score in zip(document.blocks, scores.first, scores.final):
            block.block_score = block_score
            block.score = score
        evidence_of(document).article_probability = scores.mix.gate

    def scores(self, document: Document) -> PageScores:
        """The page's scores from both models and the gate."""
        features = page_features(document)
        lengths = [len(b.text) for b in document.blocks]
        links = short_links(document.blocks)
        models = load_models((self.model, self.article_model))
        general, article = models.models
        first, article_first = models.block_scores(features)
        tree = features.tree
        shape = context_shape(tree, lengths, links)
        context = context_features(first, tree, lengths, links, shape)
        final = general.context_scores(context)
        mix = load_gate(self.gate).mix(page_evidence(PageShape.of(document), final))
        article_context = context_features(article_first, tree, lengths, links, shape)
        article_final = article.context_scores(article_context)
        return PageScores(
            # the first stages' log-odds are their context features' own
            guarded_first(mix.of_logits(context.logits[2:-2], article_context.logits[2:-2]), first),
            mix(final, article_final),
            mix,
            ((mix.general, general, first), (mix.article, article, article_first)),
        )
