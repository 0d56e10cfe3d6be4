import pytest

from scrapy_declutter.stages.boilerpipe import TextBlock
from scrapy_declutter.stages.boilerpipe_classifiers import (
    DensityRulesClassifier,
    NumWordsRulesClassifier,
    is_content_by_density,
    is_content_by_words,
)
from tests.factory import bp_block, content, document


def tb(words: int = 10, link_words: int = 0, density: int | None = None) -> TextBlock:
    return TextBlock(bp_block(words, link_words=link_words, density=density))


# (prev, curr, next) as (words, link words); every leaf of the tree
@pytest.mark.parametrize(
    "prev, curr, next_, expected",
    [
        ((10, 0), (10, 4), (10, 0), False),  # curr link density > 0.333333
        ((5, 0), (16, 0), (15, 0), True),  # short between short, prev > 4 words
        ((4, 0), (16, 0), (15, 0), False),  # ... prev <= 4 words
        ((4, 0), (16, 0), (16, 0), True),  # next > 15 words
        ((4, 0), (17, 0), (1, 0), True),  # curr > 16 words
        ((10, 6), (40, 0), (17, 0), False),  # after a link list: curr <= 40, next <= 17
        ((10, 6), (40, 0), (18, 0), True),  # ... next > 17
        ((10, 6), (41, 0), (1, 0), True),  # ... curr > 40
        ((10, 5), (16, 0), (15, 0), True),  # prev link density 0.5 is not a link list
    ],
)
def test_num_words_tree(prev, curr, next_, expected):
    assert is_content_by_words(tb(*prev), tb(*curr), tb(*next_)) is expected


# (prev, curr, next) as (link words of 10, text density); every leaf of the tree
@pytest.mark.parametrize(
    "prev, curr, next_, expected",
    [
        ((0, 20), (4, 20), (0, 20), False),  # curr link density > 0.333333
        ((0, 5), (0, 9), (0, 10), True),  # prev text density > 4
        ((0, 4), (0, 9), (0, 10), False),  # prev text density <= 4
        ((0, 4), (0, 9), (0, 11), True),  # next text density > 10
        ((0, 0), (0, 10), (0, 0), False),  # dense, but nothing follows
        ((0, 0), (0, 10), (0, 1), True),
        ((6, 9), (0, 20), (0, 11), False),  # after a link list: next <= 11
        ((6, 9), (0, 20), (0, 12), True),
    ],
)
def test_density_tree(prev, curr, next_, expected):
    def make(link_words, density):
        return tb(20, link_words * 2, density)

    assert is_content_by_density(make(*prev), make(*curr), make(*next_)) is expected


def test_num_words_stage_treats_the_edges_as_empty_blocks():
    # a lone 10-word block: prev is the edge (0 words) and next too -> boilerplate
    doc = document(bp_block(10))
    NumWordsRulesClassifier()(doc)
    assert content(doc) == "-"
    doc = document(bp_block(20), bp_block(10), bp_block(30, link_words=20))
    NumWordsRulesClassifier()(doc)
    assert content(doc) == "++-"


def test_a_short_block_after_a_longer_one_is_content():
    doc = document(bp_block(5), bp_block(3), bp_block(2))
    NumWordsRulesClassifier()(doc)
    assert content(doc) == "-+-"


def test_density_stage_labels_every_block():
    doc = document(bp_block(20, density=12), bp_block(20, density=12), bp_block(3, link_words=3))
    DensityRulesClassifier()(doc)
    assert content(doc) == "++-"
