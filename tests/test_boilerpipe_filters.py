"""The Boilerpipe filters that find, ignore, remove, keep and expand blocks."""

import pytest

from scrapy_declutter.stages.boilerpipe import (
    BoilerplateBlockFilter,
    DocumentTitleMatchClassifier,
    ExpandTitleToContentFilter,
    IgnoreBlocksAfterContentFilter,
    KeepLargestFullTextBlockFilter,
    TerminatingBlocksFinder,
)
from tests.factory import BL, L, bp_block, content, document

G, B = L.GOOD, L.BAD


# --- TerminatingBlocksFinder


@pytest.mark.parametrize(
    "text",
    [
        "Comments (12)",
        "12 comments",
        "345 users responded in this thread",
        "Add Your Comment",
        "What you think... tell us",
        "Have your say on this story",
        "Reader Comments",
        "© Reuters 2010. All rights reserved.",
        "Please rate this article",
        "Thanks for your comments - this feedback is now closed",
    ],
)
def test_end_of_text_phrases(text):
    doc = document(bp_block(5, text=text))
    TerminatingBlocksFinder()(doc)
    assert doc.blocks[0].boilerpipe_labels == BL.INDICATES_END_OF_TEXT


@pytest.mark.parametrize("text", ["No comments here", "Reuters reported on Monday", "comment"])
def test_other_short_blocks_do_not_end_the_text(text):
    doc = document(bp_block(5, text=text))
    TerminatingBlocksFinder()(doc)
    assert doc.blocks[0].boilerpipe_labels == BL(0)


def test_only_blocks_under_20_words_end_the_text():
    doc = document(bp_block(19, text="Comments"), bp_block(20, text="Comments"))
    TerminatingBlocksFinder()(doc)
    assert [b.boilerpipe_labels for b in doc.blocks] == [BL.INDICATES_END_OF_TEXT, BL(0)]


# --- DocumentTitleMatchClassifier


def test_title_and_its_longest_part_match_blocks():
    title = "Storm hits the coast | Daily News"
    doc = document(
        bp_block(text="Daily News"),
        bp_block(text="Storm Hits the Coast"),
        bp_block(text="Storm hits the coast | Daily News"),
        bp_block(text="Storm hits"),
        title=title,
    )
    DocumentTitleMatchClassifier()(doc)
    assert [bool(b.boilerpipe_labels & BL.TITLE) for b in doc.blocks] == [False, True, True, False]


def test_potential_titles_skip_domain_names():
    titles = DocumentTitleMatchClassifier().potential_titles(
        "example.com - A much longer headline here"
    )
    assert titles == {"example.com - a much longer headline here", "a much longer headline here"}


def test_no_title_no_labels():
    doc = document(bp_block(text="Anything"))
    DocumentTitleMatchClassifier()(doc)
    assert doc.blocks[0].boilerpipe_labels == BL(0)


# --- IgnoreBlocksAfterContentFilter


def test_blocks_from_the_end_mark_on_are_not_content():
    doc = document(
        bp_block(60, label=G),
        bp_block(3, label=B, labels=BL.INDICATES_END_OF_TEXT),
        bp_block(30, label=G),
    )
    IgnoreBlocksAfterContentFilter()(doc)
    assert content(doc) == "+--"


def test_end_mark_needs_60_full_text_words_before_it():
    # 59 words, or words in blocks too sparse to be running text, are not enough
    for before in (bp_block(59, label=G), bp_block(80, density=8, label=G)):
        doc = document(
            before, bp_block(3, label=B, labels=BL.INDICATES_END_OF_TEXT), bp_block(30, label=G)
        )
        IgnoreBlocksAfterContentFilter()(doc)
        assert content(doc) == "+-+"


# --- BoilerplateBlockFilter


def test_non_content_blocks_are_removed():
    doc = document(bp_block(label=G), bp_block(label=B), bp_block())
    BoilerplateBlockFilter()(doc)
    assert content(doc) == "+--"
    assert [b.boilerpipe_labels for b in doc.blocks] == [BL(0), BL.REMOVED, BL.REMOVED]


# --- KeepLargestFullTextBlockFilter


def test_only_the_largest_content_block_stays():
    doc = document(
        bp_block(30, label=G), bp_block(80, label=B), bp_block(50, label=G), bp_block(50, label=G)
    )
    KeepLargestFullTextBlockFilter()(doc)
    assert content(doc) == "--+-"
    assert [bool(b.boilerpipe_labels & BL.MIGHT_BE_CONTENT) for b in doc.blocks] == [
        True,
        True,
        False,
        True,
    ]


def test_sparse_blocks_count_no_full_text_words():
    doc = document(bp_block(100, density=8, label=G), bp_block(30, density=9, label=G))
    KeepLargestFullTextBlockFilter()(doc)
    assert content(doc) == "-+"
    doc = document(bp_block(100, density=8, label=G), bp_block(30, density=9, label=G))
    KeepLargestFullTextBlockFilter(min_text_density=0)(doc)
    assert content(doc) == "+-"


def test_removed_blocks_are_not_flagged():
    doc = document(bp_block(30, label=G), bp_block(label=B), bp_block(50, label=G))
    BoilerplateBlockFilter()(doc)
    KeepLargestFullTextBlockFilter()(doc)
    assert [b.boilerpipe_labels for b in doc.blocks] == [BL.MIGHT_BE_CONTENT, BL.REMOVED, BL(0)]


def test_nothing_to_keep_changes_nothing():
    doc = document(bp_block(label=B), bp_block(label=B))
    KeepLargestFullTextBlockFilter()(doc)
    assert [b.boilerpipe_labels for b in doc.blocks] == [BL(0), BL(0)]


# --- ExpandTitleToContentFilter


def test_blocks_from_the_title_to_the_content_become_content():
    maybe = BL.MIGHT_BE_CONTENT
    doc = document(
        bp_block(label=B, labels=maybe),
        bp_block(label=B, labels=BL.TITLE | maybe),
        bp_block(label=B, labels=maybe),
        bp_block(label=B),
        bp_block(label=G),
        bp_block(label=B, labels=maybe),
    )
    ExpandTitleToContentFilter()(doc)
    assert content(doc) == "-++-+-"


def test_no_title_before_the_content_no_expansion():
    maybe = BL.MIGHT_BE_CONTENT
    doc = document(
        bp_block(label=B, labels=maybe),
        bp_block(label=G),
        bp_block(label=B, labels=BL.TITLE | maybe),
    )
    ExpandTitleToContentFilter()(doc)
    assert content(doc) == "-+-"
