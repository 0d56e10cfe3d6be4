"""scrapy-declutter: clean main-content text for every Scrapy crawl."""

from .blocks import Block
from .errors import DeclutterError, InvalidInputError, InvalidOptionError, ParseError
from .extract import ExtractionResult, extract
from .labels import Label
from .options import Options
from .pipelines import pipeline_names

__version__ = "0.1.0"

__all__ = [
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
