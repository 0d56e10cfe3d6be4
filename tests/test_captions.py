"""Photo captions, marked by their credit, inside an article's element.

Each page is scored by hand (every block well above the threshold, as the
model scores what lies inside an article's element) so that only the rule
decides."""

import pytest

from scrapy_declutter.stages.rules.captions import (
    CAPTION,
    CREDIT_LABEL,
    KeepOutCaptions,
    ends_with_credit,
)
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from tests.factory import STORY, reasons_in_article

CAPTIONS = [
    "Brandon Crawford scores the go-ahead run in the eighth inning. (AP Photo/Jae C. Hong)",
    "Elizabeth Banks stars as Rita Repulsa. Photo: Kimberley French",
]


def decided(body: str, article_probability: float) -> dict[str, str | None]:
    return reasons_in_article(body, KeepOutCaptions(), article_probability)


def page() -> str:
    figures = "".join(f"<figure><img src='p.jpg'><p>{c}</p></figure>" for c in CAPTIONS)
    return f"<p>{STORY[0]}</p>{figures}<p>{STORY[1]}</p><p>{STORY[2]}</p>"


def test_a_caption_goes_and_the_article_stays():
    by_text = decided(page(), 0.9)
    assert [by_text[c] for c in CAPTIONS] == [CAPTION] * 2
    assert [by_text[p] for p in STORY] == [CONTENT_REGION] * 3


def test_on_a_page_not_taken_for_an_article_captions_stay():
    # a photo gallery or a shop's page: its captions are its content
    by_text = decided(page(), 0.3)
    assert [by_text[c] for c in CAPTIONS] == [CONTENT_REGION] * 2


@pytest.mark.parametrize(
    ("text", "credit"),
    [
        ("Climbers pack rubbish bags at base camp. (Photo: Nima Sherpa)", True),
        ("Bryan Cranston stars as Zordon. (Courtesy of Lionsgate)", True),
        ("Photos by Eirik in Paris", True),
        ("Steve Bannon at the Hudson Institute. Getty Images", True),
        ("The cosmonauts wave before the launch. Kirill Kudryavtsev/Reuters", True),
        ("We took a photo by the river.", False),  # a sentence, no name after "photo by"
        ("The council published the photos: all of them were old.", False),
        ("The photo (taken in 1948) shows the harbour before the bridge was built.", False),
    ],
)
def test_what_ends_with_a_credit(text, credit):
    assert ends_with_credit(text) is credit


def test_a_caption_that_opens_with_its_credit_goes():
    caption = "Image copyright EPA Image caption Puerto Rican players say they united the island"
    by_text = decided(f"<p>{STORY[0]}</p><figure><p>{caption}</p></figure><p>{STORY[1]}</p>", 0.9)
    assert by_text[caption] == CAPTION
    assert [by_text[p] for p in STORY[:2]] == [CONTENT_REGION] * 2


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Image copyright Getty Images Image caption The harbour in 1948", True),
        ("Photo credit: Jane Smith", True),
        ("Image source, Reuters", True),
        ("The image copyright belongs to the museum.", False),  # a sentence about it
        ("Photography credits go to the team.", False),
    ],
)
def test_what_opens_with_a_credit(text, label):
    assert (CREDIT_LABEL.match(text) is not None) is label
