"""The tree filter on small pages, the kept text written by hand."""

import pytest

from scrapy_declutter import InvalidOptionError, Options, extract
from scrapy_declutter.core.document import build_document
from scrapy_declutter.core.labels import Label
from scrapy_declutter.stages.tree_filter import TreeFilter, ancestor, paragraph

ARTICLE = """<html><body>
  <div id="article">
    <h1>Storm hits the coast</h1>
    <p>First paragraph of the story.</p>
    <p>Second paragraph of it.</p>
  </div>
  <div id="aside"><div class="teaser"><p>A related story.</p></div></div>
</body></html>"""

WRAPPED = """<html><body><div id="article">
  <h1>Storm hits the coast</h1>
  <div class="text"><p>First paragraph of the story.</p></div>
  <div class="text"><p>Second paragraph of the story, longer.</p></div>
</div></body></html>"""


def kept_after_tree(html: str, depth: int) -> list[str]:
    """Keep every block, then run the tree filter."""
    document = build_document(html, language=None)
    for block in document.blocks:
        block.label = Label.GOOD
    TreeFilter(depth)(document)
    return [b.text for b in document.blocks if b.label is Label.GOOD]


def test_grandparent_keeps_the_article_and_drops_the_aside():
    # the article's grandparent is <body>, the teaser's is #aside
    assert kept_after_tree(ARTICLE, 2) == [
        "Storm hits the coast",
        "First paragraph of the story.",
        "Second paragraph of it.",
    ]


def test_parent_splits_paragraphs_in_wrappers():
    # each <p> has its own parent; the longer one wins alone
    assert kept_after_tree(WRAPPED, 1) == ["Second paragraph of the story, longer."]
    # their grandparent is #article; the heading's is <body>, and it is lost
    assert kept_after_tree(WRAPPED, 2) == [
        "First paragraph of the story.",
        "Second paragraph of the story, longer.",
    ]


def test_deep_enough_ancestors_take_in_everything():
    # the teaser's 4th ancestor is <html>; the article's stops there too
    assert kept_after_tree(ARTICLE, 3) == kept_after_tree(ARTICLE, 2)
    assert len(kept_after_tree(ARTICLE, 4)) == 4


def test_list_items_and_cells_belong_to_their_list_and_table():
    html = """<html><body><div><div>
      <ul><li>one item of the list</li><li>two</li></ul>
      <table><tr><td>a cell with a lot of text in it, more than the list</td></tr></table>
    </div></div><div><p>x</p></div></body></html>"""
    document = build_document(html, language=None)
    assert [paragraph(b.element).tag for b in document.blocks] == ["ul", "ul", "table", "p"]
    assert kept_after_tree(html, 1) == [
        "one item of the list",
        "two",
        "a cell with a lot of text in it, more than the list",
    ]


def test_blocks_the_base_dropped_stay_dropped():
    document = build_document(ARTICLE, language=None)
    labels = [Label.BAD, Label.GOOD, Label.BAD, Label.GOOD]
    for block, label in zip(document.blocks, labels):
        block.label = label
    TreeFilter(2)(document)
    # the article's one kept block is longer than the teaser
    assert [b.label for b in document.blocks] == [Label.BAD, Label.GOOD, Label.BAD, Label.BAD]


def test_a_tie_keeps_the_group_that_comes_first():
    html = (
        "<html><body><div><div><p>same</p></div></div>"
        "<div><div><p>size</p></div></div></body></html>"
    )
    assert kept_after_tree(html, 2) == ["same"]


def test_ancestors_stop_at_the_root():
    document = build_document("<html><body><p>only</p></body></html>", language=None)
    element = document.blocks[0].element
    assert ancestor(element, 5).tag == "html"
    assert kept_after_tree("<html><body><p>a</p><p>b</p></body></html>", 5) == ["a", "b"]


def test_tree_pipelines_use_the_tree_depth_option():
    page = WRAPPED.replace("<p>", "<p>" + "Words that make it a long paragraph. " * 5)
    at_1 = extract(page, pipeline="justext+tree", tree_depth=1, language="English").text
    at_2 = extract(page, pipeline="justext+tree", tree_depth=2, language="English").text
    assert at_1.count("\n\n") + 1 == 1 and at_2.count("\n\n") + 1 == 2


def test_tree_depth_defaults_to_the_grandparent():
    assert Options().tree_depth == 2


@pytest.mark.parametrize("depth", [0, 6, 2.0, True, "2"])
def test_tree_depth_is_validated(depth):
    with pytest.raises(InvalidOptionError, match="tree_depth"):
        Options(tree_depth=depth)
