"""A list of dated entries is a listing of other posts, not the article.

The entries of a dated listing (``listings.dated_entries``: list items and
cells that each give a title and the minute it was posted) count for the
content region no more than the page's navigation. When the page still
keeps ``MIN_ENTRIES`` or more of them, ``KeepOutDatedEntries`` takes them
all out: inside the region, the content model keeps many of them, as each
reads as a short line of text.
"""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages.evidence import evidence_of
from scrapy_declutter.stages.listings import MIN_ENTRIES

NAME = "dated-entries"
DATED_ENTRY = Reason(
    "an entry of a dated list",
    "a list item or cell that gives a title and the date and time it was posted, on a page "
    "that keeps {min_entries} or more of them: a listing of other stories, posts or replies.",
    rule=NAME,
).quoting(min_entries=MIN_ENTRIES)


@dataclass(frozen=True)
class KeepOutDatedEntries:
    """Labels ``DATED_ENTRY`` (bad) the kept entries of a dated listing
    (``listings.dated_entries``), when the page keeps ``MIN_ENTRIES`` or more."""

    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        entries = [
            block
            for block, dated in zip(document.blocks, evidence_of(document).dated_entries)
            if dated and block.is_good
        ]
        if len(entries) >= MIN_ENTRIES:
            for block in entries:
                block.label, block.reason = BAD, DATED_ENTRY
