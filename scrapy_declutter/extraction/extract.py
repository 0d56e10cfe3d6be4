"""``extract()``: the one call the Scrapy layer, the benchmarks and users make."""

from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from typing import Any

from lxml import etree

from scrapy_declutter.core.blocks import Block, element_paths
from scrapy_declutter.core.deadline import Deadline
from scrapy_declutter.core.document import BlockTree, build_document
from scrapy_declutter.core.errors import InvalidInputError, InvalidOptionError
from scrapy_declutter.core.gc_pause import paused_gc
from scrapy_declutter.core.labels import COMMENT
from scrapy_declutter.core.languages import iso_code
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.presets import Pipeline, build_pipeline
from scrapy_declutter.outputs.markdown import to_markdown
from scrapy_declutter.outputs.metadata import Metadata, read_metadata
from scrapy_declutter.stages.comment_section import COMMENTS
from scrapy_declutter.stages.evidence import article_probability
from scrapy_declutter.stages.rules.headline import HEADLINE


@dataclass(frozen=True, eq=False)
class ExtractionResult:
    """What :func:`extract` found: every block of the page, labelled, in page order.

    ``text`` is the clean text; ``markdown``, ``metadata`` and ``comments``
    are the other outputs. ``markdown`` and ``metadata`` are computed when
    first read, from the parsed page (``root``) the result keeps: a caller who
    does not read them does not pay for them. ``to_dict()`` gives the result
    as JSON-safe values, as the Scrapy layer puts it in items.

    The fields a caller reads:

    ``blocks``
        every :class:`Block` of the page, kept or not, in page order.
    ``language``
        the ISO 639-1 code of the language the page was read in (``"en"``,
        ``"de"``), the same code as ``metadata.language`` gives; ``None`` in
        the language-independent mode, or for the few stoplists with no
        such code.
    ``stoplist``
        the stoplist the page was read with (``"English"``, ``"German"``),
        or ``None`` (the language-independent mode).
    ``pipeline``
        the pipeline that labelled the blocks (``"declutter"``).
    ``url``
        the page's URL, as given to :func:`extract`.
    ``title``
        the page's ``<title>``, white space collapsed, or ``None``.

    The other fields are the extraction's, kept for the outputs read later.
    """

    blocks: list[Block]
    language: str | None
    pipeline: str
    url: str | None = None
    title: str | None = None
    stoplist: str | None = None
    root: etree._Element | None = field(default=None, repr=False)
    options: Options | None = field(default=None, repr=False)
    content_language: str | None = field(default=None, repr=False)
    all_buttons: bool = field(default=False, repr=False)  # as ``Document.all_buttons``
    tree: BlockTree | None = field(default=None, repr=False)  # ``Document.built_tree``
    # ``Document.found``: the elements by tag the stages found, which the metadata reads too
    found: dict[str, list[etree._Element]] | None = field(default=None, repr=False)
    #: how much the page reads as an article, from 0 to 1: the ``declutter``
    #: pipeline's article gate; ``None`` for the pipelines without it
    article_probability: float | None = None

    @property
    def text(self) -> str:
        """The kept blocks' text, one block a paragraph, separated by a blank line."""
        return "\n\n".join(block.text for block in self.blocks if block.is_good)

    @property
    def comments(self) -> str | None:
        """The text of the page's user comments, one block a paragraph; ``None``
        unless the ``comments`` option asks for it (see ``comments.py``)."""
        if self.options is None or not self.options.comments:
            return None
        return "\n\n".join(block.text for block in self.blocks if block.label is COMMENT)

    @cached_property
    def markdown(self) -> str:
        """The kept blocks as CommonMark: headings, lists, tables, code, quotes,
        emphasis and links (see ``outputs/markdown.py``)."""
        options = self.options or Options()
        return to_markdown(
            self.blocks,
            self.root,
            self.url,
            links=options.markdown_links,
            images=options.markdown_images,
            all_buttons=self.all_buttons,
        )

    @cached_property
    def metadata(self) -> Metadata:
        """Title, author, date, site name, description, language, canonical URL
        and image, as the page gives them (see ``outputs/metadata.py``)."""
        return read_metadata(
            self.root,
            self.blocks,
            self.url,
            self.stoplist,
            self.content_language,
            self.tree,
            self.found,
            comments=(COMMENTS,),
            headlines=(HEADLINE,),
        )

    def block_dicts(self) -> list[dict]:
        """Every block's ``Block.to_dict``, their XPaths found in one pass."""
        paths = element_paths(block.element for block in self.blocks)
        return [block.to_dict(path) for block, path in zip(self.blocks, paths)]

    def to_dict(
        self,
        blocks: bool = True,
        *,
        markdown: bool = False,
        metadata: bool = False,
        comments: bool = True,
    ) -> dict:
        """JSON-safe (and picklable) values: text, language, stoplist, pipeline, blocks;
        ``markdown`` and ``metadata`` (a dict) when asked for; ``comments``
        when the options asked for them, unless ``comments=False``."""
        data: dict[str, object] = {
            "text": self.text,
            "language": self.language,
            "stoplist": self.stoplist,
            "pipeline": self.pipeline,
            "blocks": self.block_dicts() if blocks else [],
        }
        if markdown:
            data["markdown"] = self.markdown
        if metadata:
            data["metadata"] = self.metadata.to_dict()
        if comments and self.comments is not None:
            data["comments"] = self.comments
        return data


