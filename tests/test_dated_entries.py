"""A list of dated entries (other stories, posts, replies) beside an article.

Each page is scored by hand (every block well above the threshold, as the
model scores what lies inside an article's element) so that only the region
and the rule decide."""

import pytest

from scrapy_declutter.stages.listings import is_dated_entry
from scrapy_declutter.stages.rules.dated_entries import DATED_ENTRY, KeepOutDatedEntries
from scrapy_declutter.stages.rules.region import CONTENT_REGION, OUTSIDE_REGION
from tests.factory import STORY, hand_scored, reasons, reasons_in_article

ARTICLE = "".join(f"<p>{text}</p>" for text in STORY)
ENTRIES = [
    "'Energy line' gives Huskies a boost 14/01/08 7:36 AM",
    "Tigers comeback brings upset win 14/01/08 6:41 AM",
    "Choi wins Sony Open by two strokes 14/01/08 6:41 AM",
]
CHINESE_ENTRIES = [
    "参与旅行社的一般都是弱势群体……【梅骏】08-11 16:58 138字 [140/0]",
    "一把辛酸泪啊。【皮皮说话】08-11 17:15 80字 [176/0]",
    "回复: 《我们已经看到希望》 拿了人家的钱就是手软 (2006-12-04 23:40:22)",
]


def decided(body: str) -> dict[str, str | None]:
    return reasons_in_article(body, KeepOutDatedEntries())


def as_list(entries: list[str], tag: str = "li") -> str:
    items = "".join(f"<{tag}>{entry}</{tag}>" for entry in entries)
    return f"<ul>{items}</ul>" if tag == "li" else items


@pytest.mark.parametrize("entries", [ENTRIES, CHINESE_ENTRIES], ids=["English", "Chinese"])
def test_a_list_of_dated_entries_goes_and_the_article_stays(entries):
    by_text = decided(ARTICLE + as_list(entries))
    assert [by_text[entry] for entry in entries] == [DATED_ENTRY] * 3
    assert [by_text[p] for p in STORY] == [CONTENT_REGION] * 3


def test_two_dated_entries_are_no_listing():
    by_text = decided(ARTICLE + as_list(ENTRIES[:2]))
    assert [by_text[entry] for entry in ENTRIES[:2]] == [CONTENT_REGION] * 2


def test_dated_paragraphs_are_no_list_entries():
    # a forum's or a trackback list's lines, each a paragraph of its page
    by_text = decided(ARTICLE + as_list(ENTRIES, "p"))
    assert [by_text[entry] for entry in ENTRIES] == [CONTENT_REGION] * 3


def beside_a_long_listing(entries: list[str]) -> dict[str, str | None]:
    """The reasons on a page whose <article> stands beside a list of
    ``entries`` twice as long, every block scored alike."""
    html = f"<html><body><article>{ARTICLE}</article>{as_list(entries)}</body></html>"
    return reasons(hand_scored(html, 0.9, KeepOutDatedEntries()))


def test_a_dated_listing_longer_than_the_article_does_not_win_the_region():
    entries = [
        f"Story {n} of the other news of the day in town 14/01/08 6:{n:02d} AM" for n in range(60)
    ]
    by_text = beside_a_long_listing(entries)
    assert [by_text[p] for p in STORY] == [CONTENT_REGION] * 3
    assert {by_text[entry] for entry in entries} == {OUTSIDE_REGION}
    # without a clock time ("6.05 AM") no entry is dated: the listing is the region
    undated = [entry.replace(" 6:", " 6.") for entry in entries]
    by_text = beside_a_long_listing(undated)
    assert {by_text[entry] for entry in undated} == {CONTENT_REGION}
    assert CONTENT_REGION not in {by_text[p] for p in STORY}


@pytest.mark.parametrize(
    ("text", "dated"),
    [
        ("Choi wins Sony Open by two strokes 14/01/08 6:41 AM", True),
        ("Storm warning for the coast March 21, 2017 at 9:41 pm", True),
        ("# re: 很高兴入住博客堂 2004-12-27 19:24 李建忠", True),
        ("Tracked on Mar 21, 2007 12:31:13 AM", False),  # a date and no title
        ("Pset 1 for the course (due 09/22 at 3:59pm): PDF", False),  # a month and day alone
        ("The meeting of the council starts at 19:30 tonight", False),  # a time, no date
        ("Choi wins the Sony Open on 14/01/08 by two strokes", False),  # a date, no time
    ],
)
def test_what_is_a_dated_entry(text, dated):
    assert is_dated_entry(text) is dated
