"""A gallery's slides inside an article: counters and captions, not the story.

Each page is scored by hand (every block well above the threshold, as the
model scores what lies inside an article's element) so that only the rule
decides; the article gate's probability is set as the gate would give it."""

import pytest

from scrapy_declutter.stages.rules.galleries import GALLERY, KeepOutGalleries, gallery_spans
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from tests.factory import STORY, reasons_in_article

CAPTIONS = [
    "Fishermen unload the morning's catch on the north quay",
    "The harbour master's office, built in 1874, seen from the water",
    "Children watch the lifeboat being launched for the summer exercise",
]


def slides(counter: str) -> str:
    return "".join(
        f"<div><p>{counter.format(n=n, total=len(CAPTIONS))}</p><p>{caption}</p>"
        "<p>Photo: Harbour News</p></div>"
        for n, caption in enumerate(CAPTIONS, start=1)
    )


def decided(body: str, article_probability: float = 0.9) -> dict[str, str | None]:
    return reasons_in_article(body, KeepOutGalleries(), article_probability)


@pytest.mark.parametrize("counter", ["{n}/{total}", "Image {n} of {total}", "{n} of {total}"])
def test_the_slides_between_the_paragraphs_go(counter):
    body = f"<p>{STORY[0]}</p>{slides(counter)}<p>{STORY[1]}</p><p>{STORY[2]}</p>"
    by_text = decided(body)
    assert by_text[counter.format(n=1, total=3)] == GALLERY
    assert [by_text[caption] for caption in CAPTIONS[:2]] == [GALLERY, GALLERY]
    assert [by_text[p] for p in STORY] == [CONTENT_REGION] * 3


def test_the_last_slides_caption_is_left_to_the_model():
    # nothing marks where the last slide ends: the article may go on there
    by_text = decided(f"<p>{STORY[0]}</p>{slides('{n}/{total}')}<p>{STORY[1]}</p>")
    assert by_text["3/3"] == GALLERY
    assert by_text[CAPTIONS[2]] == CONTENT_REGION


def test_a_page_not_taken_for_an_article_keeps_its_slides():
    # a product's carousel of features is that page's content
    by_text = decided(f"<p>{STORY[0]}</p>{slides('{n}/{total}')}", article_probability=0.4)
    assert by_text[CAPTIONS[0]] == CONTENT_REGION


def test_a_recipes_fractions_are_no_counters():
    texts = ["1/3 cup oats", "1/3 cup water", "2/3 cup milk", "1/4 teaspoon salt"]
    assert gallery_spans(texts) == []
    by_text = decided(f"<p>{STORY[0]}</p><ul>{''.join(f'<li>{t}</li>' for t in texts)}</ul>")
    assert {by_text[t] for t in texts} == {CONTENT_REGION}


def test_counters_must_count_up_to_one_total():
    assert gallery_spans(["1/5", "a", "2/5", "b", "3/5"]) == [(0, 4)]
    assert gallery_spans(["1/5", "2/6", "3/7"]) == []  # three totals: no gallery
    assert gallery_spans(["3/5", "2/5", "1/5"]) == []  # counting down: not slides in order
    assert gallery_spans(["1/2", "2/2", "1/2"]) == []  # fewer slides than a gallery has
    assert gallery_spans(["1/31 18 October 2017", "x", "2/31 17 October 2017", "3/31"]) == [(0, 3)]


def test_a_sentence_that_starts_with_a_fraction_is_no_counter():
    sentence = "2/3 of the town's boats were built on the north quay before the war"
    assert gallery_spans([sentence, "1/3", "2/3", "3/3"]) == [(1, 3)]
