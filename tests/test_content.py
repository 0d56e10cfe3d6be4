"""The default pipeline's content stages on hand-built pages and scores."""

from scrapy_declutter import Label, extract
from scrapy_declutter.content import KeepContentRegion, load_model
from scrapy_declutter.document import build_document
from scrapy_declutter.features import block_features, content_region, context_features
from scrapy_declutter.options import Options
from scrapy_declutter.pipelines import build_pipeline

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


def test_block_features_describe_markup_and_context():
    document = justext_document(PAGE)
    features = dict(zip((b.text for b in document.blocks), block_features(document)))
    home = features["Home"]
    assert home["in:nav"] == 1.0 and home["tok:menu"] == 1.0 and home["ld"] == 1.0
    body = features[PARAGRAPH]
    assert body["in:article"] == 1.0 and body["tok:post"] == 1.0 and body["tok:content"] == 1.0
    assert body["jt:good"] == 1.0 and body["endpunct"] == 1.0
    assert features["Bridge to open in spring"]["title"] == 1.0
    assert features["Related stories"]["endcue"] == 1.0
    assert features["Old crossing closes for good"]["after_end"] == 1.0
    assert "after_end" not in body


def test_context_features_see_neighbours_and_ancestors():
    chains = [("p1", "div", "body"), ("p2", "div", "body"), ("p3", "aside", "body")]
    rows = context_features([0.9, 0.5, 0.1], chains, [100, 100, 200])
    assert len(rows) == 3 and len({len(r) for r in rows}) == 1
    first, _, last = rows
    assert first[0] > 0 > last[0]  # own score, as a logit
    assert first[1] == first[2] == -5.0  # no neighbours before the first block
    assert first[5] > last[5]  # the parent of the first holds better content


def test_region_spans_sibling_groups():
    # content spread over two sections of one <main>, boilerplate beside it
    chains = [("s1", "main", "body"), ("s2", "main", "body"), ("nav", "body")]
    assert content_region([0.9, 0.8, 0.1], chains, [300, 300, 100], 0.4) == "main"
    assert content_region([0.9, 0.1, 0.1], chains, [300, 300, 100], 0.4) == "s1"
    assert content_region([], [], [], 0.4) is None


def test_keep_content_region_labels_by_region_and_threshold():
    document = justext_document(PAGE)
    for block, chain in zip(document.blocks, document.ancestor_chains()):
        tags = {element.tag for element in chain}
        # the article scores high, the footer above the threshold, the related
        # links just below it, the menu low
        block.score = (
            0.9 if "article" in tags else 0.6 if "footer" in tags else 0.45 if "aside" in tags else 0.0
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
    strict = extract(PAGE, pipeline="declutter", content_threshold=0.95).text
    assert len(strict) < len(extract(PAGE, pipeline="declutter").text) <= len(lenient)


def test_model_loads_once():
    load_model.cache_clear()
    extract(PAGE, pipeline="declutter")
    extract(PAGE, pipeline="declutter")
    assert load_model.cache_info().misses == 1
