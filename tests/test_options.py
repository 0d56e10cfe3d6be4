"""The options: validated when made, each default written once."""

import pytest

from scrapy_declutter import DeclutterError, InvalidOptionError, Options, extract
from scrapy_declutter.extraction.presets import build_pipeline
from scrapy_declutter.stages.comments import SeparateComments
from scrapy_declutter.stages.evidence import StartDecision
from scrapy_declutter.stages.justext import (
    ClassifyContextFree,
    ClassifyContextSensitive,
    PostprocessHeadings,
    PreprocessHeadings,
)
from scrapy_declutter.stages.rules.article_end import EndArticle
from scrapy_declutter.stages.rules.best_guess import BestGuess
from scrapy_declutter.stages.rules.captions import KeepOutCaptions
from scrapy_declutter.stages.rules.copies import KeepOutCopies
from scrapy_declutter.stages.rules.data_tables import KeepDataTables
from scrapy_declutter.stages.rules.dated_entries import KeepOutDatedEntries
from scrapy_declutter.stages.rules.embedded_posts import KeepOutEmbeddedPosts
from scrapy_declutter.stages.rules.fallback import Fallback
from scrapy_declutter.stages.rules.galleries import KeepOutGalleries
from scrapy_declutter.stages.rules.guard import Guard
from scrapy_declutter.stages.rules.hard_rules import HardRules
from scrapy_declutter.stages.rules.headline import Headline
from scrapy_declutter.stages.rules.insets import KeepOutInsets
from scrapy_declutter.stages.rules.interface_labels import KeepOutInterfaceLabels
from scrapy_declutter.stages.rules.next_stories import KeepOutNextStories
from scrapy_declutter.stages.rules.page_edge import PageEdge
from scrapy_declutter.stages.rules.region import Region
from scrapy_declutter.stages.rules.repeats import Repeats
from scrapy_declutter.stages.rules.short_links import ShortLinks
from scrapy_declutter.stages.rules.story_cards import KeepOutCardTimes, KeepOutDoubledHeadlines
from scrapy_declutter.stages.rules.tag_lines import KeepOutTagLines
from scrapy_declutter.stages.rules.threshold import Threshold
from scrapy_declutter.stages.rules.value_blocks import KeepOutValues
from scrapy_declutter.stages.tree_filter import TreeFilter


@pytest.mark.parametrize(
    "options, name",
    [
        (dict(length_low=-1), "length_low"),
        (dict(length_low="70"), "length_low"),
        (dict(length_low=300), "length_low"),
        (dict(stopwords_high=1.5), "stopwords_high"),
        (dict(stopwords_low=0.5), "stopwords_low"),
        (dict(max_link_density=True), "max_link_density"),
        (dict(no_headings="no"), "no_headings"),
        (dict(pipeline=""), "pipeline"),
        (dict(lenght_low=10), "lenght_low"),
    ],
)
def test_bad_options_name_themselves(options, name):
    with pytest.raises(InvalidOptionError) as info:
        Options.from_kwargs(**options)
    assert info.value.option == name
    assert name in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, DeclutterError)


def test_a_name_that_is_no_pipeline_is_refused_by_extract_naming_the_pipelines():
    with pytest.raises(InvalidOptionError) as info:
        extract("<p>text</p>", pipeline="nope")
    assert info.value.option == "pipeline"
    assert "justext" in str(info.value) and "'nope'" in str(info.value)


def test_defaults_are_the_papers():
    options = Options()
    assert (options.length_low, options.length_high) == (70, 200)
    assert (options.stopwords_low, options.stopwords_high) == (0.30, 0.32)
    assert options.max_link_density == 0.2
    assert (options.max_heading_distance, options.no_headings) == (200, False)
    assert (options.tree_depth, options.content_threshold) == (2, 0.4)


def test_stages_default_to_the_options_defaults():
    # a stage made without arguments is the one the default options build
    justext = (
        ClassifyContextFree(),
        PreprocessHeadings(),
        ClassifyContextSensitive(),
        PostprocessHeadings(),
    )
    assert build_pipeline(Options(pipeline="justext")).stages == justext
    assert build_pipeline(Options(pipeline="justext+tree")).stages == (*justext, TreeFilter())
    region = (Threshold(), ShortLinks(), Guard(), Region())
    last = (
        StartDecision(),
        HardRules(),
        *region,
        KeepDataTables(),
        Fallback(),
        BestGuess(again=region, then=(KeepDataTables(),)),
        PageEdge(),
        Repeats(),
        Headline(),
        KeepOutValues(),
        EndArticle(),
        KeepOutGalleries(),
        KeepOutCaptions(),
        KeepOutDoubledHeadlines(),
        KeepOutCardTimes(),
        KeepOutDatedEntries(),
        KeepOutEmbeddedPosts(),
        KeepOutInterfaceLabels(),
        KeepOutTagLines(),
        KeepOutCopies(),
        KeepOutInsets(),
        KeepOutNextStories(),
        SeparateComments(after_region=True),
    )
    assert build_pipeline(Options()).stages[-len(last) :] == last