_DEFAULTS = Options()  # frozen: every call without options shares it


@lru_cache(maxsize=64)
def _pipeline(options: Options) -> Pipeline:
    return build_pipeline(options)


def extract(
    html: str | bytes,
    url: str | None = None,
    *,
    encoding: str | None = None,
    content_language: str | None = None,
    options: Options | None = None,
    deadline: Deadline | None = None,
    **kwargs: Any,
) -> ExtractionResult:
    """Split the page ``html`` into blocks, label each kept or removed, and
    return them with the kept text.

    :param html: the page: ``str`` (used as is) or ``bytes``, decoded by its
        BOM, else by ``encoding``, else as UTF-8 when the bytes are valid
        UTF-8, else by the page's ``<meta charset>``.
    :param url: the page's URL: the Markdown's links and the metadata's URLs
        are made absolute against it.
    :param encoding: the encoding the caller knows the bytes are in (in a
        crawl, the HTTP header's).
    :param content_language: the HTTP ``Content-Language``, read by
        ``language="auto"`` when the page declares no ``<html lang>``.
    :param options: a ready :class:`Options` (the Scrapy layer builds one per
        crawl), instead of keyword arguments.
    :param kwargs: :class:`Options` fields: ``language="de"``,
        ``pipeline="justext"``, ``comments=True``, ...
    :returns: an :class:`ExtractionResult`: ``result.text`` is the clean text.
    :raises InvalidOptionError: an unknown option or a bad value (a
        ``ValueError``); an option that names a part of the result
        (``markdown=True``) says where it is.
    :raises InvalidInputError: ``html`` neither ``str`` nor ``bytes``, or a
        ``url`` or ``content_language`` that is not ``str`` (a ``TypeError``).
    :raises PageLimitError: the page would cost more time or memory than a
        limit allows (docs/robustness.rst); it is refused before parsing.
    :param deadline: a :class:`Deadline`, checked as the page goes (after the
        parse, every 4,096 elements of the block walk, before each stage).
    :raises DeadlineExceeded: past the ``deadline`` (a ``TimeoutError``).

    The cyclic garbage collector is paused meanwhile (``gc_pause.py``): a
    page's objects are many, and none of them is in a reference cycle.
    """
    if options is not None and kwargs:
        raise InvalidOptionError(next(iter(kwargs)), "give either options= or option keywords")
    for name in kwargs:
        if name in _RESULT_PARTS:
            raise InvalidOptionError(name, _a_part_of_the_result(name))
    if options is not None:
        opts = options
    else:
        opts = Options.from_kwargs(**kwargs) if kwargs else _DEFAULTS
    if not isinstance(html, (str, bytes, bytearray, memoryview)):
        raise InvalidInputError(f"html must be str or bytes, not {type(html).__name__}")
    for name, value in (("url", url), ("content_language", content_language)):
        if value is not None and not isinstance(value, str):
            raise InvalidInputError(f"{name} must be str or None, not {type(value).__name__}")
    if deadline is not None and not isinstance(deadline, Deadline):
        kind = type(deadline).__name__
        raise InvalidInputError(f"deadline must be a Deadline or None, not {kind}")
    if not isinstance(html, str):
        html = bytes(html)
    with paused_gc():
        document = build_document(
            html,
            language=opts.language,
            encoding=encoding,
            content_language=content_language,
            memory_limit_mb=opts.page_memory_limit_mb,
            deadline=deadline,
        )
        _pipeline(opts)(document, deadline)
    return ExtractionResult(
        document.blocks,
        iso_code(document.language),
        opts.pipeline,
        url,
        document.title,
        document.language,
        document.root,
        opts,
        content_language,
        document.all_buttons,
        document.built_tree,
        document.found,
        article_probability(document),
    )


# What a result gives and no option asks for: ``extract(html, markdown=True)``
# is a reader's first guess.
_RESULT_PARTS = frozenset(("text", "blocks", "markdown", "metadata"))


def _a_part_of_the_result(name: str) -> str:
    options = ", ".join(f.name for f in fields(Options))
    return (
        f"extract() has no option {name!r}; the result has it: result.{name} (options: {options})"
    )
