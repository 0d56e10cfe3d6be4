import statistics

from scrapy_declutter.core.blocks import tag_markup
from scrapy_declutter.core.document import build_document
from scrapy_declutter.core.labels import Label
from scrapy_declutter.stages.density_filter import TextDensityFilter

LONG = "A sentence of plain running text, long enough to count as a line. "

SPANS = '<span class="menu-item-decoration"></span>' * 10
PAGE = f"""<html><body>
<p>{LONG}</p><p>{LONG}</p><p>{LONG}</p>
<div class="menu"><a href="/one/two/three/four">{LONG}</a>{SPANS}</div>
<p>short</p>
<p>{LONG}{LONG}</p>
</body></html>"""


def test_tag_markup_counts_tags_and_attributes():
    document = build_document('<html><body><p class="a">x<br></p></body></html>', language=None)
    # <html></html>, <body></body>, <p class="a"></p> (+ class="a"), <br></br>
    assert tag_markup(document.root) == [4 + 9, 4 + 9, 1 + 6 + 10, 2 + 7]


def test_blocks_know_their_tags():
    document = build_document(PAGE, language=None)
    first, menu = document.blocks[0], document.blocks[3]
    assert (first.first_tag, first.tags) == (2, 1)  # <p>
    assert (menu.first_tag, menu.tags) == (5, 12)  # <div>, <a>, ten <span>


def test_dense_long_blocks_stay():
    document = build_document(PAGE, language=None)
    TextDensityFilter()(document)
    assert [b.label for b in document.blocks] == [Label.GOOD] * 3 + [
        Label.BAD,
        Label.BAD,
        Label.GOOD,
    ]


def test_threshold_is_half_minus_the_sample_deviation():
    document = build_document(PAGE, language=None)
    markup = tag_markup(document.root)
    long_blocks = [b for b in document.blocks if b.text != "short"]
    densities = [
        (len(b.text) + 1) / (len(b.text) + sum(markup[b.first_tag : b.first_tag + b.tags]) + 1)
        for b in long_blocks
    ]
    threshold = 0.5 - statistics.stdev(densities)
    menu = densities.pop(3)
    assert menu <= threshold < min(densities)


def test_short_blocks_are_dropped_whatever_their_density():
    document = build_document("<html><body><p>short but all text</p></body></html>", language=None)
    TextDensityFilter()(document)
    assert document.blocks[0].label is Label.BAD
    TextDensityFilter(min_chars=5)(document)
    assert document.blocks[0].label is Label.GOOD
