"""``extract()``: the one call the Scrapy layer, the benchmarks and users make."""

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from scrapy_declutter.core.blocks import Block, element_paths
from scrapy_declutter.core.document import build_document
from scrapy_declutter.core.errors import InvalidInputError, InvalidOptionError
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.presets import Pipeline, build_pipeline


@dataclass(frozen=True, eq=False)
class ExtractionResult:
    """What ``extract`` found: every block, labelled, in document order."""

    blocks: list[Block]
    language: str | None
    pipeline: str
    url: str | None = None
    title: str | None = None

    @property
    def text(self) -> str:
        """The kept blocks' text, one block a paragraph, separated by a blank line."""
        return "\n\n".join(block.text for block in self.blocks if block.is_good)

    def block_dicts(self) -> list[dict]:
        """Every block's ``Block.to_dict``, their XPaths found in one pass."""
        paths = element_paths(block.element for block in self.blocks)
        return [block.to_dict(path) for block, path in zip(self.blocks, paths)]

    def to_dict(self, blocks: bool = True) -> dict:
        """JSON-safe (and picklable) values: text, language, pipeline, blocks."""
        return {
            "text": self.text,
            "language": self.language,
            "pipeline": self.pipeline,
            "blocks": self.block_dicts() if blocks else [],
        }


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
    an unknown one or a bad value raises ``InvalidOptionError`` (a ``ValueError``).
    A ready ``Options`` object can be passed as ``options`` instead (the Scrapy
    layer builds one per crawl). A page that would cost too much to extract
    (docs/robustness.rst) raises ``PageLimitError`` before it is parsed.
    """
    if options is not None and kwargs:
        raise InvalidOptionError(next(iter(kwargs)), "give either options= or option keywords")
    opts = options if options is not None else Options.from_kwargs(**kwargs)
    if not isinstance(html, (str, bytes, bytearray, memoryview)):
        raise InvalidInputError(f"html must be str or bytes, not {type(html).__name__}")
    if not isinstance(html, str):
        html = bytes(html)
    document = build_document(
        html,
        language=opts.language,
        encoding=encoding,
        content_language=content_language,
        memory_limit_mb=opts.page_memory_limit_mb,
    )
    _pipeline(opts)(document)
    return ExtractionResult(document.blocks, document.language, opts.pipeline, url, document.title)
