"""The content region: where the content is by score, and what is kept of it."""

from scrapy_declutter import Label, extract
from scrapy_declutter.core.document import BlockTree
from scrapy_declutter.stages.evidence import content_region
from scrapy_declutter.stages.page_marks import in_navigation
from tests.factory import (
    NEWS_PAGE,
    NEWS_PARAGRAPH,
    SECTIONS_TREE,
    justext_document,
    keep_content_region,
)


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


def test_one_paragraph_among_the_articles_is_no_region():
    # <article> holds four paragraphs (nodes 1-4) and, between them, a long
    # block of links that scores against them (node 5): the article sums
    # less than its longest paragraph, which alone is no region
    article = BlockTree(parents=[-1, 0, 0, 0, 0, 0], block_nodes=[1, 2, 5, 3, 4])
    scores, lengths = [0.8, 0.9, 0.1, 0.8, 0.8], [200, 400, 1200, 200, 200]
    assert content_region(scores, article, lengths, 0.35) == 0
    # when the other blocks under the parent score as boilerplate, the
    # paragraph is the region (a page whose article is one block)
    scores = [0.2, 0.9, 0.1, 0.2, 0.2]
    assert content_region(scores, article, lengths, 0.35) == 2


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
    keep_content_region(document, 0.5)
    kept = {b.text for b in document.blocks if b.label is Label.GOOD}
    assert NEWS_PARAGRAPH in kept and "A cycle path on the east side" in kept
    # the footer scores high but lies outside the region
    assert not any("Copyright" in t for t in kept)
    assert "Old crossing closes for good" not in kept and "Home" not in kept


def test_short_links_need_a_higher_score():
    document = justext_document(NEWS_PAGE)
    for block in document.blocks:
        block.score = 0.6
    keep_content_region(document, 0.5, link_threshold=0.7)
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
    keep_content_region(document, 0.5)
    kept = {b.text for b in document.blocks if b.label is Label.GOOD}
    assert NEWS_PARAGRAPH in kept and footer.text not in kept


def test_when_the_model_keeps_nothing_jusText_labels_stand_less_the_ruled_out():
    document = justext_document(NEWS_PAGE)
    justext_kept = [b.text for b in document.blocks if b.label is Label.GOOD]
    for block in document.blocks:
        block.score, block.block_score = 0.3, 0.3
    keep_content_region(document, 0.5)
    expected = [text for text in justext_kept if "\u00a9" not in text]
    assert expected and [b.text for b in document.blocks if b.label is Label.GOOD] == expected


DEPARTMENTS = ("Guitars", "Basses", "Drums", "Keyboards", "Microphones", "Headphones")
# A shop's mega menu of every department, written with custom elements (no
# links to give it away), beside the product it sells.
SHOP_PAGE = (
    "<html><body><nav class='menu'>"
    + "".join(
        f"<div class='col'><dropdown-item>{name}</dropdown-item> "
        + " ".join(
            f"<dropdown-item>{kind} {name}</dropdown-item>"
            for kind in ("New", "Used", "Vintage", "Rental")
        )
        + "</div>"
        for name in DEPARTMENTS
    )
    + "</nav><main><h1>Studio microphone with a built-in preamp</h1>"
    "<p>A dynamic microphone for voices, with a preamp that adds up to 28 dB of gain.</p>"
    "<p>It ships with a windscreen and a yoke mount for any stand.</p></main>"
    "<footer><p>Free delivery on orders over $75</p></footer></body></html>"
)


def shop_document(html: str):
    """``html`` with its menu scoring high and its product lower, as the
    model scores a shop's page whose menu is plain text."""
    document = justext_document(html)
    for block in document.blocks:
        in_menu = any(e.get("class") == "menu" for e in block.element.iterancestors())
        block.score = block.block_score = 0.95 if in_menu else 0.55
    return document


def test_the_navigation_never_wins_the_region_from_the_content():
    document = shop_document(SHOP_PAGE)
    navigation = in_navigation(document.blocks, document.tree())
    assert sum(navigation) == len(DEPARTMENTS) + 1  # the menu's columns and the footer
    keep_content_region(document, 0.5)
    kept = [b.text for b in document.blocks if b.label is Label.GOOD]
    assert kept[0] == "Studio microphone with a built-in preamp" and len(kept) == 3
    # the same menu in a <div> is no navigation: it wins the region
    document = shop_document(SHOP_PAGE.replace("<nav", "<div").replace("</nav>", "</div>"))
    keep_content_region(document, 0.5)
    kept = [b.text for b in document.blocks if b.label is Label.GOOD]
    assert len(kept) == len(DEPARTMENTS) and kept[0].startswith("Guitars")


def test_a_page_nested_in_its_navigation_keeps_its_text():
    # markup the parser cannot close puts the whole page in the <nav>
    nested = SHOP_PAGE.replace("</nav>", "").replace("</body>", "</nav></body>")
    document = shop_document(nested)
    assert not any(in_navigation(document.blocks, document.tree()))
    keep_content_region(document, 0.5)
    kept = [b.text for b in document.blocks if b.label is Label.GOOD]
    assert "Studio microphone with a built-in preamp" in kept
