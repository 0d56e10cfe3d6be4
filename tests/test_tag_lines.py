"""Tag lines beside an article: the site's index, not the article.

Each page is scored by hand (every block well above the threshold, as the
model scores what lies inside an article's element) so that only the rule
decides; the article gate's probability is set as the gate would give it."""

import pytest

from scrapy_declutter.stages.rules.region import CONTENT_REGION
from scrapy_declutter.stages.rules.tag_lines import TAG_LINE, KeepOutTagLines, is_tag_line
from tests.factory import STORY, hand_scored, reasons

ARTICLE = "".join(f"<p>{text}</p>" for text in STORY)


def decided(body: str, article_probability: float = 0.9) -> dict[str, str | None]:
    html = f"<html><body><article>{body}</article></body></html>"
    return reasons(hand_scored(html, article_probability, KeepOutTagLines()))


@pytest.mark.parametrize(
    "line",
    [
        "Tags: Ford, ford hybrid transmission",
        "Tagged as: hurricanes, Natural Disasters",
        "Filed Under: NHL Tagged With: CBA, NHLPA, Salary Cap",
        "Keywords: bridge | council | repairs",
        "Tags:",
    ],
)
def test_a_tag_line_after_the_article_goes(line):
    by_text = decided(f"{ARTICLE}<p>{line}</p>")
    assert by_text[line] == TAG_LINE
    assert [by_text[p] for p in STORY] == [CONTENT_REGION] * 3


def test_a_tag_line_above_the_article_goes():
    line = "Topics: Politics, Local news"
    assert decided(f"<p>{line}</p>{ARTICLE}")[line] == TAG_LINE


def test_a_tag_line_inside_the_article_stays():
    line = "Tags: bridge, council"
    body = f"<p>{STORY[0]}</p><p>{line}</p><p>{STORY[1]}</p>"
    assert decided(body)[line] == CONTENT_REGION


def test_a_sentence_after_a_label_stays():
    line = "Filed under: you should never laugh at a neighbour's troubles, unless they laugh first"
    assert decided(f"{ARTICLE}<p>{line}</p>")[line] == CONTENT_REGION


def test_only_a_page_taken_for_an_article_is_tested():
    line = "Tags: Ford, ford hybrid transmission"
    assert decided(f"{ARTICLE}<p>{line}</p>", article_probability=0.5)[line] == CONTENT_REGION


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Categories: Barack Obama, celebrities", True),
        ("  TAGS : a, b", True),
        ("Tagline: our story", False),
        ("Topic of the week: why the bridge closed", False),
        ("Keywords: anxiety, depression, morbidity and mental health in older adults", False),
    ],
)
def test_what_a_tag_line_is(text, expected):
    assert is_tag_line(text) is expected
