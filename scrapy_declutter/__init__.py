"""scrapy-declutter: clean main-content text for every Scrapy crawl."""

from typing import TYPE_CHECKING, Any

from scrapy_declutter.core.blocks import Block
from scrapy_declutter.core.deadline import Deadline, DeadlineExceeded
from scrapy_declutter.core.errors import (
    BinaryInputError,
    DeclutterError,
    InvalidInputError,
    InvalidOptionError,
    PageLimitError,
    ParseError,
)
from scrapy_declutter.core.labels import Label
from scrapy_declutter.core.options import Options
from scrapy_declutter.extraction.extract import ExtractionResult, extract
from scrapy_declutter.extraction.presets import pipeline_names
from scrapy_declutter.scrapy_layer.config import InvalidSettingError  # imports no Scrapy

__version__ = "0.1.0"

if TYPE_CHECKING:  # what __getattr__ returns, for type checkers
    from scrapy_declutter.scrapy_layer.addon import Addon
    from scrapy_declutter.scrapy_layer.downloadermiddleware import DeclutterMiddleware
    from scrapy_declutter.scrapy_layer.itempipeline import DeclutterPipeline
    from scrapy_declutter.scrapy_layer.results import declutter_result
    from scrapy_declutter.scrapy_layer.spidermiddleware import DeclutterSpiderMiddleware

# The Scrapy components are imported on first use, so that using the core
# (``extract``) does not import Scrapy and Twisted.
_SCRAPY_COMPONENTS = {
    "Addon": "addon",
    "DeclutterMiddleware": "downloadermiddleware",
    "DeclutterSpiderMiddleware": "spidermiddleware",
    "DeclutterPipeline": "itempipeline",
    "declutter_result": "results",
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
    "Deadline",
    "DeadlineExceeded",
    "DeclutterError",
    "DeclutterMiddleware",
    "DeclutterPipeline",
    "DeclutterSpiderMiddleware",
    "ExtractionResult",
    "InvalidInputError",
    "InvalidOptionError",
    "InvalidSettingError",
    "Label",
    "Options",
    "PageLimitError",
    "ParseError",
    "declutter_result",
    "extract",
    "pipeline_names",
]
