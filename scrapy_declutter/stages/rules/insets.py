"""A box of links to other stories inside an article goes.

Between an article's paragraphs, many news pages set a box of their other
stories: a heading ("Most Read Stories", "Related") and a list of linked
headlines. Each headline reads like a short line of the article, and the
content model, which weighs a block's neighbours, keeps them.

On a page the article gate takes for an article (above ``ARTICLE``),
``KeepOutInsets`` takes out a run of ``MIN_LINKS`` kept blocks or more, each
a linked headline (``blocks.is_linked_headline``: a few words, mostly link
text), that lies between the article's first and last kept
paragraphs of prose, and the short block right before the run (its heading,
``LABEL_WORDS`` words or fewer). After the article such a list is the
references' "Related posts", which they keep; there the teasers' rule
(``article_end.py``) takes only cards with a line of text.
"""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.blocks import is_linked_headline
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import TAKEN_FOR_ARTICLE, evidence_of, kept_prose

ARTICLE = TAKEN_FOR_ARTICLE
MIN_LINKS = 3
LABEL_WORDS = 6
NAME = "insets"
INSET = Reason(
    "links inside the article",
    "on a page taken for an article, between its paragraphs of prose: a run of "
    "{min_links} or more linked headlines (other stories) and the run's heading.",
    rule=NAME,
).quoting(min_links=MIN_LINKS)


@dataclass(frozen=True)
class KeepOutInsets:
    """Labels ``INSET`` (bad) each run of linked headlines inside an
    article's prose, with its heading (see the module's docstring), on a page
    the article gate gives more than ``article``."""

    article: float = ARTICLE
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        if not evidence_of(document).taken_for_article(self.article):
            return
        blocks = document.blocks
        prose = kept_prose(blocks)
        if len(prose) < 2:
            return
        inside = [i for i in range(prose[0] + 1, prose[-1]) if blocks[i].is_good]
        linked = [i for i in inside if is_linked_headline(blocks[i].words, blocks[i].link_density)]
        for run in _runs(linked, inside):
            if len(run) >= MIN_LINKS:
                position = inside.index(run[0])
                if position and blocks[inside[position - 1]].words <= LABEL_WORDS:
                    run.insert(0, inside[position - 1])
                for i in run:
                    blocks[i].label, blocks[i].reason = BAD, INSET


def _runs(chosen: list[int], among: list[int]) -> list[list[int]]:
    """The runs of ``chosen`` that follow one another in ``among``."""
    position = {i: n for n, i in enumerate(among)}
    runs: list[list[int]] = []
    for i in chosen:
        if runs and position[i] == position[runs[-1][-1]] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs
