"""jusText's hard rules, and the comment section: blocks never kept, whatever
their scores.

A block with a © sign is a copyright line or a photo credit; a block a
browser does not show is no content; the page's comment section (see
``comment_section.py``) is set apart, and the region is found as if it were
not there. The verdicts are the page's evidence (``page_marks.ruled_out``);
this rule writes them.
"""

from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.stages import page_marks
from scrapy_declutter.stages.comment_section import COMMENTS
from scrapy_declutter.stages.evidence import evidence_of

NAME = "hard-rules"
COPYRIGHT = Reason(
    "copyright sign",
    "a block with a copyright sign is a copyright line or a photo credit (jusText's rule), "
    "whatever its score.",
    rule=NAME,
)
HIDDEN = Reason(
    "not shown by a browser",
    'under an element with the hidden attribute, aria-hidden="true" or an inline display: '
    "none or visibility: hidden style: a reader never sees it (unless the page hides more "
    "than a third of its text, which its scripts then show).",
    rule=NAME,
)
_REASONS = {
    page_marks.HIDDEN: HIDDEN,
    page_marks.COMMENTS: COMMENTS,
    page_marks.COPYRIGHT: COPYRIGHT,
}


@dataclass(frozen=True)
class HardRules:
    """Labels bad each block the page's evidence rules out (``HIDDEN``,
    ``COMMENTS``, ``COPYRIGHT``)."""

    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        for block, verdict in zip(document.blocks, evidence_of(document).verdicts):
            if verdict is not None:
                block.label, block.reason = BAD, _REASONS[verdict]
