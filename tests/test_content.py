"""The default pipeline's content stages on hand-built pages and scores."""

import math

from scrapy_declutter import Label, extract
from scrapy_declutter.core.document import BlockTree, build_document
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.presets import build_pipeline
from scrapy_declutter.stages.content_features import content_region, context_features, page_features
from scrapy_declutter.stages.content_model import KeepContentRegion, load_model

PARAGRAPH = (
    "The council said on Monday that the new bridge over the river would open in the spring, "
    "after two years of work that had closed the old crossing and sent traffic through the town. "
    "Shops on both banks expect more visitors once it is open."
)
PAGE = f"""<html lang="en"><head><title>Bridge to open in spring</title></head><body>
<nav class="menu"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/sport">Sport</a></li></ul></nav>
<main><article class="post-content">
<h1>Bridge to open in spring</h1>
<p>{PARAGRAPH}</p><p>{PARAGRAPH.replace("Monday", "Tuesday")}</p>
<h2>What changes for drivers</h2>
<ul><li>Two lanes in each direction</li><li>A cycle path on the east side</li></ul>
<p>{PARAGRAPH.replace("council", "mayor")}</p>
</article>
<aside class="related"><h3>Related stories</h3><ul>
<li><a href="/a">Old crossing closes for good</a></li><li><a href="/b">Traffic plan for the town</a></li></ul></aside>
</main>
<footer class="site-footer"><p>Copyright \u00a9 2025 Town News. <a href="/privacy">Privacy</a></p></footer>
</body></html>"""


def justext_document(html: str):
    document = build_document(html, language="auto")
    build_pipeline(Options(pipeline="justext"))(document)
    return document


def test_declutter_pipeline_keeps_article_with_its_list_and_drops_the_rest():
    result = extract(PAGE, pipeline="declutter")
    kept = [b.text for b in result.blocks if b.label is Label.GOOD]
    assert PARAGRAPH in kept
    assert "Two lanes in each direction" in kept and "What changes for drivers" in kept
    for boilerplate in ("Home", "Related stories", "Old crossing closes for good"):
        assert boilerplate not in kept
    assert not any("Copyright" in text for text in kept)
    assert all(0.0 <= b.score <= 1.0 for b in result.blocks)


def test_page_features_describe_markup_and_context():
    document = justext_document(PAGE)
    page = page_features(document)
    features = {b.text: page.of_block(i) for i, b in enumerate(document.blocks)}
    home = features["Home"]
    assert home["in:nav"] == 1.0 and home["tok:menu"] == 1.0 and home["ld"] == 1.0
    assert home["in:li"] == 1.0 and home["in:ul"] == 1.0 and home["tok:w:home"] == 1.0
    body = features[PARAGRAPH]
    assert body["in:article"] == 1.0 and body["tok:post"] == 1.0 and body["tok:content"] == 1.0
    assert body["jt:good"] == 1.0 and body["endpunct"] == 1.0
    assert body["prev:short"] == 1.0  # the heading before it
    assert "in:nav" not in body and "tok:w:the" not in body
    assert features["Bridge to open in spring"]["title"] == 1.0
    assert features["Related stories"]["endcue"] == 1.0
    assert features["Old crossing closes for good"]["after_end"] == 1.0
    assert "after_end" not in body
    # the footer's paragraph sees its <footer> by tag and by class, nothing of the article
    footer = next(f for text, f in features.items() if "Copyright" in text)
    assert footer["in:footer"] == footer["tok:footer"] == 1.0
    assert "in:article" not in footer and "tok:post" not in footer


def test_digit_share_counts_every_script_s_digits():
    # ASCII text is counted by a fast path, other text by the regex
    texts = ["Tickets from 12 to 480 euros", "Karten von ١٢ bis ٤٨٠ Euro – nur heute"]
    document = justext_document("".join(f"<p>{text}</p>" for text in texts))
    page = page_features(document)
    shares = [page.of_block(i)["digits"] for i in range(len(document.blocks))]
    assert shares == [5 / len(texts[0]), 5 / len(texts[1])]


def test_page_features_score_as_their_merged_dicts():
    document = justext_document(PAGE)
    page = page_features(document)
    model = load_model()
    for i, score in enumerate(model.block_scores(page)):
        merged = page.of_block(i)
        total = sum(model.block_weights.get(name, 0.0) * value for name, value in merged.items())
        assert abs(score - 1 / (1 + math.exp(-total))) < 1e-9


def test_context_scores_are_the_rows_scores():
    document = justext_document(PAGE)
    model = load_model()
    first = model.block_scores(page_features(document))
    lengths = [len(b.text) for b in document.blocks]
    short = [i % 3 == 0 for i in range(len(lengths))]
    context = context_features(first, document.tree(), lengths, short)
    expected = [
        1
        / (
            1
            + math.exp(-model.context_bias - sum(w * x for w, x in zip(model.context_weights, row)))
        )
        for row in context.rows()
    ]
    assert len(expected) == len(lengths) > 5
    assert all(abs(a - b) < 1e-9 for a, b in zip(model.context_scores(context), expected))


# A page's tree: body (0) > main (1) > s1 (2), s2 (3); body > nav (4)
TREE = BlockTree(parents=[-1, 0, 1, 1, 0], block_nodes=[2, 2, 3, 4])


