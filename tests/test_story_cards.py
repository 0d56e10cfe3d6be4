"""The cards of other stories (headlines written twice, runs of card times)
and embedded posts, inside the region.

Each page is scored by hand (every block well above the threshold, as the
model scores what lies inside an article's element) so that only the rule
decides."""

import pytest

from scrapy_declutter.stages.rules.embedded_posts import EMBEDDED_POST, KeepOutEmbeddedPosts
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from scrapy_declutter.stages.rules.story_cards import (
    CARD_TIME_ALONE,
    DOUBLED_HEADLINE,
    KeepOutCardTimes,
    KeepOutDoubledHeadlines,
    card_times,
    is_doubled_headline,
)
from tests.factory import STORY, reasons_in_article

ARTICLE = "".join(f"<p>{text}</p>" for text in STORY)
HEADLINES = [
    "Council approves the harbour bridge repairs",
    "Lifeboat crew rescue two sailors off the point",
    "Fish market to open on Sundays from May",
]


def test_a_headline_written_twice_is_a_card():
    cards = "".join(f"<div><a href='/s{n}'>{h} {h}</a></div>" for n, h in enumerate(HEADLINES))
    by_text = reasons_in_article(ARTICLE + cards, KeepOutDoubledHeadlines())
    assert [by_text[f"{h} {h}"] for h in HEADLINES] == [DOUBLED_HEADLINE] * 3
    assert [by_text[p] for p in STORY] == [CONTENT_REGION] * 3


@pytest.mark.parametrize(
    ("text", "doubled"),
    [
        ("Storm hits the coast Storm hits the coast", True),
        ("Storm hits the coast", False),
        ("0 1 2 3 0 1 2 3", False),  # no words with letters
        ("★ ☆ ★ ☆ ★ ☆ ★ ☆", False),
        ("Ha ha ha ha ha ha ha ha", False),  # a word said again and again
        (" ".join(["The river rose again this year, the council said."] * 6), False),  # a paragraph
        ("Storm hits the coast. Storm hits the coast again", False),
    ],
)
def test_what_is_a_headline_written_twice(text, doubled):
    assert is_doubled_headline(text) is doubled


def test_a_run_of_card_times_goes_and_a_dateline_stays():
    times = ["March 15 2017 2:31 PM", "12 hours ago", "March 13, 2017 11:38 AM"]
    cards = "".join(
        f"<div><p>{t}</p><a href='/s{n}'>{HEADLINES[n]}</a></div>" for n, t in enumerate(times)
    )
    by_text = reasons_in_article(f"<p>October 23, 2017</p>{ARTICLE}{cards}", KeepOutCardTimes())
    assert [by_text[t] for t in times] == [CARD_TIME_ALONE] * 3
    assert by_text["October 23, 2017"] == CARD_TIME_ALONE  # one of four on the page
    one = reasons_in_article(f"<p>October 23, 2017</p>{ARTICLE}", KeepOutCardTimes())
    assert one["October 23, 2017"] == CONTENT_REGION


def test_what_is_a_card_time():
    dated = ["Sunday, October 14, 2012 at 10:04PM", "3 minutes ago", "15 March, 2017"]
    assert card_times(dated) == [0, 1, 2]
    # a forum's or a blog's posts dated in numbers, or in Chinese
    assert card_times(["2005-03-21 01:20:44", "2020年2月9日 17:33", "2022/01/27"]) == [0, 1, 2]
    assert card_times(dated[:2]) == []  # two: a dateline and an update line
    assert card_times(["Published March 15 2017", "March 2017", "On March 15 2017 we met"]) == []


TWEET = (
    "<blockquote class='twitter-tweet'><p>Purchase. Complete. I am so stoked.</p>"
    "&mdash; Pauline Acalin (@w00ki33) <a href='https://twitter.com/x'>October 18, 2017</a>"
    "</blockquote>"
)


def test_an_embedded_post_goes_with_its_quotation():
    by_text = reasons_in_article(
        f"<p>{STORY[0]}</p>{TWEET}<p>{STORY[1]}</p>", KeepOutEmbeddedPosts()
    )
    assert by_text["Purchase. Complete. I am so stoked."] == EMBEDDED_POST
    assert by_text["— Pauline Acalin (@w00ki33) October 18, 2017"] == EMBEDDED_POST
    assert [by_text[p] for p in STORY[:2]] == [CONTENT_REGION] * 2


def test_a_quotation_without_a_signature_is_the_articles():
    quote = "<blockquote><p>We will rebuild the quay before the winter storms.</p></blockquote>"
    by_text = reasons_in_article(f"<p>{STORY[0]}</p>{quote}", KeepOutEmbeddedPosts())
    assert by_text["We will rebuild the quay before the winter storms."] == CONTENT_REGION


def test_a_sentence_naming_a_handle_is_no_signature():
    line = "- The mayor (@harbourmayor) wrote on March 3, 2017 that the quay would reopen soon."
    by_text = reasons_in_article(f"{ARTICLE}<p>{line}</p>", KeepOutEmbeddedPosts())
    assert by_text[line] == CONTENT_REGION
