"""The extraction options: one frozen dataclass, checked when it is made.

The defaults are the seed papers' (jusText's algorithm.rst, the tree
filter's) and the content model's held-out choice, written here only: the
stages' fields default to them (``ClassifyContextFree.length_low`` is
``Options.length_low``), and ``dataclasses.fields(Options)`` lists every
option with its default. Each field maps 1:1 to a Scrapy setting:
``length_low`` is ``DECLUTTER_LENGTH_LOW``.
"""

import difflib
from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import Any, NoReturn

from scrapy_declutter.core.errors import InvalidOptionError
from scrapy_declutter.core.languages import AUTO, validate_language

DEFAULT_PIPELINE = "declutter"


@dataclass(frozen=True)
class Options:
    """How to extract: every option of :func:`extract`, validated.

    ``extract(html, language="de")`` builds one from its keyword arguments;
    ``Options.from_kwargs(language="de")`` builds one to pass to many calls
    (``extract(html, options=options)``). An unknown field or a bad value
    raises ``InvalidOptionError``. Each field is also the Scrapy setting
    ``DECLUTTER_<FIELD>`` (``length_low`` is ``DECLUTTER_LENGTH_LOW``). The
    ``#:`` comment above each field says what it does (the docs' settings
    reference is made from them)."""

    #: the extraction pipeline, one of ``pipeline_names()`` (docs/pipelines.rst)
    pipeline: str = DEFAULT_PIPELINE
    #: stoplist name or ISO 639-1 code; ``auto`` picks one per page (``<html lang>``,
    #: then ``Content-Language``, then the text); ``None`` is jusText's language-independent
    #: mode (no stoplist, both stopword thresholds at 0)
    language: str | None = AUTO
    #: jusText: blocks shorter than this (characters) are *short*
    length_low: int = 70
    #: jusText: blocks longer than this (characters) can be *good*
    length_high: int = 200
    #: jusText: a stopword density below this is *bad*
    stopwords_low: float = 0.30
    #: jusText: a stopword density from this on can be *good*
    stopwords_high: float = 0.32
    #: jusText: a block with a larger share of link characters is *bad*
    max_link_density: float = 0.2
    #: jusText: characters from a heading to the good block that keeps it
    max_heading_distance: int = 200
    #: jusText: skip its two heading stages
    no_headings: bool = False
    #: tree filter (``+tree`` pipelines): which ancestor of the kept blocks groups
    #: them: 1 = parent, 2 = grandparent, ... 5
    tree_depth: int = 2
    #: ``declutter`` pipeline: blocks whose content score is above this are kept;
    #: lower keeps more (recall), higher less (precision). The default has the best
    #: mean F1 of the three corpora held out by site (docs/algorithms/content-model.rst)
    content_threshold: float = 0.4
    #: ``declutter`` pipeline: the rules of its decision to leave out, by name
    #: (``extraction.presets.RULE_NAMES``; a string: names split by commas), to
    #: measure one (``benchmarks/ablation.py``) or to do without it
    rules_off: frozenset[str] = frozenset()
    #: Markdown: links as ``[text](url)``; ``False`` writes their text only
    markdown_links: bool = True
    #: Markdown: ``True`` writes images as ``![alt](src)``
    markdown_images: bool = False
    #: the user comments the page marks as such, in ``ExtractionResult.comments``
    #: and in items (never in the text with the default pipeline; see ``stages/comments.py``)
    comments: bool = False
    #: megabytes: a page whose extraction is estimated (from its size and tags,
    #: before parsing) to take more memory raises ``PageLimitError``
    #: (docs/robustness.rst); ``0``: no limit
    page_memory_limit_mb: int = 512

    def __post_init__(self) -> None:
        # Whether the name is a pipeline's is for the presets, a layer above, to say.
        if not isinstance(self.pipeline, str) or not self.pipeline:
            _fail("pipeline", self.pipeline, "a pipeline's name")
        object.__setattr__(self, "pipeline", self.pipeline.lower())  # JUSTEXT too, as LANGUAGE
        object.__setattr__(self, "language", validate_language(self.language))
        for name in ("length_low", "length_high", "max_heading_distance", "page_memory_limit_mb"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                _fail(name, value, "a whole number >= 0")
        for name in ("stopwords_low", "stopwords_high", "max_link_density", "content_threshold"):
            value = getattr(self, name)
            if (
                not isinstance(value, (int, float))
                or isinstance(value, bool)
                or not 0 <= value <= 1
            ):
                _fail(name, value, "a number from 0 to 1")
        object.__setattr__(self, "rules_off", _names(self.rules_off))
        depth = self.tree_depth
        if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= 5:
            _fail("tree_depth", self.tree_depth, "a whole number from 1 to 5")
        for name in ("no_headings", "markdown_links", "markdown_images", "comments"):
            if not isinstance(getattr(self, name), bool):
                _fail(name, getattr(self, name), "True or False")
        if self.length_low > self.length_high:
            _fail("length_low", self.length_low, f"at most length_high ({self.length_high})")
        if self.stopwords_low > self.stopwords_high:
            _fail(
                "stopwords_low",
                self.stopwords_low,
                f"at most stopwords_high ({self.stopwords_high})",
            )

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> "Options":
        """Build options from keyword arguments, naming any unknown one."""
        known = {f.name for f in fields(cls)}
        for name in kwargs:
            if name not in known:
                close = closest_name(name, known)
                hint = f"; did you mean {close!r}?" if close else ""
                raise InvalidOptionError(name, f"unknown option{hint}")
        return cls(**kwargs)


def closest_name(name: str, known: Iterable[str]) -> str | None:
    """The known name ``name`` was likely meant as: the same name in another
    case (names are case-sensitive, as Scrapy's settings are), else a close one."""
    by_lower = {known_name.lower(): known_name for known_name in known}
    close = difflib.get_close_matches(name.lower(), by_lower, n=1)
    return by_lower.get(name.lower()) or (by_lower[close[0]] if close else None)


def _names(value: Any) -> frozenset[str]:
    """``rules_off`` as a set of names (whether each names a rule is for the
    presets, a layer above, to say)."""
    if isinstance(value, str):
        value = [name.strip() for name in value.split(",")]
    if isinstance(value, (list, tuple, set, frozenset)) and all(isinstance(n, str) for n in value):
        return frozenset(name for name in value if name)
    _fail("rules_off", value, "rule names (a list, or a string of names split by commas)")


def _fail(name: str, value: Any, expected: str) -> NoReturn:
    raise InvalidOptionError(name, f"expected {expected}, got {value!r}")
