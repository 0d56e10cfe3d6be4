"""The next story, appended to an article's page in an <article> of its own.

Each page is scored by hand (every block well above the threshold) so that
only the rule decides."""

from scrapy_declutter.stages.rules.next_stories import NEXT_STORY, KeepOutNextStories
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from tests.factory import STORY, hand_scored, reasons

HEADLINE = "The old bridge will close for good"
NEXT_HEADLINE = "A new school opens on the hill"
NEXT_STORY_TEXT = [
    f"This is paragraph {n} of the next story, about the school on the hill, which opened "
    "its doors on Monday to three hundred pupils from the villages around the town, with "
    "a library and a garden of its own."
    for n in ("one", "two")
]


def story(headline: str, paragraphs: list[str], inner: str = "") -> str:
    body = "".join(f"<p>{text}</p>" for text in paragraphs)
    return f"<article><h1>{headline}</h1>{body}{inner}</article>"


def decided(body: str, article_probability: float = 0.9) -> dict[str, str | None]:
    html = f"<html><body><main>{body}</main></body></html>"
    return reasons(hand_scored(html, article_probability, KeepOutNextStories()))


def test_the_story_appended_in_another_article_goes():
    by_text = decided(story(HEADLINE, STORY) + story(NEXT_HEADLINE, NEXT_STORY_TEXT))
    assert [by_text[t] for t in (NEXT_HEADLINE, *NEXT_STORY_TEXT)] == [NEXT_STORY] * 3
    assert [by_text[t] for t in (HEADLINE, *STORY)] == [CONTENT_REGION] * 4


def test_the_next_story_s_text_outside_any_paragraph_goes_too():
    # the text sits in the <article> element itself, after its headline
    bare = f"<article><h1>{NEXT_HEADLINE}</h1>{NEXT_STORY_TEXT[0]}</article>"
    by_text = decided(story(HEADLINE, STORY) + bare)
    assert [by_text[t] for t in (NEXT_HEADLINE, NEXT_STORY_TEXT[0])] == [NEXT_STORY] * 2


def test_a_headline_inside_the_story_is_a_section_of_it():
    # a box of a related story, or a section's <h1>, inside the story's own <article>
    inner = story(NEXT_HEADLINE, NEXT_STORY_TEXT)
    by_text = decided(story(HEADLINE, STORY, inner=inner))
    assert {by_text[t] for t in (NEXT_HEADLINE, *NEXT_STORY_TEXT)} == {CONTENT_REGION}


def test_two_stories_before_any_prose_are_a_listing():
    # the two headlines meet before the first story's prose: a list of stories
    by_text = decided(story(HEADLINE, []) + story(NEXT_HEADLINE, NEXT_STORY_TEXT + STORY))
    assert {by_text[t] for t in (NEXT_HEADLINE, *NEXT_STORY_TEXT)} == {CONTENT_REGION}


def test_a_page_not_taken_for_an_article_keeps_both():
    body = story(HEADLINE, STORY) + story(NEXT_HEADLINE, NEXT_STORY_TEXT)
    by_text = decided(body, article_probability=0.5)
    assert {by_text[t] for t in (NEXT_HEADLINE, *NEXT_STORY_TEXT)} == {CONTENT_REGION}
