"""A post embedded in an article is not the article's text.

A news page quotes social posts by embedding them: a ``<blockquote>``
holding the post's text and a signature line, "— Elon Musk (@elonmusk)
October 18, 2017" (the form the networks' embed code writes; Instagram's
"A post shared by Name (@handle) on Oct 18, 2017"), which a script turns
into a card once the page loads. Inside the article's element the model
keeps the post with the paragraphs around it.

``KeepOutEmbeddedPosts`` takes back the kept blocks of each post: its
signature line and, when the signature is inside a ``<blockquote>``, every
block of that quotation. A quotation with no such signature is the
article's own.
"""

import re
from dataclasses import dataclass
from typing import ClassVar

from lxml import etree

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason

# The name is short and the date is the line's end: a sentence that quotes
# a handle goes on.
SIGNATURE = re.compile(
    r"(?:[\u2014\u2013-]\s*|a (?:post|video|photo) shared by\s+)"
    r"[^()]{0,80}\(@\w{1,30}\)\s+(?:on\s+)?[A-Za-z]{3,9}\.?\s+\d{1,2},\s+\d{4}"
    r"(?:\s+at\s+\d{1,2}:\d\d\s*(?:[ap]m)?(?:\s+[A-Z]{2,4})?)?",
    re.IGNORECASE,
)
# How far up from the signature's element its <blockquote> may be.
QUOTE_DEPTH = 3
NAME = "embedded-posts"
EMBEDDED_POST = Reason(
    "an embedded post",
    'a social post embedded in the page: its signature line ("— Name (@handle) October 18, '
    '2017") and the blocks of the <blockquote> that holds it.',
    rule=NAME,
)


@dataclass(frozen=True)
class KeepOutEmbeddedPosts:
    """Labels ``EMBEDDED_POST`` (bad) the kept blocks of each embedded post
    (see the module's docstring)."""

    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        quotes: list[etree._Element] = []
        for block in document.blocks:
            if block.is_good and "(@" in block.text and SIGNATURE.fullmatch(block.text):
                block.label, block.reason = BAD, EMBEDDED_POST
                if (quote := _quotation(block.element)) is not None:
                    quotes.append(quote)
        if not quotes:
            return
        inside = {element for quote in quotes for element in quote.iter()}
        for block in document.blocks:
            if block.is_good and block.element in inside:
                block.label, block.reason = BAD, EMBEDDED_POST


def _quotation(element: etree._Element | None) -> etree._Element | None:
    """The ``<blockquote>`` at most ``QUOTE_DEPTH`` levels above ``element``, or itself."""
    for _ in range(QUOTE_DEPTH + 1):
        if element is None:
            return None
        if element.tag == "blockquote":
            return element
        element = element.getparent()
    return None
