"""Stoplists and the choice of one for a page.

The stoplists are jusText's (``stoplists/``, licence beside them), named as
jusText names them (``English``, ``Norwegian_Bokmal``, ...), and spaCy's
single-character function words of Chinese and Japanese (``Chinese``,
``Japanese``: their words are characters, see ``scripts.py``). A language can be
given by that name (any case) or by its ISO 639-1 code. Each stoplist is read
once per process, when first needed.
"""

import difflib
from collections import Counter
from collections.abc import Callable
from functools import cache
from importlib import resources

from scrapy_declutter.core.errors import InvalidOptionError

AUTO = "auto"
# Below this stopword density under the best stoplist, the page is taken to be
# in a language we have no stoplist for (Thai, Burmese, ...).
MIN_DETECTED_DENSITY = 0.1

ISO_639_1 = {
    "af": "Afrikaans",
    "sq": "Albanian",
    "ar": "Arabic",
    "an": "Aragonese",
    "hy": "Armenian",
    "az": "Azerbaijani",
    "eu": "Basque",
    "be": "Belarusian",
    "bn": "Bengali",
    "bs": "Bosnian",
    "br": "Breton",
    "bg": "Bulgarian",
    "ca": "Catalan",
    "cv": "Chuvash",
    "zh": "Chinese",
    "hr": "Croatian",
    "cs": "Czech",
    "da": "Danish",
    "nl": "Dutch",
    "en": "English",
    "eo": "Esperanto",
    "et": "Estonian",
    "fi": "Finnish",
    "fr": "French",
    "gl": "Galician",
    "ka": "Georgian",
    "de": "German",
    "el": "Greek",
    "gu": "Gujarati",
    "ht": "Haitian",
    "he": "Hebrew",
    "iw": "Hebrew",
    "hi": "Hindi",
    "hu": "Hungarian",
    "is": "Icelandic",
    "io": "Ido",
    "ig": "Igbo",
    "id": "Indonesian",
    "in": "Indonesian",
    "ga": "Irish",
    "it": "Italian",
    "ja": "Japanese",
    "jv": "Javanese",
    "kn": "Kannada",
    "kk": "Kazakh",
    "ko": "Korean",
    "ku": "Kurdish",
    "ky": "Kyrgyz",
    "la": "Latin",
    "lv": "Latvian",
    "lt": "Lithuanian",
    "lb": "Luxembourgish",
    "mk": "Macedonian",
    "ms": "Malay",
    "ml": "Malayalam",
    "mt": "Maltese",
    "mr": "Marathi",
    "ne": "Nepali",
    "nb": "Norwegian_Bokmal",
    "no": "Norwegian_Bokmal",
    "nn": "Norwegian_Nynorsk",
    "oc": "Occitan",
    "fa": "Persian",
    "pl": "Polish",
    "pt": "Portuguese",
    "qu": "Quechua",
    "ro": "Romanian",
    "ru": "Russian",
    "sr": "Serbian",
    "sh": "Serbo_Croatian",
    "sk": "Slovak",
    "sl": "Slovenian",
    "es": "Spanish",
    "su": "Sundanese",
    "sw": "Swahili",
    "sv": "Swedish",
    "tl": "Tagalog",
    "ta": "Tamil",
    "te": "Telugu",
    "tr": "Turkish",
    "tk": "Turkmen",
    "uk": "Ukrainian",
    "ur": "Urdu",
    "uz": "Uzbek",
    "vi": "Vietnamese",
    "vo": "Volapuk",
    "wa": "Walloon",
    "cy": "Welsh",
    "fy": "West_Frisian",
    "yo": "Yoruba",
}
# Variants that shadow a main list when guessing from text: an English page
# would otherwise come out as ``Simple_English`` as often as ``English``.
_NOT_GUESSED = frozenset({"Simple_English", "Belarusian_Taraskievica", "Serbo_Croatian"})


@cache
def stoplist_names() -> frozenset[str]:
    """Names of the shipped stoplists."""
    folder = resources.files(__package__) / "stoplists"
    return frozenset(p.name[:-4] for p in folder.iterdir() if p.name.endswith(".txt"))


