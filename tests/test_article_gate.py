"""The article gate: what a page declares, its evidence, and the two models' mix."""

import json
import math
from importlib import resources

import pytest

from scrapy_declutter.core.document import build_document
from scrapy_declutter.stages.article_gate import (
    EVIDENCE,
    GATE,
    MIX_TERMS,
    ArticleGate,
    Mix,
    PageShape,
    declared_kind,
    load_gate,
    page_evidence,
)
from scrapy_declutter.stages.content_features import logits
from scrapy_declutter.stages.content_model import ScoreContent
from tests.factory import NEWS_PAGE, justext_document

PROSE = (
    "The council voted on Tuesday to reopen the old bridge to cyclists, after a year in "
    "which the town had argued about little else, and the mayor said that the work would "
    "start in the spring if the weather allowed it. "
)
ARTICLE = (
    "<html><head><title>Bridge reopens</title></head><body>"
    "<nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/sport'>Sport</a></nav>"
    f"<article><h1>Bridge reopens</h1><p>{PROSE * 3}</p><p>{PROSE * 2}</p><p>{PROSE * 3}</p>"
    "</article><footer><a href='/about'>About us</a></footer></body></html>"
)
LISTING = (
    "<html><head><title>Shop: lamps</title></head><body><ul>"
    + "".join(
        f"<li><a href='/lamp/{i}'>Desk lamp model {i}, brass</a> <span>$ {20 + i}</span></li>"
        for i in range(40)
    )
    + "</ul></body></html>"
)


def mix_of(html: str) -> Mix:
    return ScoreContent().scores(justext_document(html)).mix


def test_declared_kind_reads_opengraph_json_ld_and_microdata():
    og = "<html><head><meta property='og:type' content='article'></head><body><p>x</p></body>"
    ld = (
        "<html><head><script type='application/ld+json'>"
        '{"@context": "https://schema.org", "@type": "NewsArticle", "headline": "x"}'
        "</script></head><body><p>x</p></body></html>"
    )
    microdata = (
        "<html><body><div itemscope itemtype='https://schema.org/BlogPosting'>"
        "<p>Some text here.</p></div></body></html>"
    )
    website = (
        "<html><head><meta property='og:type' content='website'>"
        '<script type=\'application/ld+json\'>{"@type": "WebSite"}</script></head>'
        "<body><p>x</p></body></html>"
    )
    assert declared_kind(build_document(og, language="English")) == (True, False, False)
    assert declared_kind(build_document(ld, language="English")) == (False, True, False)
    assert declared_kind(build_document(microdata, language="English")) == (False, True, False)
    assert declared_kind(build_document(website, language="English")) == (False, False, True)
    # the page shape reads the same from its own walk over the page's scripts
    for html, kind in ((ld, (False, True, False)), (website, (False, False, True))):
        shape = PageShape.of(build_document(html, language="English"))
        assert (shape.og_article, shape.ld_article, shape.other_declared) == kind


def test_page_shape_counts_articles_and_headings_anywhere():
    html = (
        "<html><body><article><h1>One</h1><p>First story.</p></article>"
        "<article><h2>Two</h2><p>Second story.</p><script>var h1;</script></article>"
        "<aside><h3>More</h3></aside></body></html>"
    )
    shape = PageShape.of(build_document(html, language="English"))
    assert (shape.articles, shape.headings) == (2, 3)


def test_evidence_names_every_gate_feature():
    document = justext_document(NEWS_PAGE)
    evidence = page_evidence(PageShape.of(document), [0.9] * len(document.blocks))
    assert tuple(evidence) == EVIDENCE
    assert evidence["kept_share"] == pytest.approx(1.0)


def test_an_article_leans_on_the_article_model_and_a_listing_less():
    article, listing = mix_of(ARTICLE), mix_of(LISTING)
    assert article.gate > 0.9 and listing.gate < 0.5
    assert article.article > 10 * article.general
    # the general model's weight against the article model's: ten times more on the listing
    assert listing.general / listing.article > 10 * article.general / article.article
    assert listing.article < article.article


def test_mix_adds_weighed_log_odds_and_a_bias():
    general, article = [0.2, 0.9, 0.5], [0.8, 0.1, 0.5]
    assert Mix(0.0, 1.0, 0.0, 0.0)(general, article) == pytest.approx(general)
    assert Mix(1.0, 0.0, 1.0, 0.0)(general, article) == pytest.approx(article)
    assert Mix(0.5, 0.5, 0.5, 0.0)(general, article) == pytest.approx([0.5, 0.5, 0.5])
    logit = math.log(0.9 / 0.1)
    expected = 1 / (1 + math.exp(-(0.75 * logit + 0.5)))
    assert Mix(0.3, 0.75, 0.0, 0.5)([0.9], [0.5])[0] == pytest.approx(expected)


def test_the_mix_moves_with_the_gate_probability():
    weights = {"bias": 0.3, "gate": -0.1, "general": 0.7, "article": 0.2}
    weights |= {"general_by_gate": -0.6, "article_by_gate": 1.4}
    gate = ArticleGate({}, 0.0, weights)
    assert gate.mix_for(0.0) == Mix(0.0, 0.7, 0.2, 0.3)
    assert gate.mix_for(1.0) == Mix(1.0, pytest.approx(0.1), pytest.approx(1.6), pytest.approx(0.2))
    assert gate.mix({}) == gate.mix_for(0.5)  # no evidence: the sigmoid of the bias 0


def test_mix_from_log_odds_is_the_mix_from_probabilities():
    # the first stages' log-odds are at hand (their context features'): the same scores
    general, article = [0.2, 0.9, 0.5, 0.999], [0.8, 0.1, 0.5, 0.3]
    page_mix = Mix(gate=0.6, general=0.7, article=0.5, bias=-0.1)
    assert page_mix.of_logits(logits(general), logits(article)) == page_mix(general, article)


def test_gate_file_names_its_weights_and_records_its_fit():
    data = json.loads(
        (resources.files("scrapy_declutter.stages") / "models" / GATE).read_text("utf-8")
    )
    assert set(data["weights"]) <= set(EVIDENCE)
    assert set(data["mix"]) == set(MIX_TERMS)
    assert {"corpora", "folds", "gate_C", "mix_C", "mix_corpus_weights"} <= set(data["fitted"])
    assert ArticleGate.from_json(data) == load_gate()
    data["weights"]["favicon"] = 1.0
    with pytest.raises(ValueError, match="favicon"):
        ArticleGate.from_json(data)
    del data["weights"]["favicon"], data["mix"]["gate"]
    with pytest.raises(ValueError, match="mix needs exactly"):
        ArticleGate.from_json(data)
