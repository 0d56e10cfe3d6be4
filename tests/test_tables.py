"""Data tables: told from layout tables, and kept whole once their head is kept."""

import lxml.html
import pytest

from scrapy_declutter.core.labels import GOOD
from scrapy_declutter.stages.rules.data_tables import DATA_TABLE
from scrapy_declutter.stages.rules.hard_rules import HIDDEN
from scrapy_declutter.stages.rules.region import CONTENT_REGION
from scrapy_declutter.stages.rules.threshold import BELOW_THRESHOLD
from scrapy_declutter.stages.tables import NONE, data_tables, is_data_table
from tests.factory import justext_document, keep_content_region


def table(html: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring(f"<html><body>{html}</body></html>").find(".//table")


@pytest.mark.parametrize(
    "html",
    [
        "<table><tr><th>Name</th><th>Price</th></tr><tr><td>Tea</td><td>2</td></tr></table>",
        "<table><thead><tr><th>Name</th><th>Price</th></tr></thead>"
        "<tbody><tr><td>Tea</td><td>2</td></tr></tbody></table>",
        # a heading alone in its cell is the header's text
        "<table><tr><th><h3>Name</h3></th><th>Price</th></tr><tr><td>Tea</td><td>2</td></tr>"
        "</table>",
        # a column of links beside a column of values
        "<table><tr><th>Shop</th><th>Price</th></tr>"
        "<tr><td><a href='/a'>Acme</a></td><td>$26</td></tr></table>",
        # paragraphs and emphasis in cells are text
        "<table><tr><td><p><b>Size</b></p></td><td><p>10 cm</p></td></tr>"
        "<tr><td>Weight</td><td>2 kg</td></tr></table>",
    ],
    ids=["plain", "sections", "heading cell", "links and values", "paragraphs"],
)
def test_a_grid_of_text_is_a_data_table(html):
    assert is_data_table(table(html))


@pytest.mark.parametrize(
    "html",
    [
        "<table><tr><th>Name</th><th>Price</th></tr></table>",
        "<table><tr><td>Tea</td></tr><tr><td>Coffee</td></tr></table>",
        "<table><tr><td><table><tr><td>a</td><td>b</td></tr></table></td><td>c</td></tr>"
        "<tr><td>d</td><td>e</td></tr></table>",
        "<table><tr><td><ul><li>menu</li></ul></td><td>c</td></tr>"
        "<tr><td>d</td><td>e</td></tr></table>",
        "<table><tr><td><h2>News</h2><p>First story.</p></td><td>c</td></tr>"
        "<tr><td>d</td><td>e</td></tr></table>",
        "<table><tr><td>Name</td><td><input name='n'></td></tr>"
        "<tr><td>Email</td><td><input name='e'></td></tr></table>",
        "<table><tr><td><a href='/1'>Sport</a></td><td><a href='/2'>News</a></td></tr>"
        "<tr><td><a href='/3'>Weather</a></td><td><a href='/4'>Jobs</a></td></tr></table>",
        # a column of spacer images beside a column of text: one column of text
        "<table><tr><td><img src='s.gif'></td><td>Scores:</td></tr>"
        "<tr><td><img src='s.gif'></td><td><a href='/nfl'>NFL</a></td></tr></table>",
    ],
    ids=[
        "one row",
        "one column",
        "nested table",
        "list",
        "heading and text",
        "form",
        "menu",
        "spacers",
    ],
)
def test_layout_menus_and_forms_are_not_data_tables(html):
    assert not is_data_table(table(html))


DATA_TABLE_PAGE = """<html lang="en"><body><article>
<p>{prose}</p>
<table><caption>Prices in 2025</caption>
<tr><th>Item</th><th><a href="/q">Quantity</a></th><th>2025</th></tr>
<tr><td>Panel</td><td>1</td><td>$370</td></tr>
<tr><td>Labor of the electrician</td><td>8 hours</td><td>$398</td></tr>
<tr><td>Materials and supplies for it</td><td>8 hours</td><td>$26</td></tr>
<tr><td>Materials and supplies for it</td><td style="display: none">hidden</td><td>$4</td></tr>
</table></article><footer><p>Contact</p></footer></body></html>"""
PROSE = (
    "The cost of a new electrical panel depends on the panel, the hours of labor and the "
    "materials, and it is worth asking two electricians for a quote before the work starts."
)


def test_a_data_table_s_head_names_its_columns():
    document = justext_document(DATA_TABLE_PAGE.format(prose=PROSE))
    cells = {
        b.text: cell
        for b, cell in zip(document.blocks, data_tables(document.blocks, document.tree()).cells())
    }
    table_node = cells["Panel"][0]
    assert table_node >= 0 and cells[PROSE] == NONE and cells["Contact"] == NONE
    # the caption and a header with letters name; a link or a number alone does not
    assert cells["Prices in 2025"] == cells["Item"] == (table_node, True)
    assert cells["Quantity"] == cells["2025"] == cells["Panel"] == (table_node, False)


def scored(html: str, score_of) -> list:
    """The blocks of ``html`` labelled by the content stage, scored by ``score_of``."""
    document = justext_document(html)
    for block in document.blocks:
        block.score = block.block_score = score_of(block.text)
    keep_content_region(document, 0.5)
    return document.blocks


def test_a_data_table_whose_head_is_kept_is_kept_whole():
    # the prose and the header score high, the cells below the threshold (but
    # in the region): the table is kept whole, save the hidden cell; a value
    # repeated in it is kept twice
    blocks = scored(
        DATA_TABLE_PAGE.format(prose=PROSE),
        lambda text: 0.9 if text in (PROSE, "Item") else 0.1 if text == "Contact" else 0.45,
    )
    reasons = {b.text: b.reason for b in blocks}
    assert reasons["Item"] == reasons[PROSE] == CONTENT_REGION
    assert reasons["Panel"] == reasons["$26"] == reasons["Prices in 2025"] == DATA_TABLE
    assert reasons["hidden"] == HIDDEN and reasons["Contact"] == BELOW_THRESHOLD
    repeated = [b for b in blocks if b.text == "Materials and supplies for it"]
    assert [b.label for b in repeated] == [GOOD, GOOD]


def test_a_data_table_is_kept_whole_only_when_its_head_is_kept():
    blocks = scored(
        DATA_TABLE_PAGE.format(prose=PROSE),
        lambda text: 0.9 if text in (PROSE, "Panel") else 0.1 if text == "Contact" else 0.45,
    )
    assert [b.text for b in blocks if b.label is GOOD] == [PROSE, "Panel"]


def test_a_layout_table_is_never_kept_whole():
    layout = DATA_TABLE_PAGE.replace("<td>Panel</td>", "<td><ul><li>Panel</li></ul></td>")
    blocks = scored(
        layout.format(prose=PROSE),
        lambda text: 0.9 if text in (PROSE, "Item") else 0.1 if text == "Contact" else 0.45,
    )
    assert [b.text for b in blocks if b.label is GOOD] == [PROSE, "Item"]
