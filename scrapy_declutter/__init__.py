"""scrapy-declutter: clean main-content text for every Scrapy crawl."""

from .blocks import Block
from .errors import (
    BinaryInputError, DeclutterError, InvalidInputError, InvalidOptionError, ParseError,
)
from .extract import ExtractionResult, extract
from .labels import Label
from .options import Options
from .pipelines import pipeline_names

__version__ = "0.1.0"

# The Scrapy components are imported on first use, so that using the core
# (``extract``) does not import Scrapy and Twisted.
_SCRAPY_COMPONENTS = {
    "Addon": "addon",
    "DeclutterMiddleware": "middleware",
    "DeclutterSpiderMiddleware": "middleware",
    "DeclutterPipeline": "item_pipeline",
}


def __getattr__(name: str):
    if name in _SCRAPY_COMPONENTS:
        from importlib import import_module

        return getattr(import_module(f".{_SCRAPY_COMPONENTS[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "Addon",
    "DeclutterMiddleware",
    "DeclutterPipeline",
    "DeclutterSpiderMiddleware",
    "BinaryInputError",
    "Block",
    "DeclutterError",
    "ExtractionResult",
    "InvalidInputError",
    "InvalidOptionError",
    "Label",
    "Options",
    "ParseError",
    "extract",
    "pipeline_names",
]
