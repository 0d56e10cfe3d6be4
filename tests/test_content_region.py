"""The content region: where the content is by score, and what is kept of it."""

from scrapy_declutter import Label, extract
from scrapy_declutter.core.document import BlockTree
from scrapy_declutter.stages.content_region import KeepContentRegion, content_region
from tests.factory import NEWS_PAGE, NEWS_PARAGRAPH, SECTIONS_TREE, justext_document


def test_region_spans_sibling_groups():
    # content spread over two sections of one <main>, boilerplate beside it
    assert content_region([0.9, 0.9, 0.8, 0.1], SECTIONS_TREE, [150, 150, 300, 100], 0.4) == 1
    assert content_region([0.9, 0.9, 0.1, 0.1], SECTIONS_TREE, [150, 150, 300, 100], 0.4) == 2
    assert content_region([], BlockTree([], []), [], 0.4) is None


def test_region_narrows_to_a_child_holding_most_of_it():
    # main holds 165 (s1 150, s2 15): s1 is all but 9% of it
    scores, lengths = [0.9, 0.9, 0.45, 0.1], [150, 150, 300, 100]
    assert content_region(scores, SECTIONS_TREE, lengths, 0.4) == 1
    assert content_region(scores, SECTIONS_TREE, lengths, 0.4, tightness=0.05) == 1
    assert content_region(scores, SECTIONS_TREE, lengths, 0.4, tightness=0.15) == 2


def test_region_never_narrows_to_a_single_block():
    # a flat page: <body> holds a long paragraph (165 of 172.5), a short one
    # and a footer; the long paragraph alone is no region
    flat = BlockTree(parents=[-1, 0, 0, 0], block_nodes=[1, 2, 3])
    scores, lengths = [0.9, 0.6, 0.0], [300, 100, 50]
    assert content_region(scores, flat, lengths, 0.35, tightness=0.15) == 0
    # split in a <div> of two paragraphs (137.5 and 27.5), it is one
    nested = BlockTree(parents=[-1, 0, 1, 1, 0, 0], block_nodes=[2, 3, 4, 5])
    scores, lengths = [0.9, 0.9, 0.6, 0.0], [250, 50, 100, 50]
    assert content_region(scores, nested, lengths, 0.35, tightness=0.15) == 1


def test_keep_content_region_labels_by_region_and_threshold():
    document = justext_document(NEWS_PAGE)
    for block in document.blocks:
        tags = {element.tag for element in block.element.iterancestors()} | {block.element.tag}
        # the article scores high, the footer above the threshold, the related
        # links just below it (but above the region's lower bar), the menu low
        block.score = (
            0.9
            if "article" in tags
            else 0.52
            if "footer" in tags
            else 0.45
            if "aside" in tags
            else 0.0
        )
    KeepContentRegion(0.5)(document)
    kept = {b.text for b in document.blocks if b.label is Label.GOOD}
    assert NEWS_PARAGRAPH in kept and "A cycle path on the east side" in kept
    # the footer scores high but lies outside the region
    assert not any("Copyright" in t for t in kept)
    assert "Old crossing closes for good" not in kept and "Home" not in kept


def test_short_links_need_a_higher_score():
    document = justext_document(NEWS_PAGE)
    for block in document.blocks:
        block.score = 0.6
    KeepContentRegion(0.5, short_link_threshold=0.7)(document)
    kept = {b.text for b in document.blocks if b.label is Label.GOOD}
    assert NEWS_PARAGRAPH in kept and "Home" not in kept and "Sport" not in kept


def test_threshold_trades_recall_for_precision():
    lenient = extract(NEWS_PAGE, pipeline="declutter", content_threshold=0.05).text
    strict = extract(NEWS_PAGE, pipeline="declutter", content_threshold=0.9).text
    assert len(strict) < len(extract(NEWS_PAGE, pipeline="declutter").text) <= len(lenient)


def test_context_cannot_keep_a_block_the_first_stage_is_sure_of():
    document = justext_document(NEWS_PAGE)
    for block in document.blocks:
        block.score, block.block_score = 0.9, 0.9
    footer = next(b for b in document.blocks if "Copyright" in b.text)
    footer.block_score = 0.05
    KeepContentRegion(0.5)(document)
    kept = {b.text for b in document.blocks if b.label is Label.GOOD}
    assert NEWS_PARAGRAPH in kept and footer.text not in kept


def test_when_the_model_keeps_nothing_jusText_labels_stand_less_the_ruled_out():
    document = justext_document(NEWS_PAGE)
    justext_kept = [b.text for b in document.blocks if b.label is Label.GOOD]
    for block in document.blocks:
        block.score, block.block_score = 0.3, 0.3
    KeepContentRegion(0.5)(document)
    expected = [text for text in justext_kept if "\u00a9" not in text]
    assert expected and [b.text for b in document.blocks if b.label is Label.GOOD] == expected
