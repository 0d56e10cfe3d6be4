"""A list of dated entries is a listing of other posts, not the article.

Beside an article, a portal lists its other stories, a blog its other
posts, a discussion the replies it holds, as list items or table cells
that each give a title and the minute it was posted: "Choi wins Sony Open
14/01/08 6:41 AM", "一把辛酸泪啊。【皮皮说话】08-11 17:15 80字", "回复:
《...》 ... (2006-12-04 23:40:22)". Inside the region, the content model
keeps many of them: each reads as a short line of text.

An article's list does not date each of its items to the minute. When a
page keeps ``MIN_ENTRIES`` or more list entries (``ENTRY_TAGS``) of at most
``MAX_WORDS`` words that each hold a date with a clock time and
``MIN_TITLE_WORDS`` words or more besides, ``KeepOutDatedEntries`` takes
them all out. A poster's name and a date ("Tracked on Mar 21, 2007 12:31
AM", a forum post's header) is no title; such lines are paragraphs of
their own page, left alone.
"""

import re
from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.date_words import SHOWN_DATE
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.core.scripts import HAN_AND_KANA

ENTRY_TAGS = frozenset(("li", "td", "th", "dd", "dt"))
MIN_ENTRIES = 3
MIN_TITLE_WORDS = 4
MAX_WORDS = 80

# A date (in English words, in numbers with the year first or last, in
# Chinese, or a month and day joined by a hyphen: "08-11") and a clock time
# after it ("6:41", "at 9:41 pm"). A month and day alone, "08/29", is no
# such date: a fraction or a due date is written so too.
DATE_AND_TIME = re.compile(
    rf"(?:{SHOWN_DATE}|\b\d{{1,2}}[-/.]\d{{1,2}}[-/.]\d\d(?:\d\d)?|\b\d{{1,2}}-\d{{1,2}})"
    r"[,\s]*(?:at\s+)?\d{1,2}:\d\d(?::\d\d)?(?:\s*[ap]\.?m\b\.?)?",
    re.IGNORECASE,
)
# A word of a title: a Han or kana character, or a run of letters and digits.
_WORD = re.compile(f"[{HAN_AND_KANA}]|[^\\W_{HAN_AND_KANA}]+")

NAME = "dated-entries"
DATED_ENTRY = Reason(
    "an entry of a dated list",
    "a list item or cell that gives a title and the date and time it was posted, on a page "
    "that keeps {min_entries} or more of them: a listing of other stories, posts or replies.",
    rule=NAME,
).quoting(min_entries=MIN_ENTRIES)


def is_dated_entry(text: str) -> bool:
    """Whether ``text`` holds a date with a clock time and ``MIN_TITLE_WORDS``
    words or more besides (each Han or kana character a word)."""
    # the clock time's colon first: the regex, all its months tried at
    # each character, reads only the texts that have one
    stamp = DATE_AND_TIME.search(text) if ":" in text else None
    return (
        stamp is not None
        and len(_WORD.findall(text[: stamp.start()] + " " + text[stamp.end() :])) >= MIN_TITLE_WORDS
    )


@dataclass(frozen=True)
class KeepOutDatedEntries:
    """Labels ``DATED_ENTRY`` (bad) the kept list entries that are dated
    (``is_dated_entry``), when the page keeps ``MIN_ENTRIES`` or more."""

    name: ClassVar[str] = NAME

    def __call__(self, document: Document) -> None:
        entries = [
            block
            for block in document.blocks
            if block.is_good
            and block.words <= MAX_WORDS
            and block.element.tag in ENTRY_TAGS
            and is_dated_entry(block.text)
        ]
        if len(entries) >= MIN_ENTRIES:
            for block in entries:
                block.label, block.reason = BAD, DATED_ENTRY
