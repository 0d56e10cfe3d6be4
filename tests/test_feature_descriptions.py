"""Every feature the content models weigh is described in words, and the report shows them."""

from pathlib import Path

import lxml.html
import pytest

from scrapy_declutter import extract
from scrapy_declutter.extraction.explain import explain
from scrapy_declutter.outputs.report import render_report
from scrapy_declutter.stages.content_features import CONTEXT_NAMES
from scrapy_declutter.stages.content_model import ARTICLE_MODEL, MODEL, load_model
from scrapy_declutter.stages.feature_descriptions import describe

EXAMPLE_PAGE = (
    Path(__file__).resolve().parents[1]
    / "example_project"
    / "newsroom"
    / "site"
    / "en"
    / "ferry-terminal.html"
)


@pytest.mark.parametrize("model", [MODEL, ARTICLE_MODEL])
def test_every_feature_a_model_weighs_is_described(model):
    names = [*load_model(model).block_weights, *CONTEXT_NAMES]
    assert [name for name in names if describe(name) == name] == []


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("share3", "great-grandparent"),
        ("after2", "two after"),
        ("mean1", "parent"),
        ("own", "first stage"),
        ("in:nav", "<nav>"),
        ("in:role:dialog", "ARIA role is dialog"),
        ("tok:w:home", "the word 'home'"),
        ("tok:menu", "'menu' in the class or id"),
        ("prev:edge", "the page's edge"),
    ],
)
def test_a_description_says_what_the_name_abbreviates(name, words):
    assert words in describe(name)


def test_the_report_explains_each_feature_it_names():
    html = EXAMPLE_PAGE.read_bytes()
    weighed = explain(html)
    report = lxml.html.fromstring(render_report(extract(html), weighed=weighed))
    spans = report.xpath("//div[@class='evidence']//span[@title]")
    shown = {span.text_content().rsplit(" ", 1)[0]: span.get("title") for span in spans}
    assert "own" in shown and len(shown) > 10
    assert all(title == describe(name) for name, title in shown.items())
    legend = report.xpath("//dl[contains(@class, 'features')]")[0]
    listed = dict(zip(legend.xpath("dt/text()"), legend.xpath("dd/text()")))
    assert listed == shown
