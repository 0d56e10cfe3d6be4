"""A box of links to other stories between an article's paragraphs.

Each page is scored by hand (every block well above the threshold, as the
model scores what lies inside an article's element) so that only the rule
decides."""

from scrapy_declutter.stages.rules.insets import INSET, KeepOutInsets
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from tests.factory import STORY, reasons_in_article

HEADING = "Most Read Stories"
HEADLINES = [
    "Washington loses its incoming point guard",
    "Seattle creates a renters' commission",
    "Measles cases in South Lake Union",
]


def box(headlines: list[str]) -> str:
    items = "".join(f'<li><a href="/story/{n}">{text}</a></li>' for n, text in enumerate(headlines))
    return f"<h3>{HEADING}</h3><ul>{items}</ul>"


def decided(*parts: str) -> dict[str, str | None]:
    return reasons_in_article("".join(parts), KeepOutInsets())


def paragraph(text: str) -> str:
    return f"<p>{text}</p>"


def test_linked_headlines_between_the_paragraphs_go_with_their_heading():
    by_text = decided(paragraph(STORY[0]), box(HEADLINES), paragraph(STORY[1]), paragraph(STORY[2]))
    assert [by_text[text] for text in (HEADING, *HEADLINES)] == [INSET] * 4
    assert [by_text[p] for p in STORY] == [CONTENT_REGION] * 3


def test_the_same_list_after_the_article_stays():
    # "Related posts" after an article: the references keep them
    by_text = decided(*map(paragraph, STORY), box(HEADLINES))
    assert [by_text[text] for text in (HEADING, *HEADLINES)] == [CONTENT_REGION] * 4


def test_two_links_are_no_box():
    by_text = decided(paragraph(STORY[0]), box(HEADLINES[:2]), paragraph(STORY[1]))
    assert [by_text[text] for text in HEADLINES[:2]] == [CONTENT_REGION] * 2