@cache
def _names_by_key() -> dict[str, str]:
    keys = {name.lower(): name for name in stoplist_names()}
    keys.update(ISO_639_1)
    return keys


def iso_code(stoplist: str | None) -> str | None:
    """The ISO 639-1 code of a stoplist's language (``"English"``: ``"en"``);
    ``None`` for none, or for a stoplist with no such code (``"Low_Saxon"``)."""
    return _iso_codes().get(stoplist) if stoplist else None


@cache
def _iso_codes() -> dict[str, str]:
    """Each stoplist's code: the first whose stoplist it is."""
    codes: dict[str, str] = {}
    for code, name in ISO_639_1.items():
        if stoplist_for(code) == name:
            codes.setdefault(name, code)
    return codes


def stoplist_for(code: str | None) -> str | None:
    """The stoplist name for a jusText name, an ISO code or a language tag
    such as ``en-GB``; ``None`` when there is none."""
    if not code:
        return None
    key = code.strip().lower().replace("_", "-")
    names = _names_by_key()
    return names.get(key) or names.get(key.replace("-", "_")) or names.get(key.split("-")[0])


def validate_language(value: str | None) -> str | None:
    """Check a ``language`` option: a stoplist name or code, ``auto`` or ``None``
    (language-independent). Returns the stoplist name, ``auto`` or ``None``."""
    if value is None:
        return value
    if not isinstance(value, str):
        raise InvalidOptionError("language", f"expected a string or None, got {value!r}")
    if value.strip().lower() == AUTO:  # a value's case never matters (ENGLISH, AUTO)
        return AUTO
    name = stoplist_for(value)
    if name is None:
        close = difflib.get_close_matches(value.strip().lower(), _names_by_key(), n=1)
        hint = f"; did you mean {_names_by_key()[close[0]]!r}?" if close else ""
        raise InvalidOptionError(
            "language",
            f"no stoplist for {value!r}{hint} (expected 'auto', None, an ISO 639-1 code "
            f"or one of the {len(stoplist_names())} stoplists listed in docs/settings.rst)",
        )
    return name


@cache
def stoplist(name: str) -> frozenset[str]:
    """The lower-cased words of one stoplist."""
    data = (resources.files(__package__) / "stoplists" / f"{name}.txt").read_text("utf-8")
    return frozenset(word.lower() for word in data.split())


@cache
def _stoplist_index() -> tuple[tuple[str, ...], dict[str, tuple[int, ...]]]:
    """Every stopword mapped to the guessable languages it belongs to."""
    names = tuple(sorted(stoplist_names() - _NOT_GUESSED))
    index: dict[str, list[int]] = {}
    for i, name in enumerate(names):
        for word in stoplist(name):
            index.setdefault(word, []).append(i)
    return names, {word: tuple(ids) for word, ids in index.items()}


def guess_language(words: Counter) -> str | None:
    """The stoplist under which the words have the highest stopword density,
    or ``None`` when even the best one is too low to mean anything."""
    total = sum(words.values())
    if not total:
        return None
    names, index = _stoplist_index()
    hits = [0] * len(names)
    for word in words.keys() & index.keys():  # the stopwords alone, found in one call
        count = words[word]
        for i in index[word]:
            hits[i] += count
    best = max(range(len(names)), key=hits.__getitem__)
    return names[best] if hits[best] / total >= MIN_DETECTED_DENSITY else None


def resolve_language(
    declared: tuple[str | None, ...],
    words: Callable[[], Counter],
    script: Callable[[], str | None] = lambda: None,
) -> str | None:
    """The stoplist for a page under ``language="auto"``: the first ``declared``
    tag we have a stoplist for (``<html lang>``, then ``Content-Language``),
    else the language its ``script`` names (Chinese, Japanese: see
    ``scripts.cjk_language``), else the one its ``words`` fit best."""
    for tag in declared:
        name = stoplist_for(tag.split(",")[0]) if tag else None
        if name:
            return name
    return script() or guess_language(words())
