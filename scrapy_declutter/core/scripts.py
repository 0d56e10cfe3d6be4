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
from collections.abc import Sequence
from functools import cache

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
_LETTER_RUN = re.compile(f"[{UNSPACED_LETTERS}]+")
_NOT_SPACED = f"\\s{HAN_AND_KANA}{UNSPACED_LETTERS}{CJK_MARKS}"
# A word of a script written with spaces: a run of anything that is not
# white space, a character of those scripts or a CJK mark.
_SPACED_RUN = re.compile(f"[^{_NOT_SPACED}]+")
# One token: a Han or kana character, a run of unspaced letters, or a word
# of a script written with spaces.
_TOKEN = re.compile(f"[{HAN_AND_KANA}]|[{UNSPACED_LETTERS}]+|[^{_NOT_SPACED}]+")


def has_unspaced(text: str) -> bool:
    """Whether ``text`` holds a character of a script written without spaces."""
    return _UNSPACED.search(text) is not None


def tokens(text: str) -> list[str]:
    """``text``'s words, each Han or kana character one, a run of unspaced
    letters one (to guess a page's language from, as its stoplists hold single
    Han and kana characters and space-separated words)."""
    return _TOKEN.findall(text)


def han_and_kana(texts: Sequence[str]) -> list[int | None]:
    """How many Han and kana characters each text holds; ``None`` for a text
    without a character of a script written without spaces."""
    runs, unspaced = _HAN_AND_KANA_RUN.findall, _UNSPACED.search
    return [sum(map(len, runs(text))) if unspaced(text) else None for text in texts]


def count_words(
    texts: Sequence[str], han_and_kana: Sequence[int | None], stoplist: frozenset[str]
) -> list[tuple[int, int]]:
    """Each text's words and the stopwords among them, given its Han and kana
    characters (``han_and_kana``'s), each a word. A text without a character
    of a script written without spaces (``None``) has the words of
    ``text.split()``. Another has its Han and kana characters, a word per
    ``CHARS_PER_WORD`` letters of a run of Thai, Lao, Khmer or Myanmar (at
    least one), and a word per run of anything else between white space,
    those characters and CJK marks. A stopword is such a run, or a Han or
    kana character, that ``stoplist`` has. Each regex reads a whole text in
    one call (a call for each run cost twice as much on Chinese pages)."""
    is_stopword = stoplist.__contains__
    spaced_runs, letters, letter_runs = _SPACED_RUN.findall, _LETTER.search, _LETTER_RUN.findall
    stop_characters = _stop_characters(stoplist)
    stop_characters_in = stop_characters.findall if stop_characters is not None else None
    counts = []
    for text, han in zip(texts, han_and_kana):
        if han is None:
            words = text.split()
            counts.append((len(words), sum(map(is_stopword, words))))
            continue
        runs = spaced_runs(text)
        words_in_text = len(runs) + han
        stopwords = sum(map(is_stopword, runs))
        if letters(text):
            words_in_text += sum(
                [(len(run) + CHARS_PER_WORD - 1) // CHARS_PER_WORD for run in letter_runs(text)]
            )
        if han and stop_characters_in is not None:
            stopwords += len(stop_characters_in(text))
        counts.append((words_in_text, stopwords))
    return counts


@cache
def _stop_characters(stoplist: frozenset[str]) -> re.Pattern | None:
    """A character class of the stoplist's Han and kana characters, ``None``
    when it has none (a stoplist is read once per process, and so is this)."""
    characters = "".join(sorted(w for w in stoplist if len(w) == 1 and _HAN_OR_KANA.match(w)))
    return re.compile(f"[{characters}]") if characters else None


def cjk_language(text: str, han_and_kana: int) -> str | None:
    """``"Japanese"`` for a text whose ``han_and_kana`` Han and kana
    characters are a tenth or more kana, ``"Chinese"`` for one with Han and
    no such share of kana, ``None`` when Han and kana are under a tenth of
    its characters (not counting white space): a page's script names its
    language."""
    if not han_and_kana or 10 * han_and_kana < len(text) - text.count(" "):
        return None
    # counted as what a removal takes away: no string is made for each run
    kana = len(text) - len(_KANA_RUN.sub("", text))
    return "Japanese" if 10 * kana >= han_and_kana else "Chinese"
