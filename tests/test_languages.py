from collections import Counter

import pytest

from scrapy_declutter import InvalidOptionError, extract
from scrapy_declutter.core import languages
from scrapy_declutter.core.languages import (
    guess_language,
    stoplist,
    stoplist_for,
    validate_language,
)

GERMAN = (
    "Die Bundesregierung hat am Mittwoch beschlossen, dass die neuen Regeln für den "
    "Ausbau der Windkraft schon im nächsten Jahr gelten sollen. Nach Angaben des "
    "Ministeriums werden damit die Verfahren deutlich kürzer, und die Länder müssen "
    "mehr Flächen ausweisen, als sie es bisher getan haben."
)
ENGLISH = (
    "The government decided on Wednesday that the new rules for the expansion of "
    "wind power should apply as early as next year. According to the ministry, the "
    "procedures will be much shorter, and the states will have to designate more "
    "land than they have done so far."
)


def page(*paragraphs: str, lang: str | None = None) -> str:
    attr = f' lang="{lang}"' if lang else ""
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"<html{attr}><body><div>{body}</div></body></html>"


def test_every_jusText_language_has_a_stoplist():
    # jusText's 100, and spaCy's Chinese and Japanese
    assert len(languages.stoplist_names()) == 102
    assert "the" in stoplist("English") and "und" in stoplist("German")


@pytest.mark.parametrize(
    "code, name",
    [
        ("en", "English"),
        ("EN-gb", "English"),
        ("de_AT", "German"),
        ("german", "German"),
        ("Norwegian_Bokmal", "Norwegian_Bokmal"),
        ("nb", "Norwegian_Bokmal"),
        ("pt-BR", "Portuguese"),
        ("zh", "Chinese"),
        ("zh-Hant-TW", "Chinese"),
        ("ja-JP", "Japanese"),
        ("th", None),
        ("", None),
        (None, None),
    ],
)
def test_stoplist_for_codes_and_names(code, name):
    assert stoplist_for(code) == name


def test_unknown_language_is_an_invalid_option():
    with pytest.raises(InvalidOptionError, match="language") as info:
        validate_language("Klingon")
    assert info.value.option == "language"
    with pytest.raises(ValueError):
        extract("<p>x</p>", language="xx")


def test_an_unknown_language_is_one_short_line_with_the_closest_name():
    with pytest.raises(InvalidOptionError) as info:
        validate_language("Klingon")
    message = str(info.value)
    assert "\n" not in message and len(message) < 200  # not the 100 names
    assert "did you mean" not in message  # nothing is close to Klingon
    assert "docs/settings.rst" in message  # where the names are listed
    with pytest.raises(InvalidOptionError, match=r"did you mean 'Portuguese'\?"):
        validate_language("portugese")


def test_auto_takes_html_lang():
    assert extract(page(ENGLISH, lang="de")).stoplist == "German"


def test_auto_takes_content_language_when_page_declares_none():
    assert extract(page(ENGLISH), content_language="de-DE, en").stoplist == "German"
    assert extract(page(ENGLISH, lang="en"), content_language="de").stoplist == "English"


def test_auto_guesses_from_text():
    assert extract(page(GERMAN)).stoplist == "German"
    assert extract(page(ENGLISH)).stoplist == "English"


def test_auto_ignores_unknown_declared_language():
    assert extract(page(GERMAN, lang="x-default")).stoplist == "German"


def test_auto_without_a_fitting_stoplist_is_language_independent():
    thai = "วันนี้รัฐบาลประกาศกฎใหม่สำหรับการพัฒนาพลังงานลมซึ่งจะเริ่มใช้ตั้งแต่ปีหน้า " * 8
    result = extract(page(thai))
    assert result.language is None
    # language-independent mode keeps a long block by its length alone
    assert result.text == thai.strip()


def test_guess_needs_enough_stopwords():
    assert guess_language(Counter()) is None
    assert guess_language(Counter({"qwxz": 10})) is None


def test_explicit_language_decides_stopwords():
    # jusText alone: the wrong stoplist makes a German paragraph boilerplate
    german_result = extract(page(GERMAN), language="de", pipeline="justext")
    english_result = extract(page(GERMAN), language="English", pipeline="justext")
    assert german_result.blocks[0].stopword_density > 0.3
    assert english_result.blocks[0].stopword_density < 0.1
    assert german_result.text and not english_result.text


def test_language_independent_mode():
    result = extract(page(GERMAN), language=None)
    assert result.language is None
    assert result.blocks[0].stopwords == 0
    assert result.text == GERMAN


def test_stoplists_load_once():
    stoplist.cache_clear()
    for _ in range(3):
        extract(page(ENGLISH), language="English")
    assert stoplist.cache_info().misses == 1


def test_the_result_and_the_metadata_name_the_language_by_one_code():
    german = extract(page(GERMAN))
    assert (german.language, german.metadata.language, german.stoplist) == ("de", "de", "German")
    declared = extract(page(ENGLISH, lang="en-GB"))
    assert (declared.language, declared.metadata.language) == ("en", "en")
    # a stoplist whose language has no ISO 639-1 code is named by the stoplist alone
    low_saxon = extract(page(GERMAN), language="Low_Saxon")
    assert (low_saxon.language, low_saxon.stoplist) == (None, "Low_Saxon")
