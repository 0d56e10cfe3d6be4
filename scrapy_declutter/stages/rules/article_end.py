"""A page that is an article has one article: the teaser cards after it go.

Under a news story or a blog post, many pages list their other stories: a
run of cards, each a linked headline and a line or two of text (a summary,
a date, a section's name), often under a heading of its own ("Related
coverage", "More from ..."). Each card reads like a short paragraph of the
article's, and the content model, which weighs a block's neighbours, keeps
many of them at middling scores.

``EndArticle`` removes them on a page the article gate takes for an
article (the article gate's probability above ``ARTICLE``): once the
article's prose has ended (its last kept paragraph of ``PROSE_WORDS`` words
or more that is not mostly link text), a run of ``MIN_CARDS`` cards or more
is not this article. A card is a linked headline
(``blocks.is_linked_headline``: a few words, mostly link text) and up to
``CARD_BLOCKS`` short blocks after it (under ``PROSE_WORDS`` words, not
mostly links), at least one; a run ends at a block that is neither. The
short block right before the run's first headline (its heading: at most
``LABEL_WORDS`` words) goes with it.

A listing's or a collection's cards are its content: there no article's
prose comes before them, and the gate rarely takes the page for an article.
A forum thread is a run of posts, not of cards: a poster's name is a link
of a word or two, not a headline.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.blocks import is_linked_headline, is_prose
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import TAKEN_FOR_ARTICLE, evidence_of

MIN_CARDS = 3
LABEL_WORDS = 6
# Only pages the gate is sure are articles, and cards of one line: a broader
# rule (cards of up to three lines, bare links, the gate's 0.5) took more
# content than teasers, since the references keep "Related posts" and "See
# also" lists (the figures: the teasers' paragraph in
# docs/algorithms/content-model.rst).
ARTICLE = TAKEN_FOR_ARTICLE
CARD_BLOCKS = 1
NAME = "teasers"
TEASERS = Reason(
    "teasers after the article",
    "on a page taken for an article, after its last paragraph of prose: a run of "
    "{min_cards} or more cards, each a linked headline and a short line (other stories), "
    "and the run's heading.",
    rule=NAME,
).quoting(min_cards=MIN_CARDS)


@dataclass(frozen=True)
class EndArticle:
    """Labels ``TEASERS`` (bad) the kept blocks of the teaser runs after an
    article's prose (see the module's docstring) on a page the article gate
    gives more than ``article``."""

    article: float = ARTICLE
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        if not evidence_of(document).taken_for_article(self.article):
            return
        blocks = document.blocks
        kept = [b.is_good for b in blocks]
        for i in teasers_after_article(
            [b.words for b in blocks], [b.link_density for b in blocks], kept
        ):
            blocks[i].label = BAD
            blocks[i].reason = TEASERS


def teasers_after_article(
    words: Sequence[int], link_densities: Sequence[float], kept: Sequence[bool]
) -> list[int]:
    """The kept blocks of the teaser runs after the last kept paragraph of
    prose, from each block's words, link density and whether it is kept."""
    headline = list(map(is_linked_headline, words, link_densities))
    prose = [is_prose(n, density) for n, density in zip(words, link_densities)]
    end = max((i for i, is_kept in enumerate(kept) if is_kept and prose[i]), default=None)
    if end is None:
        return []
    removed: list[int] = []
    i = end + 1
    while i < len(words):
        if not headline[i]:
            i += 1
            continue
        start, cards = i, 0
        while i < len(words) and headline[i]:
            i += 1
            after = i
            while i < len(words) and not headline[i] and not prose[i] and i - after < CARD_BLOCKS:
                i += 1
            cards += i > after  # a headline alone, a bare link, is no card
        if cards >= MIN_CARDS:
            first = start - 1 if start - 1 > end and words[start - 1] <= LABEL_WORDS else start
            removed += (j for j in range(first, i) if kept[j])
    return removed
