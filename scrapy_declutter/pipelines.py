"""Named pipelines: each is a list of stages, and is itself a stage.

A stage is any callable that takes a ``Document`` and writes labels on its
blocks, keeping no state between documents, so one pipeline object can serve
every thread and process. ``PIPELINES`` maps a name to a function that builds
the pipeline from ``Options``.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .document import Document
from .justext import (
    ClassifyContextFree,
    ClassifyContextSensitive,
    PostprocessHeadings,
    PreprocessHeadings,
)


class Stage(Protocol):
    def __call__(self, document: Document) -> None: ...


@dataclass(frozen=True)
class Pipeline:
    """Runs its stages in order."""

    name: str
    stages: tuple[Stage, ...]

    def __call__(self, document: Document) -> None:
        for stage in self.stages:
            stage(document)


def justext_stages(options) -> tuple[Stage, ...]:
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


PIPELINES: dict[str, Callable] = {
    "justext": justext_stages,
}


def pipeline_names() -> frozenset[str]:
    return frozenset(PIPELINES)


def build_pipeline(options) -> Pipeline:
    """The pipeline ``options.pipeline`` names, built with ``options``."""
    return Pipeline(options.pipeline, PIPELINES[options.pipeline](options))
