"""Prose at the page's edge, for the content stage (``content_region.py``).

The content model reads a block beside its neighbours, and past the first and
the last block there is only the page's edge, which on most pages is a menu's
or a footer's place: a small page's first paragraph, with no headline above
it, scores as if it were one. What a reader sees there is the page's text.
"""

from collections.abc import Container, Sequence

from scrapy_declutter.core.reasons import (
    BELOW_THRESHOLD,
    BOILERPLATE_GUARD,
    OUTSIDE_REGION,
    PAGE_EDGE,
)


def prose_at_edges(decided: list[str], prose: Sequence[bool], keeping: Container[str]) -> list[str]:
    """Keeps (``PAGE_EDGE``) the blocks between the page's first block and
    the first kept one, and those between the last kept block and the page's
    last, when every block of the run is ``prose`` and was left out by the
    model's verdicts alone (its score, the guard, the region); the whole page
    when nothing is kept and every block is so. A run with anything else in
    it (a menu, a headline, a footer, a copyright line) is the page's
    furniture, not its edge, and stays out."""
    kept = [i for i, reason in enumerate(decided) if reason in keeping]
    runs = [range(kept[0]), range(kept[-1] + 1, len(decided))] if kept else [range(len(decided))]
    for run in runs:
        if all(prose[i] and decided[i] in _MODEL_VERDICTS for i in run):
            for i in run:
                decided[i] = PAGE_EDGE
    return decided


_MODEL_VERDICTS = frozenset((BELOW_THRESHOLD, BOILERPLATE_GUARD, OUTSIDE_REGION))
