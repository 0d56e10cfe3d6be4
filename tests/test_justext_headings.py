from scrapy_declutter.stages.justext import PostprocessHeadings, PreprocessHeadings
from tests.factory import L, block, document, labels


def heading(label, length=10):
    return block(label, heading=True, length=length)


def test_preprocessing_promotes_short_heading_before_good():
    doc = document(heading(L.SHORT), block(L.SHORT, length=150), block(L.GOOD))
    PreprocessHeadings(200)(doc)
    assert labels(doc) == ["near-good", "short", "good"]


def test_preprocessing_respects_distance():
    doc = document(heading(L.SHORT), block(L.SHORT, length=201), block(L.GOOD))
    PreprocessHeadings(200)(doc)
    assert labels(doc) == ["short", "short", "good"]
    # exactly 200 characters between heading and good block is still close enough
    doc = document(heading(L.SHORT), block(L.SHORT, length=200), block(L.GOOD))
    PreprocessHeadings(200)(doc)
    assert labels(doc)[0] == "near-good"


def test_preprocessing_ignores_non_short_and_non_headings():
    doc = document(heading(L.BAD), block(L.SHORT), block(L.GOOD))
    PreprocessHeadings(200)(doc)
    assert labels(doc) == ["bad", "short", "good"]


def test_preprocessing_needs_a_following_good_block():
    doc = document(block(L.GOOD), heading(L.SHORT))
    PreprocessHeadings(200)(doc)
    assert labels(doc) == ["good", "short"]


def test_postprocessing_keeps_non_bad_heading_before_good():
    doc = document(heading(L.BAD), block(L.BAD, length=50), block(L.GOOD))
    doc.blocks[0].cf_label = L.SHORT  # bad by context only
    PostprocessHeadings(200)(doc)
    assert labels(doc) == ["good", "bad", "good"]


def test_postprocessing_keeps_headings_bad_by_themselves():
    doc = document(heading(L.BAD), block(L.GOOD))
    PostprocessHeadings(200)(doc)
    assert labels(doc) == ["bad", "good"]


def test_postprocessing_respects_distance():
    doc = document(heading(L.BAD), block(L.BAD, length=300), block(L.GOOD))
    doc.blocks[0].cf_label = L.NEAR_GOOD
    PostprocessHeadings(200)(doc)
    assert labels(doc)[0] == "bad"


def test_postprocessing_is_not_iterative():
    # h2 is close enough to the good block, h1 only to h2: h2 promoted to
    # good must not make h1 good
    h1, h2 = heading(L.BAD), heading(L.BAD)
    h1.cf_label = h2.cf_label = L.SHORT
    doc = document(h1, h2, block(L.BAD, length=195), block(L.GOOD))
    PostprocessHeadings(200)(doc)
    assert labels(doc) == ["bad", "good", "bad", "good"]


def test_a_page_of_headings_promotes_only_those_near_the_good_block():
    # every block in a heading (headings nested a thousand deep): each heading
    # is answered from one pass, and the distance counts as before
    doc = document(*[heading(L.SHORT, length=3) for _ in range(20_000)], block(L.GOOD))
    PreprocessHeadings(200)(doc)
    promoted = [label == "near-good" for label in labels(doc)[:-1]]
    # the last 67 are within 200 characters (66 x 3 = 198 before the last of them)
    assert promoted == [False] * (20_000 - 67) + [True] * 67
