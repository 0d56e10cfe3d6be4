"""Blocks whose whole text is a value, not prose, are kept out of the default's text."""

from html import escape

import pytest
from lxml import html as lxml_html

from scrapy_declutter import extract
from scrapy_declutter.core.document import build_document
from scrapy_declutter.core.labels import BAD, GOOD
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.explain import explain
from scrapy_declutter.extraction.presets import Pipeline, declutter_stages
from scrapy_declutter.stages.rules.data_tables import DATA_TABLE
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from scrapy_declutter.stages.rules.threshold import BELOW_THRESHOLD
from scrapy_declutter.stages.rules.value_blocks import VALUE, KeepOutValues, in_code, is_value

PARAGRAPH = (
    "The council said on Monday that the new bridge over the river would open in the spring, "
    "after two years of work that had closed the old crossing and sent traffic through the town. "
    "Shops on both banks expect more visitors once it is open."
)
TIMESTAMP = "2019-11-13T23:06:00+01:00"
IMAGE_URL = "https://cdn.example.com/images/2019/11/bridge-1200x800.jpg"
MARKUP = '<div class="alertBox">'
DATED_SENTENCE = f"The bridge opened at {TIMESTAMP}, the council said, an hour late."
INGREDIENTS = ["Flour", "Sugar", "Eggs", "Butter"]
CODE = '<div class="alertBox"></div>'

ARTICLE = f"""<html lang="en"><head><title>Bridge to open in spring</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li></ul></nav>
<main><article><h1>Bridge to open in spring</h1>
<p>{PARAGRAPH}</p>
<p>{TIMESTAMP}</p>
<p>{IMAGE_URL}</p>
<p>{PARAGRAPH.replace("Monday", "Tuesday")}</p>
<noscript>{escape(MARKUP)}</noscript>
<p>{PARAGRAPH.replace("council", "mayor")}</p>
<ul>{"".join(f"<li>{item}</li>" for item in INGREDIENTS)}</ul>
<p>{DATED_SENTENCE}</p>
<pre>{escape(CODE)}</pre>
<p>{PARAGRAPH.replace("council", "engineer")}</p>
</article></main><footer><p>About us</p></footer></body></html>"""


def reasons_without_the_rule(page: str) -> dict[str, str | None]:
    """Each block's reason in the default pipeline less ``KeepOutValues``."""
    document = build_document(page, language="auto")
    stages = declutter_stages(Options())
    Pipeline("without", tuple(s for s in stages if not isinstance(s, KeepOutValues)))(document)
    return {b.text: b.reason for b in document.blocks}


def test_values_the_region_keeps_are_kept_out_as_values():
    before = reasons_without_the_rule(ARTICLE)
    reasons = {b.text: b.reason for b in extract(ARTICLE).blocks}
    for value in (TIMESTAMP, IMAGE_URL, MARKUP):
        assert before[value] == CONTENT_REGION
        assert reasons[value] == VALUE
    assert PARAGRAPH in extract(ARTICLE).text
    # explain names the rule that decided, as extract does
    assert [e.reason for e in explain(ARTICLE)] == [b.reason for b in extract(ARTICLE).blocks]


def test_a_date_in_a_sentence_a_list_of_words_and_code_are_no_values():
    before = reasons_without_the_rule(ARTICLE)
    reasons = {b.text: b.reason for b in extract(ARTICLE).blocks}
    for text in (DATED_SENTENCE, *INGREDIENTS, CODE):
        assert reasons[text] == before[text] == CONTENT_REGION


@pytest.mark.parametrize(
    "text",
    [
        TIMESTAMP,
        "2019-11-13T23:06Z",
        " 2026-01-02T08:00:00.123+0100 ",
        IMAGE_URL,
        "//img.example.com/a/b.webp?w=300#top",
        "/wp-content/uploads/2019/11/photo.PNG",
        MARKUP,
        '<iframe src="https://player.example.com/v/1" width="600"></iframe>',
        '<a href="/x">Read</a> <img src="/a.png" alt="">',
    ],
)
def test_a_value(text):
    assert is_value(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "2012-11-08",  # a dateline a reader is shown (dragnet's references keep them)
        "Friday, November 9, 2012",
        f"Published {TIMESTAMP}",
        "https://example.com/2019/11/bridge-opens",  # a link to a page: a reference list's
        "photo.jpg",  # an attachment's name, no path
        "international",
        "Flour, sugar, eggs, butter",
        "<Any>",  # a form's choice, no HTML element
        "Is std::atomic<bool> trivially copyable?",
        "Use <h2> for the section headings of a long article, and <h3> below them.",
        "<b>Note:</b> the bridge closes at night for the first week after it opens.",
    ],
)
def test_no_value(text):
    assert not is_value(text)


def test_code_is_never_a_value():
    page = lxml_html.fromstring(
        "<div><ul><li><code>&lt;caption&gt;</code></li><li>&lt;caption&gt;</li></ul>"
        "<pre><span>&lt;div&gt;</span></pre><div><p>&lt;b&gt;</p><code>x</code></div></div>"
    )
    in_inline_code, plain = page.iter("li")
    assert in_code(in_inline_code) and not in_code(plain)
    assert in_code(next(page.iter("span")))
    # a <code> in a block nested in it is not the <div>'s own text
    assert not in_code(next(page.iter("p")))
    assert not in_code(page)


def test_a_data_tables_cells_and_what_is_not_kept_stay_as_they_are():
    page = f"<p>{IMAGE_URL}</p><p>{TIMESTAMP}</p><p>{escape(MARKUP)}</p>"
    document = build_document(page, language="auto")
    table_cell, dropped, kept = document.blocks
    table_cell.label, table_cell.reason = GOOD, DATA_TABLE
    dropped.label, dropped.reason = BAD, BELOW_THRESHOLD
    kept.label, kept.reason = GOOD, CONTENT_REGION
    KeepOutValues()(document)
    assert [(b.label, b.reason) for b in document.blocks] == [
        (GOOD, DATA_TABLE),
        (BAD, "score below threshold"),
        (BAD, VALUE),
    ]
