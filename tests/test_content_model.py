"""The content model: its scores, the shipped weights, and the default pipeline."""

import json
import math
from importlib import resources

import pytest

from scrapy_declutter import Label, extract
from scrapy_declutter.core.options import Options
from scrapy_declutter.stages.content_features import (
    CONTEXT_NAMES,
    context_features,
    page_features,
)
from scrapy_declutter.stages.content_model import (
    ARTICLE_MODEL,
    MODEL,
    ContentModel,
    load_model,
    load_models,
)
from tests.factory import NEWS_PAGE, NEWS_PARAGRAPH, justext_document


def test_declutter_pipeline_keeps_article_with_its_list_and_drops_the_rest():
    result = extract(NEWS_PAGE, pipeline="declutter")
    kept = [b.text for b in result.blocks if b.label is Label.GOOD]
    assert NEWS_PARAGRAPH in kept
    assert "Two lanes in each direction" in kept and "What changes for drivers" in kept
    for boilerplate in ("Home", "Related stories", "Old crossing closes for good"):
        assert boilerplate not in kept
    assert not any("Copyright" in text for text in kept)
    assert all(0.0 <= b.score <= 1.0 for b in result.blocks)


def test_page_features_score_as_their_merged_dicts():
    document = justext_document(NEWS_PAGE)
    page = page_features(document)
    model = load_model()
    for i, score in enumerate(model.block_scores(page)):
        merged = page.of_block(i)
        total = sum(model.block_weights.get(name, 0.0) * value for name, value in merged.items())
        assert abs(score - 1 / (1 + math.exp(-total))) < 1e-9


def test_context_scores_are_the_rows_scores():
    document = justext_document(NEWS_PAGE)
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


def test_shipped_model_matches_the_features():
    model = load_model()
    document = justext_document(NEWS_PAGE)
    lengths = [len(b.text) for b in document.blocks]
    row = context_features(
        [0.5] * len(lengths), document.tree(), lengths, [False] * len(lengths)
    ).rows()[0]
    assert len(model.context_weights) == len(row)
    assert all(name in model.block_weights for name in ("len", "ld", "digits", "in:nav"))


@pytest.mark.parametrize("name", [MODEL, ARTICLE_MODEL])
def test_model_file_names_every_weight_and_records_its_fit(name):
    data = json.loads(
        (resources.files("scrapy_declutter.stages") / "models" / name).read_text("utf-8")
    )
    assert set(data["context_weights"]) == set(CONTEXT_NAMES)
    assert {"corpora", "folds", "C"} <= set(data["fitted"])
    model = ContentModel.from_json(data)
    assert model.context_weights == tuple(data["context_weights"][n] for n in CONTEXT_NAMES)
    assert ContentModel.from_json(model.to_json()) == model


def test_a_model_file_with_an_unknown_context_feature_is_refused():
    data = load_model().to_json()
    data["context_weights"]["mean9"] = 1.0
    with pytest.raises(ValueError, match="mean9"):
        ContentModel.from_json(data)


def test_models_load_once():
    load_model.cache_clear()
    load_models.cache_clear()
    extract(NEWS_PAGE, pipeline="declutter")
    loaded = load_model.cache_info().misses
    extract(NEWS_PAGE, pipeline="declutter")
    assert load_model.cache_info().misses == loaded == 2  # the general and the article model


def test_declutter_is_the_default():
    assert Options().pipeline == "declutter"
    assert extract(NEWS_PAGE).to_dict() == extract(NEWS_PAGE, pipeline="declutter").to_dict()
