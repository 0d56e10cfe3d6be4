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

# Hiragana, Katakana, CJK Extension A, CJK Unified Ideographs, Compatibility Ideographs.
HAN_AND_KANA = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Thai, Lao, Myanmar, Khmer.
UNSPACED_LETTERS = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff"
# CJK symbols and punctuation; the fullwidth forms that are not letters or digits.
CJK_MARKS = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
# See the module's docstring.
CHARS_PER_WORD = 4

_UNSPACED = re.compile(f"[{HAN_AND_KANA}{UNSPACED_LETTERS}]")
_HAN_AND_KANA = re.compile(f"[{HAN_AND_KANA}]")
_KANA = re.compile("[\u3040-\u30ff]")
# One token: a Han or kana character, a run of unspaced letters, or a run of
# anything else that is not white space or a CJK mark.
_TOKEN = re.compile(
    f"[{HAN_AND_KANA}]|[{UNSPACED_LETTERS}]+|[^\\s{HAN_AND_KANA}{UNSPACED_LETTERS}{CJK_MARKS}]+"
)
_LETTERS = re.compile(f"[{UNSPACED_LETTERS}]")


def has_unspaced(text: str) -> bool:
    """Whether ``text`` holds a character of a script written without spaces."""
    return _UNSPACED.search(text) is not None


def tokens(text: str) -> list[str]:
    """``text``'s words as ``word_count`` counts them, a run of unspaced
    letters as one token (the stoplists hold single Han and kana characters,
    and space-separated words)."""
    return _TOKEN.findall(text)


def han_and_kana_count(text: str) -> int:
    """How many Han and kana characters ``text`` holds."""
    return len(_HAN_AND_KANA.findall(text))


def word_count(text_tokens: list[str]) -> int:
    """How many words ``tokens`` stand for: a run of Thai, Lao, Khmer or
    Myanmar letters one per ``CHARS_PER_WORD`` characters (at least one)."""
    count = len(text_tokens)
    for token in text_tokens:
        if len(token) > CHARS_PER_WORD and _LETTERS.match(token):
            count += (len(token) - 1) // CHARS_PER_WORD
    return count


def cjk_language(text: str) -> str | None:
    """``"Japanese"`` for a text whose Han and kana characters are a tenth
    or more kana, ``"Chinese"`` for one with Han and no such share of kana,
    ``None`` when Han and kana are under a tenth of its characters (not
    counting white space): a page's script names its language."""
    han_and_kana = len(_HAN_AND_KANA.findall(text))
    if not han_and_kana or 10 * han_and_kana < len(text) - text.count(" "):
        return None
    return "Japanese" if 10 * len(_KANA.findall(text)) >= han_and_kana else "Chinese"
