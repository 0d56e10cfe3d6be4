"""The default pipeline's own stages: a learned content score and a region.

After jusText's four stages, ``ScoreContent`` gives every block a probability
of being main content (``Block.score``) from two logistic models shipped in
``models/content.json``: the first reads the block's features
(``features.block_features``), the second re-reads each score beside its
neighbours' and ancestors' (``features.context_features``). Then
``KeepContentRegion`` finds the element holding the most content by score
(``features.content_region``) and keeps the blocks inside it that score above
the threshold: a tree filter that keeps several sibling groups.

The model was fitted by ``benchmarks/train_content_model.py`` on wcxb-dev with
folds by web site; the figures it prints for held-out sites are in README.rst.
"""

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import repeat
from operator import mul

from .document import Document
from .features import block_features, content_region, context_features
from .labels import Label

MODEL = "content.json"


@dataclass(frozen=True)
class ContentModel:
    """Weights of the two logistic stages."""

    block_weights: dict[str, float]
    context_weights: tuple[float, ...]
    context_bias: float

    def block_score(self, features: dict[str, float]) -> float:
        weights = map(self.block_weights.get, features, repeat(0.0))
        return _sigmoid(sum(map(mul, weights, features.values())))

    def context_score(self, row: list[float]) -> float:
        return _sigmoid(self.context_bias + sum(w * x for w, x in zip(self.context_weights, row)))

    def to_json(self) -> dict:
        return {
            "block_weights": self.block_weights,
            "context_weights": list(self.context_weights),
            "context_bias": self.context_bias,
        }


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -500 else 0.0


@cache
def load_model(name: str = MODEL) -> ContentModel:
    """The shipped model, read once per process."""
    data = json.loads((resources.files(__package__) / "models" / name).read_text("utf-8"))
    return ContentModel(
        data["block_weights"], tuple(data["context_weights"]), data["context_bias"]
    )


@dataclass(frozen=True)
class ScoreContent:
    """Sets ``Block.score``, the model's probability that a block is content."""

    model: str = MODEL

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        if not blocks:
            return
        model = load_model(self.model)
        first = [model.block_score(f) for f in block_features(document)]
        rows = context_features(first, document.ancestor_chains(), [b.length for b in blocks])
        for block, row in zip(blocks, rows):
            block.score = model.context_score(row)


@dataclass(frozen=True)
class KeepContentRegion:
    """Labels good the blocks scoring above ``threshold`` inside the content
    region (see ``features.content_region``), and every other block bad.

    A short link ("Home", "Sport"; at most ``SHORT_LINK_WORDS`` words, mostly
    link text) needs ``short_link_threshold``: jusText's first observation is
    that short blocks with links are almost always boilerplate, and the model,
    which weighs a block's neighbours, lets menus beside an article through.
    """

    threshold: float = 0.4
    short_link_threshold: float = 0.7

    def __call__(self, document: Document) -> None:
        blocks = document.blocks
        chains = document.ancestor_chains()
        scores = [b.score or 0.0 for b in blocks]
        region = content_region(scores, chains, [b.length for b in blocks], self.threshold)
        for block, chain, score in zip(blocks, chains, scores):
            needed = self.short_link_threshold if _is_short_link(block) else self.threshold
            block.label = Label.GOOD if region in chain and score > needed else Label.BAD


SHORT_LINK_WORDS = 3


def _is_short_link(block) -> bool:
    return block.words <= SHORT_LINK_WORDS and block.link_density > 0.5
