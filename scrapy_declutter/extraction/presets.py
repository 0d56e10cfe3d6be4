"""Named pipelines: each is a list of stages, and is itself a stage.

A stage is any callable that takes a ``Document`` and writes labels on its
blocks, keeping no state between documents, so one pipeline object can serve
every thread and process. ``PIPELINES`` maps a name to a function that builds
the pipeline from ``Options``.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from scrapy_declutter.core.deadline import Deadline
from scrapy_declutter.core.document import Document
from scrapy_declutter.core.errors import InvalidOptionError
from scrapy_declutter.core.options import Options
from scrapy_declutter.stages.boilerpipe import (
    BlockProximityFusion,
    BoilerplateBlockFilter,
    DocumentTitleMatchClassifier,
    ExpandTitleToContentFilter,
    IgnoreBlocksAfterContentFilter,
    KeepLargestFullTextBlockFilter,
    SimpleBlockFusionProcessor,
    TerminatingBlocksFinder,
)
from scrapy_declutter.stages.boilerpipe_classifiers import (
    DensityRulesClassifier,
    NumWordsRulesClassifier,
)
from scrapy_declutter.stages.comments import SeparateComments
from scrapy_declutter.stages.content_model import ScoreContent
from scrapy_declutter.stages.density_filter import TextDensityFilter
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


class Stage(Protocol):
    def __call__(self, document: Document) -> None: ...


# Builds a pipeline's stages from the options.
StageBuilder = Callable[[Options], tuple[Stage, ...]]


@dataclass(frozen=True)
class Pipeline:
    """Runs its stages in order."""

    name: str
    stages: tuple[Stage, ...]

    def __call__(self, document: Document, deadline: Deadline | None = None) -> None:
        """Run the stages, checking ``deadline`` before each."""
        for stage in self.stages:
            if deadline is not None:
                deadline.check(f"the pipeline, before {type(stage).__name__}")
            stage(document)


def justext_stages(options: Options) -> tuple[Stage, ...]:
    """jusText's stages with the options' parameters (see ``justext.py``)."""
    classify = ClassifyContextFree(
        length_low=options.length_low,
        length_high=options.length_high,
        stopwords_low=options.stopwords_low,
        stopwords_high=options.stopwords_high,
        max_link_density=options.max_link_density,
    )
    if options.no_headings:
        return (classify, ClassifyContextSensitive())
    distance = options.max_heading_distance
    return (
        classify,
        PreprocessHeadings(distance),
        ClassifyContextSensitive(),
        PostprocessHeadings(distance),
    )


def boilerpipe_article_stages(options: Options) -> tuple[Stage, ...]:
    """Boilerpipe's ArticleExtractor (version 1.1), for news articles."""
    return (
        TerminatingBlocksFinder(),
        DocumentTitleMatchClassifier(),
        NumWordsRulesClassifier(),
        IgnoreBlocksAfterContentFilter(),
        BlockProximityFusion(max_distance=1),
        BoilerplateBlockFilter(),
        BlockProximityFusion(max_distance=1, content_only=True),
        KeepLargestFullTextBlockFilter(min_text_density=0),
        ExpandTitleToContentFilter(),
    )


def boilerpipe_default_stages(options: Options) -> tuple[Stage, ...]:
    """Boilerpipe's DefaultExtractor: fusion by text density, then its density tree."""
    return (
        SimpleBlockFusionProcessor(),
        BlockProximityFusion(max_distance=1),
        DensityRulesClassifier(),
    )


def density_stages(options: Options) -> tuple[Stage, ...]:
    """The text-density filter alone (see ``density_filter.py``)."""
    return (TextDensityFilter(),)


def with_tree_filter(base: StageBuilder) -> StageBuilder:
    """``base``'s stages followed by the tree filter at ``options.tree_depth``."""

    def stages(options: Options) -> tuple[Stage, ...]:
        return (*base(options), TreeFilter(options.tree_depth))

    return stages


class Rule(Stage, Protocol):
    """A rule of the default's decision (``stages/rules/``): a stage with a name."""

    @property
    def name(self) -> str: ...


def rules(options: Options) -> tuple[Rule, ...]:
    """The default's decision on the models' scores, rule by rule, in order
    (see ``docs/algorithms/content-model.rst``), without those
    ``options.rules_off`` names. The best guess runs the region's rules again
    with a lowered threshold: those left on."""
    off = options.rules_off
    if off:
        check_rule_names(off)

    def on(*chosen: Rule) -> tuple[Rule, ...]:
        return tuple(rule for rule in chosen if rule.name not in off)

    threshold = options.content_threshold
    region = on(Threshold(threshold), ShortLinks(), Guard(), Region(threshold))
    tables = on(KeepDataTables())
    return (
        *on(HardRules()),
        *region,
        *tables,
        *on(
            Fallback(),
            BestGuess(again=region, then=tables),
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
        ),
    )


# Every rule's name, in the chain's order.
RULE_NAMES = tuple(rule.name for rule in rules(Options()))


def check_rule_names(names: frozenset[str]) -> None:
    """Raise ``InvalidOptionError`` unless each of ``names`` names a rule."""
    if unknown := sorted(names - set(RULE_NAMES)):
        expected = "rule names among " + ", ".join(RULE_NAMES)
        raise InvalidOptionError("rules_off", f"expected {expected}, got {', '.join(unknown)}")


def decision_stages(options: Options) -> tuple[Stage, ...]:
    """The default's stages that decide on the models' scores: the page's
    evidence made (``StartDecision``), then the rules (``rules``).
    ``explain`` runs them too, so it names the rule ``extract`` applies."""
    return (StartDecision(), *rules(options))


def declutter_stages(options: Options) -> tuple[Stage, ...]:
    """The default: jusText, the content model's score (``content_model.py``),
    the decision on it (``decision_stages``), and the comments set apart
    (``comments.py``)."""
    return (
        *justext_stages(options),
        ScoreContent(),
        *decision_stages(options),
        SeparateComments(after_region=True),
    )


PIPELINES: dict[str, StageBuilder] = {
    "declutter": declutter_stages,
    "justext": justext_stages,
    "justext+tree": with_tree_filter(justext_stages),
    "boilerpipe-article": boilerpipe_article_stages,
    "boilerpipe-article+tree": with_tree_filter(boilerpipe_article_stages),
    "boilerpipe-default": boilerpipe_default_stages,
    "density": density_stages,
}


def pipeline_names() -> frozenset[str]:
    """The names the ``pipeline`` option (``DECLUTTER_PIPELINE``) takes:
    ``declutter`` (the default), ``justext``, ``justext+tree``, ... (the
    docs' pipelines page describes each)."""
    return frozenset(PIPELINES)


def check_pipeline_name(name: str) -> None:
    """Raise ``InvalidOptionError`` unless ``name`` names a pipeline."""
    if name not in PIPELINES:
        expected = "one of " + ", ".join(sorted(PIPELINES))
        raise InvalidOptionError("pipeline", f"expected {expected}, got {name!r}")


def build_pipeline(options: Options) -> Pipeline:
    """The pipeline ``options.pipeline`` names, built with ``options``. The
    pipelines that reproduce a paper keep its output; with ``options.comments``
    they too set the comments apart."""
    check_pipeline_name(options.pipeline)
    check_rule_names(options.rules_off)
    stages = PIPELINES[options.pipeline](options)
    if options.comments and not any(isinstance(s, SeparateComments) for s in stages):
        stages = (*stages, SeparateComments())
    return Pipeline(options.pipeline, stages)
