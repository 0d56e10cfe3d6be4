"""Why the default pipeline kept or dropped each block of a page.

``explain(html)`` runs the ``declutter`` pipeline on a page again, keeping
what it usually throws away, and returns one ``BlockExplanation`` per block:
the rule that decided (``reason``), both stages' scores, and the features
that weighed most in each stage (the two content models' weights, each by its
share on the page: see ``article_gate``). It is slower than ``extract`` and meant for
people: the ``scrapy declutter --blocks`` view and the HTML report.

    >>> for block in explain(html):
    ...     print(block.reason, round(block.score, 2), block.text[:40])
    ...     for name, weight in block.features:
    ...         print("   ", name, round(weight, 2))
"""

from dataclasses import dataclass
from typing import Any

from scrapy_declutter.core.document import build_document
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.presets import decision_stages, justext_stages
from scrapy_declutter.stages.article_gate import Mix
from scrapy_declutter.stages.content_features import (
    CONTEXT_NAMES,
    context_features,
    page_features,
    short_links,
)
from scrapy_declutter.stages.content_model import ScoreContent


@dataclass(frozen=True)
class BlockExplanation:
    """One block and why the pipeline kept it or not.

    ``reason`` is the name of the rule's reason that decided ("content
    region", "copyright sign", "score below threshold", ...; ``why`` says
    what it means, with the figures the rule used); ``kept`` whether the
    block is kept.
    ``block_score`` is the first stage's probability (the block's own
    features), ``score`` the second's (the block beside its neighbours and
    ancestors), which the threshold compares. ``features`` and ``context``
    are the ``top`` largest contributions to each stage's log-odds, as
    ``(feature name, weight * value)``, largest magnitude first: a positive
    number pushed towards content, a negative one towards boilerplate.
    ``feature_descriptions.describe(name)`` says what each name means
    (``in:nav``: inside a ``<nav>`` element; ``mean2``: the mean first-stage
    score of the blocks under the block's grandparent; ...). ``mix`` is the
    page's mix of the two models (``article_gate.Mix``): the gate's
    probability that the page is an article and each model's weight.
    """

    index: int
    text: str
    kept: bool
    reason: str
    why: str
    block_score: float
    score: float
    features: tuple[tuple[str, float], ...]
    context: tuple[tuple[str, float], ...]
    mix: Mix


def explain(
    html: str | bytes,
    *,
    encoding: str | None = None,
    content_language: str | None = None,
    top: int = 5,
    **options: Any,
) -> list[BlockExplanation]:
    """Explain every block of ``html`` under the ``declutter`` pipeline.

    ``encoding``, ``content_language`` and ``options`` (``Options`` fields:
    the language, the jusText parameters, ``content_threshold``) are as for
    ``extract``; the pipeline is always ``declutter``. ``kept`` is the
    content region's decision, which ``extract`` gives the page (the
    blocks of a comment section it rules out, and the pipeline's last stage,
    ``comments.SeparateComments``, labels them comments).
    """
    opts = Options.from_kwargs(**{**options, "pipeline": "declutter"})
    document = build_document(
        html, language=opts.language, encoding=encoding, content_language=content_language
    )
    blocks = document.blocks
    if not blocks:
        return []
    for stage in justext_stages(opts):
        stage(document)
    scores = ScoreContent().scores(document)
    tree = document.tree()
    features = page_features(document)
    lengths = [len(b.text) for b in blocks]
    links = short_links(blocks)
    ScoreContent.write(document, scores)
    for stage in decision_stages(opts):
        stage(document)
    reasons = [block.reason for block in blocks]
    # Each model's log-odds count with its weight in the page's mix (see
    # article_gate.Mix), so a feature's contribution is its weights', by
    # those weights, times its value.
    context_rows = [
        (share, model, context_features(first, tree, lengths, links).rows())
        for share, model, first in scores.parts
    ]
    explained = []
    for i, block in enumerate(blocks):
        own: dict[str, float] = {}
        block_features = features.of_block(i)
        for share, model, _ in scores.parts:
            for name, value in block_features.items():
                if name in model.block_weights:
                    own[name] = own.get(name, 0.0) + share * model.block_weights[name] * value
        around: dict[str, float] = {}
        for share, model, rows in context_rows:
            for name, weight, value in zip(CONTEXT_NAMES, model.context_weights, rows[i]):
                around[name] = around.get(name, 0.0) + share * weight * value
        explained.append(
            BlockExplanation(
                i,
                block.text,
                block.is_good,
                reason.name if (reason := reasons[i]) else "",
                reason.explain() if reason else "",
                scores.first[i],
                scores.final[i],
                _strongest(list(own.items()), top),
                _strongest(list(around.items()), top),
                scores.mix,
            )
        )
    return explained


def _strongest(contributions: list[tuple[str, float]], top: int) -> tuple[tuple[str, float], ...]:
    return tuple(sorted(contributions, key=lambda pair: -abs(pair[1]))[:top])
