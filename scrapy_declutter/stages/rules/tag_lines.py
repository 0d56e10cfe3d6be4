"""A tag line beside an article is the site's index, not the article
(the ``declutter`` pipeline, after the content region and the article's end).

Above or under a blog post or a news story, many sites list the tags and
sections they filed it under: "Tags: Ford, hybrid transmission", "Tagged
as: hurricanes, Natural Disasters", "Filed under: NHL". Inside the
article's element such a line scores as the article does, and the region
keeps it. Its first words say what it is (``TAG_LABEL``), and what follows
is a list: items split by commas, bars or semicolons, none longer than
``ITEM_WORDS`` words (a post that opens "Filed under: you shouldn't laugh at
..." is a sentence).

Only a page the article gate takes for an article (as ``article_end.py``)
is tested, and only outside the article's prose run (before its first kept
paragraph of prose, ``evidence.kept_prose``, or after its last): inside it,
the references of our corpora call such a line the article's. A lone word
or a list with no label was measured and is not tested: most such blocks
are the article's own (``docs/algorithms/content-model.rst``).

The labels are English to start; other languages' can be added to
``TAG_LABEL``.
"""

import re
from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import TAKEN_FOR_ARTICLE, evidence_of, kept_prose

NAME = "tag-lines"
TAG_LINE = Reason(
    "a tag line beside the article",
    "on a page taken for an article, before its first paragraph of prose or after its last: "
    'a line that names the tags or sections it is filed under ("Tags: Ford, hybrid '
    'transmission", "Filed under: NHL"), a label and a list of short items.',
    rule=NAME,
)

TAG_LABEL = re.compile(
    r"\W*(?:tags?|tagged(?:\s+(?:with|as|in|under))?|keywords|topics|categories|filed\s+under)"
    r"\s*:",
    re.IGNORECASE,
)
ITEM_WORDS = 5
_SEPARATORS = re.compile(r"[,;|]")


def is_tag_line(text: str) -> bool:
    """Whether ``text`` is a tag line: a label (``TAG_LABEL``), then items of
    at most ``ITEM_WORDS`` words each, or none."""
    label = TAG_LABEL.match(text)
    if not label:
        return False
    items = _SEPARATORS.split(text[label.end() :])
    return all(len(item.split()) <= ITEM_WORDS for item in items)


@dataclass(frozen=True)
class KeepOutTagLines:
    """Labels ``TAG_LINE`` (bad) the kept tag lines outside an article's
    prose run (see the module's docstring) on a page the article gate gives
    more than ``article``."""

    article: float = TAKEN_FOR_ARTICLE
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        if not evidence_of(document).taken_for_article(self.article):
            return
        prose = kept_prose(document.blocks)
        if not prose:
            return
        for i, block in enumerate(document.blocks):
            outside = i < prose[0] or i > prose[-1]
            if block.is_good and outside and is_tag_line(block.text):
                block.label = BAD
                block.reason = TAG_LINE
