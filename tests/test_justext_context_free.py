import pytest

from scrapy_declutter.stages.justext import ClassifyContextFree
from tests.factory import L, block, document

classify = ClassifyContextFree().classify


@pytest.mark.parametrize(
    "features, expected",
    [
        # link density above 0.2 is bad whatever the length
        (dict(length=300, words=50, stopwords=25, link_chars=61), L.BAD),
        (dict(length=300, words=50, stopwords=25, link_chars=60), L.GOOD),
        # short blocks: bad with any link, short otherwise
        (dict(length=69, words=10, stopwords=5, link_chars=1), L.BAD),
        (dict(length=69, words=10, stopwords=5), L.SHORT),
        # medium blocks (70..200): near-good with medium or high stopwords, bad with low
        (dict(length=70, words=100, stopwords=32), L.NEAR_GOOD),
        (dict(length=200, words=100, stopwords=50), L.NEAR_GOOD),
        (dict(length=150, words=100, stopwords=30), L.NEAR_GOOD),
        (dict(length=150, words=100, stopwords=29), L.BAD),
        # long blocks (> 200): good only with high stopword density
        (dict(length=201, words=100, stopwords=32), L.GOOD),
        (dict(length=201, words=100, stopwords=31), L.NEAR_GOOD),
        (dict(length=500, words=100, stopwords=10), L.BAD),
    ],
)
def test_context_free_classes(features, expected):
    assert classify(block(**features)) is expected


@pytest.mark.parametrize("text", ["Copyright \xa9 2024 ACME " * 10, "&copy; 2024 ACME " * 20])
def test_copyright_blocks_are_bad(text):
    assert classify(block(text=text, words=50, stopwords=25)) is L.BAD


def test_thresholds_are_parameters():
    strict = ClassifyContextFree(
        length_low=10, length_high=20, stopwords_low=0.5, stopwords_high=0.6
    )
    assert strict.classify(block(length=30, words=10, stopwords=6)) is L.GOOD
    assert strict.classify(block(length=15, words=10, stopwords=6)) is L.NEAR_GOOD
    assert strict.classify(block(length=15, words=10, stopwords=4)) is L.BAD


def test_language_independent_thresholds_keep_long_blocks():
    # a document with no stoplist: both thresholds 0, length alone decides
    assert classify(block(length=300, words=50), language_independent=True) is L.GOOD
    assert classify(block(length=100, words=20), language_independent=True) is L.NEAR_GOOD
    assert classify(block(length=300, words=50)) is L.BAD


def test_stage_sets_both_labels():
    doc = document(block(length=10), block(length=300, words=50, stopwords=25))
    ClassifyContextFree()(doc)
    assert [b.cf_label for b in doc.blocks] == [L.SHORT, L.GOOD]
    assert [b.label for b in doc.blocks] == [L.SHORT, L.GOOD]
