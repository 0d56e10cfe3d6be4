"""Blocks whose whole text is a value, not prose (the ``declutter`` pipeline,
after the content region).

A page writes some values out as text that no reader is meant to read: a
machine's date and time stamp (``2019-11-13T23:06:00+01:00``), the URL of an
image, markup written out as text (``<div class="alertBox">`` in a
``<noscript>``). Inside the content region they score as its neighbours do,
so the region keeps them; their text alone says what they are. Only text
that is certainly no prose is taken: a date a reader is shown ("Friday,
November 9, 2012", "2012-11-08"), a link to a page, a word alone or a list
joined by commas may be the article's own (the corpora's references keep
such datelines, link lists and headings). Code (``<pre>``, ``<code>``) shows
values on purpose, and a data table's cells are values by design: neither
is tested.
"""

import re
from dataclasses import dataclass
from typing import ClassVar

from lxml import etree

from scrapy_declutter.core.blocks import BLOCK_TAGS, Block
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.core.reasons import Reason

NAME = "values"
VALUE = Reason(
    "a value, not prose",
    "the whole text is a value written for a machine, not prose for a reader: an ISO 8601 "
    "date and time (2019-11-13T23:06:00+01:00), the URL of an image, or markup written out "
    "as text (most of it HTML tags); not in code or a data table.",
    rule=NAME,
)

# ISO 8601 with its "T": a date a reader is shown is written as words or
# without the time ("2012-11-08", which dragnet's references keep).
TIMESTAMP = re.compile(
    r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?",
    re.ASCII,
)
# A URL or a path (it has a "/") to an image file; a link to a page may be
# the article's reference list.
IMAGE_URL = re.compile(
    r"\S*/\S*\.(?:jpe?g|png|gif|webp|avif|svg|bmp|ico|tiff?)(?:[?#]\S*)?", re.IGNORECASE
)
_TAG = re.compile(r"</?([a-zA-Z][a-zA-Z0-9]*)(?:\s[^<>]*)?/?>")
# The names of HTML elements: "<Any>" in a form's list or "Result<Box<dyn
# Error>>" in a sentence is no markup.
HTML_TAGS = frozenset(
    """a abbr address area article aside audio b base bdi bdo blockquote body br button
    canvas caption center cite code col colgroup data datalist dd del details dfn dialog div
    dl dt em embed fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header
    hr html i iframe img input ins kbd label legend li link main map mark meta meter nav
    noscript object ol optgroup option output p param picture pre progress q s samp script
    section select small source span strong style sub summary sup svg table tbody td template
    textarea tfoot th thead time title tr track u ul var video wbr""".split()
)
# Of all the kept blocks of the four corpora that begin with a tag and are
# not code, those in the reference have at most 0.77 of their characters in
# tags (a forum post written in HTML: 0.70), those out of it up to 1.
MARKUP_SHARE = 0.8
# Elements whose text is shown as written: a value there is what the page shows.
CODE_TAGS = frozenset(("pre", "code", "samp", "kbd", "xmp", "listing", "plaintext"))


def is_value(text: str) -> bool:
    """Whether ``text`` (a block's) is a value, not prose: all of it an ISO
    8601 date and time, the URL or path of an image, or markup (at least
    ``MARKUP_SHARE`` of its characters in tags of ``HTML_TAGS``)."""
    text = text.strip()
    if "<" in text:
        in_tags = sum(
            len(m.group()) for m in _TAG.finditer(text) if m.group(1).lower() in HTML_TAGS
        )
        return in_tags >= MARKUP_SHARE * len(text)
    if not text or " " in text:
        return False
    return TIMESTAMP.fullmatch(text) is not None or IMAGE_URL.fullmatch(text) is not None


def in_code(element: etree._Element) -> bool:
    """Whether the block of ``element`` is code, in code or holds code
    (``CODE_TAGS``) in its own text (not in a block nested in it)."""
    if element.tag in CODE_TAGS or any(a.tag in CODE_TAGS for a in element.iterancestors()):
        return True
    for code in element.iter(*CODE_TAGS):
        node = code
        while node is not element and node.tag not in BLOCK_TAGS:
            node = node.getparent()
        if node is element:
            return True
    return False


def kept_out_as_value(block: Block, in_table: bool, code: dict[etree._Element, bool]) -> bool:
    """Whether ``block``, kept by the region, is a value to keep out
    (``is_value``), not code (``in_code``) nor a data table's cell
    (``in_table``). ``code`` holds ``in_code`` of the elements tested on the
    page: blocks cut by ``<br><br>`` share one, which may hold the page."""
    if in_table or not is_value(block.text):
        return False
    element = block.element
    if element not in code:
        code[element] = in_code(element)
    return not code[element]


@dataclass(frozen=True)
class KeepOutValues:
    """Labels bad (``VALUE``) each kept block that is a value (see
    ``kept_out_as_value``); a block kept by a rule of ``cells`` (the data
    tables') is a table's cell."""

    cells: frozenset[str] = frozenset(("data-tables",))
    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        code: dict[etree._Element, bool] = {}
        cells = self.cells
        for block in document.blocks:
            reason = block.reason
            in_table = reason is not None and reason.rule in cells
            if block.label == GOOD and kept_out_as_value(block, in_table, code):
                block.label = BAD
                block.reason = VALUE
