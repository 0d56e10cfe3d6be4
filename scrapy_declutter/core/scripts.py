"""Words in every script.

Most scripts put a space between words, and a word is a run between spaces
(jusText's). Chinese and Japanese do not: a paragraph of ninety characters
is one such run. There each Han, Hiragana or Katakana character counts as a
word, as the corpora's metric counts it (the ranges below are the metric's).
Thai, Lao, Khmer and Myanmar write letters without spaces between words too;
a run of their letters counts one word per ``CHARS_PER_WORD`` characters, a
round figure for their words' length in code points (vowel and tone marks
included), which puts a paragraph's length in words near the truth without a
segmenter. The punctuation of these scripts (``、。「」`` and the fullwidth
marks) separates words and is none.

A page holds such characters or not (``has_unspaced``); on a page that does
not, the words are ``text.split()`` as they always were, at no extra cost.
"""

import re
from functools import cache
from typing import NamedTuple

# Hiragana, Katakana, CJK Extension A, CJK Unified Ideographs, Compatibility Ideographs.
HAN_AND_KANA = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Thai, Lao, Myanmar, Khmer.
UNSPACED_LETTERS = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
# CJK symbols and punctuation; the fullwidth forms that are not letters or digits.
CJK_MARKS = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
# See the module's docstring.
CHARS_PER_WORD = 4

_UNSPACED = re.compile(f"[{HAN_AND_KANA}{UNSPACED_LETTERS}]")
_HAN_OR_KANA = re.compile(f"[{HAN_AND_KANA}]")
_HAN_AND_KANA_RUN = re.compile(f"[{HAN_AND_KANA}]+")
_KANA_RUN = re.compile("[\u3040-\u30ff]+")
_LETTER = re.compile(f"[{UNSPACED_LETTERS}]")
_NOT_SPACED = f"\\s{HAN_AND_KANA}{UNSPACED_LETTERS}{CJK_MARKS}"
# One token: a Han or kana character, a run of unspaced letters, or a run of
# anything else that is not white space or a CJK mark.
_TOKEN = re.compile(f"[{HAN_AND_KANA}]|[{UNSPACED_LETTERS}]+|[^{_NOT_SPACED}]+")
# The same with a run of Han and kana as one: the counts read a block's runs
# (a few objects a sentence), and its stopword characters in one regex pass.
_RUN = re.compile(f"[{HAN_AND_KANA}]+|[{UNSPACED_LETTERS}]+|[^{_NOT_SPACED}]+")


class Counts(NamedTuple):
    """A text's words, the stopwords among them, and its Han and kana characters."""

    words: int
    stopwords: int
    han_and_kana: int


def has_unspaced(text: str) -> bool:
    """Whether ``text`` holds a character of a script written without spaces."""
    return _UNSPACED.search(text) is not None


def tokens(text: str) -> list[str]:
    """``text``'s words, each Han or kana character one, a run of unspaced
    letters one (to guess a page's language from, as its stoplists hold single
    Han and kana characters and space-separated words)."""
    return _TOKEN.findall(text)


def count_words(text: str, stoplist: frozenset[str]) -> Counts:
    """``text``'s words (a run of Thai, Lao, Khmer or Myanmar letters one per
    ``CHARS_PER_WORD`` characters, at least one) and the stopwords among them:
    the space-separated words in ``stoplist`` and the Han and kana characters
    in it, found in one pass of a character class."""
    words = han_and_kana = stopwords = 0
    for run in _RUN.findall(text):
        if _HAN_OR_KANA.match(run):
            han_and_kana += len(run)
        elif _LETTER.match(run):
            words += (len(run) + CHARS_PER_WORD - 1) // CHARS_PER_WORD
        else:
            words += 1
            stopwords += run in stoplist
    stop_characters = _stop_characters(stoplist) if han_and_kana else None
    if stop_characters is not None:
        stopwords += len(stop_characters.findall(text))
    return Counts(words + han_and_kana, stopwords, han_and_kana)


@cache
def _stop_characters(stoplist: frozenset[str]) -> re.Pattern | None:
    """A character class of the stoplist's Han and kana characters, ``None``
    when it has none (a stoplist is read once per process, and so is this)."""
    characters = "".join(sorted(w for w in stoplist if len(w) == 1 and _HAN_OR_KANA.match(w)))
    return re.compile(f"[{characters}]") if characters else None


def cjk_language(text: str) -> str | None:
    """``"Japanese"`` for a text whose Han and kana characters are a tenth
    or more kana, ``"Chinese"`` for one with Han and no such share of kana,
    ``None`` when Han and kana are under a tenth of its characters (not
    counting white space): a page's script names its language."""
    # counted as what a removal takes away: no string is made for each run
    han_and_kana = len(text) - len(_HAN_AND_KANA_RUN.sub("", text))
    if not han_and_kana or 10 * han_and_kana < len(text) - text.count(" "):
        return None
    kana = len(text) - len(_KANA_RUN.sub("", text))
    return "Japanese" if 10 * kana >= han_and_kana else "Chinese"
