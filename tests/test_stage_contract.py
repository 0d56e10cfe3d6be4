"""What every registered pipeline promises, whatever it does."""

import dataclasses

import pytest

from scrapy_declutter.core.document import Document, build_document
from scrapy_declutter.core.labels import Label
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.reasons import Reason
from scrapy_declutter.extraction.presets import build_pipeline, pipeline_names

# Fields a stage may write; everything else is the page's and stays as the walk made it.
LABEL_FIELDS = {
    "score",
    "block_score",
    "cf_label",
    "label",
    "reason",
    "boilerpipe_labels",
    "fused_into",
    "_word_wrap",
}

PAGE = """<html><head><title>Storm hits the coast | Daily News</title></head><body>
<div id="nav"><a href="/">Home</a> | <a href="/news">News</a> | <a href="/sport">Sport</a></div>
<div id="article"><h1>Storm hits the coast</h1>
<p>The storm reached the coast on Monday night, and the people who live there were told
to stay at home until the wind and the rain had passed over the town and the hills.</p>
<p>Schools were closed in the morning, and the buses did not run, but by the afternoon
most of the roads were open again and the shops had started to clear up the damage.</p>
<p>12 comments</p></div>
<div id="related"><p><a href="/a">Another story about the weather this week</a></p>
<select><option>Red</option><option>Blue</option></select></div>
<div id="footer">Copyright &copy; 2024 Daily News</div>
</body></html>"""


@pytest.fixture(params=sorted(pipeline_names()))
def pipeline(request):
    return build_pipeline(Options(pipeline=request.param, language="English"))


def page_features(document: Document) -> list[dict]:
    return [
        {f.name: getattr(b, f.name) for f in dataclasses.fields(b) if f.name not in LABEL_FIELDS}
        for b in document.blocks
    ]


def test_empty_documents(pipeline):
    pipeline(Document())
    pipeline(build_document("", language="English"))
    pipeline(build_document("<html><body></body></html>", language="English"))


def test_one_block_gets_a_final_label(pipeline):
    document = build_document("<p>Just one paragraph of text on the page.</p>", language="English")
    pipeline(document)
    assert [b.label in (Label.GOOD, Label.BAD) for b in document.blocks] == [True]


def test_every_block_ends_good_or_bad(pipeline):
    document = build_document(PAGE, language="English")
    pipeline(document)
    assert {b.label for b in document.blocks} <= {Label.GOOD, Label.BAD}


def test_every_block_ends_with_the_rule_that_decided_it(pipeline):
    document = build_document(PAGE, language="English")
    pipeline(document)
    assert [
        b.text for b in document.blocks if not (isinstance(b.reason, Reason) and b.reason.explain())
    ] == []


def test_deterministic_and_stateless(pipeline):
    runs = []
    for _ in range(3):  # the same pipeline object, so no state may leak between pages
        document = build_document(PAGE, language="English")
        pipeline(document)
        runs.append(
            [
                (b.label, b.boilerpipe_labels, b.fused_into and b.fused_into.offset)
                for b in document.blocks
            ]
        )
    assert runs[0] == runs[1] == runs[2]


def test_only_labels_change(pipeline):
    document = build_document(PAGE, language="English")
    blocks, before = list(document.blocks), page_features(document)
    pipeline(document)
    assert [id(b) for b in document.blocks] == [id(b) for b in blocks]
    assert page_features(document) == before


def test_stages_are_frozen_dataclasses(pipeline):
    for stage in pipeline.stages:
        assert dataclasses.is_dataclass(stage) and stage.__dataclass_params__.frozen
