"""``extract()``: the one call the Scrapy layer, the benchmarks and users make."""

from dataclasses import dataclass, field, fields
from functools import cached_property, lru_cache
from typing import Any

from lxml import etree

from scrapy_declutter.core.blocks import Block, element_paths
from scrapy_declutter.core.document import BlockTree, build_document
from scrapy_declutter.core.errors import InvalidInputError, InvalidOptionError
from scrapy_declutter.core.gc_pause import paused_gc
from scrapy_declutter.core.labels import COMMENT
from scrapy_declutter.core.markdown import to_markdown
from scrapy_declutter.core.metadata import Metadata, read_metadata
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.presets import Pipeline, build_pipeline
from scrapy_declutter.stages.comment_section import COMMENTS
from scrapy_declutter.stages.rules.headline import HEADLINE


@dataclass(frozen=True, eq=False)
class ExtractionResult:
    """What ``extract`` found: every block, labelled, in document order.

    ``markdown`` and ``metadata`` are computed when first read, from the parsed
    page (``root``) the result keeps: a caller who does not read them does not
    pay for them.
    """

    blocks: list[Block]
    language: str | None
    pipeline: str
    url: str | None = None
    title: str | None = None
    root: etree._Element | None = field(default=None, repr=False)
    options: Options | None = field(default=None, repr=False)
    content_language: str | None = field(default=None, repr=False)
    all_buttons: bool = field(default=False, repr=False)  # as ``Document.all_buttons``
    tree: BlockTree | None = field(default=None, repr=False)  # ``Document.built_tree``
    # ``Document.found``: the elements by tag the stages found, which the metadata reads too
    found: dict[str, list[etree._Element]] | None = field(default=None, repr=False)

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
        emphasis and links (see ``markdown.py``)."""
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
        and image, as the page gives them (see ``metadata.py``)."""
        return read_metadata(
            self.root,
            self.blocks,
            self.url,
            self.language,
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
        """JSON-safe (and picklable) values: text, language, pipeline, blocks;
        ``markdown`` and ``metadata`` (a dict) when asked for; ``comments``
        when the options asked for them, unless ``comments=False``."""
        data: dict[str, object] = {
            "text": self.text,
            "language": self.language,
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
    **kwargs: Any,
) -> ExtractionResult:
    """Label every block of ``html`` and return them with the kept text.

    ``html`` is ``str`` (used as is) or ``bytes`` (decoded honouring a BOM,
    then ``encoding``, then the page's ``<meta charset>``). ``content_language``
    is the HTTP ``Content-Language``, used by ``language="auto"`` when the page
    declares no ``<html lang>``. Other keyword arguments are ``Options`` fields;
    an unknown one or a bad value raises ``InvalidOptionError`` (a ``ValueError``);
    one that names a part of the result (``markdown=True``) says where it is.
    A ready ``Options`` object can be passed as ``options`` instead (the Scrapy
    layer builds one per crawl). ``html`` of another type, or a ``url`` that is
    not ``str`` (or ``None``), raises ``InvalidInputError`` (a ``TypeError``).
    A page that would cost too much to extract
    (docs/robustness.rst) raises ``PageLimitError`` before it is parsed.
    The cyclic garbage collector is paused meanwhile (``gc_pause.py``): a
    page's objects are many, and none of them is in a reference cycle.
    """
    if options is not None and kwargs:
        raise InvalidOptionError(next(iter(kwargs)), "give either options= or option keywords")
    for name in kwargs:
        if name in _RESULT_PARTS:
            raise InvalidOptionError(name, _a_part_of_the_result(name))
    opts = options if options is not None else Options.from_kwargs(**kwargs)
    if not isinstance(html, (str, bytes, bytearray, memoryview)):
        raise InvalidInputError(f"html must be str or bytes, not {type(html).__name__}")
    for name, value in (("url", url), ("content_language", content_language)):
        if value is not None and not isinstance(value, str):
            raise InvalidInputError(f"{name} must be str or None, not {type(value).__name__}")
    if not isinstance(html, str):
        html = bytes(html)
    with paused_gc():
        document = build_document(
            html,
            language=opts.language,
            encoding=encoding,
            content_language=content_language,
            memory_limit_mb=opts.page_memory_limit_mb,
        )
        _pipeline(opts)(document)
    return ExtractionResult(
        document.blocks,
        document.language,
        opts.pipeline,
        url,
        document.title,
        document.root,
        opts,
        content_language,
        document.all_buttons,
        document.built_tree,
        document.found,
    )


# What a result gives and no option asks for: ``extract(html, markdown=True)``
# is a reader's first guess.
_RESULT_PARTS = frozenset(("text", "blocks", "markdown", "metadata"))


def _a_part_of_the_result(name: str) -> str:
    options = ", ".join(f.name for f in fields(Options))
    return (
        f"extract() has no option {name!r}; the result has it: result.{name} (options: {options})"
    )
