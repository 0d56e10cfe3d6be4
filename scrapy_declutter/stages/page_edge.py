"""Prose at the page's edge, for the content stage (``content_region.py``).

The content model reads a block beside its neighbours, and before the first
block there is only the page's edge, which on most pages is a menu's place:
a small page's first paragraph, with no headline above it, scores as if it
were one. What a reader sees there is the page's text.
"""

from collections.abc import Container, Sequence

from scrapy_declutter.core.reasons import (
    BELOW_THRESHOLD,
    BOILERPLATE_GUARD,
    OUTSIDE_REGION,
    PAGE_EDGE,
)


def prose_at_edge(decided: list[str], prose: Sequence[bool], keeping: Container[str]) -> list[str]:
    """Keeps (``PAGE_EDGE``) the blocks from the page's first block to the
    first kept one (the whole page when none is kept) when each is ``prose``
    and was left out by the model's verdicts alone (its score, the guard,
    the region). A run with anything else in it (a menu, a headline the
    model left out, a copyright line) is the page's furniture, not its
    edge, and stays out."""
    first = next((i for i, reason in enumerate(decided) if reason in keeping), len(decided))
    if all(prose[i] and decided[i] in _MODEL_VERDICTS for i in range(first)):
        decided[:first] = [PAGE_EDGE] * first
    return decided


_MODEL_VERDICTS = frozenset((BELOW_THRESHOLD, BOILERPLATE_GUARD, OUTSIDE_REGION))
