"""scrapy-declutter: clean main-content text for every Scrapy crawl."""

from typing import Any

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.errors import (
    BinaryInputError,
    DeclutterError,
    InvalidInputError,
    InvalidOptionError,
    ParseError,
)
from scrapy_declutter.core.extraction import ExtractionResult, extract
from scrapy_declutter.core.labels import Label
from scrapy_declutter.core.options import Options
from scrapy_declutter.core.presets import pipeline_names

__version__ = "0.1.0"

# The Scrapy components are imported on first use, so that using the core
# (``extract``) does not import Scrapy and Twisted.
_SCRAPY_COMPONENTS = {
    "Addon": "addon",
    "DeclutterMiddleware": "middleware",
    "DeclutterSpiderMiddleware": "middleware",
    "DeclutterPipeline": "itempipeline",
}


def __getattr__(name: str) -> Any:
    if name in _SCRAPY_COMPONENTS:
        from importlib import import_module

        return getattr(import_module(f"{__name__}.scrapy_layer.{_SCRAPY_COMPONENTS[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Addon",
    "BinaryInputError",
    "Block",
    "DeclutterError",
    "DeclutterMiddleware",
    "DeclutterPipeline",
    "DeclutterSpiderMiddleware",
    "ExtractionResult",
    "InvalidInputError",
    "InvalidOptionError",
    "Label",
    "Options",
    "ParseError",
    "extract",
    "pipeline_names",
]
