"""Dated listings: other stories, posts or replies, each a title and the
minute it was posted.

Beside an article, a portal lists its other stories, a blog its other
posts, a discussion the replies it holds, as list items or table cells
that each give a title and the minute it was posted: "Choi wins Sony Open
14/01/08 6:41 AM", "一把辛酸泪啊。【皮皮说话】08-11 17:15 80字", "回复:
《...》 ... (2006-12-04 23:40:22)". The content model reads each as a short
line of text, and such a listing can outweigh the article it stands beside.

An article's list does not date each of its items to the minute. A page
holds a dated listing when ``MIN_ENTRIES`` or more list entries
(``ENTRY_TAGS``) of at most ``MAX_WORDS`` words each hold a date with a
clock time and ``MIN_TITLE_WORDS`` words or more besides. A poster's name
and a date ("Tracked on Mar 21, 2007 12:31 AM", a forum post's header) is
no title; such lines are paragraphs of their own page, left alone. The
content region counts the entries of a dated listing no more than the
page's navigation (``evidence.PageEvidence.region``), and the rule
``dated-entries`` takes out those still kept.
"""

import re
from collections.abc import Sequence

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.date_words import SHOWN_DATE
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
# A clock time's digits, which every match of ``DATE_AND_TIME`` holds: a
# search for them costs a fraction of that regex, which tries all its
# months at each character.
_CLOCK = re.compile(r"\d:\d\d")
# A word of a title: a Han or kana character, or a run of letters and digits.
_WORD = re.compile(f"[{HAN_AND_KANA}]|[^\\W_{HAN_AND_KANA}]+")


def is_dated_entry(text: str) -> bool:
    """Whether ``text`` holds a date with a clock time and ``MIN_TITLE_WORDS``
    words or more besides (each Han or kana character a word)."""
    stamp = DATE_AND_TIME.search(text)
    return (
        stamp is not None
        and len(_WORD.findall(text[: stamp.start()] + " " + text[stamp.end() :])) >= MIN_TITLE_WORDS
    )


def dated_entries(blocks: Sequence[Block]) -> list[bool]:
    """Which blocks are the entries of a dated listing: the list items and
    cells (``ENTRY_TAGS``) of ``MAX_WORDS`` words or fewer that are dated
    (``is_dated_entry``), when the page holds ``MIN_ENTRIES`` or more; else
    none."""
    # the clock time first (its colon, then its digits): the full regex reads
    # only the list entries that have one
    has_clock = _CLOCK.search
    entries = [
        block.words <= MAX_WORDS
        and ":" in block.text
        and has_clock(block.text) is not None
        and block.element.tag in ENTRY_TAGS
        and is_dated_entry(block.text)
        for block in blocks
    ]
    return entries if sum(entries) >= MIN_ENTRIES else [False] * len(blocks)
