"""A photo's caption is not the article: a block that ends with a credit goes.

A news page captions its photos, and a caption ends with who took the
photo or owns it: "(AP Photo/Jae C. Hong)", "Photo: Kimberley French",
"(Courtesy of Lionsgate)", "Getty Images", "Kirill Kudryavtsev/Reuters";
or it opens with its labels, the credit first ("Image copyright EPA Image
caption ...", "Photo credit: ...").
The captions sit inside the article's element, between its paragraphs or in
a slideshow above it, and read as sentences, so the content model keeps
them with the story.

On a page taken for an article, ``KeepOutCaptions`` takes back each kept
block of at most ``MAX_WORDS`` words that ends with such a credit or opens
with such labels (``CREDIT_LABEL``). A sentence of the story that mentions
a photo ends otherwise: the credit is a name after "Photo:" or "Photo by"
(a capital letter), a credit in brackets, or an agency's name at the very
end; and it opens otherwise ("The image copyright belongs to ..."). The references of modern
news leave captions out; those of older news pages often keep them, which
is what the rule costs there (the figures: the captions' paragraph in
``docs/algorithms/content-model.rst``).
"""

import re
from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import TAKEN_FOR_ARTICLE, take_back_on_articles

MAX_WORDS = 120
# At the block's end: a credit in brackets ("(AP Photo/...)", "(Photo: ...)",
# "(Courtesy of ...)"); "Photo:", "Photo by" or "Credit:" and a name; or an
# agency or a stock library's name.
CREDIT = re.compile(
    r"(?:\((?i:ap |afp |reuters |file )?(?i:photos?|images?|pictures?|courtesy|credit|file photo)"
    r"\b[^()]{0,60}\)\s*\.?"
    r"|\b(?i:photos?|images?|pictures?|credit)\s*(?:by|BY|:)\s*[A-Z][^.!?]{1,60}"
    r"|(?i:getty images|/\s*ap|/\s*reuters|ap photo\b[^.]{0,40}|shutterstock|istock(?:photo)?)\.?)"
    r"\s*$"
)
# At the block's start: a caption's labels, its credit first ("Image copyright
# EPA Image caption Puerto Rican players ...", "Photo credit: ...").
CREDIT_LABEL = re.compile(r"(?i)(?:image|photo|picture)s?\s+(?:copyright|source|credit)\b")
_CREDIT_WORDS = ("photo", "image", "picture", "courtesy", "credit", "getty", "/", "stock")
# Longer than any credit CREDIT matches: the search starts this far from
# the block's end, and a long caption costs no more than a short one.
CREDIT_CHARACTERS = 120

NAME = "captions"
CAPTION = Reason(
    "a photo's caption",
    "on a page taken for an article, a block that ends with a photo's credit "
    '("(AP Photo/...)", "Photo: name", "Getty Images") or opens with it ("Image copyright '
    "...\"): a caption, not the article's text.",
    rule=NAME,
)


def ends_with_credit(text: str) -> bool:
    """Whether ``text`` ends with a photo's credit (``CREDIT``)."""
    start = max(0, len(text) - CREDIT_CHARACTERS)
    tail = text[start:].casefold()
    # every credit CREDIT matches holds one of these words: the regex reads
    # only the blocks whose end has one
    return any(word in tail for word in _CREDIT_WORDS) and CREDIT.search(text, start) is not None


@dataclass(frozen=True)
class KeepOutCaptions:
    """Labels ``CAPTION`` (bad) each kept block of at most ``MAX_WORDS``
    words that ends with a photo's credit or opens with its labels, on a
    page the article gate gives more than ``article``."""

    article: float = TAKEN_FOR_ARTICLE
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        take_back_on_articles(document, self.article, _is_caption, CAPTION)


def _is_caption(block: Block) -> bool:
    return block.words <= MAX_WORDS and (
        ends_with_credit(block.text) or CREDIT_LABEL.match(block.text) is not None
    )
