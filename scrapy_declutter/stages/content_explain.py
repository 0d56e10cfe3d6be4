"""Why the default pipeline kept or dropped each block of a page.

``explain(html)`` runs the ``declutter`` pipeline on a page again, keeping
what it usually throws away, and returns one ``BlockExplanation`` per block:
the rule that decided (``reason``), both stages' scores, and the features
that weighed most in each stage. It is slower than ``extract`` and meant for
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
from scrapy_declutter.core.presets import justext_stages
from scrapy_declutter.stages.content_features import (
    CONTEXT_NAMES,
    context_features,
    page_features,
    short_links,
)
from scrapy_declutter.stages.content_model import load_model
from scrapy_declutter.stages.content_region import (
    KEEPING,
    KeepContentRegion,
    fallback,
    ruled_out,
)


@dataclass(frozen=True)
class BlockExplanation:
    """One block and why the pipeline kept it or not.

    ``reason`` is the rule that decided, one of ``core.reasons``' names
    (``CONTENT_REGION``, ``COPYRIGHT``, ``BELOW_THRESHOLD``, ...; its
    ``EXPLANATIONS`` says what each means); ``kept`` whether the block is kept.
    ``block_score`` is the first stage's probability (the block's own
    features), ``score`` the second's (the block beside its neighbours and
    ancestors), which the threshold compares. ``features`` and ``context``
    are the ``top`` largest contributions to each stage's log-odds, as
    ``(feature name, weight * value)``, largest magnitude first: a positive
    number pushed towards content, a negative one towards boilerplate.
    Feature names are described in ``content_features`` (``in:nav``: inside a
    ``<nav>``; ``tok:menu``: "menu" in the class or id of the block's element
    or one of its nearest ancestors; ``ld``: link density; ``mean2``: the
    mean score of the blocks under the grandparent; ...).
    """

    index: int
    text: str
    kept: bool
    reason: str
    block_score: float
    score: float
    features: tuple[tuple[str, float], ...]
    context: tuple[tuple[str, float], ...]


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
    content region's decision, which ``extract`` gives the page but for the
    blocks of a comment section, which the pipeline's last stage
    (``comments.SeparateComments``) then sets apart.
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
    model = load_model()
    tree = document.tree()
    features = page_features(document)
    first = model.block_scores(features)
    lengths = [len(b.text) for b in blocks]
    links = short_links(blocks)
    context = context_features(first, tree, lengths, links)
    final = model.context_scores(context)
    reasons = KeepContentRegion(opts.content_threshold).decide(
        final,
        first,
        tree,
        lengths,
        links,
        ruled_out(blocks, tree),
        lambda: fallback(blocks, tree),
        [b.text for b in blocks],
    )
    weights = model.block_weights
    explained = []
    for i, (block, row) in enumerate(zip(blocks, context.rows())):
        own = [
            (name, weights[name] * value)
            for name, value in features.of_block(i).items()
            if name in weights
        ]
        around = list(zip(CONTEXT_NAMES, map(float.__mul__, model.context_weights, row)))
        explained.append(
            BlockExplanation(
                i,
                block.text,
                reasons[i] in KEEPING,
                reasons[i],
                first[i],
                final[i],
                _strongest(own, top),
                _strongest(around, top),
            )
        )
    return explained


def _strongest(contributions: list[tuple[str, float]], top: int) -> tuple[tuple[str, float], ...]:
    return tuple(sorted(contributions, key=lambda pair: -abs(pair[1]))[:top])