def test_block_tree_sums_over_subtrees_and_paths():
    assert TREE.subtree_sums([1, 2, 4, 8]) == [15, 7, 3, 4, 8]
    assert TREE.path_sums([1, 10, 100, 1000, 10000]) == [1, 11, 111, 1011, 10001]
    # the parents of the blocks' nodes (main, body), each with its ancestors
    assert TREE.lines_above_blocks(3) == {1: [1, 0, -1], 0: [0, -1, -1]}
    assert [list(TREE.children(node)) for node in range(5)] == [[1, 4], [2, 3], [], [], []]
    # body's subtree is every node; main's is main, s1 and s2; a leaf's is itself
    assert TREE.subtree_ends == [5, 4, 3, 4, 5]


def test_block_tree_numbers_parents_first():
    document = justext_document(PAGE)
    tree = document.tree()
    assert all(parent < node for node, parent in enumerate(tree.parents))
    for block, node in zip(document.blocks, tree.block_nodes):
        assert tree.elements[node] is block.element
    for node, parent in enumerate(tree.parents):
        expected = tree.elements[node].getparent()
        assert (tree.elements[parent] if parent >= 0 else None) is expected


def test_context_features_see_neighbours_and_ancestors():
    rows = context_features([0.9, 0.8, 0.5, 0.1], TREE, [100, 100, 100, 200], [0, 0, 0, 1]).rows()
    assert len(rows) == 4 and len({len(r) for r in rows}) == 1
    first, _, third, last = rows
    assert first[0] > 0 > last[0]  # own score, as a logit
    assert first[1] == first[2] == -5.0  # no neighbours before the first block
    assert last[3] == last[4] == -5.0  # none after the last
    # the parents' mean scores: main's for the first three, body's for the last
    assert first[5] == third[5] > last[5]


def test_region_spans_sibling_groups():
    # content spread over two sections of one <main>, boilerplate beside it
    assert content_region([0.9, 0.9, 0.8, 0.1], TREE, [150, 150, 300, 100], 0.4) == 1
    assert content_region([0.9, 0.9, 0.1, 0.1], TREE, [150, 150, 300, 100], 0.4) == 2
    assert content_region([], BlockTree([], []), [], 0.4) is None


def test_region_narrows_to_a_child_holding_most_of_it():
    # main holds 165 (s1 150, s2 15): s1 is all but 9% of it
    scores, lengths = [0.9, 0.9, 0.45, 0.1], [150, 150, 300, 100]
    assert content_region(scores, TREE, lengths, 0.4) == 1
    assert content_region(scores, TREE, lengths, 0.4, tightness=0.05) == 1
    assert content_region(scores, TREE, lengths, 0.4, tightness=0.15) == 2


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
    document = justext_document(PAGE)
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
    assert PARAGRAPH in kept and "A cycle path on the east side" in kept
    # the footer scores high but lies outside the region
    assert not any("Copyright" in t for t in kept)
    assert "Old crossing closes for good" not in kept and "Home" not in kept


def test_short_links_need_a_higher_score():
    document = justext_document(PAGE)
    for block in document.blocks:
        block.score = 0.6
    KeepContentRegion(0.5, short_link_threshold=0.7)(document)
    kept = {b.text for b in document.blocks if b.label is Label.GOOD}
    assert PARAGRAPH in kept and "Home" not in kept and "Sport" not in kept


def test_threshold_trades_recall_for_precision():
    lenient = extract(PAGE, pipeline="declutter", content_threshold=0.05).text
    strict = extract(PAGE, pipeline="declutter", content_threshold=0.9).text
    assert len(strict) < len(extract(PAGE, pipeline="declutter").text) <= len(lenient)


def test_shipped_model_matches_the_features():
    model = load_model()
    document = justext_document(PAGE)
    lengths = [len(b.text) for b in document.blocks]
    row = context_features(
        [0.5] * len(lengths), document.tree(), lengths, [False] * len(lengths)
    ).rows()[0]
    assert len(model.context_weights) == len(row)
    assert all(name in model.block_weights for name in ("len", "ld", "digits", "in:nav"))


def test_model_loads_once():
    load_model.cache_clear()
    extract(PAGE, pipeline="declutter")
    extract(PAGE, pipeline="declutter")
    assert load_model.cache_info().misses == 1


def test_declutter_is_the_default():
    assert Options().pipeline == "declutter"
    assert extract(PAGE).to_dict() == extract(PAGE, pipeline="declutter").to_dict()


def test_context_cannot_keep_a_block_the_first_stage_is_sure_of():
    document = justext_document(PAGE)
    for block in document.blocks:
        block.score, block.block_score = 0.9, 0.9
    footer = next(b for b in document.blocks if "Copyright" in b.text)
    footer.block_score = 0.05
    KeepContentRegion(0.5)(document)
    kept = {b.text for b in document.blocks if b.label is Label.GOOD}
    assert PARAGRAPH in kept and footer.text not in kept


def test_when_the_model_keeps_nothing_jusText_labels_stand_less_the_ruled_out():
    document = justext_document(PAGE)
    justext_kept = [b.text for b in document.blocks if b.label is Label.GOOD]
    for block in document.blocks:
        block.score, block.block_score = 0.3, 0.3
    KeepContentRegion(0.5)(document)
    expected = [text for text in justext_kept if "\u00a9" not in text]
    assert expected and [b.text for b in document.blocks if b.label is Label.GOOD] == expected
