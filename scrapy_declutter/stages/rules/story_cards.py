"""The cards of other stories that a region keeps: two marks of a card.

Beside or under an article, a news page lists its other stories as cards:
an image, a linked headline, a time. Inside the element holding the
article, the content model keeps many of them. Two marks say a block is a
card's, whatever the card's markup:

* **a headline written twice** in one block ("Why Logan ended so Why Logan
  ended so"): the image's alternative text and the link's, side by side. An
  article never writes a sentence twice in a row in one paragraph.
* **a card's time** ("March 15 2017 2:31 PM", "12 hours ago",
  "2005-03-21 01:20"): a block that is only a date or a time, when the page
  keeps ``MIN_CARD_TIMES`` or more of them. One such block is an article's
  dateline, which a reference may keep; a run of them dates a list of other
  stories, or of posts.

Each is a rule of its own (``doubled-headlines``, ``card-times``).
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from scrapy_declutter.core.date_words import SHOWN_DATE
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.labels import BAD
from scrapy_declutter.core.reasons import Reason

# Three different words with letters in each half or more: "0 1 2 3 0 1 2
# 3", a row of stars and a word said again and again are no headline.
HEADLINE_WORDS = 3
# A headline is short: a longer text written twice is a paragraph that
# repeats itself (a refrain, a generated page), which is not a card.
HEADLINE_MAX_WORDS = 25
MIN_CARD_TIMES = 3
# Longer than any text CARD_TIME matches ("Wednesday, September 27th, 2017
# at 12:45 p.m. EDT"): a longer block is tested no further.
CARD_TIME_CHARACTERS = 60

# A date in English words ("March 15 2017", "15 March, 2017"), in numbers
# ("2005-03-21") or in Chinese and Japanese ("2020年2月9日"), or a time ago
# ("12 hours ago"), with a weekday before it and a clock time after it or
# not; nothing else in the block.
CARD_TIME = re.compile(
    r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?\s+)?"
    rf"(?:{SHOWN_DATE}|\d+\s+(?:second|minute|hour|day|week|month|year)s?\s+ago)"
    r"(?:,?\s+(?:at\s+)?\d{1,2}[:.]\d\d(?::\d\d)?\s*(?:[ap]\.?m\.?)?(?:\s+[a-z]{2,4})?)?",
    re.IGNORECASE,
)

DOUBLED_HEADLINES = "doubled-headlines"
DOUBLED_HEADLINE = Reason(
    "a headline written twice",
    "a block whose text is one headline written twice in a row (an image's alternative "
    "text and its link's): a card of another story.",
    rule=DOUBLED_HEADLINES,
)
CARD_TIMES = "card-times"
CARD_TIME_ALONE = Reason(
    "a card's time",
    'a block that is only a date or a time ("March 15 2017 2:31 PM", "12 hours ago"), '
    "on a page that keeps {min_times} or more of them: the times of a list of other stories.",
    rule=CARD_TIMES,
).quoting(min_times=MIN_CARD_TIMES)


def is_doubled_headline(text: str) -> bool:
    """Whether ``text`` is one text of ``HEADLINE_WORDS`` different words
    with letters or more and at most ``HEADLINE_MAX_WORDS`` words, written twice."""
    middle = len(text) // 2  # white space is collapsed: "A A" is the test, then its words
    if len(text) % 2 == 0 or text[middle] != " " or text[:middle] != text[middle + 1 :]:
        return False
    words = text.split()
    half = len(words) // 2
    return (
        len(words) % 2 == 0
        and half <= HEADLINE_MAX_WORDS
        and words[:half] == words[half:]
        and len({word for word in words[:half] if any(c.isalpha() for c in word)}) >= HEADLINE_WORDS
    )


def card_times(texts: Sequence[str]) -> list[int]:
    """The indices of the texts that are only a date or a time, when
    ``MIN_CARD_TIMES`` or more are."""
    found = [
        i
        for i, text in enumerate(texts)
        if len(text) <= CARD_TIME_CHARACTERS and CARD_TIME.fullmatch(text.strip())
    ]
    return found if len(found) >= MIN_CARD_TIMES else []


@dataclass(frozen=True)
class KeepOutDoubledHeadlines:
    """Labels ``DOUBLED_HEADLINE`` (bad) each kept block that is a headline
    written twice (``is_doubled_headline``)."""

    name: ClassVar[str] = DOUBLED_HEADLINES

    def __call__(self, document: Document) -> None:
        for block in document.blocks:
            if block.is_good and is_doubled_headline(block.text):
                block.label, block.reason = BAD, DOUBLED_HEADLINE


@dataclass(frozen=True)
class KeepOutCardTimes:
    """Labels ``CARD_TIME_ALONE`` (bad) the kept blocks that are only a date
    or a time, when the page keeps ``MIN_CARD_TIMES`` or more (``card_times``)."""

    name: ClassVar[str] = CARD_TIMES

    def __call__(self, document: Document) -> None:
        kept = [block for block in document.blocks if block.is_good]
        for i in card_times([block.text for block in kept]):
            kept[i].label, kept[i].reason = BAD, CARD_TIME_ALONE
